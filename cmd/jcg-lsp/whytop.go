package main

import (
	"cmp"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// topReport is what `why --top` prints: where a graph's reach comes from. Its JSON
// form is for scripts that track the figures from one version to the next.
type topReport struct {
	Algorithm string      `json:"algorithm"`
	Level     string      `json:"level"`
	Entries   int         `json:"entries"`
	Reachable int         `json:"reachable"`
	Sites     []topSite   `json:"sites"`
	Kinds     []kindReach `json:"kinds"`
	// PropertyWriters (Correct-Env and above) are the sites through which reachable
	// code may set every system or security property (analysis.PropertyWriters):
	// while there is one, no property a loading site reads is taken as unset.
	PropertyWriters []writerSite `json:"propertyWriters,omitempty"`
	// PlainPropertyWriters are the plain calls that may set every property
	// (analysis.Options.PlainPropertyWriter): a key nothing knows, the whole
	// Properties object. They keep properties from being unset too.
	PlainPropertyWriters []writerSite `json:"plainPropertyWriters,omitempty"`
	// Modules are the reachable methods by JDK module and by class-path entry of
	// the application and its libraries, most first: which parts of the JDK the
	// graph holds.
	Modules []moduleReach `json:"modules,omitempty"`
	// WhatIf is the graph without the JDK's fallbacks (analysis.Options.WithoutJDKFallbacks).
	WhatIf *whatIfReport `json:"withoutJDKFallbacks,omitempty"`
	// WhatIfOnly says that the report's own graph is the one without the JDK's
	// fallbacks (why --without-jdk-fallbacks): what to resolve next once they are.
	WhatIfOnly bool `json:"whatIfOnly,omitempty"`
}

// whatIfReport is what a run without the JDK's fallbacks reaches, and the JDK's sites
// that fall back even then: the ones to resolve first. The JDK's fallbacks reach
// the JDK's public members, among them more sites that fall back, so the graph's
// reach with each kind of edge left out says little of them; a run without them
// says how far resolving them could go, and where to start.
type whatIfReport struct {
	Reachable int          `json:"reachable"`
	Sites     []whatIfSite `json:"sites"`
	// PropertyWriters are the graph's sites that may set every property: while
	// there is one, the sites that read a property stay unresolved.
	PropertyWriters []writerSite `json:"propertyWriters,omitempty"`
	// PlainPropertyWriters: the plain calls that may (topReport's).
	PlainPropertyWriters []writerSite `json:"plainPropertyWriters,omitempty"`
}

// sitePos is where a site is: its caller and its instruction.
type sitePos struct {
	caller callgraph.NodeID
	pc     int32
}

// whatIfSite is a JDK site that falls back in the run without the JDK's fallbacks.
type whatIfSite struct {
	Method   string `json:"method"`
	Line     int32  `json:"line,omitempty"`
	PC       int32  `json:"pc"`
	Depth    int32  `json:"depth"` // edges on a shortest path to its method from an entry point
	Feature  string `json:"feature"`
	API      string `json:"api"`
	Status   string `json:"status"`
	Evidence string `json:"evidence,omitempty"`
	// Unknown are where the values the site needs come from unknown: what a
	// resolution must follow or model.
	Unknown []string `json:"unknown,omitempty"`
}

// writerSite is a call site that may set every property, with what it calls.
type writerSite struct {
	Method   string      `json:"method"`
	Line     int32       `json:"line,omitempty"`
	PC       int32       `json:"pc"`
	Writers  []string    `json:"writers"`  // the property writers among its targets: System.setProperty, ...
	Security bool        `json:"security"` // it may set every security property too
	Reasons  []topReason `json:"reasons"`
}

// topSite is one call site among those that bring the most methods in.
type topSite struct {
	Method  string `json:"method"`
	Line    int32  `json:"line,omitempty"`
	PC      int32  `json:"pc"`
	Subtree int    `json:"subtree"` // methods below the site in the shortest-path tree
	Without int    `json:"without"` // reachable methods when the site's edges are left out
	// Together is the reach when the edges of this site and of every site above
	// it are left out: where each site's without loses little, the reach is
	// held by several paths, and this says how many sites hold it.
	Together int         `json:"together"`
	Targets  int         `json:"targets"`
	Reasons  []topReason `json:"reasons"`
}

type topReason struct {
	Kind     string `json:"kind"`
	Resolver string `json:"resolver,omitempty"`
	Fallback string `json:"fallback,omitempty"` // the level whose conservative set the edges are
	Evidence string `json:"evidence,omitempty"`
}

// moduleReach is how many reachable methods one module or class-path entry holds.
type moduleReach struct {
	Name    string `json:"name"`
	Methods int    `json:"methods"`
}

// maxTextModules is how many modules the text form lists (--format json: all).
const maxTextModules = 15

// modulesReach counts g's reachable methods by the JDK module of their class, or
// for the application's and libraries' classes by origin and class-path entry
// ("application javacc.jar"), most first; the synthetic NativeMethod node is a row
// of its own, so that the rows add up to the graph's reachable nodes.
func modulesReach(g *callgraph.Graph, ix *index.Index) []moduleReach {
	n := map[string]int{}
	for _, m := range ix.Hierarchy().Methods() {
		if !g.Reachable.Has(m.ID) {
			continue
		}
		src := ix.Source(m.Class)
		switch {
		case src == nil:
			n["classes on no class path (phantoms)"]++
		case m.Class.Origin == hierarchy.JDK && src.Module != "":
			n[src.Module]++
		case m.Class.Origin == hierarchy.JDK:
			n["the JDK"]++
		default:
			n[m.Class.Origin.String()+" "+path.Base(filepath.ToSlash(src.Container))]++
		}
	}
	if g.Reachable.Has(g.Native) {
		n["<NativeMethod> (native code, or the JVM at Correct-JDK)"]++
	}
	out := make([]moduleReach, 0, len(n))
	for k, v := range n {
		out = append(out, moduleReach{k, v})
	}
	slices.SortFunc(out, func(a, b moduleReach) int { return cmp.Or(b.Methods-a.Methods, strings.Compare(a.Name, b.Name)) })
	return out
}

// kindReach is the reach of the graph with one kind of edge left out.
type kindReach struct {
	Kind    string `json:"kind"`
	Bundles int    `json:"bundles"` // call sites and other sources of such edges
	Without int    `json:"without"`
}

// fallbackKind names the pseudo-kind of every fallback edge, whatever its kind.
const fallbackKind = "fallback (any kind)"

func reachReport(g *callgraph.Graph, h *hierarchy.Hierarchy, n int, algo string) topReport {
	ms := h.Methods()
	rep := topReport{Algorithm: algo, Level: g.Level.Title(), Entries: len(g.Entries), Reachable: g.NumReachable()}
	reach := g.Reacher()
	above := make([]bool, len(g.Bundles)) // the bundles of the sites listed so far
	for _, sr := range g.TopSites(n) {
		ts := topSite{Method: nodeName(g, ms, sr.Caller), Line: max(sr.Line, 0), PC: sr.PC, Subtree: sr.Subtree, Targets: sr.Targets,
			Reasons: bundleReasons(g, sr.Bundles)}
		ts.Without = reach.Without(func(b int32) bool { _, ok := slices.BinarySearch(sr.Bundles, b); return ok })
		for _, b := range sr.Bundles {
			above[b] = true
		}
		ts.Together = reach.Without(func(b int32) bool { return above[b] })
		rep.Sites = append(rep.Sites, ts)
	}
	rep.PropertyWriters = writerSites(g, h)
	// By kind, and every fallback edge as one more row.
	byKind := map[string][]bool{}
	count := map[string]int{}
	mark := func(name string, i int) {
		if byKind[name] == nil {
			byKind[name] = make([]bool, len(g.Bundles))
		}
		byKind[name][i] = true
		count[name]++
	}
	for i, b := range g.Bundles {
		r := g.Reasons[b.Reason]
		mark(r.Kind.String(), i)
		if r.Fallback != 0 {
			mark(fallbackKind, i)
		}
	}
	for name, skip := range byKind {
		rep.Kinds = append(rep.Kinds, kindReach{Kind: name, Bundles: count[name],
			Without: reach.Without(func(b int32) bool { return skip[b] })})
	}
	slices.SortFunc(rep.Kinds, func(a, b kindReach) int {
		if a.Without != b.Without {
			return a.Without - b.Without
		}
		return strings.Compare(a.Kind, b.Kind)
	})
	return rep
}

// whatIf reports on w, the graph of a run without the JDK's fallbacks: its reach,
// and the sites whose fallbacks it skipped, those whose fallback reaches most
// first (fallbackReach), nearest the entry points first among those.
func whatIf(w *callgraph.Graph, h *hierarchy.Hierarchy, skipped map[sitePos]bool) *whatIfReport {
	ms := h.Methods()
	depth := w.Depths()
	rep := &whatIfReport{Reachable: w.NumReachable(), Sites: []whatIfSite{}, PropertyWriters: writerSites(w, h)}
	for _, st := range w.Sites {
		if !skipped[sitePos{st.Caller, st.PC}] {
			continue
		}
		ws := whatIfSite{Method: nodeName(w, ms, st.Caller), Line: max(st.Line, 0), PC: st.PC, Depth: depth[st.Caller],
			Feature: st.Feature.String(), API: st.API, Status: st.Status.String(), Evidence: st.Evidence}
		for _, p := range st.Points {
			u := p.Kind
			if p.Method != st.Caller {
				u += " in " + nodeName(w, ms, p.Method)
			}
			if !slices.Contains(ws.Unknown, u) {
				ws.Unknown = append(ws.Unknown, u)
			}
		}
		rep.Sites = append(rep.Sites, ws)
	}
	slices.SortStableFunc(rep.Sites, func(a, b whatIfSite) int {
		return cmp.Or(cmp.Compare(fallbackReach(a.Feature), fallbackReach(b.Feature)), cmp.Compare(a.Depth, b.Depth))
	})
	return rep
}

// writerSites lists g's sites that may set every property (analysis.PropertyWriters).
func writerSites(g *callgraph.Graph, h *hierarchy.Hierarchy) []writerSite {
	ms := h.Methods()
	var out []writerSite
	for _, w := range analysis.PropertyWriters(g, h) {
		ws := writerSite{Method: nodeName(g, ms, w.Caller), Line: max(w.Line, 0), PC: w.PC, Security: w.Security(),
			Reasons: bundleReasons(g, w.Bundles)}
		for _, m := range w.Writers {
			ws.Writers = append(ws.Writers, path.Base(m.Class.Name)+"."+m.Name)
		}
		out = append(out, ws)
	}
	return out
}

// fallbackReach ranks a feature's fallback by how much it reaches, widest first: an
// invocation's or a method handle's (any method, and every <clinit>), an
// instantiation's (constructors, and every <clinit>), a loading's (every <clinit>).
// Alone on top of javacc's run without the JDK's fallbacks (98,104 methods), one site
// of each brings 161,711, 120,568 and 108,394.
func fallbackReach(feature string) int {
	switch feature {
	case callgraph.FeatInvocation.String(), callgraph.FeatMethodHandle.String():
		return 0
	case callgraph.FeatInstantiation.String():
		return 1
	}
	return 2
}

// bundleReasons returns the distinct reasons of bundles, in their order.
func bundleReasons(g *callgraph.Graph, bundles []int32) []topReason {
	var out []topReason
	seen := map[int32]bool{}
	for _, b := range bundles {
		ri := g.Bundles[b].Reason
		if seen[ri] {
			continue
		}
		seen[ri] = true
		r := g.Reasons[ri]
		tr := topReason{Kind: r.Kind.String(), Evidence: r.Evidence}
		if r.Kind.Dynamic() {
			tr.Resolver = r.Resolver
		}
		if r.Fallback != 0 {
			tr.Fallback = r.Fallback.Title()
		}
		out = append(out, tr)
	}
	return out
}

func (rep topReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "%s call graph at %s: %d reachable methods from %d entry points.\n\n", rep.Algorithm, rep.Level, rep.Reachable, rep.Entries)
	fmt.Fprintf(w, "Call sites that bring the most methods in (subtree: methods below the site in a\nshortest-path tree from the entry points; without: reachable methods without the site's edges;\ntogether: without the edges of this site and of every site above it):\n")
	fmt.Fprintf(w, "%4s %9s %9s %9s %8s  %s\n", "#", "subtree", "without", "together", "targets", "site")
	for i, s := range rep.Sites {
		fmt.Fprintf(w, "%4d %9d %9d %9d %8d  %s (%s)\n", i+1, s.Subtree, s.Without, s.Together, s.Targets, s.Method, siteAt(s.Line, s.PC))
		for j, r := range s.Reasons {
			if j == maxTextReasons {
				fmt.Fprintf(w, "%44s … %d more reasons (--format json lists them all)\n", "", len(s.Reasons)-j)
				break
			}
			fmt.Fprintf(w, "%44s %s\n", "", r.text())
		}
	}
	if len(rep.Modules) > 0 {
		fmt.Fprintf(w, "\nReachable methods by JDK module and class-path entry:\n%9s  %s\n", "methods", "module or entry")
		for i, m := range rep.Modules {
			if i == maxTextModules {
				fmt.Fprintf(w, "%9s  … %d more (--format json lists them all)\n", "", len(rep.Modules)-i)
				break
			}
			fmt.Fprintf(w, "%9d  %s\n", m.Methods, m.Name)
		}
	}
	fmt.Fprintf(w, "\nReach with each kind of edge left out:\n%-22s %9s %9s %9s\n", "kind", "bundles", "without", "lost")
	for _, k := range rep.Kinds {
		fmt.Fprintf(w, "%-22s %9d %9d %9d\n", k.Kind, k.Bundles, k.Without, rep.Reachable-k.Without)
	}
	rep.writeWriters(w)
	rep.writeWhatIf(w)
}

