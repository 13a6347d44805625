package analysis

import (
	"context"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// programsIndex compiles test programs of testdata/java (Java 17) and indexes them as
// one application over the JDK; the index is closed when the test ends.
func programsIndex(t *testing.T, programs ...string) *index.Index {
	t.Helper()
	var sources []classpath.Source
	for _, p := range programs {
		dir := javatest.Compile(t, javatest.Program(t, p), javatest.Release(17))
		sources = append(sources, classpath.Source{Path: dir, Origin: classpath.Application})
	}
	ix, err := index.Build(context.Background(), index.Config{Sources: sources}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}
