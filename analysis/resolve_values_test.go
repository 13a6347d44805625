package analysis

import (
	"context"
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
	g, err := New(ix).Run(ctx, Options{Level: callgraph.CorrectString, Algorithm: CHA})
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
