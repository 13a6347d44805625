package analysis

import (
	"context"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
	"github.com/jcg-lsp/jcg-lsp/internal/testindex"
)

// programsIndex compiles test programs of testdata/java (Java 17) and indexes them as
// one application over the JDK; the index is closed when the test ends.
func programsIndex(t *testing.T, programs ...string) *index.Index {
	return testindex.Programs(t, nil, programs...)
}

// jdkSideIndex compiles program jdkSide of testdata/java and the application app
// against it, and indexes jdkSide as the JDK's, with the mini JDK, under app; the
// index is closed when the test ends.
func jdkSideIndex(t *testing.T, jdkSide, app string) *index.Index {
	t.Helper()
	jdk := javatest.Compile(t, javatest.Program(t, jdkSide), javatest.Release(17))
	classes := javatest.Compile(t, javatest.Program(t, app), javatest.Release(17), javatest.ClassPath(jdk))
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{
		{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: jdk, Origin: classpath.JDK},
		{Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}
