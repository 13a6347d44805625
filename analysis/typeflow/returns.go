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
	fl := o.flowOf(m)
	file := o.h.File(m.Class)
	if fl == nil || file == nil {
		return nil, false
	}
	code, err := o.h.Info(m).Code()
	if err != nil || code == nil {
		return nil, false
	}
	r := &returned{}
	ok := true
	var add func(defs []facts.Def, hops int)
	add = func(defs []facts.Def, hops int) {
		for _, d := range defs {
			if !ok {
				return
			}
			switch d.Kind {
			case facts.DefParam:
				if !slices.Contains(r.params, int32(d.N)) {
					r.params = append(r.params, int32(d.N))
				}
				continue
			case facts.DefInstr:
			default:
				ok = false
				return
			}
			in, err := bytecode.Decode(code.Bytecode, d.N)
			if err != nil {
				ok = false
				return
			}
			switch in.Op {
			case bytecode.AconstNull:
			case bytecode.New:
				c := o.h.Class(file.Pool.ClassName(in.Index))
				if c == nil || !algo.Concrete(c) {
					ok = false
					return
				}
				r.addFresh(c.ID)
			case bytecode.Checkcast:
				// The cast object itself (or an exception): its class is unchanged.
				if ops := fl.Operands(d.N); len(ops) == 1 && hops < 8 {
					add(ops[0], hops+1)
				} else {
					ok = false
				}
			case bytecode.Invokestatic, bytecode.Invokespecial:
				t := o.directTarget(file.Pool.Ref(in.Index), in.Op)
				var s *returned
				switch {
				case t != nil && depth >= maxReturnDepth:
					cut = true
				case t != nil:
					s = o.summaryAt(t, depth+1)
				}
				if s == nil || len(s.params) > 0 {
					ok = false
					return
				}
				for _, c := range s.fresh {
					r.addFresh(c)
				}
			default:
				ok = false
			}
		}
	}
	fl.EachInstr(func(_ int, op bytecode.Opcode, operand func(int) []facts.Def) {
		if op == bytecode.Areturn && ok {
			add(operand(0), 0)
		}
	})
	if !ok {
		return nil, cut
	}
	return r, false
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