func (rep topReport) writeWriters(w io.Writer) {
	writePlainWriters(w, rep.PlainPropertyWriters)
	if len(rep.PropertyWriters) == 0 {
		return
	}
	fmt.Fprintf(w, "\nCall sites that may set every property (dynamic calls that reach a property writer with\n"+
		"arguments nothing follows): %d. While one is reachable, %s takes no system property\n"+
		"as unset (nor a security property, where one may call Security.setProperty).\n", len(rep.PropertyWriters), rep.Level)
	for i, s := range rep.PropertyWriters {
		if i == maxTextWriters {
			fmt.Fprintf(w, "  … %d more (--format json lists them all)\n", len(rep.PropertyWriters)-i)
			break
		}
		calls := strings.Join(s.Writers, ", ")
		fmt.Fprintf(w, "  %s (%s): may call %s\n", s.Method, siteAt(s.Line, s.PC), calls)
		for _, r := range s.Reasons {
			fmt.Fprintf(w, "      %s\n", r.text())
		}
	}
}

// writePlainWriters lists the plain calls that may set every property.
func writePlainWriters(w io.Writer, ws []writerSite) {
	if len(ws) == 0 {
		return
	}
	fmt.Fprintf(w, "\nPlain calls that may set every property (a key the string analysis does not know, or\n"+
		"the whole Properties object): %d. While one is reachable, no property is taken as unset.\n", len(ws))
	for i, s := range ws {
		if i == maxTextWriters {
			fmt.Fprintf(w, "  … %d more (--format json lists them all)\n", len(ws)-i)
			break
		}
		fmt.Fprintf(w, "  %s (%s): %s\n", s.Method, siteAt(s.Line, s.PC), strings.Join(s.Writers, ", "))
	}
}

