package hierarchy_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// file returns a minimal parsed class file. The hierarchy reads only the decoded
// fields, so hostile shapes too large for testdata are built directly.
func file(name, super string, access uint16, methods ...classfile.Method) *classfile.File {
	return &classfile.File{Major: 61, Name: name, Super: super, Access: access, Methods: methods}
}

const pub = classfile.AccPublic

// TestDeepPackagePrivateChain selects through a chain of 20,000 classes in two
// alternating packages, each declaring a package-private m()V. By JVMS 5.4.5 a
// package-private m overrides C0.m exactly when it is in C0's package (no public
// override lies between to make the transitive case apply), so for a receiver Cn
// the selected method is Cn.m for even n and C(n-1).m for odd n. The recursive
// definition of overriding is exponential on such a chain; the hierarchy must
// answer in linear time (a hang fails the test by timeout). Then C10000 makes m
// public: from there on every declaration overrides C0.m, whatever its package.
func TestDeepPackagePrivateChain(t *testing.T) {
	const n = 20000
	inputs := []hierarchy.Input{{File: file("java/lang/Object", "", pub)}}
	name := func(i int) string { return fmt.Sprintf("p%d/C%d", i%2, i) }
	for i := range n {
		super := "java/lang/Object"
		if i > 0 {
			super = name(i - 1)
		}
		acc := uint16(0)
		if i == n/2 {
			acc = pub
		}
		inputs = append(inputs, hierarchy.Input{File: file(name(i), super, pub, classfile.Method{Name: "m", Desc: "()V", Access: acc})})
	}
	h := hierarchy.New(inputs)
	if len(h.Problems()) != 0 {
		t.Fatalf("problems: %v", h.Problems())
	}
	m0 := h.Class(name(0)).Method("m", "()V")
	for _, tc := range []struct{ recv, want int }{
		{0, 0}, {1, 0}, {2, 2}, {3, 2}, {n/2 - 1, n/2 - 2}, {n / 2, n / 2}, {n/2 + 1, n/2 + 1}, {n - 1, n - 1},
	} {
		got := h.Select(h.Class(name(tc.recv)), m0)
		if want := h.Class(name(tc.want)).Method("m", "()V"); got != want {
			t.Errorf("Select(%s, %s) = %v, want %v", name(tc.recv), m0, got, want)
		}
	}
	// C1.m, package-private in p1: C3 overrides it (same package), C2 does not.
	m1 := h.Class(name(1)).Method("m", "()V")
	if got := h.Select(h.Class(name(3)), m1); got == nil || got.Class.Name != name(3) {
		t.Errorf("Select(C3, C1.m) = %v, want C3.m", got)
	}
	if got := h.Select(h.Class(name(2)), m1); got != m1 {
		t.Errorf("Select(C2, C1.m) = %v, want C1.m", got)
	}
	if !h.IsSubtype(h.Class(name(n-1)), h.Class(name(0))) || h.IsSubtype(h.Class(name(0)), h.Class(name(1))) {
		t.Error("IsSubtype is wrong on the deep chain")
	}
}

