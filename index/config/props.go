package config

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// prop is one key of a properties file, with the line its logical line starts on.
type prop struct {
	key, value string
	line       int
}

// parseProperties reads data as java.util.Properties.load(InputStream) does: bytes
// are ISO 8859-1, a logical line continues over a natural line ending in an odd
// number of backslashes, '#' and '!' start comments, the key ends at the first
// unescaped '=', ':' or white space, and \t \n \r \f \uXXXX escapes are decoded.
// Every occurrence of a key is returned, in file order: later ones replace
// earlier ones when loaded, and java.security's include needs the order. A malformed \u escape,
// which makes Properties.load throw, is reported and the line skipped: the JDK
// would refuse the whole file, which a warning says.
func parseProperties(data []byte) (props []prop, problems []lineProblem) {
	lines := splitNatural(data)
	for i := 0; i < len(lines); i++ {
		start := i
		l := trimLeadingWS(lines[i])
		if len(l) == 0 || l[0] == '#' || l[0] == '!' {
			continue
		}
		logical := []byte(nil)
		for {
			if n := trailingBackslashes(l); n%2 == 1 && i+1 < len(lines) {
				logical = append(logical, l[:len(l)-1]...)
				i++
				l = trimLeadingWS(lines[i])
				continue
			} else if n%2 == 1 {
				l = l[:len(l)-1] // a continuation at the end of the file
			}
			logical = append(logical, l...)
			break
		}
		key, value, err := splitKeyValue(logical)
		if err != nil {
			problems = append(problems, lineProblem{line: start + 1, msg: err.Error()})
			continue
		}
		props = append(props, prop{key: key, value: value, line: start + 1})
	}
	return props, problems
}

type lineProblem struct {
	line int
	msg  string
}

// splitNatural splits at \n, \r and \r\n, as LineReader does.
func splitNatural(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' && data[i] != '\r' {
			i++
		}
		out = append(out, data[:i])
		if i < len(data) && data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		if i < len(data) {
			i++
		}
		data = data[i:]
	}
	return out
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

func trimLeadingWS(b []byte) []byte {
	for len(b) > 0 && isWS(b[0]) {
		b = b[1:]
	}
	return b
}

func trailingBackslashes(b []byte) int {
	n := 0
	for i := len(b) - 1; i >= 0 && b[i] == '\\'; i-- {
		n++
	}
	return n
}

func splitKeyValue(l []byte) (key, value string, err error) {
	k := 0
	for k < len(l) {
		c := l[k]
		if c == '\\' {
			k += 2
			continue
		}
		if c == '=' || c == ':' || isWS(c) {
			break
		}
		k++
	}
	k = min(k, len(l))
	v := k
	for v < len(l) && isWS(l[v]) {
		v++
	}
	if v < len(l) && (l[v] == '=' || l[v] == ':') {
		v++
	}
	for v < len(l) && isWS(l[v]) {
		v++
	}
	if key, err = unescape(l[:k]); err != nil {
		return "", "", err
	}
	value, err = unescape(l[v:])
	return key, value, err
}

func unescape(b []byte) (string, error) {
	var s strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			s.WriteRune(rune(c)) // ISO 8859-1
			continue
		}
		i++
		switch c = b[i]; c {
		case 't':
			s.WriteByte('\t')
		case 'n':
			s.WriteByte('\n')
		case 'r':
			s.WriteByte('\r')
		case 'f':
			s.WriteByte('\f')
		case 'u':
			if i+5 > len(b) {
				return "", fmt.Errorf("malformed \\uxxxx encoding (Properties.load rejects the file)")
			}
			r, err := strconv.ParseUint(string(b[i+1:i+5]), 16, 16)
			if err != nil {
				return "", fmt.Errorf("malformed \\uxxxx encoding %q (Properties.load rejects the file)", b[i-1:i+5])
			}
			i += 4
			// Java strings are UTF-16: a pair of escapes may be one character.
			if utf16.IsSurrogate(rune(r)) && i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
				if lo, err := strconv.ParseUint(string(b[i+3:i+7]), 16, 16); err == nil {
					if c := utf16.DecodeRune(rune(r), rune(lo)); c != utf8.RuneError {
						s.WriteRune(c)
						i += 6
						continue
					}
				}
			}
			s.WriteRune(rune(r))
		default:
			s.WriteRune(rune(c))
		}
	}
	return s.String(), nil
}
