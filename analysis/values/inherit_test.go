package values

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// methodRefWork is testdata/java/update/base's Work with one method of Lib called
// through a method reference: a method-handle constant names it, so it has a
// caller no call instruction shows (hiddenCallers). Both versions have a method
// reference, so that an edit from one to the other changes bodies only.
func methodRefWork(target string) string {
	return `package app;

public class Work {
    static void run(String[] a) {
        Lib.common();
        Runnable r = Lib::` + target + `;
        r.run();
        Creator.create();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
`
}

// TestNewIndexAfterLookups edits the body of Work in testdata/java/update (a call
// added, calls removed, a new reachable method, a method reference that names
// another method) and checks that an index made after the edit from the previous one's
// look-ups (NewIndexAfter) finds the same callers and hidden callers of every
// method as a new index does (the calls of a name the edited class names are the
// previous index's with the class's part replaced), and that it does keep the
// previous look-ups.
func TestNewIndexAfterLookups(t *testing.T) {
	ctx := context.Background()
	sources := func(t *testing.T, variant string) []classpath.Source {
		src := t.TempDir()
		javatest.CopyTree(t, javatest.Program(t, "update/base"), src)
		switch variant {
		case "":
		case "ref-common", "ref-onlyFromWork":
			work := methodRefWork(strings.TrimPrefix(variant, "ref-"))
			if err := os.WriteFile(filepath.Join(src, "app", "Work.java"), []byte(work), 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			javatest.CopyTree(t, javatest.Program(t, "update/"+variant), src)
		}
		return []classpath.Source{{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: javatest.Compile(t, src), Origin: classpath.Application}}
	}
	for _, edit := range []struct{ from, to string }{
		{"", "addcall"}, {"", "removecall"}, {"", "newreach"},
		{"ref-common", "ref-onlyFromWork"}, {"ref-onlyFromWork", "ref-common"},
	} {
		t.Run(edit.from+"->"+edit.to, func(t *testing.T) {
			base, err := index.Build(ctx, index.Config{Sources: sources(t, edit.from)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer base.Close()
			prev := NewIndex(base)
			for _, m := range base.Hierarchy().Methods() {
				prev.callers(m)
				prev.hiddenCallers(m)
			}
			ix, err := index.Rebuild(ctx, index.Config{Sources: sources(t, edit.to)}, nil, base)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			h := ix.Hierarchy()
			if !h.SameClasses(base.Hierarchy()) {
				t.Fatalf("a body edit made a new hierarchy")
			}
			var changed []int32
			for _, n := range ix.Changes(base) {
				changed = append(changed, h.Class(n).ID)
			}
			after, fresh := NewIndexAfter(ix, prev, changed), NewIndex(ix)
			if len(after.named) != len(prev.named) {
				t.Errorf("%d of the previous index's %d names kept", len(after.named), len(prev.named))
			}
			if reflect.ValueOf(after.methodsByName()).Pointer() != reflect.ValueOf(prev.methodsByName()).Pointer() ||
				&after.binaryNames()[0] != &prev.binaryNames()[0] {
				t.Errorf("the methods by name or the binary names were made again, not shared")
			}
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
			hidden := 0
			for _, m := range h.Methods() {
				if got, want := refs(after, m.ID), refs(fresh, m.ID); !slices.Equal(got, want) {
					t.Errorf("%s: callers %v, a new index finds %v", m, got, want)
				}
				got, want := after.hiddenCallers(m), fresh.hiddenCallers(m)
				if got != want {
					t.Errorf("%s: hidden callers %v, a new index says %v", m, got, want)
				}
				if m.Name == "onlyFromWork" && want != (edit.to == "ref-onlyFromWork") {
					t.Errorf("%s: a new index says hidden callers %v after the edit to %q", m, want, edit.to)
				}
				if got {
					hidden++
				}
			}
			if hidden == 0 {
				t.Errorf("no method has hidden callers: the test checks nothing of them")
			}
		})
	}
}
