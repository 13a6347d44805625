package ide

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// siteData is the data of a diagnostic: enough to find its site again in a later
// snapshot, for the code actions.
type siteData struct {
	Caller methodRef `json:"caller"`
	Call   int32     `json:"call"`
	PC     int32     `json:"pc"`
	Line   int32     `json:"line"`
}

// diagnosable reports whether a site gets a diagnostic, and its severity.
func diagnosable(st *Settings, site *callgraph.Site) (Severity, bool) {
	if unsetOnly(site) && st.Severity != 0 {
		// Resolved, for the analysed environment only: said, not warned.
		return SeverityInformation, true
	}
	if site.Status != callgraph.Unresolved && site.Status != callgraph.Partial {
		return 0, false
	}
	sev := st.Severity
	if site.Feature == callgraph.FeatNative {
		sev = st.NativeSeverity
	}
	return sev, sev != 0
}

// SitesByFile groups the diagnosable sites of a snapshot by the source file of their
// caller.
func (s *Session) SitesByFile(st *Settings, snap *Snapshot) map[string][]*callgraph.Site {
	out := map[string][]*callgraph.Site{}
	g := snap.Graph
	if g == nil {
		return out
	}
	for i := range g.Sites {
		site := &g.Sites[i]
		if path, ok := s.DiagnosticFile(st, snap, site); ok {
			out[path] = append(out[path], site)
		}
	}
	return out
}

// DiagnosticFile returns the source file whose diagnostics show a site, if it gets
// one.
func (s *Session) DiagnosticFile(st *Settings, snap *Snapshot, site *callgraph.Site) (string, bool) {
	if _, ok := diagnosable(st, site); !ok {
		return "", false
	}
	m := snap.Method(site.Caller)
	if m == nil {
		return "", false
	}
	path, ok := sourcesOf(snap).pathOf[m.Class.ID]
	return path, ok
}

// Diagnostics returns the diagnostics of every source file with diagnosable sites or
// unreachable methods (unreachable.go); nil when ctx ends first.
func (s *Session) Diagnostics(ctx context.Context, st *Settings, snap *Snapshot) map[string][]Diagnostic {
	out := map[string][]Diagnostic{}
	for path, sites := range s.SitesByFile(st, snap) {
		if ctx.Err() != nil {
			return nil
		}
		out[path] = s.FileDiagnostics(st, snap, path, sites)
	}
	buildDiagnostics(snap, out)
	if ctx.Err() != nil {
		return nil
	}
	for path, ds := range s.UnreachableDiagnostics(st, snap) {
		out[path] = MergeDiagnostics(out[path], ds)
	}
	return out
}

// MergeDiagnostics merges two files' lists of diagnostics sorted by position.
func MergeDiagnostics(a, b []Diagnostic) []Diagnostic {
	if len(a) == 0 {
		return b
	}
	out := append(slices.Clip(a), b...)
	sort.SliceStable(out, func(i, j int) bool { return before(out[i].Range.Start, out[j].Range.Start) })
	return out
}

func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// FileDiagnostics returns the diagnostics of the sites of one source file (from
// SitesByFile).
func (s *Session) FileDiagnostics(st *Settings, snap *Snapshot, path string, sites []*callgraph.Site) []Diagnostic {
	fm := s.fileMap(snap, path)
	if fm == nil {
		return nil
	}
	ds := make([]Diagnostic, 0, len(sites))
	for _, site := range sites {
		m := snap.Method(site.Caller)
		sev, _ := diagnosable(st, site)
		d := Diagnostic{
			Range:    s.siteRange(snap, m, int(site.Call), site.Line),
			Severity: sev,
			Code:     site.Feature.String(),
			Message:  siteMessage(snap, site),
			Data:     mustJSON(siteData{Caller: refOf(m), Call: site.Call, PC: site.PC, Line: site.Line}),
		}
		for _, p := range site.Points {
			pm := snap.Method(p.Method)
			if pm == nil {
				continue
			}
			loc := location{}
			if fm2 := s.sourceOf(snap, pm.Class); fm2 != nil {
				loc.doc, loc.rng = Doc{Path: fm2.path}, s.siteRange(snap, pm, -1, p.Line)
			} else {
				loc = s.methodLocation(snap, pm)
			}
			d.Related = append(d.Related, Related{
				Location: Location{Doc: loc.doc, Range: loc.rng},
				Message:  "specification point: " + p.Kind,
			})
		}
		ds = append(ds, d)
	}
	sort.SliceStable(ds, func(i, j int) bool { return before(ds[i].Range.Start, ds[j].Range.Start) })
	return ds
}