func (rep topReport) writeWhatIf(w io.Writer) {
	wi := rep.WhatIf
	if wi == nil {
		return
	}
	if rep.WhatIfOnly {
		fmt.Fprintf(w, "\nThe JDK's sites whose fallbacks this run leaves out: %d, the widest fallbacks (invocation,\n"+
			"then instantiation, then loading) first, nearest the entry points first among those.\n", len(wi.Sites))
	} else {
		fmt.Fprintf(w, "\nWithout the JDK's fallbacks (a what-if: the JDK's unresolved sites add no edges, so the\n"+
			"graph is not sound): %d reachable methods, against %d. The JDK's sites that fall back\n"+
			"even then: %d, the widest fallbacks (invocation, then instantiation, then loading)\n"+
			"first, nearest the entry points first among those. Each must be resolved at %s, or\n"+
			"become unreachable, before the JDK's fallbacks can stop cascading.\n", wi.Reachable, rep.Reachable, len(wi.Sites), rep.Level)
	}
	for i, s := range wi.Sites {
		if i == maxTextWriters {
			fmt.Fprintf(w, "  … %d more (--format json lists them all)\n", len(wi.Sites)-i)
			break
		}
		fmt.Fprintf(w, "  %s (%s), depth %d: %s, %s\n", s.Method, siteAt(s.Line, s.PC), s.Depth, s.API, s.Status)
		if len(s.Unknown) > 0 {
			fmt.Fprintf(w, "      unknown: %s\n", shorten(strings.Join(s.Unknown, "; ")))
		} else if s.Evidence != "" {
			fmt.Fprintf(w, "      %s\n", shorten(s.Evidence))
		}
	}
	if !rep.WhatIfOnly {
		writePlainWriters(w, wi.PlainPropertyWriters)
	}
}

