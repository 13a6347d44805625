package hierarchy_test

import (
	"fmt"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// TestSelectSubtypesDeep checks SelectSubtypes against Select on deep chains, in the
// shapes that make its incremental computation take different paths: public and
// package-private methods (the latter overridden in one package of two, and made
// public half-way down), every class also implementing an interface directly (so that
// the walk of Object's or the interface's subtypes reaches classes before their
// superclasses), and a default method no class declares.
func TestSelectSubtypesDeep(t *testing.T) {
	const n = 3000
	const iface uint16 = classfile.AccPublic | classfile.AccInterface | classfile.AccAbstract
	inputs := []hierarchy.Input{
		{File: file("java/lang/Object", "", pub, classfile.Method{Name: "hashCode", Desc: "()I", Access: pub})},
		{File: &classfile.File{Major: 61, Name: "q/I", Super: "java/lang/Object", Access: iface,
			Methods: []classfile.Method{{Name: "d", Desc: "()V", Access: pub}}}},
	}
	name := func(i int) string { return fmt.Sprintf("p%d/C%d", i%2, i) }
	for i := range n {
		super := "java/lang/Object"
		if i > 0 {
			super = name(i - 1)
		}
		f := file(name(i), super, pub)
		if i%5 == 0 {
			acc := uint16(0)
			if i == n/2 {
				acc = pub
			}
			f.Methods = append(f.Methods, classfile.Method{Name: "m", Desc: "()V", Access: acc})
		}
		if i%7 == 3 {
			f.Methods = append(f.Methods, classfile.Method{Name: "hashCode", Desc: "()I", Access: pub})
		}
		// Each class names q/I again: Object's and q/I's subtypes reach every class
		// directly, in an order unrelated to the chain.
		f.Interfaces = []string{"q/I"}
		inputs = append(inputs, hierarchy.Input{File: f})
	}
	h := hierarchy.New(inputs)
	obj, in := h.Class("java/lang/Object"), h.Class("q/I")
	hash, d := obj.Method("hashCode", "()I"), in.Method("d", "()V")
	checkSelectSubtypes(t, h, obj, hash)
	checkSelectSubtypes(t, h, in, hash)
	checkSelectSubtypes(t, h, in, d)
	checkSelectSubtypes(t, h, obj, d)
	for _, i := range []int{0, 5, 10, 15, n / 2, n/2 + 5, n - 5} {
		m := h.Class(name(i)).Method("m", "()V")
		for _, from := range []int{i, i + 1, i + 2, n / 3} {
			if from < n && from >= i {
				checkSelectSubtypes(t, h, h.Class(name(from)), m)
			}
		}
		checkSelectSubtypes(t, h, h.Class(name(i)), hash)
	}
}

// TestSelectSubtypesJDK checks SelectSubtypes against Select over the JDK, for the
// methods CHA asks about most (chaPairs's) and for every method of a sample of
// classes, each on its class and on the interfaces and superclasses it resolves from.
func TestSelectSubtypesJDK(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the JDK")
	}
	h := hierarchy.New(jdkInputs(t))
	for i, c := range h.Classes() {
		if i%40 != 0 || c.Phantom {
			continue
		}
		for _, m := range c.Methods {
			if m.IsStatic() || m.IsConstructor() {
				continue
			}
			checkSelectSubtypes(t, h, c, m)
		}
	}
	for _, ref := range []string{"java/lang/Object.toString()Ljava/lang/String;", "java/lang/Object.hashCode()I",
		"java/util/Collection.size()I", "java/util/Map.getOrDefault(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
		"java/lang/Iterable.forEach(Ljava/util/function/Consumer;)V"} {
		var cls, rest string
		for j := range ref {
			if ref[j] == '.' {
				cls, rest = ref[:j], ref[j+1:]
			}
			if ref[j] == '(' {
				break
			}
		}
		c := h.Class(cls)
		var m *hierarchy.Method
		for _, x := range c.Methods {
			if x.Name+x.Desc == rest {
				m = x
			}
		}
		if m == nil {
			t.Fatalf("no %s", ref)
		}
		checkSelectSubtypes(t, h, c, m)
	}
}

// BenchmarkSelectDeepChain measures Select of Object.hashCode at the bottom of a
// chain 20,000 classes deep whose classes declare constructors only (what javac makes
// of `class C1 extends C0 {}`): the walk skips them in one step (Class.up), where it
// used to visit all 20,000.
func BenchmarkSelectDeepChain(b *testing.B) {
	const n = 20000
	inputs := []hierarchy.Input{{File: file("java/lang/Object", "", pub,
		classfile.Method{Name: "<init>", Desc: "()V", Access: pub}, classfile.Method{Name: "hashCode", Desc: "()I", Access: pub})}}
	for i := range n {
		super := "java/lang/Object"
		if i > 0 {
			super = fmt.Sprintf("c/C%d", i-1)
		}
		inputs = append(inputs, hierarchy.Input{File: file(fmt.Sprintf("c/C%d", i), super, pub, classfile.Method{Name: "<init>", Desc: "()V", Access: pub})})
	}
	h := hierarchy.New(inputs)
	bottom, hash := h.Class(fmt.Sprintf("c/C%d", n-1)), h.Object().Method("hashCode", "()I")
	if got := h.Select(bottom, hash); got != hash {
		b.Fatalf("Select = %v, want %v", got, hash)
	}
	for b.Loop() {
		sinkMethod = h.Select(bottom, hash)
	}
}
