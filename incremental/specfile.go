package incremental

import (
	"fmt"
	"os"

	"github.com/cespare/xxhash/v2"

	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
)

// SpecFile is what a build read from a project's specification file.
type SpecFile struct {
	Path   string
	Exists bool
	// Hash is the file's meaning (see Meaning): graphs are cached per specification.
	Hash uint64
	File *spec.File // nil when the file does not exist or cannot be read
	Err  error      // reading failed (other than not existing)
}

// ReadSpecFile reads and parses the specification file at path. A missing file is
// no specification, not an error.
func ReadSpecFile(path string) *SpecFile {
	sf := &SpecFile{Path: path}
	data, err := os.ReadFile(path)
	if err != nil {
		if !os.IsNotExist(err) {
			sf.Err = err
		}
		return sf
	}
	sf.Exists = true
	sf.File = spec.Parse(path, data)
	sf.Hash = meaning(sf.File)
	return sf
}

// Meaning is the meaning of what was read (never 0): 1 for a missing or unreadable
// file, or one without entries or problems.
func (sf *SpecFile) Meaning() uint64 {
	if sf.File == nil {
		return 1
	}
	return sf.Hash
}

// meaning hashes what the analysis and the diagnostics read of a specification file:
// its entries with their lines (which the evidence of specified sites names) and its
// problems with their positions. An edit of comments or spacing keeps it, so saving
// a review note in the file analyses nothing again. A file with neither entries nor
// problems (empty, or only comments) means the same as no file: 1; any other
// meaning is neither 0 nor 1.
func meaning(f *spec.File) uint64 {
	if len(f.Entries) == 0 && len(f.Problems) == 0 {
		return 1
	}
	h := xxhash.New()
	for _, e := range f.Entries {
		fmt.Fprintf(h, "%d %q %q %q %d %d %d =>", e.Line, e.Site.Class, e.Site.Method, e.Site.Desc, e.Site.Line, e.Site.Ordinal, e.Site.PC)
		for _, t := range e.Targets {
			fmt.Fprintf(h, " %q %q %q", t.Class, t.Member, t.Desc)
		}
		fmt.Fprintln(h)
	}
	for _, p := range f.Problems {
		fmt.Fprintf(h, "%d:%d %q\n", p.Line, p.Col, p.Msg)
	}
	return h.Sum64() | 1<<63
}

// Entries counts the file's entries.
func (sf *SpecFile) Entries() int {
	if sf == nil || sf.File == nil {
		return 0
	}
	return len(sf.File.Entries)
}

// Problems lists the file's syntax problems, with their positions.
func (sf *SpecFile) Problems() []string {
	if sf == nil || sf.File == nil {
		return nil
	}
	out := make([]string, len(sf.File.Problems))
	for i, p := range sf.File.Problems {
		out[i] = p.Error()
	}
	return out
}
