package server

import (
	"net/url"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/ide"
	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
	"go.lsp.dev/uri"
)

// ClassScheme is the URI scheme of the read-only listings the server serves for
// classes without source (the JDK, jars): jcg-class:/java/lang/Thread.class. The
// client fetches their text with the jcg/classContent request.
const ClassScheme = "jcg-class"

// classURI returns the listing URI of a class, in the canonical form of
// go.lsp.dev/uri and vscode-uri ("jcg-class:/java/lang/Thread.class"), so that it
// comes back from clients unchanged.
func classURI(name string) uri.URI {
	u, err := uri.From(uri.Components{Scheme: ClassScheme, Path: "/" + name + ".class"})
	if err != nil {
		return uri.URI(ClassScheme + ":/" + (&url.URL{Path: name}).EscapedPath() + ".class")
	}
	return u
}

// classOfURI returns the internal class name of a listing URI.
func classOfURI(u uri.URI) (string, bool) {
	s, ok := strings.CutPrefix(string(u), ClassScheme+":")
	if !ok {
		return "", false
	}
	s = strings.TrimLeft(s, "/")
	s = strings.TrimSuffix(s, ".class")
	if p, err := url.PathUnescape(s); err == nil {
		s = p
	}
	return s, s != ""
}

// docOf returns the document a URI names: a source file or a class listing.
func docOf(u uri.URI) ide.Doc {
	if name, ok := classOfURI(u); ok {
		return ide.Doc{Class: name}
	}
	return ide.Doc{Path: filePath(u)}
}

// uriOf returns the URI of a document.
func uriOf(d ide.Doc) uri.URI {
	if d.Class != "" {
		return classURI(d.Class)
	}
	return fileURI(d.Path)
}

// filePath returns the path of a file URI on this machine, or "" for other schemes.
func filePath(u uri.URI) string { return pathOfURI(u, fspath.Host()) }

// fileURI returns the URI of a path on this machine.
func fileURI(path string) uri.URI { return uriOfPath(path, fspath.Host()) }

// pathOfURI returns the path a file URI names on a platform of flavour fl, or ""
// for other schemes, in the form fspath's Clean gives every path the server
// compares: on Windows file:///c%3A/x (VS Code's spelling) and file:///C:/x (other
// clients') are both c:\x, and file://server/share/x is the UNC path
// \\server\share\x.
func pathOfURI(u uri.URI, fl fspath.Flavor) string {
	if !u.IsFile() {
		return ""
	}
	return fl.Clean(uri.FsPathFor(u, uriPlatform(fl), false))
}

// uriOfPath returns the file URI of a path on a platform of flavour fl, in the
// canonical form VS Code gives it (file:///c%3A/x for c:\x and C:\x).
func uriOfPath(path string, fl fspath.Flavor) uri.URI {
	return uri.FileFor(uriPlatform(fl), path)
}

func uriPlatform(fl fspath.Flavor) uri.Platform {
	if fl.Windows {
		return uri.PlatformWindows
	}
	return uri.PlatformPOSIX
}