// TestInterfaceLattice resolves through 64 interfaces each extending the two
// before it: 2^64 paths lead from the bottom to the top, so anything that walks
// paths instead of interfaces never finishes. The field and the default method are
// declared only by the top interface, I0.
func TestInterfaceLattice(t *testing.T) {
	const n = 64
	const iface uint16 = classfile.AccPublic | classfile.AccInterface | classfile.AccAbstract
	inputs := []hierarchy.Input{{File: file("java/lang/Object", "", pub)}}
	for i := range n {
		f := file(fmt.Sprintf("l/I%d", i), "java/lang/Object", iface)
		if i == 0 {
			f.Methods = []classfile.Method{{Name: "d", Desc: "()V", Access: pub}}
			f.Fields = []classfile.Field{{Name: "F", Desc: "I", Access: pub | classfile.AccStatic}}
		}
		for j := max(0, i-2); j < i; j++ {
			f.Interfaces = append(f.Interfaces, fmt.Sprintf("l/I%d", j))
		}
		inputs = append(inputs, hierarchy.Input{File: f})
	}
	inputs = append(inputs, hierarchy.Input{File: &classfile.File{Major: 61, Name: "l/C", Super: "java/lang/Object", Access: pub, Interfaces: []string{fmt.Sprintf("l/I%d", n-1)}}})
	h := hierarchy.New(inputs)
	c := h.Class("l/C")
	if f, err := h.ResolveField(c, "F", "I"); err != nil || f.Class.Name != "l/I0" {
		t.Errorf("ResolveField(C.F) = %v, %v; want l/I0.F", f, err)
	}
	if _, err := h.ResolveField(c, "G", "I"); err == nil {
		t.Error("ResolveField(C.G) succeeded")
	}
	d := h.Class("l/I0").Method("d", "()V")
	if got := h.Select(c, d); got != d {
		t.Errorf("Select(C, I0.d) = %v, want I0.d", got)
	}
	count := 0
	h.AllSubtypes(h.Class("l/I0"), func(*hierarchy.Class) bool { count++; return true })
	if count != n+1 {
		t.Errorf("AllSubtypes(I0) yields %d classes, want %d", count, n+1)
	}
}

// FuzzHierarchy builds small hierarchies of arbitrary shape from the fuzzer's bytes
// (cycles, classes implementing classes, nesting in circles, conflicting nest hosts,
// any method flags) and runs every query over them. Nothing may panic or hang, and
// the answers must be self-consistent: subtype walks agree with IsSubtype, and a
// selected method is a concrete instance method with the right signature declared
// in a supertype of the receiver.
func FuzzHierarchy(f *testing.F) {
	f.Add([]byte{3, 0, 1, 2, 0, 0x11, 0x22, 1, 2, 0, 0x01, 0x05})
	f.Add([]byte{5, 1, 0, 2, 3, 4, 0x40, 0x41, 0x42, 0x43, 0x44, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc})
	f.Add([]byte{8, 7, 6, 5, 4, 3, 2, 1, 0, 0xff, 0xfe, 0xfd, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88})
	f.Fuzz(func(t *testing.T, data []byte) {
		h := hierarchy.New(fuzzInputs(data))
		exercise(t, h)
		checkAgainstSpec(t, h)
	})
}

