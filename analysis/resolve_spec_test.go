package analysis

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestSpecifiedSite: a specification entry gives res.Main.castOnly's forName (in
// testdata/java/cg/resolution/src/res/Main.java) exactly its targets at every level,
// with status Specified, and bad entries are reported with their file position.
func TestSpecifiedSite(t *testing.T) {
	if testing.Short() {
		t.Skip("full-JDK analysis")
	}
	classes := javatest.Compile(t, javatest.Program(t, "cg/resolution"), javatest.Release(17))
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{{Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	line := lineOf(t, "testdata/java/cg/resolution/src/res/Main.java", "Class<?> c = Class.forName(name);")
	f := spec.Parse("jcg-spec.txt", []byte(strings.Join([]string{
		fmt.Sprintf("res.Main.castOnly @ %d => res.Square", line),
		"res.Nope.m @ 1 => res.Square",          // unknown class
		"res.Main.castOnly @ 999 => res.Square", // no call on that line
		"res.Main.main @ 1 => res.Missing",      // unknown target
	}, "\n")))
	h := ix.Hierarchy()
	caller := h.Class("res/Main").Method("castOnly", "(Ljava/lang/String;)Lres/Shape;")
	square := h.Class("res/Square").Method("<clinit>", "()V")
	circle := h.Class("res/Circle").Method("<clinit>", "()V")
	a := New(ix)
	for _, l := range []callgraph.Level{callgraph.BehavedCLs, callgraph.CorrectString} {
		g, err := a.Run(context.Background(), Options{Level: l, Algorithm: callgraph.CHA, Spec: f})
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, s := range g.SitesOf(caller.ID) {
			if int(s.Line) == line && s.Feature == callgraph.FeatLoading {
				found = true
				if s.Status != callgraph.Specified || !strings.Contains(s.Evidence, "jcg-spec.txt:1") {
					t.Errorf("level %s: site status %s, evidence %q", l, s.Status, s.Evidence)
				}
			}
		}
		if !found {
			t.Errorf("level %s: no loading site at line %d", l, line)
		}
		// The line's edges: Class.forName itself and the specified class's initialiser
		// (the next line's newInstance has fallback edges of its own).
		callees := map[int32]bool{}
		for _, b := range g.Callees(caller.ID) {
			if int(b.Line) == line {
				for _, id := range g.Sets[b.Set] {
					callees[id] = true
				}
			}
		}
		if !callees[square.ID] || callees[circle.ID] {
			t.Errorf("level %s: want an edge from line %d to Square.<clinit> and none to Circle.<clinit>", l, line)
		}
		want := []string{"jcg-spec.txt:2:1: unknown class res.Nope", "jcg-spec.txt:3:1: no call at line 999", "jcg-spec.txt:4:1: unknown target class res.Missing"}
		if len(g.Problems) != len(want) {
			t.Fatalf("level %s: problems %q", l, g.Problems)
		}
		for i, w := range want {
			if !strings.HasPrefix(g.Problems[i], w) {
				t.Errorf("problem %d = %q, want prefix %q", i, g.Problems[i], w)
			}
		}
	}
}

// lineOf returns the 1-based line of the first line of a file (relative to the module
// root) containing text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), file))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line containing %q", file, text)
	return 0
}
