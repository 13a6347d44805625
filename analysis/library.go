package analysis

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Library mode is an open world: the library's clients are not in the input, and a
// client may define classes of its own. What a client (Java source, JLS) can do:
//
//   - call any member it can access: public members of classes it can name,
//     protected ones through a subclass, and, where it can put a class in the
//     library's package, package-private ones;
//   - subclass any class it can name that is not final, not sealed, and has a
//     constructor the subclass can call (a class with only private constructors is
//     extended only from its nest, which no client is part of);
//   - implement any interface it can name that is not sealed;
//   - hand such objects to the library, which then dispatches to what they inherit.
//
// A client class D extends C implements I is a receiver of the library's calls of I.m
// even when C does not implement I: D inherits C's m, which implements I's
// ("colluding inheritance", Reif et al., FSE'16). What D declares itself is client
// code, outside the graph; what it inherits from the class path is in it.
//
// Sealed packages (the jar manifest's Sealed attribute) are not known here: the
// hierarchy does not read manifests, nor the module descriptors of jars. Application
// and library packages are therefore open to clients (the sound assumption); the
// JDK's are not, as they belong to named modules and java.* is a prohibited package.

// libWorld is a run's library-mode state: what a client can do with each class,
// computed on first use, and the extra targets of each dispatch.
type libWorld struct {
	ext  []int8 // by class ID: 1 a client can subclass it, 2 it cannot, 0 not yet known
	impl []int8 // by class ID: 1 a client class can implement it (or a subinterface), 2 not, 0 not yet known
	sub  []int8 // by class ID: 1 a client class can be a subtype of it, 2 not, 0 not yet known
	// bySig holds, by name and descriptor, the methods a client class could inherit
	// and have selected: non-private, non-static, non-abstract methods of classes and
	// default methods of interfaces.
	bySig       map[string][]*hierarchy.Method
	inheritable map[int32]bool    // method ID -> a client subclass may inherit it unoverridden
	colluding   map[int32][]int32 // resolved method ID -> class methods colluding inheritance may select
	// colludingSet shares the set of those methods between the dispatches of one
	// resolved method that add nothing to them (Object.equals on every interface).
	colludingSet map[int32]int32
	sets         map[dispatchKey][2]int32
	reasons      map[libReasonKey]int32
}

type libReasonKey struct {
	kind     callgraph.Kind
	evidence string
}

const (
	libSubclassEvidence = "a client class may extend a non-final class of the class path and inherit this method (library mode)"
	libColludeEvidence  = "a client class may extend a class that has this method, or implement an interface with this default method, and implement the call's interface (colluding inheritance, library mode)"
	libCallbackEvidence = "the library may hand this lambda or method reference to a client, which may call its functional method (library mode)"
)

func newLibWorld(n int) *libWorld {
	return &libWorld{
		ext: make([]int8, n), impl: make([]int8, n), sub: make([]int8, n),
		inheritable: map[int32]bool{}, colluding: map[int32][]int32{}, colludingSet: map[int32]int32{},
		sets: map[dispatchKey][2]int32{}, reasons: map[libReasonKey]int32{},
	}
}

// packageOpen reports whether a client can define a class in c's package. JDK
// packages belong to named modules (a module's packages are its own, and java.* is
// prohibited to class loaders other than the platform's); other packages are taken as
// open, since sealing is not known (see above).
func packageOpen(c *hierarchy.Class) bool { return c.Origin != hierarchy.JDK }

// clientNamable reports whether a client can name c in its source (JLS 6.6.1): local
// and anonymous classes have no name outside their block, a private member class is
// accessible only within its top level class, and a package-private one only from
// its package.
func clientNamable(c *hierarchy.Class) bool {
	if c.Phantom {
		return false
	}
	switch c.Nesting {
	case hierarchy.Local, hierarchy.Anonymous:
		return false
	case hierarchy.Member:
		if c.InnerAccess&classfile.AccPrivate != 0 {
			return false
		}
		// A protected member class is accessible to subclasses of its outer class,
		// which a client can declare when it can name the outer class.
		if c.InnerAccess&(classfile.AccPublic|classfile.AccProtected) == 0 && !packageOpen(c) {
			return false
		}
		return c.Outer == nil || clientNamable(c.Outer)
	}
	return c.IsPublic() || packageOpen(c)
}

