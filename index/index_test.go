package index

import (
	"context"
	"slices"
	"testing"
	"unsafe"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// TestRebuildSharesUnchanged: a rebuild over an unchanged JDK keeps the parsed
// classes (and so their facts and everything keyed by them) and builds an equal
// hierarchy, which stays usable after the first index closes.
func TestRebuildSharesUnchanged(t *testing.T) {
	cfg := jdkConfig(t)
	ctx := context.Background()
	first, err := Build(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Rebuild(ctx, cfg, nil, first)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	c1, c2 := first.Hierarchy().Class("java/util/HashMap"), second.Hierarchy().Class("java/util/HashMap")
	if c1 == nil || c2 == nil || first.Hierarchy().File(c1) != second.Hierarchy().File(c2) {
		t.Fatalf("HashMap parsed again (or missing): %p %p", c1, c2)
	}
	if n1, n2 := len(first.Hierarchy().Methods()), len(second.Hierarchy().Methods()); n1 != n2 {
		t.Errorf("hierarchies differ: %d and %d methods", n1, n2)
	}
	first.Close()
	// Facts come from the shared bytes, which the second index keeps mapped.
	f, err := second.ClassFacts(c2)
	if err != nil || f == nil || len(f.Methods) != len(c2.Methods) {
		t.Errorf("facts of HashMap after the first index closed: %v", err)
	}
}

// TestFactsCacheRetain: facts of classes no longer on the class path are dropped.
func TestFactsCacheRetain(t *testing.T) {
	cfg := jdkConfig(t)
	cache := NewFactsCache()
	ix, err := Build(context.Background(), cfg, cache)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	for _, n := range []string{"java/lang/String", "java/util/HashMap"} {
		if _, err := ix.ClassFacts(h.Class(n)); err != nil {
			t.Fatal(err)
		}
	}
	cache.put(12345, nil) // a class version no longer on the class path
	cache.Retain(ix)
	if n := cache.Len(); n != 2 {
		t.Errorf("cache holds %d classes after Retain, want 2", n)
	}
}

// TestRebuildKeepsHierarchy: after a change of method bodies only
// (testdata/java/update/addcall), Rebuild keeps the hierarchy's classes and IDs,
// reads the new bodies and keeps the flows of the unchanged classes' methods; after
// a change of a header (update/header adds a method) it links a new hierarchy.
func TestRebuildKeepsHierarchy(t *testing.T) {
	ctx := context.Background()
	compile := func(variant string) string {
		src := t.TempDir()
		javatest.CopyTree(t, javatest.Program(t, "update/base"), src)
		if variant != "" {
			javatest.CopyTree(t, javatest.Program(t, "update/"+variant), src)
		}
		return javatest.Compile(t, src)
	}
	dir := t.TempDir()
	javatest.CopyTree(t, compile(""), dir)
	cfg := Config{Sources: []classpath.Source{{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: dir, Origin: classpath.Application}}}
	first, err := Build(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	calls := func(ix *Index, class, method string) []string {
		var out []string
		for _, m := range ix.Hierarchy().Class(class).Methods {
			if m.Name == method {
				for _, c := range ix.Facts(m).Calls {
					out = append(out, c.Ref.Class+"."+c.Ref.Name)
				}
			}
		}
		return out
	}
	if got := calls(first, "app/Work", "run"); slices.Contains(got, "app/Lib.viaLambda") {
		t.Fatalf("base Work.run calls %v", got)
	}

	// Flows asked of the first index: an unchanged class's method keeps its flow,
	// the changed class's gets the new body's.
	flow := func(ix *Index, class, method string) *facts.Flow {
		for _, m := range ix.Hierarchy().Class(class).Methods {
			if m.Name == method {
				fl, err := ix.Flow(m)
				if err != nil {
					t.Fatal(err)
				}
				return fl
			}
		}
		t.Fatalf("no %s.%s", class, method)
		return nil
	}
	libFlow, workFlow := flow(first, "app/Lib", "common"), flow(first, "app/Work", "run")

	javatest.CopyTree(t, compile("addcall"), dir)
	second, err := Rebuild(ctx, cfg, nil, first)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	h1, h2 := first.Hierarchy(), second.Hierarchy()
	if w1, w2 := h1.Class("app/Work"), h2.Class("app/Work"); w1 != w2 || h1.File(w1) == h2.File(w2) {
		t.Errorf("after a body change: Work is %p and %p, its files %p and %p; want one class, two files", w1, w2, h1.File(w1), h2.File(w2))
	}
	if got := calls(second, "app/Work", "run"); !slices.Contains(got, "app/Lib.viaLambda") {
		t.Errorf("rebuilt Work.run calls %v, want the new body's call of Lib.viaLambda", got)
	}
	if flow(second, "app/Lib", "common") != libFlow {
		t.Errorf("Lib.common's flow was made again after an edit of Work")
	}
	if flow(second, "app/Work", "run") == workFlow {
		t.Errorf("Work.run kept the flow of its old body")
	}

	javatest.CopyTree(t, compile("header"), dir)
	third, err := Rebuild(ctx, cfg, nil, second)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	if w2, w3 := h2.Class("app/Work"), third.Hierarchy().Class("app/Work"); w2 == w3 || len(w3.Methods) != len(w2.Methods)+1 {
		t.Errorf("after a header change: Work is %p (%d methods), was %p (%d)", w3, len(w3.Methods), w2, len(w2.Methods))
	}
}

// TestIndexSharesStrings: the classes of an index, and their facts, share one copy
// of each name: the calls of two JDK classes to the same method name its class
// with one string, and so do the classes' own names where the facts name them.
// After ReleaseStrings the facts extracted later are still right.
func TestIndexSharesStrings(t *testing.T) {
	cache := NewFactsCache()
	ix, err := Build(context.Background(), jdkConfig(t), cache)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	// owners maps the class of each call of the classes below to its first string.
	owners := map[string]string{}
	shared := 0
	for i, n := range []string{"java/lang/String", "java/util/HashMap", "java/util/ArrayList"} {
		if i == 2 {
			cache.ReleaseStrings()
		}
		f, err := ix.ClassFacts(h.Class(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range f.Methods {
			for _, c := range m.Calls {
				first, ok := owners[c.Ref.Class]
				switch {
				case !ok:
					owners[c.Ref.Class] = c.Ref.Class
				case i == 1 && unsafe.StringData(first) != unsafe.StringData(c.Ref.Class):
					t.Fatalf("%s: a call names %s with a second copy", n, c.Ref.Class)
				case i == 1:
					shared++
				}
			}
		}
		if i == 2 && len(f.Methods) == 0 {
			t.Fatalf("%s: no facts after ReleaseStrings", n)
		}
	}
	if shared == 0 || owners["java/lang/Object"] == "" {
		t.Fatalf("String and HashMap call no common class (%d shared): the test proves nothing", shared)
	}
}
