package values

import (
	"context"
	"slices"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// TestNewIndexAfterLookups edits the body of one class of testdata/java/update
// (a call added, calls removed, a new reachable method) and checks that an index
// made after the edit from the previous one's look-ups (NewIndexAfter) finds the
// same callers of every method as a new index does, and that it does keep some of
// the previous look-ups (of names the edited class names neither before nor after).
func TestNewIndexAfterLookups(t *testing.T) {
	ctx := context.Background()
	sources := func(t *testing.T, variant string) []classpath.Source {
		src := t.TempDir()
		javatest.CopyTree(t, javatest.Program(t, "update/base"), src)
		if variant != "" {
			javatest.CopyTree(t, javatest.Program(t, "update/"+variant), src)
		}
		return []classpath.Source{{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: javatest.Compile(t, src), Origin: classpath.Application}}
	}
	base, err := index.Build(ctx, index.Config{Sources: sources(t, "")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	prev := NewIndex(base)
	for _, m := range base.Hierarchy().Methods() {
		prev.callers(m)
	}
	for _, variant := range []string{"addcall", "removecall", "newreach"} {
		t.Run(variant, func(t *testing.T) {
			ix, err := index.Rebuild(ctx, index.Config{Sources: sources(t, variant)}, nil, base)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			h := ix.Hierarchy()
			if !h.SameClasses(base.Hierarchy()) {
				t.Fatalf("%s: a body edit made a new hierarchy", variant)
			}
			var changed []int32
			for _, n := range ix.Changes(base) {
				changed = append(changed, h.Class(n).ID)
			}
			after, fresh := NewIndexAfter(ix, prev, changed), NewIndex(ix)
			kept := 0
			for id, refs := range after.callerCache {
				if len(refs) > 0 && &refs[0] == &prev.callerCache[id][0] {
					kept++
				}
			}
			if kept == 0 {
				t.Errorf("no callers kept from the previous index")
			}
			type ref struct{ caller, call int32 }
			refs := func(ix *Index, m int32) []ref {
				var out []ref
				for _, cr := range ix.callers(h.Methods()[m]) {
					out = append(out, ref{cr.Caller.ID, cr.Call})
				}
				return out
			}
			for _, m := range h.Methods() {
				if got, want := refs(after, m.ID), refs(fresh, m.ID); !slices.Equal(got, want) {
					t.Errorf("%s: callers %v, a new index finds %v", m, got, want)
				}
				if after.hiddenCallers(m) != fresh.hiddenCallers(m) {
					t.Errorf("%s: hidden callers %v, a new index says %v", m, after.hiddenCallers(m), fresh.hiddenCallers(m))
				}
			}
		})
	}
}