// sealed reports whether c's class file lists its permitted subclasses (JLS 8.1.1.2):
// they are all in the input, so no client class is among them.
func (s *solver) sealed(c *hierarchy.Class) bool {
	f := s.h.File(c)
	return f != nil && len(f.PermittedSubclasses) > 0
}

// extendable reports whether a client class can extend c.
func (s *solver) extendable(c *hierarchy.Class) bool {
	if v := s.lib.ext[c.ID]; v != 0 {
		return v == 1
	}
	ok := !c.IsInterface() && !c.IsFinal() && !c.Phantom && !s.sealed(c) && clientNamable(c) &&
		// JLS 8.1.4: a class cannot name Enum or Record as its direct superclass.
		c.Name != "java/lang/Enum" && c.Name != "java/lang/Record"
	if ok {
		ok = false
		for _, m := range c.Methods {
			if m.IsConstructor() && s.clientMayCallMember(m) {
				ok = true
				break
			}
		}
	}
	s.lib.ext[c.ID] = 2
	if ok {
		s.lib.ext[c.ID] = 1
	}
	return ok
}

// clientMayCallMember reports whether a client class may invoke a member of m's
// class by name, given that it can name the class: public members; protected ones
// from the package or from a subclass (for a constructor, a subclass's super(...));
// package-private ones from the package.
func (s *solver) clientMayCallMember(m *hierarchy.Method) bool {
	switch {
	case m.IsPrivate():
		return false
	case m.IsPublic():
		return true
	case packageOpen(m.Class):
		return true
	case m.IsProtected() && m.IsConstructor():
		// The super(...) call of a client subclass: extendable checks the rest.
		return true
	case m.IsProtected():
		return s.extendable(m.Class)
	}
	return false
}

// implementable reports whether a client class can implement interface i or one of
// its subinterfaces, so as to be a subtype of i.
func (s *solver) implementable(i *hierarchy.Class) bool {
	if v := s.lib.impl[i.ID]; v != 0 {
		return v == 1
	}
	ok := false
	s.h.AllSubtypes(i, func(c *hierarchy.Class) bool {
		if c.IsInterface() && !c.Phantom && !s.sealed(c) && clientNamable(c) {
			ok = true
		}
		return !ok
	})
	s.lib.impl[i.ID] = 2
	if ok {
		s.lib.impl[i.ID] = 1
	}
	return ok
}

// clientSubtypable reports whether some client class can be a subtype of t: by
// implementing t or a subinterface, or by extending a class that is one.
func (s *solver) clientSubtypable(t *hierarchy.Class) bool {
	if v := s.lib.sub[t.ID]; v != 0 {
		return v == 1
	}
	ok := t.IsInterface() && s.implementable(t)
	if !ok {
		s.h.AllSubtypes(t, func(c *hierarchy.Class) bool {
			ok = !c.IsInterface() && s.extendable(c)
			return !ok
		})
	}
	s.lib.sub[t.ID] = 2
	if ok {
		s.lib.sub[t.ID] = 1
	}
	return ok
}

// clientEntry reports whether a client may call m: a member it may invoke by name, or
// a method overriding one of a type it can name, which it calls on objects the
// library hands it (an iterator of a private class, a listener): callbacks.
func (s *solver) clientEntry(m *hierarchy.Method) bool {
	if m.IsPrivate() || m.IsAbstract() || m.IsClassInitializer() {
		return false
	}
	if clientNamable(m.Class) && s.clientMayCallMember(m) {
		return true
	}
	if m.IsStatic() || m.IsConstructor() {
		return false
	}
	found := false
	s.h.Supertypes(m.Class, func(t *hierarchy.Class) bool {
		if t == m.Class || !clientNamable(t) {
			return true
		}
		// Through a reference of type t a client calls t's public methods, and from
		// t's package its package-private and protected ones too; a protected method
		// of another package only on its own subclass's objects (JLS 6.6.2), not on
		// the library's.
		if o := t.Method(m.Name, m.Desc); o != nil && !o.IsStatic() && !o.IsPrivate() && (o.IsPublic() || packageOpen(t)) {
			found = true
		}
		return !found
	})
	return found
}

