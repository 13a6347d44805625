package values

import (
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
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
// Neither are dispatches declared on Object, whose subtypes are every class. Any
// instance call is followed where its receiver's class is known exactly
// (exactTarget).
func (a *Analyzer) callTargets(mi *method, c *facts.Call) ([]*hierarchy.Method, bool) {
	if m := a.boundTarget(mi, c); m != nil {
		return []*hierarchy.Method{m}, true
	}
	if m := a.exactTarget(mi, c); m != nil {
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

// exactTarget returns the one method an instance call runs when its receiver is an
// object of a known class: one the method creates (new), or, through the frames of
// the calls being followed, one a caller created and handed down. So the action a
// method creates and hands to AccessController.doPrivileged is the one whose run
// doPrivileged's code calls, and what that run returns is what doPrivileged
// returns. A lambda without captured values whose implementation takes no
// parameters counts as well: the call runs that implementation. nil otherwise.
func (a *Analyzer) exactTarget(mi *method, c *facts.Call) *hierarchy.Method {
	if c.Op != bytecode.Invokevirtual && c.Op != bytecode.Invokeinterface || c.Indy != nil {
		return nil
	}
	owner := a.h.Class(c.Ref.Class)
	if owner == nil || owner.Phantom {
		return nil
	}
	rm, err := a.h.ResolveMethod(owner, c.Ref.Name, c.Ref.Desc, c.Ref.Interface)
	if err != nil || rm == nil || rm.IsStatic() {
		return nil
	}
	return a.receiverTarget(mi, a.frame, mi.operand(c.PC, 0), rm, 0)
}

// receiverTarget follows a receiver's one definition, defs in mi with fr the
// frame mi runs in, to the object it is (exactTarget) and selects rm there.
func (a *Analyzer) receiverTarget(mi *method, fr *frame, defs []facts.Def, rm *hierarchy.Method, hops int) *hierarchy.Method {
	if len(defs) != 1 || hops > maxDepth {
		return nil
	}
	d := defs[0]
	switch d.Kind {
	case facts.DefParam:
		if fr == nil || fr.callee != mi {
			return nil
		}
		ops := fr.caller.flow.Operands(int(fr.call.PC))
		if d.N >= len(ops) {
			return nil
		}
		return a.receiverTarget(fr.caller, fr.up, ops[d.N], rm, hops+1)
	case facts.DefInstr:
	default:
		return nil
	}
	pc := int32(d.N)
	if _, ok := mi.casts[pc]; ok {
		return a.receiverTarget(mi, fr, mi.operand(pc, 0), rm, hops+1)
	}
	if name, ok := mi.allocs[pc]; ok {
		c := a.h.Class(name)
		if c == nil || c.Phantom || c.IsAbstract() || c.IsInterface() {
			return nil
		}
		t := a.h.Select(c, rm)
		if t == nil || t.IsAbstract() || t.IsNative() {
			return nil
		}
		return t
	}
	if c, ok := mi.calls[pc]; ok && c.Op == bytecode.Invokedynamic && c.Indy != nil && c.Indy.Name == rm.Name && len(mi.flow.Operands(int(pc))) == 0 {
		impl, ok := c.Indy.LambdaImpl()
		if !ok || impl.RefKind != classfile.RefInvokeStatic {
			return nil
		}
		owner := a.h.Class(impl.Ref.Class)
		if owner == nil {
			return nil
		}
		t, err := a.h.ResolveMethod(owner, impl.Ref.Name, impl.Ref.Desc, impl.Ref.Interface)
		if err != nil || t == nil || !t.IsStatic() || t.Desc[1] != ')' {
			return nil // its parameters would be the call's operands past the receiver
		}
		return t
	}
	return nil
}
