// Package testindex indexes the test programs of testdata/java for tests of the
// packages above the index.
package testindex

import (
	"context"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// Programs indexes testdata/java/<program>s, compiled by javac for release 17, as the
// application, with the JDK that runs the tests; cache (nil for none) keeps facts
// between indexes. The index is closed when the test ends.
func Programs(t testing.TB, cache *index.FactsCache, programs ...string) *index.Index {
	t.Helper()
	var sources []classpath.Source
	for _, p := range programs {
		dir := javatest.Compile(t, javatest.Program(t, p), javatest.Release(17))
		sources = append(sources, classpath.Source{Path: dir, Origin: classpath.Application})
	}
	ix, err := index.Build(context.Background(), index.Config{Sources: sources}, cache)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}