// libraryDispatch adds, to a dispatch site, the targets that client classes could
// add: what a client subclass of a subtype of the receiver's type inherits, and what a
// client class colluding to implement the receiver's interface inherits.
func (s *solver) libraryDispatch(at site, g *group, ri int32) {
	sets, ok := s.lib.sets[g.key]
	if !ok {
		sets = [2]int32{-1, -1}
		if ids := s.libSubclassTargets(g); len(ids) > 0 {
			sets[0] = s.addSet(ids)
		}
		sets[1] = s.libColludingSet(g)
		s.lib.sets[g.key] = sets
	}
	kind := s.reasons[ri].Kind
	if sets[0] >= 0 {
		s.bundle(at, sets[0], s.libReason(kind, libSubclassEvidence), false)
	}
	if sets[1] >= 0 {
		s.bundle(at, sets[1], s.libReason(kind, libColludeEvidence), false)
	}
}

// libTargets returns the members of the sets libraryDispatch gives the dispatches of
// key: the targets of client subclasses and of colluding inheritance, each sorted
// (nil when there are none).
func (s *solver) libTargets(key dispatchKey) (sub, colluding []int32) {
	g := s.keyGroup(key)
	sub = s.libSubclassTargets(g)
	if i := s.libColludingSet(g); i >= 0 {
		colluding = s.sets[i]
	}
	return sub, colluding
}

func (s *solver) libReason(kind callgraph.Kind, evidence string) int32 {
	k := libReasonKey{kind, evidence}
	if i, ok := s.lib.reasons[k]; ok {
		return i
	}
	i := s.reason(callgraph.Reason{Kind: kind, Resolver: "library", Evidence: evidence})
	s.lib.reasons[k] = i
	return i
}

// libSubclassTargets are the selections of the subtypes of the receiver's type that
// a client can extend: a client subclass that does not override the method inherits
// them. Classes a client can instantiate or extend are created at any time, so the
// oracle's instantiated classes do not bound these; a fixed oracle (CHA) answers every
// concrete subtype already, so only the abstract ones add targets there.
func (s *solver) libSubclassTargets(g *group) []int32 {
	var ids []int32
	fixed := s.oracle.Fixed()
	s.h.SelectSubtypes(g.declared, g.rm, func(c *hierarchy.Class, m *hierarchy.Method) bool {
		if m != nil && !c.IsInterface() && !(fixed && algo.Concrete(c)) && s.extendable(c) && (g.keep == nil || g.keep(m)) {
			ids = append(ids, m.ID)
		}
		return true
	})
	return sortedUnique(ids)
}

