package incremental

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestGraphCache checks the world's graph cache: one computation per graph key, at
// most maxGraphs kept with the published snapshot's pinned, and a cancelled
// computation forgotten rather than cached.
func TestGraphCache(t *testing.T) {
	classes := javatest.Compile(t, filepath.Join("..", "testdata", "lsp", "plugins", "src", "main", "java"), javatest.Release(17))
	ix, err := index.Build(context.Background(), index.Config{NoJDK: true, Sources: []classpath.Source{{Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	w := newWorld("test", ix, zap.NewNop())
	opts := analysis.Options{Level: callgraph.CorrectString, Algorithm: callgraph.CHA}
	ctx := context.Background()

	// A computation its caller cancels is not cached.
	run := w.run
	cancelled, cancel := context.WithCancel(ctx)
	w.run = func(ctx context.Context, o analysis.Options) (*callgraph.Graph, *analysis.Trace, error) {
		cancel()
		return nil, nil, ctx.Err()
	}
	if _, err := w.graph(cancelled, opts, nil, nil, 0, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled computation: %v", err)
	}
	runs := 0
	w.run = func(ctx context.Context, o analysis.Options) (*callgraph.Graph, *analysis.Trace, error) {
		runs++
		return run(ctx, o)
	}
	g4, err := w.graph(ctx, opts, nil, nil, 0, nil)
	if err != nil || g4 == nil {
		t.Fatalf("after a cancelled computation: %v", err)
	}
	w.pin(graphKey(opts, nil))
	if again, _ := w.graph(ctx, opts, nil, nil, 0, nil); again != g4 || runs != 1 {
		t.Errorf("the same settings ran the analysis %d times", runs)
	}
	for _, l := range []callgraph.Level{callgraph.BehavedCLs, callgraph.EncapRespect, callgraph.CorrectCast, callgraph.CorrectEnv} {
		o := opts
		o.Level = l
		if g, err := w.graph(ctx, o, nil, nil, 0, nil); err != nil || g.Level != l {
			t.Fatalf("level %v: %v", l, err)
		}
	}
	w.mu.Lock()
	n, pinned := len(w.graphs), w.graphs[graphKey(opts, nil)]
	w.mu.Unlock()
	if n > maxGraphs || pinned == nil || pinned.g != g4 {
		t.Errorf("cache holds %d graphs (max %d); pinned graph kept: %v", n, maxGraphs, pinned != nil)
	}
}

// TestEditWaitsForCompanion: an edit that arrives while the CHA companion of the
// published TFA graph is still being computed (the first edit after opening a
// workspace) waits for it and updates it in place, rather than giving up the
// interim graph; the update equals a new CHA analysis of the edited program. One
// that its build cancels meanwhile gives up.
func TestEditWaitsForCompanion(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	cfg := st.project().Config()
	ctx := context.Background()
	facts := index.NewFactsCache()
	ix1, err := index.Build(ctx, cfg, facts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix1.Close() })
	prev := newWorld("test", ix1, zap.NewNop())
	prev.bg, prev.stopBG = context.WithCancel(ctx)
	t.Cleanup(prev.retire)
	gate := make(chan struct{})
	run := prev.run
	prev.run = func(ctx context.Context, o analysis.Options) (*callgraph.Graph, *analysis.Trace, error) {
		if o.Algorithm == callgraph.CHA {
			<-gate // the companion is still being computed
		}
		return run(ctx, o)
	}
	opts := st.Options
	opts.Algorithm = callgraph.TFA
	if _, err := prev.graph(ctx, opts, nil, nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	prev.pin(graphKey(opts, nil))
	prev.companionLater(opts, nil)

	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": `package p;
public class B { public void run() { System.out.print("b"); } }
`}, out)
	ix2, err := index.Rebuild(ctx, cfg, facts, ix1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix2.Close() })
	cha := companionOptions(opts)

	// Cancelled while it waits: no interim graph.
	w := newWorld("test", ix2, zap.NewNop())
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if ok, why := w.updateFrom(cctx, prev, cha, nil, nil, true); ok || !strings.Contains(why, "deadline") {
		t.Errorf("cancelled while waiting for the companion: updated %v (%s)", ok, why)
	}

	type result struct {
		ok  bool
		why string
	}
	done := make(chan result, 1)
	w = newWorld("test", ix2, zap.NewNop())
	go func() {
		ok, why := w.updateFrom(ctx, prev, cha, nil, nil, true)
		done <- result{ok, why}
	}()
	select {
	case r := <-done:
		t.Fatalf("the edit did not wait for the companion: updated %v (%s)", r.ok, r.why)
	case <-time.After(100 * time.Millisecond):
	}
	close(gate)
	if r := <-done; !r.ok {
		t.Fatalf("the companion was not updated in place: %s", r.why)
	}
	chaSt := st
	chaSt.Options.Algorithm = callgraph.CHA
	ms := w.h.Methods()
	if got, want := graphText(func(id int32) string { return nodeName(ms, id) }, w.finished(graphKey(cha, nil))), scratchText(t, chaSt, st.Options.Level); got != want {
		t.Errorf("the updated companion differs from a new CHA analysis:\n%s\nwant\n%s", got, want)
	}
}
