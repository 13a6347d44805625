package server

// The specification file, as far as the server is concerned: it reads the file for
// the analysis (analysis.Options.Spec) and for jcg.showSpecification, and its quick
// fixes insert entries. Everything that depends on the file's syntax (package
// analysis/spec) is in this file.

import (
	"fmt"
	"os"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
)

// specFile is what the server read from the specification file.
type specFile struct {
	path   string
	exists bool
	hash   uint64     // meaning(file): graphs are cached per specification
	file   *spec.File // nil when the file does not exist or cannot be read
	err    error      // reading failed (other than not existing)
}

func readSpecFile(path string) *specFile {
	sf := &specFile{path: path}
	data, err := os.ReadFile(path)
	if err != nil {
		if !os.IsNotExist(err) {
			sf.err = err
		}
		return sf
	}
	sf.exists = true
	sf.file = spec.Parse(path, data)
	sf.hash = meaning(sf.file)
	return sf
}

// specMeaning is the meaning of what was read: 1 for a missing file.
func specMeaning(sf *specFile) uint64 {
	if sf.file == nil {
		return 1
	}
	return sf.hash
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

func (sf *specFile) entries() int {
	if sf == nil || sf.file == nil {
		return 0
	}
	return len(sf.file.Entries)
}

func (sf *specFile) problems() []string {
	if sf == nil || sf.file == nil {
		return nil
	}
	out := make([]string, len(sf.file.Problems))
	for i, p := range sf.file.Problems {
		out[i] = p.Error()
	}
	return out
}

// specSite names a dynamic site in a specification entry.
type specSite = spec.Site

// specTarget is a class, or a method when Member is set.
type specTarget = spec.Target

func targetString(t specTarget) string {
	if t.Member == "" {
		return t.Class
	}
	return t.Class + "." + t.Member + t.Desc
}

// specHeader starts a specification file the server creates.
const specHeader = spec.Header

// formatSpecEntry renders one specification entry (without a line break).
func formatSpecEntry(site specSite, targets []specTarget) string {
	return spec.Format(spec.Entry{Site: site, Targets: targets})
}

// insertionLine returns the 0-based line before which an entry for site keeps the
// file sorted.
func insertionLine(data []byte, site specSite) int { return spec.InsertionLine(data, site) }

// newSpecSite names a site: its method, source line, the ordinal of its call among the
// call instructions of that line, and its bytecode offset as a hint.
func newSpecSite(class, method, desc string, line, ordinal, pc int) specSite {
	return specSite{Class: class, Method: method, Desc: desc, Line: line, Ordinal: ordinal, PC: pc}
}

// describe renders the file's entries and problems for jcg.showSpecification.
func (sf *specFile) describe(graphProblems []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Specification file: %s\n", sf.path)
	switch {
	case sf.err != nil:
		fmt.Fprintf(&b, "  cannot be read: %v\n", sf.err)
	case !sf.exists:
		fmt.Fprintf(&b, "  (does not exist)\n")
	}
	fmt.Fprintf(&b, "Entries: %d\n", sf.entries())
	if sf.file != nil {
		for _, e := range sf.file.Entries {
			fmt.Fprintf(&b, "  line %d: %s\n", e.Line, spec.Format(e))
		}
	}
	probs := append(sf.problems(), graphProblems...)
	if len(probs) > 0 {
		fmt.Fprintf(&b, "Problems: %d\n", len(probs))
		for _, p := range probs {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	return b.String()
}
