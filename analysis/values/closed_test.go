package values

import (
	"context"
	"slices"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestClosedCallers checks where the string analysis follows a public method's
// parameter to its callers: at Correct-JDK, a static method of a JDK package that
// its module keeps to the JDK (Environment.Internal), unless the JVM calls it
// too (Environment.Upcalled); never an instance method, nor below Correct-JDK, nor
// without the module's descriptor. testdata/java/jdkboundary says what each
// method's site loads.
func TestClosedCallers(t *testing.T) {
	ix, names := programClass(t, "jdkboundary", classpath.JDK, "jfake/internal/Names")
	internal := func(c *hierarchy.Class) bool { return c.Package() == "jfake/internal" }
	upcalled := func(m *hierarchy.Method) bool { return m.Name == "upcalled" }
	for _, tc := range []struct {
		level    callgraph.Level
		internal func(*hierarchy.Class) bool
		resolved []string // the methods whose site loads Names
	}{
		{callgraph.CorrectJDK, internal, []string{"load"}},
		{callgraph.CorrectJDK, nil, nil},
		{callgraph.CorrectEnv, internal, nil},
	} {
		va := New(ix, NewIndex(ix), tc.level, Environment{Internal: tc.internal, Upcalled: upcalled})
		var resolved []string
		for _, name := range []string{"load", "upcalled", "virtual"} {
			m := names.Method(name, "(Ljava/lang/String;)Ljava/lang/Class;")
			f := ix.Facts(m)
			if m == nil || f == nil || len(f.Calls) != 1 {
				t.Fatalf("Names.%s: not one call", name)
			}
			got := va.Loaded(m, &f.Calls[0])
			switch {
			case got.Complete && len(got.Set) == 1 && got.Set[0] == names:
				resolved = append(resolved, name)
			case got.Complete:
				t.Errorf("%v: Names.%s loads %v, want Names or unknown", tc.level, name, got.Set)
			}
		}
		if !slices.Equal(resolved, tc.resolved) {
			t.Errorf("%v (internal package given: %v): the sites of %v load Names, want those of %v", tc.level, tc.internal != nil, resolved, tc.resolved)
		}
	}
}

// programClass compiles testdata/java/<program>, indexes it alone (no JDK) as
// classes of origin, and returns the index and its class name.
func programClass(t *testing.T, program string, origin classpath.Origin, name string) (*index.Index, *hierarchy.Class) {
	t.Helper()
	classes := javatest.Compile(t, javatest.Program(t, program))
	ix, err := index.Build(context.Background(), index.Config{NoJDK: true, Sources: []classpath.Source{{Path: classes, Origin: origin}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	c := ix.Hierarchy().Class(name)
	if c == nil {
		t.Fatalf("%s is not indexed", name)
	}
	return ix, c
}
