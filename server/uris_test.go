package server

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
	"go.lsp.dev/uri"
)

// wire decodes a URI as it arrives in a message (UnmarshalText, which the JSON
// codec calls), so that the tests see what a client's spelling becomes.
func wire(t *testing.T, s string) uri.URI {
	t.Helper()
	var u uri.URI
	if err := u.UnmarshalText([]byte(s)); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return u
}

// TestURIPaths converts the URIs clients send into paths and back, for each
// platform's flavour: VS Code escapes a Windows drive's colon (file:///c%3A/...),
// other clients do not (file:///C:/...), and both must name the one document the
// server knows by path, and come back as a URI of the same path.
func TestURIPaths(t *testing.T) {
	win, mac, linux := fspath.For("windows"), fspath.For("darwin"), fspath.For("linux")
	for _, c := range []struct {
		fl   fspath.Flavor
		in   string // as the client sends it
		path string
		out  string // what the server sends back
	}{
		// Windows: both spellings of a drive, a drive in upper case in the path.
		{win, "file:///c%3A/Users/me/proj/src/A.java", `c:\Users\me\proj\src\A.java`, "file:///c%3A/Users/me/proj/src/A.java"},
		{win, "file:///C:/Users/me/proj/src/A.java", `c:\Users\me\proj\src\A.java`, "file:///c%3A/Users/me/proj/src/A.java"},
		{win, "file:///C%3A/Users/me/My%20Proj/%C3%A9t%C3%A9/A.java", `c:\Users\me\My Proj\été\A.java`, "file:///c%3A/Users/me/My%20Proj/%C3%A9t%C3%A9/A.java"},
		// A UNC path: the server is the URI's authority.
		{win, "file://fileserver/share/proj/A.java", `\\fileserver\share\proj\A.java`, "file://fileserver/share/proj/A.java"},
		// macOS and Linux: escaped characters, and names that look like escapes.
		{mac, "file:///Users/me/My%20Proj/A%23B.java", "/Users/me/My Proj/A#B.java", "file:///Users/me/My%20Proj/A%23B.java"},
		{linux, "file:///home/me/100%25/%C3%A9/A.java", "/home/me/100%/é/A.java", "file:///home/me/100%25/%C3%A9/A.java"},
	} {
		u := wire(t, c.in)
		p := pathOfURI(u, c.fl)
		if p != c.path {
			t.Errorf("%+v: %s is path %q, want %q", c.fl, c.in, p, c.path)
			continue
		}
		back := uriOfPath(p, c.fl)
		if string(back) != c.out {
			t.Errorf("%+v: %q is URI %s, want %s", c.fl, p, back, c.out)
		}
		if again := pathOfURI(wire(t, string(back)), c.fl); again != p {
			t.Errorf("%+v: %s does not round-trip: %q then %q", c.fl, c.in, p, again)
		}
	}
	// A path the server did not get from a URI (a configured class path, JAVA_HOME)
	// gets the URI VS Code gives it.
	if got := uriOfPath(`C:\Program Files\Java\jdk-17\src.zip`, win); got != "file:///c%3A/Program%20Files/Java/jdk-17/src.zip" {
		t.Errorf("uriOfPath of an upper-case drive = %s", got)
	}
	if got := pathOfURI(wire(t, "jcg-class:/java/lang/Thread.class"), win); got != "" {
		t.Errorf("a class listing has path %q", got)
	}
}
