package ide

// The specification file, as far as the server is concerned: it reads the file for
// the analysis (analysis.Options.Spec) and for jcg.showSpecification, and its quick
// fixes insert entries. Everything that depends on the file's syntax (package
// analysis/spec) is in this file.

import (
	"fmt"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/incremental"
)

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

// SpecHeader starts a specification file the server creates.
const SpecHeader = spec.Header

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

// DescribeSpec renders the file's entries and problems for jcg.showSpecification.
func DescribeSpec(sf *incremental.SpecFile, graphProblems []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Specification file: %s\n", sf.Path)
	switch {
	case sf.Err != nil:
		fmt.Fprintf(&b, "  cannot be read: %v\n", sf.Err)
	case !sf.Exists:
		fmt.Fprintf(&b, "  (does not exist)\n")
	}
	fmt.Fprintf(&b, "Entries: %d\n", sf.Entries())
	if sf.File != nil {
		for _, e := range sf.File.Entries {
			fmt.Fprintf(&b, "  line %d: %s\n", e.Line, spec.Format(e))
		}
	}
	probs := append(sf.Problems(), graphProblems...)
	if len(probs) > 0 {
		fmt.Fprintf(&b, "Problems: %d\n", len(probs))
		for _, p := range probs {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	return b.String()
}