// fuzzInputs decodes data into up to 10 classes named p<k>/C<i>, plus Object.
func fuzzInputs(data []byte) []hierarchy.Input {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	n := next()%10 + 1
	name := func(i int) string { return fmt.Sprintf("p%d/C%d", i%3, i%n) }
	sigs := []struct{ name, desc string }{{"m", "()V"}, {"m", "(I)V"}, {"n", "()V"}}
	// Method flags are valid (JVMS 4.6): checking them is the class-file parser's job,
	// while the hierarchy must survive any shape of supertypes and nesting.
	flags := []uint16{0, classfile.AccPublic, classfile.AccPrivate, classfile.AccProtected, classfile.AccStatic,
		classfile.AccAbstract, classfile.AccPublic | classfile.AccAbstract, classfile.AccNative | classfile.AccVarargs}
	ifaceFlags := []uint16{classfile.AccPublic, classfile.AccPrivate, classfile.AccPublic | classfile.AccAbstract,
		classfile.AccPublic | classfile.AccStatic, classfile.AccPrivate | classfile.AccStatic}
	inputs := []hierarchy.Input{{File: file("java/lang/Object", "", pub, classfile.Method{Name: "m", Desc: "()V", Access: pub})}}
	for i := range n {
		shape := next()
		f := &classfile.File{Major: uint16(50 + shape%12), Name: name(i), Access: pub, Super: "java/lang/Object"}
		if shape&1 != 0 {
			f.Access |= classfile.AccInterface | classfile.AccAbstract
		}
		if shape&2 != 0 {
			f.Super = name(next())
		}
		if shape&4 != 0 {
			f.Super = "gone/Missing"
		}
		for range next() % 3 {
			f.Interfaces = append(f.Interfaces, name(next()))
		}
		for range next() % 4 {
			s, fl := next(), next()
			m := classfile.Method{Name: sigs[s%len(sigs)].name, Desc: sigs[s%len(sigs)].desc, Access: flags[fl%len(flags)]}
			if f.IsInterface() {
				m.Access = ifaceFlags[fl%len(ifaceFlags)]
			}
			// A signature declared twice is a ClassFormatError; the hierarchy's
			// answers for such classes are arbitrary and not compared.
			if !slices.ContainsFunc(f.Methods, func(o classfile.Method) bool { return o.Name == m.Name && o.Desc == m.Desc }) {
				f.Methods = append(f.Methods, m)
			}
		}
		if shape&8 != 0 {
			f.Fields = append(f.Fields, classfile.Field{Name: "f", Desc: "I", Access: flags[next()%len(flags)]})
		}
		if shape&16 != 0 {
			f.InnerClasses = append(f.InnerClasses, classfile.InnerClass{Inner: f.Name, Outer: name(next()), Name: "X"})
		}
		if shape&32 != 0 {
			f.EnclosingMethod = &classfile.EnclosingMethod{Class: name(next()), Name: "m", Desc: "()V"}
		}
		if shape&64 != 0 {
			f.NestHost = name(next())
		}
		if shape&128 != 0 {
			f.NestMembers = []string{name(next()), name(next())}
		}
		inputs = append(inputs, hierarchy.Input{File: f})
	}
	return inputs
}

// exercise runs every query on every combination of classes and methods of a small
// hierarchy and checks the answers for consistency.
func exercise(t *testing.T, h *hierarchy.Hierarchy) {
	classes := h.Classes()
	for _, c := range classes {
		h.Supertypes(c, func(s *hierarchy.Class) bool {
			if !h.IsSubtype(c, s) {
				t.Fatalf("Supertypes(%s) yields %s, but IsSubtype is false", c, s)
			}
			return true
		})
		seen := map[*hierarchy.Class]bool{}
		h.AllSubtypes(c, func(s *hierarchy.Class) bool {
			if seen[s] || !h.IsSubtype(s, c) {
				t.Fatalf("AllSubtypes(%s) yields %s twice or wrongly", c, s)
			}
			seen[s] = true
			return true
		})
		h.TopLevel(c)
		h.NestClasses(c)
		h.PackageClasses(c.Package())
		h.ResolveField(c, "f", "I")
		for _, sub := range classes {
			if h.IsSubtype(c, sub) && h.IsSubtype(sub, c) && c != sub {
				t.Fatalf("%s and %s are subtypes of each other", c, sub)
			}
		}
	}
	for _, c := range classes {
		for _, m := range h.Methods() {
			for _, iface := range []bool{false, true} {
				rm, err := h.ResolveMethod(c, m.Name, m.Desc, iface)
				if (rm == nil) == (err == nil) {
					t.Fatalf("ResolveMethod(%s, %s) = %v, %v", c, m, rm, err)
				}
			}
			h.Accessible(c, m, m.Class)
			h.EncapsulationSafe(c, m)
			h.EncapsulationSafeConstructor(c, m)
			h.SpecialTarget(c, m, nil)
			h.SpecialTarget(c, m, c)
			checkSelectSubtypes(t, h, c, m)
			sel, err := h.Selection(c, m)
			if (sel == nil) == (err == nil) || sel != h.Select(c, m) {
				t.Fatalf("Selection(%s, %s) = %v, %v", c, m, sel, err)
			}
			if sel != nil && sel != m && (sel.IsAbstract() || sel.IsStatic() || sel.Name != m.Name || sel.Desc != m.Desc || !h.IsSubtype(c, sel.Class)) {
				t.Fatalf("Select(%s, %s) = %s", c, m, sel)
			}
		}
	}
}