// plainWriters collects a run's plain calls that may set every property
// (analysis.Options.PlainPropertyWriter), once each, with the writers each calls.
type plainWriters map[sitePos]*plainWriter

type plainWriter struct {
	line int32
	apis []*hierarchy.Method
}

func (p plainWriters) tell(caller callgraph.NodeID, pc, line int32, api *hierarchy.Method) {
	k := sitePos{caller, pc}
	if p[k] == nil {
		p[k] = &plainWriter{line: line}
	}
	if !slices.Contains(p[k].apis, api) {
		p[k].apis = append(p[k].apis, api)
	}
}

// sites returns the calls by method and offset.
func (p plainWriters) sites(ms []*hierarchy.Method) []writerSite {
	var out []writerSite
	for k, pw := range p {
		ws := writerSite{Method: javaMethod(ms[k.caller]), Line: max(pw.line, 0), PC: k.pc}
		for _, api := range pw.apis {
			ws.Writers = append(ws.Writers, path.Base(api.Class.Name)+"."+api.Name)
			ws.Security = ws.Security || analysis.WritesSecurity(api)
		}
		out = append(out, ws)
	}
	slices.SortFunc(out, func(a, b writerSite) int { return cmp.Or(strings.Compare(a.Method, b.Method), cmp.Compare(a.PC, b.PC)) })
	return out
}

