package hierarchy_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestHierarchyProgramRuns runs testdata/java/hierarchy on the JVM: its Trace class
// checks that every call the program makes reaches the method its directive names,
// so the expectations TestHierarchyProgram checks are the JVM's, not just ours.
func TestHierarchyProgramRuns(t *testing.T) {
	classes := javatest.Compile(t, javatest.Program(t, "hierarchy"))
	java := filepath.Join(javatest.JDKHome(t), "bin", "java")
	out, err := exec.Command(java, "-cp", classes, "hier.Main").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "OK") {
		t.Fatalf("java hier.Main: %v\n%s", err, out)
	}
	t.Logf("%s", strings.TrimSpace(string(out)))
}

// TestJDK checks invariants over the whole JDK, where javac and the JDK's build
// guarantee a consistent hierarchy: no repairs but missing classes; subtype walks
// agree with IsSubtype and with each other; every concrete method selects itself in
// its own class; and every concrete class has an implementation for every method
// it inherits (javac rejects a concrete class that does not).
func TestJDK(t *testing.T) {
	h := hierarchy.New(jdkInputs(t))
	for _, p := range h.Problems() {
		if p.Kind != hierarchy.Missing {
			t.Errorf("problem in the JDK: %s", p)
		}
	}
	classes := h.Classes()
	t.Logf("%d classes, %d methods, %d fields, %d problems", len(classes), len(h.Methods()), len(h.Fields()), len(h.Problems()))
	if h.Object() == nil || h.Object().Phantom {
		t.Fatal("no java/lang/Object")
	}

	// Supertype pairs counted from below and from above must agree.
	pairsUp, pairsDown := 0, 0
	for _, c := range classes {
		h.Supertypes(c, func(s *hierarchy.Class) bool {
			pairsUp++
			if !h.IsSubtype(c, s) {
				t.Fatalf("Supertypes(%s) yields %s, but IsSubtype is false", c, s)
			}
			return true
		})
		seen := map[*hierarchy.Class]bool{}
		h.AllSubtypes(c, func(s *hierarchy.Class) bool {
			pairsDown++
			if seen[s] {
				t.Fatalf("AllSubtypes(%s) yields %s twice", c, s)
			}
			seen[s] = true
			return true
		})
	}
	if pairsUp != pairsDown {
		t.Errorf("%d (class, supertype) pairs from below, %d from above", pairsUp, pairsDown)
	}
	t.Logf("%d subtype pairs", pairsUp)

	missing := 0
	for _, c := range classes {
		if c.Phantom || c.IsInterface() || c.IsAbstract() {
			continue
		}
		for _, m := range c.Methods {
			if !m.IsStatic() && !m.IsAbstract() && !m.IsConstructor() && !m.IsClassInitializer() {
				if got := h.Select(c, m); got != m {
					t.Errorf("Select(%s, %s) = %v, want the method itself", c, m, got)
				}
			}
		}
		h.Supertypes(c, func(s *hierarchy.Class) bool {
			for _, m := range s.Methods {
				if m.IsAbstract() {
					if _, err := h.Selection(c, m); err != nil {
						missing++
						if missing <= 10 {
							t.Errorf("concrete %s has no implementation of %s: %v", c, m, err)
						}
					}
				}
			}
			return true
		})
	}
	if missing > 10 {
		t.Errorf("... %d unimplemented methods in all", missing)
	}

	// Spot checks against well-known JDK facts.
	for _, tc := range []struct{ recv, ref, want string }{
		{"java/util/ArrayList", "java/util/List.size()I", "java/util/ArrayList.size()I"},
		{"java/util/ArrayList", "java/util/Collection.stream()Ljava/util/stream/Stream;", "java/util/Collection.stream()Ljava/util/stream/Stream;"},
		{"java/util/ArrayList", "java/lang/Iterable.forEach(Ljava/util/function/Consumer;)V", "java/util/ArrayList.forEach(Ljava/util/function/Consumer;)V"},
		{"java/lang/String", "java/lang/Object.hashCode()I", "java/lang/String.hashCode()I"},
		{"java/lang/Thread", "java/lang/Object.hashCode()I", "java/lang/Object.hashCode()I"},
	} {
		recv := h.Class(tc.recv)
		owner, name, desc := splitRef(t, h, tc.ref)
		m, err := h.ResolveMethod(owner, name, desc, owner.IsInterface())
		if err != nil {
			t.Errorf("resolve %s: %v", tc.ref, err)
			continue
		}
		if got := h.Select(recv, m); got == nil || got.String() != tc.want {
			t.Errorf("Select(%s, %s) = %v, want %s", recv, m, got, tc.want)
		}
	}
}

func splitRef(t *testing.T, h *hierarchy.Hierarchy, ref string) (*hierarchy.Class, string, string) {
	t.Helper()
	i := strings.IndexByte(ref, '(')
	j := strings.LastIndexByte(ref[:i], '.')
	c := h.Class(ref[:j])
	if c == nil {
		t.Fatalf("no class in %s", ref)
	}
	return c, ref[j+1 : i], ref[i:]
}

// TestConcurrentReaders queries one hierarchy from several goroutines, including the
// lazily built package index, for the race detector to check that readers share
// nothing mutable.
func TestConcurrentReaders(t *testing.T) {
	h := hierarchy.New(jdkInputs(t))
	obj := h.Object()
	toString := obj.Method("toString", "()Ljava/lang/String;")
	done := make(chan int)
	for g := range 4 {
		go func() {
			n := 0
			for i, c := range h.Classes() {
				if i%4 != g {
					continue
				}
				if h.Select(c, toString) != nil {
					n++
				}
				n += len(h.PackageClasses(c.Package())) & 1
				h.AllSubtypes(c, func(*hierarchy.Class) bool { return true })
			}
			done <- n
		}()
	}
	total := 0
	for range 4 {
		total += <-done
	}
	if total == 0 {
		t.Error("no class selects Object.toString")
	}
}
