package config

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseProperties checks the rules of java.util.Properties.load that conf files
// use; TestJDKMatchesJVM compares whole real files with what the JVM loads.
func TestParseProperties(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // key=value@line, one per property
	}{
		{"a=b", "[a=b@1]"},
		{"  a \t=\t b c ", "[a=b c @1]"},
		{"a:b\na b\na", "[a=b@1 a=b@2 a=@3]"},
		{`a\=b\ c=d`, "[a=b c=d@1]"},
		{"a=b\\\n   c\\\n\td", "[a=bcd@1]"},
		{"a=b\\\\\nc=d", `[a=b\@1 c=d@2]`},
		{"# x=1\n! y=2\n\n   \nz=3", "[z=3@5]"},
		{"a=b\\\n# not a comment", "[a=b# not a comment@1]"},
		{`a=\u0041\t\x\uD83D\uDE00`, "[a=A\tx\U0001F600@1]"},
		{"\xe9=\xe9", "[\u00e9=\u00e9@1]"},
		{"a=x\\", "[a=x@1]"},
		{"a=1\r\nb=2\rc=3\n", "[a=1@1 b=2@2 c=3@3]"},
		{"a=1\na=2", "[a=1@1 a=2@2]"},
		{`a=\u12`, "[]"},
		{`a=\u12zz`, "[]"},
	} {
		props, _ := parseProperties([]byte(tc.in))
		var got []string
		for _, p := range props {
			got = append(got, fmt.Sprintf("%s=%s@%d", p.key, p.value, p.line))
		}
		if s := fmt.Sprint(got); s != tc.want && !(len(got) == 0 && tc.want == "[]") {
			t.Errorf("%q: got %s, want %s", tc.in, s, tc.want)
		}
	}
	if _, problems := parseProperties([]byte("ok=1\nbad=\\u12\n")); len(problems) != 1 || problems[0].line != 2 {
		t.Errorf("problems = %+v", problems)
	}
}

func FuzzParseProperties(f *testing.F) {
	f.Add([]byte("a=b\\\n c\n#x\n\\u0041=\\uD83D\\uDE00\r\n"))
	f.Add([]byte("security.provider.1=SUN\ninclude x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		props, problems := parseProperties(data)
		for _, p := range props {
			if p.line < 1 {
				t.Fatalf("line %d", p.line)
			}
		}
		for _, p := range problems {
			if p.line < 1 {
				t.Fatalf("problem line %d", p.line)
			}
		}
	})
}

func FuzzServicesFile(f *testing.F) {
	f.Add([]byte("# c\np.A\n\tp.B # x\n\xff\nnot a name\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &reader{c: &Config{providers: map[string][]Provider{}}}
		r.servicesFile(&container{path: "x"}, "META-INF/services/p.S", data)
		for _, p := range r.c.providers["p/S"] {
			if strings.Contains(p.Class, ".") || p.Class == "" {
				t.Fatalf("provider %q is not an internal name", p.Class)
			}
		}
	})
}
