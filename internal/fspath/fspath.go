// Package fspath cleans and compares file-system paths the way a platform's file
// system does, with the platform a parameter (a Flavor), so that Windows's and
// macOS's rules are tested on any machine. Paths reach the server from several
// sources (URIs of the client, configured settings, JAVA_HOME, directory walks),
// each with its own spelling: on Windows "C:\Work" and "c:/work" are one folder,
// on macOS "/Users/me/Proj" and "/Users/me/proj" usually are too.
//
// Reading and walking the file system stays with path/filepath; this package only
// decides whether two spellings name the same place.
package fspath

import (
	"path"
	"runtime"
	"strings"
)

// Flavor is how a platform spells and compares paths.
type Flavor struct {
	// Windows: backslash separators (slashes accepted), drive letters ("c:") and
	// UNC volumes (\\server\share).
	Windows bool
	// FoldCase: names that differ only in case name the same file, as on NTFS and
	// on APFS and HFS+ formatted the way macOS does by default.
	FoldCase bool
}

// For returns the flavour of a GOOS.
func For(goos string) Flavor {
	switch goos {
	case "windows":
		return Flavor{Windows: true, FoldCase: true}
	case "darwin", "ios":
		return Flavor{FoldCase: true}
	}
	return Flavor{}
}

// Host returns the flavour of the platform the program runs on.
func Host() Flavor { return For(runtime.GOOS) }

// Sep returns the separator of the flavour's paths.
func (f Flavor) Sep() byte {
	if f.Windows {
		return '\\'
	}
	return '/'
}

// Clean returns the shortest spelling of p, as filepath.Clean does on the flavour's
// platform; on Windows with backslashes only and the drive letter in lower case,
// as a file URI's path reads (VS Code's fsPath: file:///C:/x and file:///c%3A/x
// are both c:\x). The empty path stays empty.
func (f Flavor) Clean(p string) string {
	if p == "" {
		return ""
	}
	if !f.Windows {
		return path.Clean(p)
	}
	p = strings.ReplaceAll(p, "/", `\`)
	n := volumeLen(p)
	vol, rest := p[:n], p[n:]
	if n == 2 {
		vol = strings.ToLower(vol)
	}
	if rest == "" && n > 2 {
		return vol + `\` // a UNC volume is a root
	}
	return vol + strings.ReplaceAll(path.Clean(strings.ReplaceAll(rest, `\`, "/")), "/", `\`)
}

// volumeLen returns the length of a Windows path's volume: "c:", "\\server\share",
// or none. p has backslashes only.
func volumeLen(p string) int {
	if len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z') {
		return 2
	}
	if !strings.HasPrefix(p, `\\`) {
		return 0
	}
	server := strings.IndexByte(p[2:], '\\')
	if server <= 0 {
		return 0
	}
	start := 2 + server + 1
	share := strings.IndexByte(p[start:], '\\')
	if share < 0 {
		share = len(p) - start
	}
	if share == 0 {
		return 0 // \\server\ without a share
	}
	return start + share
}

// Key returns a string that is equal for two paths exactly when the flavour's file
// system takes them for the same place (as far as spelling goes: links are not
// followed). Use it for maps and comparisons, never to open a file.
func (f Flavor) Key(p string) string {
	p = f.Clean(p)
	if f.FoldCase {
		p = strings.ToLower(p)
	}
	return p
}

// Same reports whether a and b are spellings of the same path.
func (f Flavor) Same(a, b string) bool { return f.Key(a) == f.Key(b) }

// Within reports whether p is dir or a path below it.
func (f Flavor) Within(dir, p string) bool {
	kd, kp := f.Key(dir), f.Key(p)
	if kd == kp {
		return true
	}
	if kd == "" {
		return false
	}
	if kd[len(kd)-1] != f.Sep() {
		kd += string(f.Sep())
	}
	return strings.HasPrefix(kp, kd)
}
