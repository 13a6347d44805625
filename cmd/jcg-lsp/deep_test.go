package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/classgen"
)

// chainJar writes classgen.Chain(n) as a jar in a temporary directory.
func chainJar(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("chain%d.jar", n))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := classgen.WriteJar(f, classgen.Chain(n)); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkAnalyzeDeepChain runs the README's `analyze` (every level, with the JDK)
// on the bundled example and on superclass chains 10,000 and 20,000 classes deep.
// Issue 16's budget: the 20,000-deep chain costs at most 1.5 times the example. With
// selection walking each class's whole chain, CHA was quadratic in the depth.
func BenchmarkAnalyzeDeepChain(b *testing.B) {
	jars := []struct{ name, path string }{{"example", exampleJar}}
	for _, n := range []int{10000, 20000} {
		jars = append(jars, struct{ name, path string }{fmt.Sprintf("chain%d", n), chainJar(b, n)})
	}
	for _, j := range jars {
		b.Run(j.name, func(b *testing.B) {
			for b.Loop() {
				var errb bytes.Buffer
				if err := run(context.Background(), []string{"analyze", j.path}, io.Discard, &errb); err != nil {
					b.Fatalf("%v\n%s", err, errb.String())
				}
			}
		})
	}
}