// siteAt says where in its method a site is.
func siteAt(line, pc int32) string {
	switch {
	case pc < 0:
		return "no instruction (native effects, JVM upcalls)"
	case line > 0:
		return fmt.Sprintf("line %d, pc %d", line, pc)
	}
	return fmt.Sprintf("pc %d", pc)
}

// The text form shows a site's first reasons, each on one line: a site of the
// NativeMethod node has dozens, each with a long citation of the JVM's sources.
// It lists the first property writers only: javacc's graph has 35.
const (
	maxTextReasons  = 4
	maxTextEvidence = 160
	maxTextWriters  = 20
)

// text is one line: the edge's kind, its resolver where it says more than the
// kind, the level whose fallback it is, and its evidence, shortened.
func (r topReason) text() string {
	line := r.Kind
	if r.Resolver != "" && r.Resolver != r.Kind {
		line += ", " + r.Resolver
	}
	if r.Fallback != "" {
		line += ", fallback of " + r.Fallback
	}
	if r.Evidence != "" {
		line += ": " + shorten(r.Evidence)
	}
	return line
}

// shorten cuts text to maxTextEvidence characters.
func shorten(text string) string {
	if r := []rune(text); len(r) > maxTextEvidence {
		return string(r[:maxTextEvidence-1]) + "…"
	}
	return text
}
