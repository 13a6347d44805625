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
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
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
			base, ix, prev := editIndexes(t, sources, edit.from, edit.to)
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
			hidden := 0
			for _, m := range h.Methods() {
				if got, want := callersOf(after, h, m.ID), callersOf(fresh, h, m.ID); !slices.Equal(got, want) {
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

// circleWork is testdata/java/update/base's Work calling draw on a Circle: the call
// names Circle, so it resolves to Circle.draw, or to Shape.draw once variant
// removeoverride removes Circle's override (a caller of Shape.draw that an index
// must find again although no changed code names draw).
const circleWork = `package app;

public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        new Circle().draw();
        System.out.println(a.length);
    }

    static void other() {
        Lib.common();
    }
}
`

// Variants written by TestNewIndexAcross: shapearea gives Shape a method Circle
// inherits, Work a call of it that names Circle (it resolves to Shape.area) and a
// class Round with its own area; circleround makes Circle extend Round, so that the
// call resolves to Round.area and Shape.area loses a caller, though no changed
// class declares or names area.
const (
	shapeArea = `package app;

public class Shape {
    public void draw() {}

    public int area() {
        return 0;
    }
}
`
	round = `package app;

public class Round {
    public int area() {
        return 3;
    }
}
`
	areaWork = `package app;

public class Work {
    static void run(String[] a) {
        Lib.common();
        Lib.onlyFromWork();
        Creator.create();
        System.out.println(new Circle().area());
    }

    static void other() {
        Lib.common();
    }
}
`
	roundCircle = `package app;

public class Circle extends Round {
    public void draw() {
        Lib.common();
    }
}
`
)

// TestNewIndexAcross edits members of testdata/java/update's classes (a helper added
// and removed, an override added or removed, a class added and removed, a method
// nothing calls added) and checks that an index made after the edit from the
// previous one's look-ups (NewIndexAcross, in the new IDs) finds the same callers
// and hidden callers of every method as a new index does, and that it keeps some
// of the previous look-ups.
func TestNewIndexAcross(t *testing.T) {
	// Both versions are in one class directory, as a build leaves them, so that
	// only the edited classes change (Index.Changes).
	var classes string
	sources := func(t *testing.T, variants string) []classpath.Source {
		src := t.TempDir()
		javatest.CopyTree(t, javatest.Program(t, "update/base"), src)
		for _, v := range strings.Split(variants, "+") {
			switch v {
			case "":
			case "circlecall", "shapearea", "circleround":
				files := map[string]map[string]string{"circlecall": {"Work": circleWork},
					"shapearea": {"Shape": shapeArea, "Round": round, "Work": areaWork}, "circleround": {"Circle": roundCircle}}[v]
				for class, text := range files {
					if err := os.WriteFile(filepath.Join(src, "app", class+".java"), []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			default:
				javatest.CopyTree(t, javatest.Program(t, "update/"+v), src)
			}
		}
		if err := os.RemoveAll(classes); err != nil {
			t.Fatal(err)
		}
		javatest.CopyTree(t, javatest.Compile(t, src), classes)
		return []classpath.Source{{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: classes, Origin: classpath.Application}}
	}
	for _, edit := range []struct {
		from, to  string
		newSupers bool // the edit changes a class's supertypes: nothing is kept
	}{
		{"", "helper", false}, {"helper", "", false}, {"", "addoverride", false}, {"", "removeoverride", false},
		{"", "addclass", false}, {"addclass", "", false}, {"", "header", false},
		{"circlecall", "circlecall+removeoverride", false}, {"circlecall+removeoverride", "circlecall", false},
		{"shapearea", "shapearea+circleround", true},
	} {
		t.Run(edit.from+"->"+edit.to, func(t *testing.T) {
			classes = filepath.Join(t.TempDir(), "classes")
			base, ix, prev := editIndexes(t, sources, edit.from, edit.to)
			h, oh := ix.Hierarchy(), base.Hierarchy()
			if n := len(ix.Changes(base)); n > 2 {
				t.Errorf("%d classes changed: want the edited ones only", n)
			}
			if h.SameClasses(oh) {
				t.Fatalf("a member edit kept the hierarchy")
			}
			var ids IDMap
			ids.Classes, ids.Methods = h.IDsAcross(oh)
			var changed, gone []int32
			for _, n := range ix.Changes(base) {
				if c := h.Class(n); c != nil {
					changed = append(changed, c.ID)
				} else {
					gone = append(gone, oh.Class(n).ID)
				}
			}
			after, fresh := NewIndexAcross(ix, prev, changed, gone, ids), NewIndex(ix)
			if kept := len(after.named) > 0 && len(after.callerCache) > 0; kept == edit.newSupers {
				t.Errorf("%d names and %d callers kept from the previous index's %d and %d (the edit changes supertypes: %v)",
					len(after.named), len(after.callerCache), len(prev.named), len(prev.callerCache), edit.newSupers)
			}
			for _, m := range h.Methods() {
				if got, want := callersOf(after, h, m.ID), callersOf(fresh, h, m.ID); !slices.Equal(got, want) {
					t.Errorf("%s: callers %v, a new index finds %v", m, got, want)
				}
				if got, want := after.hiddenCallers(m), fresh.hiddenCallers(m); got != want {
					t.Errorf("%s: hidden callers %v, a new index says %v", m, got, want)
				}
			}
		})
	}
}

// editIndexes indexes the program sources(from) gives, and the one sources(to) gives
// after it (index.Rebuild), and returns both with an index over the first that has
// looked up the callers and hidden callers of every method.
func editIndexes(t *testing.T, sources func(*testing.T, string) []classpath.Source, from, to string) (base, ix *index.Index, prev *Index) {
	t.Helper()
	ctx := context.Background()
	base, err := index.Build(ctx, index.Config{Sources: sources(t, from)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { base.Close() })
	prev = NewIndex(base)
	for _, m := range base.Hierarchy().Methods() {
		prev.callers(m)
		prev.hiddenCallers(m)
	}
	ix, err = index.Rebuild(ctx, index.Config{Sources: sources(t, to)}, nil, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return base, ix, prev
}

type callRef struct{ caller, call int32 }

// callersOf returns the callers ix finds for method m of h, by IDs.
func callersOf(ix *Index, h *hierarchy.Hierarchy, m int32) []callRef {
	var out []callRef
	for _, cr := range ix.callers(h.Methods()[m]) {
		out = append(out, callRef{cr.Caller.ID, cr.Call})
	}
	return out
}
