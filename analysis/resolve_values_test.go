package analysis

import (
	"context"
	"fmt"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestVirtualReturnPoints checks the specification points of loading sites whose
// names come through virtual calls (program dispatchflow, Correct-String): a name
// from an override that returns its argument points at the public parameter the
// argument comes from, and Properties.getProperty, although virtual, is the point
// itself rather than a place inside the JDK's implementation.
func TestVirtualReturnPoints(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the JDK")
	}
	ctx := context.Background()
	ix := programsIndex(t, "cg/dispatchflow")
	g, err := New(ix).Run(ctx, Options{Level: callgraph.CorrectString, Algorithm: callgraph.CHA})
	if err != nil {
		t.Fatal(err)
	}
	ms := ix.Hierarchy().Methods()
	for _, tc := range []struct{ caller, point string }{
		{"picked", "public parameter 1 of picked"},
		{"fromProperties", "Properties.getProperty"},
	} {
		found := false
		for _, s := range g.Sites {
			m := ms[s.Caller]
			if m.Class.Name != "dflow/Main" || m.Name != tc.caller || s.Feature != callgraph.FeatLoading || s.Status == callgraph.Resolved {
				continue
			}
			found = true
			var kinds []string
			ok := false
			for _, p := range s.Points {
				kinds = append(kinds, ms[p.Method].Name+": "+p.Kind)
				ok = ok || p.Kind == tc.point && ms[p.Method].Class.Name == "dflow/Main"
			}
			if !ok {
				t.Errorf("%s line %d: points %q, want %q in dflow.Main", tc.caller, s.Line, kinds, tc.point)
			}
		}
		if !found {
			t.Errorf("no unresolved loading site in dflow.Main.%s", tc.caller)
		}
	}
}

// TestResolvableSites checks which unresolved sites of program resolvable (each
// method's comment says why) come from sources the level licenses, and the count of
// resolvable sites that follows: at Correct-String the constant and the loop are
// resolvable (one resolved), the public parameter, the property and the map are
// not; at Correct-Env with rvl.class configured the property resolves.
func TestResolvableSites(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the JDK")
	}
	ctx := context.Background()
	ix := programsIndex(t, "resolvable")
	ms := ix.Hierarchy().Methods()
	for _, tc := range []struct {
		level                callgraph.Level
		env                  map[string]string
		beyond               map[string]bool // caller -> whether its site has a point beyond the level
		resolved, resolvable int
	}{
		{callgraph.CorrectString, nil, map[string]bool{"fromParameter": true, "fromLoop": false, "fromProperty": true, "fromMap": true}, 1, 2},
		{callgraph.CorrectEnv, map[string]string{"rvl.class": "rvl.Main"}, map[string]bool{"fromParameter": true, "fromLoop": false, "fromMap": true}, 2, 3},
	} {
		g, err := New(ix).Run(ctx, Options{Level: tc.level, Algorithm: callgraph.CHA, Env: tc.env})
		if err != nil {
			t.Fatal(err)
		}
		own := func(s *callgraph.Site) bool { return ms[s.Caller].Class.Name == "rvl/Main" }
		seen := map[string]bool{}
		for i := range g.Sites {
			s := &g.Sites[i]
			if !own(s) || s.Feature != callgraph.FeatLoading || s.Status == callgraph.Resolved {
				continue
			}
			name := ms[s.Caller].Name
			want, ok := tc.beyond[name]
			if !ok {
				t.Errorf("%v: unexpected unresolved site in %s", tc.level, name)
				continue
			}
			seen[name] = true
			got := false
			var kinds []string
			for _, p := range s.Points {
				got = got || p.Beyond
				kinds = append(kinds, fmt.Sprintf("%s (beyond %v)", p.Kind, p.Beyond))
			}
			if got != want || len(s.Points) == 0 {
				t.Errorf("%v: site in %s: points %q, want one beyond the level: %v", tc.level, name, kinds, want)
			}
		}
		for name := range tc.beyond {
			if !seen[name] {
				t.Errorf("%v: no unresolved loading site in %s", tc.level, name)
			}
		}
		st := callgraph.SiteStatsWhere(g, own)[callgraph.FeatLoading]
		if st.Total != 5 || st.Resolved != tc.resolved || st.Resolvable != tc.resolvable {
			t.Errorf("%v: loading sites %+v, want 5 with %d resolved and %d resolvable", tc.level, *st, tc.resolved, tc.resolvable)
		}
	}
}