// The spec* functions transcribe JVMS 5.4.3.3, 5.4.5 and 5.4.6 literally, with
// recursion where the specification recurses and no precomputed sets, as a
// reference for the fast implementation on small hierarchies.

// specReach reports whether sub reaches super through superclass and superinterface
// edges.
func specReach(sub, super *hierarchy.Class) bool {
	if sub == super {
		return true
	}
	if sub.Super != nil && specReach(sub.Super, super) {
		return true
	}
	for _, in := range sub.Interfaces {
		if specReach(in, super) {
			return true
		}
	}
	return false
}

// specCanOverride is JVMS 5.4.5 for instance methods mC and mA.
func specCanOverride(mC, mA *hierarchy.Method) bool {
	if mC.Name != mA.Name || mC.Desc != mA.Desc || mC.IsPrivate() || mC.IsStatic() {
		return false
	}
	switch {
	case mA.IsPublic() || mA.IsProtected():
		return true
	case mA.IsPrivate():
		return false
	case mC.Class.Package() == mA.Class.Package():
		return true
	}
	for b := mC.Class.Super; b != nil && b != mA.Class; b = b.Super {
		if mB := b.Method(mA.Name, mA.Desc); mB != nil && specCanOverride(mC, mB) && specCanOverride(mB, mA) {
			return true
		}
	}
	return false
}

// specMaximal returns the non-private, non-static superinterface methods of c with
// the signature, and the maximally-specific ones among them.
func specMaximal(c *hierarchy.Class, name, desc string) (cands, max []*hierarchy.Method) {
	seen := map[*hierarchy.Class]bool{}
	var walk func(k *hierarchy.Class, isSuper bool)
	walk = func(k *hierarchy.Class, isSuper bool) {
		if seen[k] {
			return
		}
		seen[k] = true
		if k.IsInterface() && isSuper {
			if m := k.Method(name, desc); m != nil && !m.IsPrivate() && !m.IsStatic() {
				cands = append(cands, m)
			}
		}
		for _, in := range k.Interfaces {
			walk(in, true)
		}
		if !k.IsInterface() && k.Super != nil {
			walk(k.Super, false)
		}
	}
	walk(c, false)
	for _, m := range cands {
		shadowed := false
		for _, n := range cands {
			if n.Class != m.Class && specReach(n.Class, m.Class) {
				shadowed = true
			}
		}
		if !shadowed {
			max = append(max, m)
		}
	}
	return cands, max
}

func concreteOnly(ms []*hierarchy.Method) []*hierarchy.Method {
	var out []*hierarchy.Method
	for _, m := range ms {
		if !m.IsAbstract() {
			out = append(out, m)
		}
	}
	return out
}

// specSelect is JVMS 5.4.6, with nil where the JVM throws.
func specSelect(h *hierarchy.Hierarchy, recv *hierarchy.Class, mR *hierarchy.Method) *hierarchy.Method {
	if mR.IsPrivate() {
		return mR
	}
	if mR.IsStatic() || recv.IsInterface() || recv.Phantom || !specReach(recv, mR.Class) {
		return nil
	}
	for k := recv; k != nil; k = k.Super {
		// A malformed class may declare a signature twice (the JVM rejects it with
		// ClassFormatError); like Class.Method, the reference sees the first.
		if m := k.Method(mR.Name, mR.Desc); m != nil && specCanOverride(m, mR) {
			if m.IsAbstract() {
				return nil
			}
			return m
		}
	}
	_, max := specMaximal(recv, mR.Name, mR.Desc)
	if c := concreteOnly(max); len(c) == 1 {
		return c[0]
	}
	return nil
}

