package wholejdk

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/testindex"
)

// TestSiteReport checks Options.Sites on the reflection, method-handle, proxy and
// native programs with the JDK, at every level with both algorithms: every reported
// site is in the final graph with the same record and the same targets, the edges
// reported at its instruction are the final graph's resolution edges there, the
// NativeMethod edges are the final ones, and the application's sites all come in the
// first report, long before the fixed point.
func TestSiteReport(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the JDK")
	}
	ctx := context.Background()
	ix := testindex.Programs(t, factsCache, "cg/reflection", "cg/methodhandles", "cg/proxy", "cg/natives")
	a := analysis.New(ix)
	ms := ix.Hierarchy().Methods()
	app := func(n int32) bool { return n >= 0 && int(n) < len(ms) && ms[n].Class.Origin == hierarchy.Application }
	for _, algo := range []callgraph.Algorithm{callgraph.CHA, callgraph.RTA} {
		for _, lv := range callgraph.Levels {
			if algo == callgraph.RTA && lv != callgraph.BehavedCLs && lv != callgraph.CorrectJDK {
				// The reports are the same machinery under every algorithm; what
				// differs by level (which resolvers apply) CHA covers at each. RTA
				// is checked at both ends, keeping the package under its timeout.
				continue
			}
			t.Run(fmt.Sprintf("%s/%s", algo, lv), func(t *testing.T) {
				var reports []*callgraph.Graph
				progressBefore := -1 // Progress calls before the first report
				progress := 0
				g, err := a.Run(ctx, analysis.Options{Level: lv, Algorithm: algo,
					Progress: func(int) { progress++ },
					Sites: func(p *callgraph.Graph) {
						if len(reports) == 0 {
							progressBefore = progress
						}
						reports = append(reports, p)
					}})
				if err != nil {
					t.Fatal(err)
				}
				checkSiteReports(t, g, reports)

				// Every application site reported at all is in the first report, and
				// that report came before the run's first progress report (16384
				// methods visited, of about 200,000).
				var appSites, first int
				for i, p := range reports {
					for _, s := range p.Sites {
						if app(s.Caller) {
							appSites++
							if i == 0 {
								first++
							}
						}
					}
				}
				if appSites == 0 || first != appSites {
					t.Errorf("%d application sites reported, %d of them in the first report", appSites, first)
				}
				if progressBefore != 0 {
					t.Errorf("the first report came after %d progress reports", progressBefore)
				}
				// The unresolved Class.forName of refl.Main.loading is one of them.
				found := false
				for _, s := range reports[0].Sites {
					found = found || s.API == "Class.forName" && s.Status == callgraph.Unresolved && ms[s.Caller].Name == "loading" && ms[s.Caller].Class.Name == "refl/Main"
				}
				if !found {
					t.Errorf("the first report lacks refl.Main.loading's unresolved Class.forName")
				}
			})
		}
	}
}

// checkSiteReports checks partial graphs against the final graph g.
func checkSiteReports(t *testing.T, g *callgraph.Graph, reports []*callgraph.Graph) {
	t.Helper()
	type edge struct {
		pc, call int32
		reason   callgraph.Reason
		targets  string
	}
	// edgesAt returns the edges of g from one instruction of a caller, with only
	// reasons of dynamic-site resolution when resolution is set.
	edgesAt := func(g *callgraph.Graph, caller, call int32, resolution bool) []edge {
		var out []edge
		for _, b := range g.Callees(caller) {
			r := g.Reasons[b.Reason]
			if b.Call != call || resolution && r.Kind != callgraph.KindReflection && r.Kind != callgraph.KindMethodHandle && r.Kind != callgraph.KindProxy {
				continue
			}
			out = append(out, edge{b.PC, b.Call, r, fmt.Sprint(g.Sets[b.Set])})
		}
		return out
	}
	setOf := func(g *callgraph.Graph, i int32) []int32 {
		if i < 0 {
			return nil
		}
		return g.Sets[i]
	}
	type siteKey struct {
		caller, pc int32
		api        string
	}
	seen := map[siteKey]bool{}
	nativeEdges := 0
	for _, p := range reports {
		if p.Reachable != nil || p.Level != g.Level || p.Algorithm != g.Algorithm || p.NumNodes != g.NumNodes {
			t.Errorf("partial graph header %v/%v/%d, final %v/%v/%d", p.Level, p.Algorithm, p.NumNodes, g.Level, g.Algorithm, g.NumNodes)
		}
		if n := p.Callees(p.Native); len(n) > 0 {
			nativeEdges++
			var got, want []edge
			for _, b := range n {
				got = append(got, edge{b.PC, b.Call, p.Reasons[b.Reason], fmt.Sprint(p.Sets[b.Set])})
			}
			for _, b := range g.Callees(g.Native) {
				want = append(want, edge{b.PC, b.Call, g.Reasons[b.Reason], fmt.Sprint(g.Sets[b.Set])})
			}
			// In the order of set numbers, which differ: compare as sets.
			byText := func(a, b edge) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) }
			slices.SortFunc(got, byText)
			slices.SortFunc(want, byText)
			if !slices.Equal(got, want) {
				t.Errorf("reported NativeMethod edges differ from the final ones")
			}
		}
		for _, s := range p.Sites {
			k := siteKey{s.Caller, s.PC, s.API}
			if seen[k] {
				t.Errorf("site %s at %d/%d reported twice", s.API, s.Caller, s.PC)
			}
			seen[k] = true
			i := slices.IndexFunc(g.SitesOf(s.Caller), func(f callgraph.Site) bool { return f.PC == s.PC && f.API == s.API })
			if i < 0 {
				t.Errorf("reported site %s at %d/%d is not in the final graph", s.API, s.Caller, s.PC)
				continue
			}
			f := g.SitesOf(s.Caller)[i]
			rs, fs := s, f
			rs.Targets, fs.Targets = 0, 0
			if fmt.Sprint(rs) != fmt.Sprint(fs) {
				t.Errorf("reported site %+v, final %+v", rs, fs)
			}
			if !slices.Equal(setOf(p, s.Targets), setOf(g, f.Targets)) {
				t.Errorf("site %s at %d/%d: reported targets %v, final %v", s.API, s.Caller, s.PC, setOf(p, s.Targets), setOf(g, f.Targets))
			}
			got := edgesAt(p, s.Caller, s.Call, false)
			all := edgesAt(g, s.Caller, s.Call, false)
			for _, e := range got {
				if !slices.Contains(all, e) {
					t.Errorf("site %s at %d/%d: reported edge %+v is not in the final graph", s.API, s.Caller, s.PC, e)
				}
			}
			for _, e := range edgesAt(g, s.Caller, s.Call, true) {
				if !slices.Contains(got, e) {
					t.Errorf("site %s at %d/%d: final resolution edge %+v was not reported", s.API, s.Caller, s.PC, e)
				}
			}
		}
	}
	switch {
	case g.Level >= callgraph.CorrectJDK:
		// The JVM's upcalls dispatch on what the oracle finds: final graph only.
		if nativeEdges > 0 {
			t.Errorf("NativeMethod's edges at Correct-JDK came in %d reports, want the final graph only", nativeEdges)
		}
	case nativeEdges > 1 || nativeEdges == 0 && len(g.Callees(g.Native)) > 0:
		t.Errorf("NativeMethod's edges came in %d reports", nativeEdges)
	}
}

// factsCache keeps the JDK's facts between the tests' indexes.
var factsCache = index.NewFactsCache()
