package classfile

import (
	"fmt"
	"strings"
)

// ParseMethodDescriptor splits a method descriptor (JVMS 4.3.3) into its parameter
// descriptors and its return descriptor: "(I[Ljava/lang/String;)V" gives
// ["I", "[Ljava/lang/String;"] and "V".
func ParseMethodDescriptor(desc string) (params []string, ret string, err error) {
	if len(desc) < 3 || desc[0] != '(' {
		return nil, "", fmt.Errorf("invalid method descriptor %q", desc)
	}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		n, ok := fieldDescLen(desc[i:])
		if !ok {
			return nil, "", fmt.Errorf("invalid method descriptor %q at %d", desc, i)
		}
		params = append(params, desc[i:i+n])
		i += n
	}
	if i >= len(desc) {
		return nil, "", fmt.Errorf("invalid method descriptor %q: no ')'", desc)
	}
	ret = desc[i+1:]
	if ret != "V" {
		if n, ok := fieldDescLen(ret); !ok || n != len(ret) {
			return nil, "", fmt.Errorf("invalid return type in method descriptor %q", desc)
		}
	}
	return params, ret, nil
}

// fieldDescLen returns the length of the field descriptor at the start of s.
func fieldDescLen(s string) (int, bool) {
	i := 0
	for i < len(s) && s[i] == '[' {
		i++
	}
	if i >= len(s) || i > 255 {
		return 0, false
	}
	switch s[i] {
	case 'B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z':
		return i + 1, true
	case 'L':
		j := strings.IndexByte(s[i:], ';')
		if j <= 1 {
			return 0, false
		}
		return i + j + 1, true
	}
	return 0, false
}

// ArgSlots returns the number of local-variable slots the parameters of a method
// descriptor take (long and double take two), not counting the receiver.
func ArgSlots(desc string) int {
	params, _, err := ParseMethodDescriptor(desc)
	if err != nil {
		return 0
	}
	n := 0
	for _, p := range params {
		n++
		if p == "J" || p == "D" {
			n++
		}
	}
	return n
}
