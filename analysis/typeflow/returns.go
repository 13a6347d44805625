package typeflow

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// What a summarised method returns, when its own code tells on every path. The
// JDK's values are any object of their types (Config.Summarised), which makes the
// result of every call into the JDK as wide as RTA's answer: an iterator from
// list.iterator() dispatches to every Iterator created anywhere. Many JDK methods
// return an object they create themselves (ArrayList.iterator, Vector.elements,
// Arrays.asList), or one of their arguments (Objects.requireNonNull, a builder's
// "return this"); their callers get exactly that. Only TFA has the flow to tell.

// returned is what a summarised method returns on every path: the parameters it
// returns unchanged (this is 0) and the classes of the objects it creates and
// returns, itself or through static and private methods it calls.
type returned struct {
	params []int32
	fresh  []int32 // class IDs
}

// maxReturnDepth bounds the chain of static and private calls a summary follows:
// factories rarely nest deeper, and every level reads another method's code.
const maxReturnDepth = 4

// summary returns what summarised method m returns, nil when some path returns
// anything else (a field, an array element, a virtual call's result).
func (o *oracle) summary(m *hierarchy.Method) *returned {
	return o.summaryAt(m, 0)
}

func (o *oracle) summaryAt(m *hierarchy.Method, depth int) *returned {
	if o.flow == nil || !o.isSummarised(m) || m.IsAbstract() {
		return nil
	}
	if r, ok := o.returns[m.ID]; ok {
		return r
	}
	// A call back into m while it is summarised (recursion) returns unknown: the
	// answer must hold on every path, and nil is the sound one.
	o.returns[m.ID] = nil
	r, cut := o.summarise(m, depth)
	if cut {
		// Unknown only because the depth ran out here: asked from nearer the
		// caller, the chain may fit.
		delete(o.returns, m.ID)
	} else {
		o.returns[m.ID] = r
	}
	return r
}

// summarise reads m's code; cut reports that a call chain went past
// maxReturnDepth.
func (o *oracle) summarise(m *hierarchy.Method, depth int) (_ *returned, cut bool) {
	mc, ok := o.codeOf(m)
	if !ok {
		return nil, false
	}
	r := &returned{}
	ok = true
	mc.fl.EachInstr(func(_ int, op bytecode.Opcode, operand func(int) []facts.Def) {
		if op == bytecode.Areturn && ok {
			var c bool
			ok, c = o.fresh(mc, operand(0), depth, true, r)
			cut = cut || c
		}
	})
	if !ok {
		return nil, cut
	}
	return r, false
}

// methodCode is what reading a summarised method's values needs of it.
type methodCode struct {
	m    *hierarchy.Method
	file *classfile.File
	fl   *facts.Flow
	code *classfile.Code
}

func (o *oracle) codeOf(m *hierarchy.Method) (methodCode, bool) {
	fl := o.flowOf(m)
	file := o.h.File(m.Class)
	if fl == nil || file == nil {
		return methodCode{}, false
	}
	code, err := o.h.Info(m).Code()
	if err != nil || code == nil {
		return methodCode{}, false
	}
	return methodCode{m, file, fl, code}, true
}

// fresh adds to r what a value of mc with definitions defs may be, when each
// definition is null, an object mc's method creates (new, or a static or private
// call whose summary creates its result) or a cast of one, and for a summary
// (returns) a parameter, for an operand (not returns) a lambda the method
// captures (summaries' fresh are classes); ok is false when some definition may
// be anything else. cut reports that a call chain went past maxReturnDepth.
func (o *oracle) fresh(mc methodCode, defs []facts.Def, depth int, returns bool, r *returned) (ok, cut bool) {
	var add func(defs []facts.Def, hops int) bool
	add = func(defs []facts.Def, hops int) bool {
		for _, d := range defs {
			switch d.Kind {
			case facts.DefParam:
				if !returns {
					return false
				}
				if !slices.Contains(r.params, int32(d.N)) {
					r.params = append(r.params, int32(d.N))
				}
				continue
			case facts.DefInstr:
			default:
				return false
			}
			in, err := bytecode.Decode(mc.code.Bytecode, d.N)
			if err != nil {
				return false
			}
			switch in.Op {
			case bytecode.AconstNull:
			case bytecode.New:
				c := o.h.Class(mc.file.Pool.ClassName(in.Index))
				if c == nil || !algo.Concrete(c) {
					return false
				}
				r.addFresh(c.ID)
			case bytecode.Checkcast:
				// The cast object itself (or an exception): its class is unchanged.
				ops := mc.fl.Operands(d.N)
				if len(ops) != 1 || hops >= 8 || !add(ops[0], hops+1) {
					return false
				}
			case bytecode.Invokestatic, bytecode.Invokespecial:
				t := o.directTarget(mc.file.Pool.Ref(in.Index), in.Op)
				var s *returned
				switch {
				case t != nil && depth >= maxReturnDepth:
					cut = true
				case t != nil:
					s = o.summaryAt(t, depth+1)
				}
				if s == nil || len(s.params) > 0 {
					return false
				}
				for _, c := range s.fresh {
					r.addFresh(c)
				}
			case bytecode.Invokedynamic:
				c := o.callAt(mc.m, int32(d.N))
				if returns || c == nil || c.Indy == nil || c.Indy.Bootstrap.Class != lambdaMetafactory {
					return false
				}
				ret := returnDesc(c.Indy.Desc)
				if len(ret) < 3 || ret[0] != 'L' {
					return false
				}
				l := o.lambdaID(mc.m, c.PC, ret[1:len(ret)-1])
				if l < 0 {
					return false
				}
				r.addFresh(l)
			default:
				return false
			}
		}
		return true
	}
	return add(defs, 0), cut
}

