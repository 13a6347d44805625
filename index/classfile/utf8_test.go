package classfile

import "testing"

// FuzzModifiedUTF8 checks that the validator the parser uses agrees with the decoder.
func FuzzModifiedUTF8(f *testing.F) {
	for _, s := range []string{"", "abc", "\xC0\x80", "\xED\xA0\xBD\xED\xB8\x80", "\xE2\x82", "\xF0\x9F\x98\x80", "\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, ok := decodeModifiedUTF8(b)
		if v := validModifiedUTF8(b); v != ok {
			t.Fatalf("validModifiedUTF8(%q) = %v, decode ok = %v", b, v, ok)
		}
		if isASCII(b) && !ok {
			t.Fatalf("ASCII %q does not decode", b)
		}
	})
}
