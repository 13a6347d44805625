package facts

import "errors"

var errDescriptor = errors.New("malformed descriptor")

// fieldWords returns the number of JVM words a value of field descriptor d occupies,
// checking only as much of d as the count depends on.
func fieldWords(d string) (int, error) {
	if d == "" {
		return 0, errDescriptor
	}
	switch d[0] {
	case 'J', 'D':
		return 2, nil
	case 'V':
		return 0, errDescriptor
	}
	return 1, nil
}

// methodWords parses method descriptor d, calling param (when non-nil) with the size in
// words of each parameter, and returns the size of the return value (0 for void).
func methodWords(d string, param func(words int)) (ret int, err error) {
	if len(d) < 3 || d[0] != '(' {
		return 0, errDescriptor
	}
	i := 1
	for i < len(d) && d[i] != ')' {
		n, words, ok := nextType(d, i)
		if !ok {
			return 0, errDescriptor
		}
		if param != nil {
			param(words)
		}
		i = n
	}
	if i >= len(d)-1 {
		return 0, errDescriptor
	}
	i++ // ')'
	if d[i] == 'V' {
		if i+1 != len(d) {
			return 0, errDescriptor
		}
		return 0, nil
	}
	n, words, ok := nextType(d, i)
	if !ok || n != len(d) {
		return 0, errDescriptor
	}
	return words, nil
}

// nextType parses the field type starting at d[i] and returns the index after it and
// its size in words.
func nextType(d string, i int) (next, words int, ok bool) {
	start := i
	for i < len(d) && d[i] == '[' {
		i++
	}
	if i >= len(d) {
		return 0, 0, false
	}
	switch d[i] {
	case 'B', 'C', 'F', 'I', 'S', 'Z':
		words = 1
	case 'J', 'D':
		words = 2
	case 'L':
		for i < len(d) && d[i] != ';' {
			i++
		}
		if i >= len(d) {
			return 0, 0, false
		}
		words = 1
	default:
		return 0, 0, false
	}
	if d[start] == '[' {
		words = 1 // arrays are references
	}
	return i + 1, words, true
}