// siteMessage says what is unresolved about a site and how many targets its fallback
// adds. Besides the site it reads the graph's edges at the site's instruction and
// their target sets, and for native sites the edges of the NativeMethod node: what
// a partial graph of the analysis's site report holds as the final graph will
// (earlyPublisher).
func siteMessage(snap *Snapshot, site *callgraph.Site) string {
	g := snap.Graph
	level := snap.Options.Level.Title()
	if site.Feature == callgraph.FeatNative {
		n := nativeFanout(g)
		return fmt.Sprintf("reachable native method %s: native code may call back into Java (NativeMethod fallback of level %d, %s: %d targets)",
			javaName(site.API), site.Fallback, site.Fallback.Title(), n)
	}
	if unsetOnly(site) {
		return unsetMessage(snap, site)
	}
	knownSets, fallbackSets := siteSets(g, site)
	known, fallback := countTargets(g, knownSets), countTargets(g, fallbackSets)
	switch site.Status {
	case callgraph.Partial:
		return fmt.Sprintf("%s: partially resolved at %s: %d known targets, plus the level %d (%s) fallback of %d targets%s",
			javaName(site.API), level, known, site.Fallback, site.Fallback.Title(), fallback, unknownValue(site, level))
	default:
		return fmt.Sprintf("%s: unresolved at %s: falls back to the level %d (%s) set of %d targets%s",
			javaName(site.API), level, site.Fallback, site.Fallback.Title(), fallback, unknownValue(site, level))
	}
}

// unknownValue names, for the message of an unresolved site, where an unknown value
// comes from: the first source the level does not license (a specification entry is
// the way to resolve the site), else the first place the analysis stopped short.
func unknownValue(site *callgraph.Site, level string) string {
	for _, p := range site.Points {
		if envDecided(p.Kind) {
			// The environment is the level's to read; what makes the value unknown
			// is said after the read (set by reachable code, by the JVM).
			return "; unknown value from " + p.Kind + " (a value in jcg.env decides it)"
		}
		if p.Beyond {
			return "; unknown value from " + p.Kind + ", which " + level + " does not license"
		}
	}
	if len(site.Points) > 0 {
		return "; unknown value: " + site.Points[0].Kind + " (the level licenses it: the analysis stopped short)"
	}
	return ""
}

// siteSets returns the target sets of a dynamic site: those the analysis derived
// (its own set, resolved bundles) and those of conservative fallbacks (a fallback
// comes as several bundles: initialisers, constructors, methods). Bundles of the plain
// call of the API method and of class initialisation it triggers are not the site's.
func siteSets(g *callgraph.Graph, site *callgraph.Site) (known, fallback []int32) {
	if site.Targets >= 0 {
		known = append(known, site.Targets)
	}
	for _, b := range bundlesAt(g, site.Caller, site.Call) {
		r := g.Reasons[b.Reason]
		switch r.Kind {
		case callgraph.KindReflection, callgraph.KindMethodHandle, callgraph.KindProxy:
		default:
			continue
		}
		if r.Fallback != 0 {
			if !slices.Contains(fallback, b.Set) {
				fallback = append(fallback, b.Set)
			}
		} else if !slices.Contains(known, b.Set) {
			known = append(known, b.Set)
		}
	}
	return known, fallback
}

// countTargets counts the distinct members of sets. Huge sets are fallback sets,
// which are disjoint by construction (initialisers, constructors, methods; public
// and encapsulation-safe members apart): their sizes are summed.
func countTargets(g *callgraph.Graph, sets []int32) int {
	total := 0
	for _, si := range sets {
		total += len(g.Sets[si])
	}
	if total > 1<<14 {
		return total
	}
	seen := map[int32]bool{}
	for _, si := range sets {
		for _, t := range g.Sets[si] {
			seen[t] = true
		}
	}
	return len(seen)
}

// setMembers returns the distinct members of sets, in order, up to limit of them
// with application and library methods first.
func setMembers(snap *Snapshot, sets []int32, limit int) []int32 {
	var all []int32
	seen := map[int32]bool{}
	for _, si := range sets {
		for _, t := range snap.Graph.Sets[si] {
			if !seen[t] {
				seen[t] = true
				all = append(all, t)
			}
		}
	}
	return pickTargets(snap, all, limit)
}

// nativeFanout counts the targets of the synthetic NativeMethod node.
func nativeFanout(g *callgraph.Graph) int {
	n := 0
	for _, b := range g.Callees(g.Native) {
		n += len(g.Sets[b.Set])
	}
	return n
}

// siteOf finds the site a diagnostic's data names in a snapshot.
func siteOf(snap *Snapshot, d siteData) (*hierarchy.Method, *callgraph.Site) {
	n := d.Caller.node(snap)
	m := snap.Method(n)
	if m == nil || snap.Graph == nil {
		return nil, nil
	}
	sites := snap.Graph.SitesOf(n)
	for i := range sites {
		if sites[i].Call == d.Call || sites[i].PC == d.PC {
			return m, &sites[i]
		}
	}
	return m, nil
}
