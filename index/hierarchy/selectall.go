package hierarchy

// SelectSubtypes calls fn for t and each of its transitive subtypes, each once and in
// the order of [Hierarchy.AllSubtypes], with what [Hierarchy.Select] returns for that
// receiver class and mR, until fn returns false. It is what class hierarchy analysis
// asks for a virtual call.
//
// The selections are computed incrementally down the hierarchy: what a class selects
// follows from what its superclass selects and from its own declarations, so the
// cost is linear in the number of subtypes. Asking Select for each would walk each
// subtype's superclass chain, which is quadratic in the depth of a deep chain (a
// 20,000-deep one made CHA take minutes).
func (h *Hierarchy) SelectSubtypes(t *Class, mR *Method, fn func(c *Class, m *Method) bool) {
	s, ok := h.newSelector(t, mR)
	if !ok {
		// Select answers these cases without walking (a private or static mR) or t is
		// not a subtype of mR's class: nothing to gain, and Select has the rules.
		h.AllSubtypes(t, func(c *Class) bool { return fn(c, h.Select(c, mR)) })
		return
	}
	if !t.IsInterface() && t != h.object {
		s.tree(t, fn)
		return
	}
	s.graph(t, fn)
}

// selector computes selections of one resolved method for the subtypes of a class
// that is a subtype of the method's class.
type selector struct {
	h    *Hierarchy
	mR   *Method
	hash uint64
	// pkgPrivate: mR is a package-private method of a class. Whether a declaration
	// overrides it depends on the declarations between mR's class and it (see
	// selectPackagePrivate), so states start at mR's class and are folded downwards.
	pkgPrivate bool
	// samePkg: mR is a (malformed) package-private interface method, overridden only
	// by declarations in its package.
	samePkg bool
	// memo holds the states of some classes whose state needed a walk up their
	// superclass chain, so that later walks stop there: every memoStride-th class
	// of a long walk, which bounds both the memory and the length of every walk.
	memo map[*Class]selState
}

// memoStride is the spacing of memoised states along a walk: a walk up from any
// class meets a memoised state (or its end) within this many steps.
const memoStride = 8

// selState is what a class's superclass chain says about mR: the lowest matching
// declaration (nil when none: then only default methods can be selected) and, for a
// package-private mR, whether a public or protected override lies on the way, after
// which every declaration overrides (selectPackagePrivate's open).
type selState struct {
	m    *Method
	open bool
}

func (h *Hierarchy) newSelector(t *Class, mR *Method) (*selector, bool) {
	if mR.Access&accPrivStatic != 0 || !h.IsSubtype(t, mR.Class) {
		return nil, false
	}
	s := &selector{h: h, mR: mR, hash: mR.Class.mhash[mR.Index]}
	if mR.Access&accPubProt == 0 {
		if mR.Class.IsInterface() {
			s.samePkg = true
		} else {
			if !h.IsSubclass(t, mR.Class) {
				return nil, false // unreachable: a subtype of a class is a subclass
			}
			s.pkgPrivate = true
		}
	}
	return s, true
}

// step is the state of k given the state of its superclass.
func (s *selector) step(st selState, k *Class) selState {
	if s.pkgPrivate && k == s.mR.Class {
		return selState{m: s.mR}
	}
	m := k.declared(s.hash, s.mR.Name, s.mR.Desc)
	if m == nil || m.Access&accPrivStatic != 0 {
		return st
	}
	if !s.pkgPrivate {
		if s.samePkg && k.pkg != s.mR.Class.pkg {
			return st
		}
		return selState{m: m}
	}
	// As selectPackagePrivate: until some override is public or protected, only a
	// declaration in mR's package overrides.
	if !st.open && k.pkg != s.mR.Class.pkg {
		return st
	}
	return selState{m: m, open: st.open || m.Access&accPubProt != 0}
}

// stateOf computes the state of class c from scratch: a walk up its superclass chain
// to a class that settles it, then a fold back down.
func (s *selector) stateOf(c *Class) selState {
	var buf [memoStride]*Class
	path := buf[:0]
	var st selState
	for k := c; k != nil; k = k.Super {
		if s.pkgPrivate && k == s.mR.Class {
			st = selState{m: s.mR}
			break
		}
		if m, ok := s.memo[k]; ok {
			st = m
			break
		}
		if !s.pkgPrivate {
			// The lowest matching declaration settles the state: nothing above matters.
			if x := s.step(selState{}, k); x.m != nil {
				st = x
				break
			}
		}
		path = append(path, k)
	}
	long := len(path) > memoStride
	if long && s.memo == nil {
		s.memo = map[*Class]selState{}
	}
	for i := len(path) - 1; i >= 0; i-- {
		st = s.step(st, path[i])
		if long && (i%memoStride == 0) {
			s.memo[path[i]] = st
		}
	}
	return st
}

// result is what Select returns for receiver class c in state st.
func (s *selector) result(c *Class, st selState) *Method {
	if c.Phantom || c.IsInterface() {
		return nil // ErrIncomplete, ErrIncompatibleClassChange
	}
	if st.m != nil {
		m, _ := concrete(st.m)
		return m
	}
	if s.pkgPrivate {
		return nil // unreachable: c is a subclass of mR's class, whose state is mR
	}
	var buf [8]*Method
	m, _ := uniqueConcrete(s.h.maximal(s.h.candidates(c, s.hash, s.mR.Name, s.mR.Desc, buf[:0])))
	return m
}

// tree visits the subclasses of class t (a tree: each has one superclass) in
// AllSubtypes's depth-first preorder, each state from its parent's. It keeps its own
// stack rather than recursing, so a chain's depth costs no goroutine stack.
func (s *selector) tree(t *Class, fn func(*Class, *Method) bool) {
	type entry struct {
		c  *Class
		st selState
	}
	stack := []entry{{t, s.stateOf(t)}}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !fn(e.c, s.result(e.c, e.st)) {
			return
		}
		for i := len(e.c.Subtypes) - 1; i >= 0; i-- {
			sub := e.c.Subtypes[i]
			stack = append(stack, entry{sub, s.step(e.st, sub)})
		}
	}
}

// graph visits the subtypes of an interface or of Object, which reach some classes
// along several paths, in AllSubtypes's order. A class first reached from its
// superclass takes its state from it; one first reached from an interface it
// implements walks up (stopping at memoised states).
func (s *selector) graph(t *Class, fn func(*Class, *Method) bool) {
	type entry struct {
		c      *Class
		parent *Class // the class or interface c was reached from; nil for t
		st     selState
	}
	h := s.h
	seen := make([]uint64, (len(h.classes)+63)/64)
	stack := []entry{{c: t}}
	seen[t.ID/64] |= 1 << (t.ID % 64)
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x := e.c
		var st selState
		if !x.IsInterface() {
			if e.parent != nil && e.parent == x.Super && !e.parent.IsInterface() {
				st = s.step(e.st, x)
			} else {
				st = s.stateOf(x)
			}
		}
		if !fn(x, s.result(x, st)) {
			return
		}
		for i := len(x.Subtypes) - 1; i >= 0; i-- {
			sub := x.Subtypes[i]
			if seen[sub.ID/64]&(1<<(sub.ID%64)) == 0 {
				seen[sub.ID/64] |= 1 << (sub.ID % 64)
				stack = append(stack, entry{c: sub, parent: x, st: st})
			}
		}
	}
}
