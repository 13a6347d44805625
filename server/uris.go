package server

import (
	"net/url"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/ide"
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
	return uri.File(d.Path)
}
