package incremental

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/missing"
	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// MissingReport is what the reachable code of a graph refers to but no class path
// has (analysis/missing), by package, each package with the dependency that should
// have provided it when the build says.
type MissingReport struct {
	Classes  []missing.Class
	Packages []MissingPackage // sorted by name
	builds   bool             // a build was resolved: its dependencies were considered
}

// MissingPackage is the missing classes of one package.
type MissingPackage struct {
	Name    string // dotted
	Classes []missing.Class
	// Dep is the dependency that should have provided the classes ("" when no
	// declared dependency is known to), and Why says how it is known and what is
	// wrong with it.
	Dep string
	Why string
}

// FindMissing finds the missing classes of graph g over ix and attributes their
// packages to the builds' dependencies.
func FindMissing(ix *index.Index, g *callgraph.Graph, builds []*buildtool.Result) *MissingReport {
	r := &MissingReport{Classes: missing.Find(ix, g), builds: len(builds) > 0}
	byPkg := map[string]*MissingPackage{}
	for _, c := range r.Classes {
		p := byPkg[c.Package()]
		if p == nil {
			p = &MissingPackage{Name: c.Package()}
			byPkg[p.Name] = p
		}
		p.Classes = append(p.Classes, c)
	}
	for _, p := range byPkg {
		p.Dep, p.Why = provider(ix, p.Name, builds)
		r.Packages = append(r.Packages, *p)
	}
	slices.SortFunc(r.Packages, func(a, b MissingPackage) int { return strings.Compare(a.Name, b.Name) })
	return r
}

// Missing returns the missing classes of the snapshot's graph (nil without a
// graph), computed once per graph.
func (s *Snapshot) Missing() *MissingReport {
	if s.Graph == nil {
		return nil
	}
	type key struct{ g *callgraph.Graph }
	return s.Derived(key{s.Graph}, func() any {
		return FindMissing(s.w.ix, s.Graph, s.Project.Builds)
	}).(*MissingReport)
}

// provider says which dependency should have provided package pkg: a missing one
// whose other version in the local repository has the package; a library on the
// class path that has other classes of the package (an older or newer version than
// the program was compiled against); a missing one whose coordinates name the
// package.
func provider(ix *index.Index, pkg string, builds []*buildtool.Result) (dep, why string) {
	for _, b := range builds {
		for _, d := range b.MissingDeps() {
			if slices.Contains(d.Packages, pkg) {
				return d.Coord.String(), fmt.Sprintf("not in the local repository (version %s, which is, has the package)", d.OtherVersion)
			}
		}
	}
	for _, c := range ix.Hierarchy().PackageClasses(strings.ReplaceAll(pkg, ".", "/")) {
		if c.Origin == hierarchy.JDK {
			break
		}
		src := ix.Source(c)
		if src == nil {
			continue
		}
		for _, b := range builds {
			for _, d := range b.Libraries() {
				if d.Path == src.Container {
					return d.Coord.String(), "on the class path, but without these classes of its package (the program was compiled against another version?)"
				}
			}
		}
		return filepath.Base(src.Container), "on the class path, but without these classes of its package (the program was compiled against another version?)"
	}
	best, bestScore := "", 1
	for _, b := range builds {
		for _, d := range b.MissingDeps() {
			if s := nameScore(pkg, d.Coord); s > bestScore {
				best, bestScore = d.Coord.String(), s
			}
		}
	}
	if best != "" {
		return best, "not in the local repository (probably: its coordinates name the package)"
	}
	return "", ""
}

// nameScore counts the leading package segments a dependency's coordinates share
// with a package (group then artifact: org.example:nowhere and org.example.nowhere
// share three).
func nameScore(pkg string, c buildtool.Coord) int {
	ps := strings.Split(pkg, ".")
	cs := strings.Split(c.Group+"."+strings.ReplaceAll(c.Artifact, "-", "."), ".")
	n := 0
	for n < len(ps) && n < len(cs) && ps[n] == cs[n] {
		n++
	}
	return n
}

// Count is the number of missing classes.
func (r *MissingReport) Count() int {
	if r == nil {
		return 0
	}
	return len(r.Classes)
}

// ByDependency counts the missing classes each dependency should have provided
// ("" for those of no known dependency).
func (r *MissingReport) ByDependency() map[string]int {
	out := map[string]int{}
	for _, p := range r.Packages {
		out[p.Dep] += len(p.Classes)
	}
	return out
}

// Describe renders the report: the count, then per package its classes (the first
// few unless verbose), how the code refers to them and where they should come from.
func (r *MissingReport) Describe(verbose bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Missing classes (referenced by reachable code, on no class path): %d", r.Count())
	if r.Count() == 0 {
		b.WriteString("\n")
		return b.String()
	}
	fmt.Fprintf(&b, " in %d packages\n", len(r.Packages))
	by := r.ByDependency()
	for _, dep := range slices.Sorted(maps.Keys(by)) {
		if dep != "" {
			fmt.Fprintf(&b, "  %d would come from %s\n", by[dep], dep)
		}
	}
	for _, p := range r.Packages {
		name := p.Name
		if name == "" {
			name = "(unnamed package)"
		}
		from := ""
		switch {
		case p.Dep != "":
			from = " (from " + p.Dep + ", " + p.Why + ")"
		case r.builds:
			from = " (no declared dependency provides it)"
		}
		fmt.Fprintf(&b, "  %s: %d%s\n", name, len(p.Classes), from)
		for i, c := range p.Classes {
			if !verbose && i == 5 {
				fmt.Fprintf(&b, "    ... and %d more\n", len(p.Classes)-i)
				break
			}
			where := ""
			if c.From != nil {
				where = " in " + strings.ReplaceAll(c.From.Class.Name, "/", ".") + "." + c.From.Name
				if c.Line > 0 {
					where += fmt.Sprintf(" (line %d)", c.Line)
				}
			}
			fmt.Fprintf(&b, "    %s: %s, %d references, first%s\n", strings.ReplaceAll(c.Name, "/", "."), c.Kinds, c.Refs, where)
		}
	}
	return b.String()
}
