package fspath

import "testing"

func TestClean(t *testing.T) {
	win, posix := For("windows"), For("linux")
	for _, c := range []struct {
		f    Flavor
		in   string
		want string
	}{
		{win, `C:\Users\me\proj`, `c:\Users\me\proj`},
		{win, `c:/Users/me/proj/`, `c:\Users\me\proj`},
		{win, `C:\Users\me\..\you\.\proj`, `c:\Users\you\proj`},
		{win, `C:\`, `c:\`},
		{win, `C:/`, `c:\`},
		{win, `\\Server\Share\dir\..\x`, `\\Server\Share\x`},
		{win, `//server/share/x/`, `\\server\share\x`},
		{win, `\\server\share`, `\\server\share\`},
		{win, `\\server\share\..`, `\\server\share\`},
		{win, `lib\..\bin\a.jar`, `bin\a.jar`},
		{win, `\x\y`, `\x\y`},
		{win, ``, ``},
		{posix, `/home/me/proj/`, `/home/me/proj`},
		{posix, `/home/me/../you/./A.java`, `/home/you/A.java`},
		{posix, `/home/me/a\b`, `/home/me/a\b`}, // a backslash is part of a POSIX name
		{posix, ``, ``},
	} {
		if got := c.f.Clean(c.in); got != c.want {
			t.Errorf("%+v.Clean(%q) = %q, want %q", c.f, c.in, got, c.want)
		}
	}
}

func TestSameAndWithin(t *testing.T) {
	win, mac, linux := For("windows"), For("darwin"), For("linux")
	for _, c := range []struct {
		f            Flavor
		a, b         string
		same, within bool // Same(a, b), Within(a, b)
	}{
		// Windows: drive letters, separators and names in any case.
		{win, `C:\Work\Proj`, `c:/work/proj`, true, true},
		{win, `C:\Work\Proj`, `c:\work\proj\src\A.java`, false, true},
		{win, `C:\Work\Proj`, `C:\Work\Project\A.java`, false, false},
		{win, `C:\`, `c:\Work\A.java`, false, true},
		{win, `C:\Work`, `D:\Work\A.java`, false, false},
		{win, `\\server\share\proj`, `//SERVER/share/Proj/src/A.java`, false, true},
		{win, `\\server\share`, `\\server\share\A.java`, false, true},
		{win, `\\server\share`, `\\server\shared\A.java`, false, false},
		// macOS folds case; separators are slashes only.
		{mac, `/Users/me/Proj`, `/users/me/proj`, true, true},
		{mac, `/Users/me/Proj`, `/Users/me/proj/src/A.java`, false, true},
		{mac, `/`, `/Users/A.java`, false, true},
		// Linux keeps case.
		{linux, `/home/me/Proj`, `/home/me/proj`, false, false},
		{linux, `/home/me/Proj`, `/home/me/Proj/src/A.java`, false, true},
		{linux, `/home/me/Proj`, `/home/me/Proj2/A.java`, false, false},
	} {
		if got := c.f.Same(c.a, c.b); got != c.same {
			t.Errorf("%+v.Same(%q, %q) = %v", c.f, c.a, c.b, got)
		}
		if got := c.f.Within(c.a, c.b); got != c.within {
			t.Errorf("%+v.Within(%q, %q) = %v", c.f, c.a, c.b, got)
		}
	}
}

// FuzzClean checks that cleaning is idempotent and keeps what Key and Within say.
func FuzzClean(f *testing.F) {
	for _, s := range []string{`C:\Users\..\x`, `\\server\share`, `//a/b/../c`, `/home/me/./p/`, `c:`, `\\\x`, `..\..\a`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, fl := range []Flavor{For("windows"), For("darwin"), For("linux")} {
			c := fl.Clean(p)
			if again := fl.Clean(c); again != c {
				t.Errorf("%+v: Clean(%q) = %q, Clean of that %q", fl, p, c, again)
			}
			if fl.Key(c) != fl.Key(p) || !fl.Within(p, c) {
				t.Errorf("%+v: %q and its clean form %q differ", fl, p, c)
			}
		}
	})
}