// specResolve is JVMS 5.4.3.3/5.4.3.4 without signature-polymorphic methods. It
// returns the one permitted answer, or the set of answers the JVMS lets the JVM
// choose from arbitrarily; neither when resolution fails.
func specResolve(h *hierarchy.Hierarchy, c *hierarchy.Class, name, desc string, iface bool) (*hierarchy.Method, []*hierarchy.Method) {
	if c.Phantom || c.IsInterface() != iface {
		return nil, nil
	}
	if !iface {
		for k := c; k != nil; k = k.Super {
			if m := k.Method(name, desc); m != nil {
				return m, nil
			}
		}
	} else {
		if m := c.Method(name, desc); m != nil {
			return m, nil
		}
		if o := h.Object(); o != nil {
			if m := o.Method(name, desc); m != nil && m.IsPublic() && !m.IsStatic() {
				return m, nil
			}
		}
	}
	cands, max := specMaximal(c, name, desc)
	if cm := concreteOnly(max); len(cm) == 1 {
		return cm[0], nil
	}
	return nil, cands
}

// checkAgainstSpec compares Select and ResolveMethod with the spec* reference on
// every pair of class and method of h.
func checkAgainstSpec(t *testing.T, h *hierarchy.Hierarchy) {
	for _, c := range h.Classes() {
		for _, m := range h.Methods() {
			if got, want := h.Select(c, m), specSelect(h, c, m); got != want {
				t.Fatalf("Select(%s, %s) = %v, the JVMS says %v", c, m, got, want)
			}
			for _, iface := range []bool{false, true} {
				got, err := h.ResolveMethod(c, m.Name, m.Desc, iface)
				want, any := specResolve(h, c, m.Name, m.Desc, iface)
				switch {
				case want != nil && got != want,
					want == nil && len(any) > 0 && !slices.Contains(any, got),
					want == nil && len(any) == 0 && err == nil:
					t.Fatalf("ResolveMethod(%s, %s, %v) = %v, %v; the JVMS says %v or one of %v", c, m, iface, got, err, want, any)
				}
			}
		}
	}
}

// checkSelectSubtypes checks that SelectSubtypes(t, mR) yields what AllSubtypes and
// Select say, in the same order.
func checkSelectSubtypes(t *testing.T, h *hierarchy.Hierarchy, c *hierarchy.Class, mR *hierarchy.Method) {
	t.Helper()
	type pair struct {
		c *hierarchy.Class
		m *hierarchy.Method
	}
	var want, got []pair
	h.AllSubtypes(c, func(s *hierarchy.Class) bool { want = append(want, pair{s, h.Select(s, mR)}); return true })
	h.SelectSubtypes(c, mR, func(s *hierarchy.Class, m *hierarchy.Method) bool { got = append(got, pair{s, m}); return true })
	if !slices.Equal(got, want) {
		t.Fatalf("SelectSubtypes(%s, %s) = %v, want %v", c, mR, got, want)
	}
}

// TestLongCycleProblem closes a superclass cycle through 200,000 classes: its problem
// names a few of them and counts the rest, instead of being one line of megabytes.
func TestLongCycleProblem(t *testing.T) {
	const n = 200000
	inputs := []hierarchy.Input{{File: file("java/lang/Object", "", pub)}}
	for i := range n {
		inputs = append(inputs, hierarchy.Input{File: file(fmt.Sprintf("c/C%d", i), fmt.Sprintf("c/C%d", (i+n-1)%n), pub)})
	}
	h := hierarchy.New(inputs)
	var cycles []string
	for _, p := range h.Problems() {
		if p.Kind == hierarchy.Cycle {
			cycles = append(cycles, p.String())
		}
	}
	if len(cycles) != 1 {
		t.Fatalf("%d cycle problems, want 1", len(cycles))
	}
	if len(cycles[0]) > 1000 || !strings.Contains(cycles[0], fmt.Sprintf("(%d more classes)", n-8)) {
		t.Errorf("cycle problem of %d bytes: %.300s", len(cycles[0]), cycles[0])
	}
	for _, c := range h.Classes()[1:] {
		if !c.Cyclic && !c.Phantom {
			t.Fatalf("%s is not marked cyclic", c)
		}
	}
}
