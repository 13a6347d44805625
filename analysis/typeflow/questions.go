package typeflow

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// The questions the oracle answers (algo.Oracle): which classes a value may
// have (Types) and which values share their answers (Scope).

// sub is one question: fn is told of every class of type t in node n (or, n < 0,
// created anywhere).
type sub struct {
	n   int32
	t   *hierarchy.Class
	fn  func(*hierarchy.Class)
	top bool // asked on a node that became top: answered from every created class
}

type answer struct{ q, c int32 }

func (o *oracle) nodeOf(v algo.Value) int32 {
	if v.Kind == algo.Field {
		return o.fieldNode(v.Field)
	}
	if o.flow == nil {
		switch v.Kind {
		case algo.Operand, algo.Def, algo.Param, algo.Return:
			return v.In.ID
		}
		return -1
	}
	switch v.Kind {
	case algo.Operand:
		return o.operand(v.In, v.PC, v.N)
	case algo.Def:
		return o.def(v.In, v.PC)
	case algo.Param:
		return o.param(v.In, int(v.N))
	case algo.Return:
		return v.In.ID
	}
	return -1
}

// Types answers from the value's node (its method's under XTA) and the global classes; a
// value at no particular place has every class created anywhere.
func (o *oracle) Types(v algo.Value, fn func(*hierarchy.Class)) {
	t := v.Type
	id := o.nodeOf(v)
	qi := int32(len(o.subs))
	o.subs = append(o.subs, sub{n: id, t: t, fn: fn})
	if id >= 0 && o.nodes[id].top {
		o.subs[qi].top = true
		id = -1
	}
	if id < 0 {
		o.aSubs[t.ID] = append(o.aSubs[t.ID], qi)
		o.eachCreated(t, func(c int32) { o.tell(qi, c) })
		o.drain()
		return
	}
	e := o.ext(id)
	e.subs = append(e.subs, qi)
	o.gSubs[t.ID] = append(o.gSubs[t.ID], qi)
	for _, c := range o.nodes[id].order {
		if o.isSub(c, t) {
			o.tell(qi, c)
		}
	}
	o.eachGlobal(t, func(c int32) {
		if !o.has(id, c) {
			o.tell(qi, c)
		}
	})
	o.drain()
}

// tell queues the answer c to question qi. Answers are decided when the sets
// change and given in drain, so that a question's callback, which may change the
// sets, never runs between a change and the decisions it implies.
func (o *oracle) tell(qi, c int32) {
	if algo.Concrete(o.h.Classes()[c]) {
		o.told = append(o.told, answer{qi, c})
	}
}

// eachGlobal calls fn for each global class of type t.
func (o *oracle) eachGlobal(t *hierarchy.Class, fn func(c int32)) {
	o.eachOf(t, o.global, o.globalOrder, fn)
}

// eachCreated calls fn for each class of type t created anywhere.
func (o *oracle) eachCreated(t *hierarchy.Class, fn func(c int32)) {
	o.eachOf(t, o.all, o.allOrder, fn)
}

// eachOf calls fn for each concrete class of type t in a set given as flags and
// list: by walking t's subclasses when t is a class below Object (a tree, usually
// small), else the list. fn must not change the set (tell only queues).
func (o *oracle) eachOf(t *hierarchy.Class, in []bool, list []int32, fn func(c int32)) {
	if t.IsInterface() || t == o.h.Object() {
		for _, c := range list {
			if o.isSub(c, t) && algo.Concrete(o.h.Classes()[c]) {
				fn(c)
			}
		}
		return
	}
	o.h.AllSubtypes(t, func(x *hierarchy.Class) bool {
		if in[x.ID] && algo.Concrete(x) {
			fn(x.ID)
		}
		return true
	})
}

// Scope is, under XTA, the method or field whose set answers, with the declared
// type; under TFA the value itself. It is the declared type alone once that set is
// top, so that questions on top nodes share their answers as RTA's do.
func (o *oracle) Scope(v algo.Value) algo.Value {
	id := o.nodeOf(v)
	if id < 0 || o.nodes[id].top {
		return algo.Any(v.Type)
	}
	if o.flow == nil && v.Kind != algo.Field {
		return algo.Value{Kind: algo.Def, In: v.In, PC: -1, Type: v.Type}
	}
	// Questions on one node share their answers: the first value asked about it
	// stands for the others (a local used as the receiver of several calls of one
	// method, as StringBuilder.append's).
	if first, ok := o.scopes[scopeKey{id, v.Type}]; ok {
		return first
	}
	o.scopes[scopeKey{id, v.Type}] = v
	return v
}

// scopeKey is a node and the declared type of a question about it.
type scopeKey struct {
	node int32
	t    *hierarchy.Class
}

func (*oracle) Fixed() bool { return false }
