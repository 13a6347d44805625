package incremental

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

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
