package values

import (
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// maxTargets bounds the methods a virtual call's result is followed into: beyond it
// the result is unknown (and the call's subtypes are not all walked again).
const maxTargets = 8

// callTargets returns every method a call may run: the statically bound callee, or,
// for an invokevirtual, the method selected for each concrete subtype of the
// declared class (class hierarchy analysis). ok is false when the set is not known
// to be complete or is too large; then the call's result is unknown.
//
// Why the dispatch set is complete: AppClasses is every class that can be loaded
// (the closed world all levels share) and, from Behaved-CLs on, a class name denotes
// one class, so the receiver of an invokevirtual naming class C is an instance of a
// subclass of C in AppClasses (the verifier checks the receiver's type), and the
// method it runs is the one JVMS 5.4.6 selects there: the call graph's own edges for
// the call rest on exactly this. invokeinterface is not followed: lambda objects
// and dynamic proxies implement interfaces with classes generated at run time, whose
// methods (a lambda's target, InvocationHandler.invoke) the selection does not see.
// Neither are dispatches declared on Object, whose subtypes are every class.
func (a *Analyzer) callTargets(mi *method, c *facts.Call) ([]*hierarchy.Method, bool) {
	if m := a.boundTarget(mi, c); m != nil {
		return []*hierarchy.Method{m}, true
	}
	if c.Op != bytecode.Invokevirtual || c.Indy != nil {
		return nil, false
	}
	owner := a.h.Class(c.Ref.Class)
	if owner == nil || owner.Phantom || owner.IsInterface() || owner.Name == "java/lang/Object" {
		return nil, false
	}
	rm, err := a.h.ResolveMethod(owner, c.Ref.Name, c.Ref.Desc, false)
	if err != nil || rm == nil || rm.IsStatic() || rm.Class.Name == "java/lang/Object" {
		return nil, false
	}
	return a.ix.dispatch(a.h, owner, rm)
}

type dispatchKey struct{ owner, method int32 }

type dispatchSet struct {
	targets []*hierarchy.Method
	ok      bool
}

// dispatch returns the CHA targets of a virtual call of rm on receivers of class
// owner, memoised for every run over the index: at most maxTargets distinct methods,
// none native; a phantom subclass (a missing class file) makes the set unknown.
func (ix *Index) dispatch(h *hierarchy.Hierarchy, owner *hierarchy.Class, rm *hierarchy.Method) ([]*hierarchy.Method, bool) {
	k := dispatchKey{owner.ID, rm.ID}
	ix.callerMu.Lock()
	d, ok := ix.dispatchCache[k]
	ix.callerMu.Unlock()
	if ok {
		return d.targets, d.ok
	}
	d = dispatchSet{ok: true}
	seen := map[*hierarchy.Method]bool{}
	// SelectSubtypes rather than Select per subtype: it stays linear on a deep chain.
	h.SelectSubtypes(owner, rm, func(s *hierarchy.Class, t *hierarchy.Method) bool {
		if s.Phantom {
			d.ok = false
			return false
		}
		if s.IsInterface() || s.IsAbstract() {
			return true
		}
		if t == nil || seen[t] {
			return true // nil: AbstractMethodError or the like, no value returned
		}
		if t.IsNative() || len(seen) == maxTargets {
			d.ok = false
			return false
		}
		seen[t] = true
		d.targets = append(d.targets, t)
		return true
	})
	if !d.ok {
		d.targets = nil
	}
	ix.callerMu.Lock()
	if ix.dispatchCache == nil {
		ix.dispatchCache = map[dispatchKey]dispatchSet{}
	}
	ix.dispatchCache[k] = d
	ix.callerMu.Unlock()
	return d.targets, d.ok
}
