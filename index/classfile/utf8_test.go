package classfile

import "testing"

// FuzzModifiedUTF8 checks that the validator the parser uses agrees with the decoder,
// and the word-at-a-time ASCII checks with a byte loop.
func FuzzModifiedUTF8(f *testing.F) {
	for _, s := range []string{"", "abc", "\xC0\x80", "\xED\xA0\xBD\xED\xB8\x80", "\xE2\x82", "\xF0\x9F\x98\x80", "\x00",
		"java/lang/Object", "()V\x00abcdefgh", "abc\x80defghijklmnop\x00"} {
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
		plain := true
		for _, c := range b {
			plain = plain && c != 0 && c < 0x80
		}
		if isASCII(b) != plain {
			t.Fatalf("isASCII(%q) = %v, want %v", b, !plain, plain)
		}
		for off := range min(len(b), 9) {
			for l := 0; off+l <= len(b); l++ {
				if got, want := asciiAt(b, off, l), isASCII(b[off:off+l]); got != want {
					t.Fatalf("asciiAt(%q, %d, %d) = %v, want %v", b, off, l, got, want)
				}
			}
		}
	})
}
