package analysis

import (
	"context"
	"os"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// BenchmarkRunJavacc measures one run of the solver over javacc with the JDK at
// Correct-String, once the level-independent work is done (Prepare): what changes in
// the worklist or the site report cost, without the indexing and planning that
// dominate the first run and vary with the machine's load.
func BenchmarkRunJavacc(b *testing.B) {
	ctx := context.Background()
	a := New(javaccIndex(b))
	if err := a.Prepare(ctx, callgraph.CHA); err != nil {
		b.Fatal(err)
	}
	for _, run := range []struct {
		name  string
		algo  callgraph.Algorithm
		sites bool // the cost of the site report (Options.Sites)
	}{{"cha", callgraph.CHA, false}, {"rta", callgraph.RTA, false}, {"xta", callgraph.XTA, false}, {"cha+sites", callgraph.CHA, true}} {
		b.Run(run.name, func(b *testing.B) {
			opts := Options{Level: callgraph.CorrectString, Algorithm: run.algo, Mains: []string{"javacc"}}
			if run.sites {
				opts.Sites = func(*callgraph.Graph) {}
			}
			if _, err := a.Run(ctx, opts); err != nil { // warms the per-analyzer caches
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := a.Run(ctx, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstRunJavacc measures the first run of a new analyzer over javacc with
// the JDK at the defaults (TFA at Correct-JDK), as after an edit of method bodies,
// with Prepare beside it as the server runs it: "fresh" plans every method again,
// "inherited" starts from the previous analyzer's plans and caches (Inherit).
func BenchmarkFirstRunJavacc(b *testing.B) {
	ctx := context.Background()
	ix := javaccIndex(b)
	opts := Options{Mains: []string{"javacc"}}
	prev := New(ix)
	if _, err := prev.Run(ctx, opts); err != nil {
		b.Fatal(err)
	}
	for _, inherit := range []bool{false, true} {
		name := "fresh"
		if inherit {
			name = "inherited"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				a := New(ix)
				if inherit {
					a.Inherit(prev, nil)
				}
				done := make(chan error, 1)
				go func() { done <- a.Prepare(ctx, opts.Algorithm) }()
				if _, err := a.Run(ctx, opts); err != nil {
					b.Fatal(err)
				}
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// javaccIndex indexes Debian's javacc with the JDK, closed when the benchmark ends.
func javaccIndex(b *testing.B) *index.Index {
	const jar = "/usr/share/java/javacc.jar"
	if _, err := os.Stat(jar); err != nil {
		b.Skipf("%s not found: install javacc", jar)
	}
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{{Path: jar, Origin: classpath.Application}}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return ix
}