func (r *returned) addFresh(c int32) {
	if !slices.Contains(r.fresh, c) {
		r.fresh = append(r.fresh, c)
	}
}

// directTarget returns the method a static call, or a special call of a private
// method, runs: the one resolution finds (no selection follows). A special call of
// a superclass's method is left out: which one runs depends on the caller's
// superclass chain at run time.
func (o *oracle) directTarget(ref classfile.Ref, op bytecode.Opcode) *hierarchy.Method {
	c := o.h.Class(ref.Class)
	if c == nil || ref.Name == "<init>" {
		return nil
	}
	t, err := o.h.ResolveMethod(c, ref.Name, ref.Desc, ref.Interface)
	if err != nil || t == nil {
		return nil
	}
	switch {
	case op == bytecode.Invokestatic && t.IsStatic():
		return t
	case op == bytecode.Invokespecial && t.IsPrivate() && !t.IsStatic() && t.Class == c:
		return t
	}
	return nil
}

// resultOf returns the node of what member m of set returns to the set's sites.
// A summarised method whose summary is known gives the objects it creates, and
// the operands its sites hand at the positions it returns unchanged (when the set's
// sites hand their operands by position); any other its return node: any object
// of its type.
func (o *oracle) resultOf(set int32, m *hierarchy.Method) int32 {
	r := o.summary(m)
	if r == nil {
		return o.returnNode(m)
	}
	var from []int32
	if len(r.params) > 0 {
		h := &o.hubs[set]
		if h.name != m.Name || h.desc != m.Desc {
			return o.returnNode(m)
		}
		for _, p := range r.params {
			if int(p) >= len(h.pos) || h.pos[p] < 0 {
				return o.returnNode(m)
			}
			from = append(from, h.pos[p])
		}
	}
	if len(r.fresh) > 0 {
		from = append(from, o.freshNode(m, r))
	}
	return o.union(from) // none when it returns only null
}

// freshNode returns the node of the objects summarised method m creates and
// returns (r.fresh). m is a member of a live target set, so it runs, and so do
// the allocations its summary names.
func (o *oracle) freshNode(m *hierarchy.Method, r *returned) int32 {
	if id, ok := o.freshNodes[m.ID]; ok {
		return id
	}
	id := o.newNode()
	o.freshNodes[m.ID] = id
	for _, c := range r.fresh {
		o.add(id, c)
	}
	return id
}

// localOperand returns the node of operand n of the call at pc in summarised
// method m. A summarised method's values are any object of their types, except an
// argument of a static call whose every definition is an object m creates itself:
// a JDK method that hands an action it has just made to doPrivileged (new
// Action(), a lambda) runs that action only, not every action the JDK creates.
// Resolvers ask about such arguments, a few thousand times in a run with the
// JDK. The receivers of the JDK's virtual calls are left any object: reading the
// facts for them cost a fifth more time for a sixth of the edges the arguments
// save (javacc: 0.71 M of 12.74 M edges fewer from arguments, 0.13 M more from
// receivers).
func (o *oracle) localOperand(m *hierarchy.Method, pc, n int32) int32 {
	if id, ok := o.lookup(m, pc, n); ok {
		return id
	}
	id := o.any
	if r := o.localObjects(m, pc, n); r != nil {
		id = o.newNode()
		for _, c := range r.fresh {
			o.add(id, c)
		}
	}
	o.store(m, pc, n, id)
	return id
}

// localObjects returns the objects operand n of the call at pc in summarised
// method m holds when m creates every one of them, else nil.
func (o *oracle) localObjects(m *hierarchy.Method, pc, n int32) *returned {
	if c := o.callAt(m, pc); c == nil || c.Op != bytecode.Invokestatic {
		return nil
	}
	// The solver asks about a method's calls one after another: one method's
	// facts are kept, not all (they would hold hundreds of megabytes).
	if o.lastCode.m != m {
		mc, ok := o.codeOf(m)
		if !ok {
			return nil
		}
		o.lastCode = mc
	}
	ops := o.lastCode.fl.Operands(int(pc))
	if int(n) >= len(ops) {
		return nil
	}
	var r returned
	if ok, _ := o.fresh(o.lastCode, ops[n], 0, false, &r); !ok || len(r.fresh) == 0 {
		return nil
	}
	return &r
}