// libColludingSet is the set of targets of client classes D extends C implements J, J
// the receiver's interface or a subinterface, where C need not implement it: the
// class method D inherits through C, or, when no class declares it, the default
// method D inherits through J. -1 when there is none.
//
// The class method must be public: javac rejects a weaker one (JLS 8.4.8.3), and
// invokeinterface throws IllegalAccessError when it selects a method that is neither
// public nor private (JVMS 6.5).
func (s *solver) libColludingSet(g *group) int32 {
	t, rm := g.declared, g.rm
	if !t.IsInterface() || !s.implementable(t) || rm.IsStatic() || rm.IsPrivate() {
		return -1
	}
	s.indexSigs()
	cl, ok := s.lib.colluding[rm.ID]
	if !ok {
		for _, m := range s.lib.bySig[rm.Name+rm.Desc] {
			if !m.Class.IsInterface() && m.IsPublic() && s.libInheritable(m) {
				cl = append(cl, m.ID)
			}
		}
		s.lib.colluding[rm.ID] = sortedUnique(cl)
		cl = s.lib.colluding[rm.ID]
	}
	var ids []int32
	// Default methods can only implement interface methods (JLS 9.4.1.2: a default
	// method cannot override a method of Object), and only those of superinterfaces:
	// D inheriting a default and an abstract method from unrelated interfaces is
	// rejected by javac (JLS 8.4.8.4) and by HotSpot (IncompatibleClassChangeError).
	if rm.Class.IsInterface() {
		for _, m := range s.lib.bySig[rm.Name+rm.Desc] {
			k := m.Class
			if k.IsInterface() && s.h.IsSubtype(k, rm.Class) && (s.h.IsSubtype(k, t) || s.h.IsSubtype(t, k)) && s.clientSubtypable(k) {
				ids = append(ids, m.ID)
			}
		}
	}
	if len(ids) == 0 && g.keep == nil {
		if len(cl) == 0 {
			return -1
		}
		i, ok := s.lib.colludingSet[rm.ID]
		if !ok {
			i = s.addSet(cl)
			s.lib.colludingSet[rm.ID] = i
		}
		return i
	}
	ids = append(ids, cl...)
	if g.keep != nil {
		ids = slices.DeleteFunc(ids, func(id int32) bool { return !g.keep(s.methods[id]) })
	}
	if len(ids) == 0 {
		return -1
	}
	return s.addSet(sortedUnique(ids))
}

// libInheritable reports whether a client class can inherit class method m without an
// override in between: m's class or a subclass that declares no override of it can be
// extended by a client.
func (s *solver) libInheritable(m *hierarchy.Method) bool {
	if v, ok := s.lib.inheritable[m.ID]; ok {
		return v
	}
	var walk func(c *hierarchy.Class) bool
	walk = func(c *hierarchy.Class) bool {
		if s.extendable(c) {
			return true
		}
		for _, sub := range c.Subtypes {
			if sub.IsInterface() {
				continue
			}
			if o := sub.Method(m.Name, m.Desc); o != nil && !o.IsPrivate() && !o.IsStatic() {
				continue // sub overrides m: its subclasses select the override
			}
			if walk(sub) {
				return true
			}
		}
		return false
	}
	v := walk(m.Class)
	s.lib.inheritable[m.ID] = v
	return v
}

// indexSigs builds bySig on first use: one pass over the methods of the class path.
func (s *solver) indexSigs() {
	if s.lib.bySig != nil {
		return
	}
	s.lib.bySig = map[string][]*hierarchy.Method{}
	for _, m := range s.methods {
		if m.IsPrivate() || m.IsStatic() || m.IsAbstract() || m.IsConstructor() || m.IsClassInitializer() || m.Class.Phantom {
			continue
		}
		k := m.Name + m.Desc
		s.lib.bySig[k] = append(s.lib.bySig[k], m)
	}
}

// libraryLambda makes the implementation of a lambda or method reference that
// library code creates a callee of the creating instruction: the library may return
// the object, or pass it, to a client, whose calls of the functional method are not
// in the graph.
func (s *solver) libraryLambda(at site, c *facts.Call) {
	h, ok := c.Indy.LambdaImpl()
	if !ok {
		return
	}
	impl := h.Ref
	ic := s.h.Class(impl.Class)
	if ic == nil || ic.Origin == hierarchy.JDK {
		return
	}
	if m, err := s.h.ResolveMethod(ic, impl.Name, impl.Desc, impl.Interface); err == nil && m != nil {
		s.bundle(at, s.singleton(m.ID), s.libReason(callgraph.KindCallback, libCallbackEvidence), false)
	}
}

// sortedUnique sorts ids and drops duplicates.
func sortedUnique(ids []int32) []int32 {
	slices.Sort(ids)
	return slices.Compact(ids)
}
