package analysis

import (
	"context"
	"runtime"
	"testing"
	"weak"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestFinishDropsSolver checks that a run's graph and trace do not keep its solver
// alive: the server holds them for as long as a snapshot lives, and the solver (its
// oracle's nodes, its sets, its dynamic sites) is most of a run's memory. At
// Correct-Env the trace records the environment, which once pointed into the
// solver's.
func TestFinishDropsSolver(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the JDK")
	}
	a := New(programsIndex(t, "cg/environment"))
	opts, err := normalize(Options{Level: callgraph.CorrectEnv, Algorithm: callgraph.TFA})
	if err != nil {
		t.Fatal(err)
	}
	s, err := a.runOnce(context.Background(), opts, nil, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.env == nil || len(s.env.sites) == 0 {
		t.Fatal("the run read no property unset: the test needs dynamic sites in its environment")
	}
	alive := weak.Make(s)
	g, tr := s.finish(false)
	s = nil
	runtime.GC()
	runtime.GC()
	if alive.Value() != nil {
		t.Error("the solver outlives its run: the graph or the trace points into it")
	}
	if tr.env == nil || g.NumReachable() == 0 {
		t.Errorf("trace env %v, %d reachable: the run's results are gone too", tr.env, g.NumReachable())
	}
	runtime.KeepAlive(g)
	runtime.KeepAlive(tr)
}
