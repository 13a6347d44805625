package server

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestGraphCache checks the world's graph cache: one computation per analysis key, at
// most maxGraphs kept with the published snapshot's pinned, and a cancelled
// computation forgotten rather than cached.
func TestGraphCache(t *testing.T) {
	_, snap := mappedProgram(t, filepath.Join("..", "testdata", "lsp", "plugins", "src", "main", "java"))
	w := snap.w
	st := DefaultSettings()
	ctx := context.Background()

	// A computation its caller cancels is not cached.
	run := w.run
	cancelled, cancel := context.WithCancel(ctx)
	w.run = func(ctx context.Context, o analysis.Options, r reportFunc) (*callgraph.Graph, *analysis.Trace, error) {
		cancel()
		return nil, nil, ctx.Err()
	}
	if _, err := w.graph(cancelled, &st, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled computation: %v", err)
	}
	runs := 0
	w.run = func(ctx context.Context, o analysis.Options, r reportFunc) (*callgraph.Graph, *analysis.Trace, error) {
		runs++
		return run(ctx, o, r)
	}
	g4, err := w.graph(ctx, &st, nil)
	if err != nil || g4 == nil {
		t.Fatalf("after a cancelled computation: %v", err)
	}
	w.pin(st.analysisKey(nil))
	if again, _ := w.graph(ctx, &st, nil); again != g4 || runs != 1 {
		t.Errorf("the same settings ran the analysis %d times", runs)
	}
	for _, l := range []callgraph.Level{callgraph.BehavedCLs, callgraph.EncapRespect, callgraph.CorrectCast, callgraph.CorrectEnv} {
		o := st
		o.Level = l
		if g, err := w.graph(ctx, &o, nil); err != nil || g.Level != l {
			t.Fatalf("level %v: %v", l, err)
		}
	}
	w.mu.Lock()
	n, pinned := len(w.graphs), w.graphs[st.analysisKey(nil)]
	w.mu.Unlock()
	if n > maxGraphs || pinned == nil || pinned.g != g4 {
		t.Errorf("cache holds %d graphs (max %d); pinned graph kept: %v", n, maxGraphs, pinned != nil)
	}
}
