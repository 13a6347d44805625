package typeflow

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"math/bits"
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
	// objs, when not nil, makes the question one about the objects past the class
	// IDs in n (objects.go) of one kind, or (every) about each object in n, by
	// its ID: concrete classes and the objects past them alike. onTop, when not
	// nil, answers for all of them once n is top.
	objs  func(c int32)
	kind  objKind
	every bool
	onTop func()
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
	o.ask(sub{n: o.nodeOf(v), t: v.Type, fn: fn})
}

// Lambdas answers from the value's node under TFA (algo.LambdaFollower): a lambda
// is in a node as its capture site's ID (objects.go). It follows no lambda under
// XTA, or into a node that is top already.
func (o *oracle) Lambdas(v algo.Value, fn func(*hierarchy.Method, int32)) bool {
	if o.flow == nil {
		return false
	}
	id := o.nodeOf(v)
	if id < 0 || o.nodes[id].top {
		return false
	}
	o.ask(sub{n: id, t: v.Type, kind: objLambda, objs: func(c int32) {
		x := o.extra[c-o.nc]
		fn(x.m, x.pc)
	}})
	return true
}

// ask registers question q, whether node q.n (< 0: any object) holds objects (or
// lambdas) of type q.t, and answers it from what is known.
func (o *oracle) ask(q sub) {
	id, t := q.n, q.t
	qi := int32(len(o.subs))
	o.subs = append(o.subs, q)
	if id >= 0 && o.nodes[id].top {
		o.subs[qi].top = true
		id = -1
	}
	if id < 0 && q.onTop != nil {
		o.told = append(o.told, answer{qi, -1})
		o.drain()
		return
	}
	if id < 0 {
		o.aSubs[t.ID] = append(o.aSubs[t.ID], qi)
		o.eachCreatedFor(qi, func(c int32) { o.tell(qi, c) })
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

// tell queues the answer c to question qi: a concrete class to a question about
// objects, a functional interface to one about lambdas. Answers are decided when
// the sets change and given in drain, so that a question's callback, which may
// change the sets, never runs between a change and the decisions it implies.
func (o *oracle) tell(qi, c int32) {
	q := &o.subs[qi]
	switch {
	case q.objs != nil && q.every:
		if c >= o.nc || algo.Concrete(o.h.Classes()[c]) {
			o.told = append(o.told, answer{qi, c})
		}
	case q.objs != nil:
		if c >= o.nc && o.extra[c-o.nc].kind == q.kind {
			o.told = append(o.told, answer{qi, c})
		}
	case c >= o.nc:
		// A container or a view is an object of its class to every question
		// about classes; a view of an open class any object (containers.go).
		switch x := o.extra[c-o.nc]; {
		case x.kind == objView && x.cls == nil:
			o.answerAny(qi)
		case x.kind == objContainer || x.kind == objView:
			o.told = append(o.told, answer{qi, x.cls.ID})
		}
	case algo.Concrete(o.h.Classes()[c]):
		o.told = append(o.told, answer{qi, c})
	}
}

// answerAny makes question qi, about classes, one about any object of its type
// from now on, as if its node were top.
func (o *oracle) answerAny(qi int32) {
	q := &o.subs[qi]
	if q.top {
		return
	}
	q.top = true
	o.aSubs[q.t.ID] = append(o.aSubs[q.t.ID], qi)
	o.eachCreatedFor(qi, func(c int32) { o.tell(qi, c) })
}

// eachCreatedFor calls fn for each class created anywhere that question qi may be
// told: of its type, and a concrete class or (a question about lambdas) a lambda
// created anywhere.
func (o *oracle) eachCreatedFor(qi int32, fn func(c int32)) {
	q := &o.subs[qi]
	if q.objs == nil || q.every {
		o.eachCreated(q.t, fn)
		if !q.every {
			return
		}
	}
	o.eachExtraOf(q.t, func(c int32) {
		if q.every || o.extra[c-o.nc].kind == q.kind {
			fn(c)
		}
	})
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
// small), the bits of an interface's subtypes (a question on an interface walked
// every created class, a tenth of TFA's time on javacc), else the list. fn must
// not change the set (tell only queues).
func (o *oracle) eachOf(t *hierarchy.Class, in []bool, list []int32, fn func(c int32)) {
	classes := o.h.Classes()
	switch {
	case t == o.h.Object():
		for _, c := range list {
			if c < o.nc && algo.Concrete(classes[c]) {
				fn(c)
			}
		}
		return
	case t.IsInterface():
		for i, w := range o.subtypes(t) {
			for ; w != 0; w &= w - 1 {
				if c := int32(i*64 + bits.TrailingZeros64(w)); in[c] && algo.Concrete(classes[c]) {
					fn(c)
				}
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
