package analysis

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestModernJavaOnJDK25 analyses testdata/java/modern, compiled by javac 25, with
// the JDK 25 image at levels 2 and 6 under RTA. Expected from the program
// and JDK 25's sources (the file's header): the tasks of virtual threads (body,
// built, pooled) run from Thread.runWith, which the virtual thread's continuation calls;
// the pattern switch's cases call the records' accessors; main reaches area; the
// upcall stub's creation in sortNative calls compare, the handle's target.
func TestModernJavaOnJDK25(t *testing.T) {
	home := javatest.JDK25Home()
	if home == "" {
		t.Skip("no JDK 25 (set JCG_JDK25_HOME or install Temurin 25): skipping the analysis of Java 21-25 features")
	}
	classes := javatest.Compile(t, javatest.Program(t, "modern"), javatest.Release(25), javatest.WithJavac(home+"/bin/javac"))
	ix, err := index.Build(context.Background(), index.Config{JDKHome: home, Sources: []classpath.Source{{Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	method := func(cls, name string) *hierarchy.Method {
		c := h.Class(cls)
		if c == nil {
			t.Fatalf("no class %s in the JDK 25 image or the program", cls)
		}
		for _, m := range c.Methods {
			if m.Name == name {
				return m
			}
		}
		t.Fatalf("no method %s.%s", cls, name)
		return nil
	}
	runWith := method("java/lang/Thread", "runWith")
	edges := [][2]*hierarchy.Method{
		{runWith, method("modern/Main", "body")},
		{runWith, method("modern/Main", "pooled")},
		{runWith, method("modern/Main", "built")},
		{method("modern/Main", "main"), method("modern/Main", "area")},
		{method("modern/Main", "area"), method("modern/Main$Circle", "r")},
		{method("modern/Main", "area"), method("modern/Main$Square", "side")},
	}
	sortNative, compare := method("modern/Main", "sortNative"), method("modern/Main", "compare")
	a := New(ix)
	for _, l := range []callgraph.Level{callgraph.EncapRespect, callgraph.CorrectJDK} {
		g, err := a.Run(context.Background(), Options{Level: l, Algorithm: callgraph.RTA, Mains: []string{"modern.Main"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range edges {
			if !g.HasEdge(e[0].ID, e[1].ID) {
				t.Errorf("level %d: no edge %s -> %s", l, e[0], e[1])
			}
		}
		// The upcall stub's site itself resolves to compare (the downcall's invokeExact
		// reaches it too, through its fallback to every lookup's targets).
		upcall := false
		for _, st := range g.SitesOf(sortNative.ID) {
			if strings.HasPrefix(st.API, "Linker.upcallStub") {
				upcall = true
				if st.Status != callgraph.Resolved || st.Targets < 0 || !slices.Contains(g.Sets[st.Targets], compare.ID) {
					t.Errorf("level %d: upcallStub site %+v, want it resolved to %s", l, st, compare)
				}
			}
		}
		if !upcall {
			t.Errorf("level %d: no upcallStub site in %s", l, sortNative)
		}
	}
}
