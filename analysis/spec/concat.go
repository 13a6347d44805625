package spec

import (
	"strconv"
	"strings"
)

// part is one file of a Concat: its name and the concatenation's lines it holds.
type part struct {
	name  string
	first int // the concatenation's line of the file's line 1
	lines int
}

// Concat reads several specification files as the one file their concatenation
// would be (each file ending in a newline). The analysis takes one File and names an entry's position as
// Name:Line in its evidence and problems, so the result's Name joins the names
// with '+' and its entries' lines count through the concatenation; Locate and
// Relocate turn such positions back into the files' own. Problems keep the
// positions in their own files. A single file is returned as it is, so that one
// file means exactly what it means to the language server.
func Concat(files ...*File) *File {
	if len(files) == 1 {
		return files[0]
	}
	out := &File{}
	var names []string
	first := 1
	for _, f := range files {
		names = append(names, f.Name)
		out.parts = append(out.parts, part{name: f.Name, first: first, lines: f.lines})
		for _, e := range f.Entries {
			e.Line += first - 1
			out.Entries = append(out.Entries, e)
		}
		out.Problems = append(out.Problems, f.Problems...)
		first += f.lines
	}
	out.Name = strings.Join(names, "+")
	out.lines = first - 1
	return out
}

// Locate returns the file and the line in it of line of f: for a Concat, the file
// that holds it; for a file read by Parse, the file itself.
func (f *File) Locate(line int) (name string, fileLine int) {
	for _, p := range f.parts {
		if line >= p.first && line < p.first+p.lines {
			return p.name, line - p.first + 1
		}
	}
	return f.Name, line
}

// Relocate rewrites a message that starts with "NAME:LINE:" for f's Name (the
// analysis's problems with entries) to name the file and line that hold the entry.
// Other messages are returned unchanged.
func (f *File) Relocate(msg string) string {
	rest, ok := strings.CutPrefix(msg, f.Name+":")
	if !ok || len(f.parts) == 0 {
		return msg
	}
	num, tail, ok := strings.Cut(rest, ":")
	line, err := strconv.Atoi(num)
	if !ok || err != nil {
		return msg
	}
	name, l := f.Locate(line)
	return name + ":" + strconv.Itoa(l) + ":" + tail
}
