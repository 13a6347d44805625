// Package algo is the one question on which call-graph algorithms differ: which
// runtime classes may a value have? The solver of package analysis and every
// resolver of a language feature ask it about values (a call's receiver or argument,
// a method's parameter or return, a field), never about the algorithm, so that each
// feature works at the chosen algorithm's precision (Helm et al., Unimocg, ICSE'25:
// type information is separated from call resolution). Each algorithm is a package
// of its own: cha, rta, xta, tfa.
package algo

import (
	"strconv"

	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Kind says what a Value is.
type Kind uint8

// Value kinds.
const (
	// Declared is any object of the value's type: no particular place is known.
	Declared Kind = iota
	// Operand is operand N of the instruction at PC in method In (the receiver of
	// an instance call is operand 0).
	Operand
	// Def is the value the instruction at PC in method In pushes (a call's result,
	// an allocation).
	Def
	// Param is parameter N of method In on entry (this is 0 of an instance method).
	Param
	// Return is what method In returns.
	Return
	// Field is the value of Field (static or of any object).
	Field
	// Hidden is an object made by code the program does not contain (the JVM, the
	// class it spins for a constructor reference): it exists, but is the value of
	// nothing in the program until that code hands it over (a call into it
	// returns it, it calls the program with it).
	Hidden
)

// Value is a value of the program. Type is its declared type, the bound of every
// answer, and the whole question for algorithms that do not follow values (CHA,
// RTA). For an operand or parameter of an array type, Type is java/lang/Object.
type Value struct {
	Kind  Kind
	In    *hierarchy.Method
	PC    int32
	N     int32
	Field *hierarchy.Field
	Type  *hierarchy.Class
}

// Any is a value of type t at no particular place.
func Any(t *hierarchy.Class) Value { return Value{Kind: Declared, Type: t} }

// OperandOf is operand n of the instruction at pc in m, of declared type t.
func OperandOf(m *hierarchy.Method, pc int32, n int, t *hierarchy.Class) Value {
	return Value{Kind: Operand, In: m, PC: pc, N: int32(n), Type: t}
}

// DefOf is the value the instruction at pc in m pushes, of declared type t.
func DefOf(m *hierarchy.Method, pc int32, t *hierarchy.Class) Value {
	return Value{Kind: Def, In: m, PC: pc, Type: t}
}

// ParamOf is parameter n of m (this is 0 of an instance method), of declared type t.
func ParamOf(m *hierarchy.Method, n int, t *hierarchy.Class) Value {
	return Value{Kind: Param, In: m, N: int32(n), Type: t}
}

// ReturnOf is what m returns, of declared type t.
func ReturnOf(m *hierarchy.Method, t *hierarchy.Class) Value {
	return Value{Kind: Return, In: m, Type: t}
}

// FieldOf is the value of field f, of declared type t.
func FieldOf(f *hierarchy.Field, t *hierarchy.Class) Value {
	return Value{Kind: Field, Field: f, Type: t}
}

// HiddenOf is a value of type t made by code the program does not contain.
func HiddenOf(t *hierarchy.Class) Value { return Value{Kind: Hidden, Type: t} }

func (v Value) String() string {
	t := "?"
	if v.Type != nil {
		t = v.Type.Name
	}
	switch v.Kind {
	case Operand:
		return "operand " + strconv.Itoa(int(v.N)) + " at pc " + strconv.Itoa(int(v.PC)) + " of " + v.In.String() + " : " + t
	case Def:
		return "result at pc " + strconv.Itoa(int(v.PC)) + " of " + v.In.String() + " : " + t
	case Param:
		return "parameter " + strconv.Itoa(int(v.N)) + " of " + v.In.String() + " : " + t
	case Return:
		return "return of " + v.In.String() + " : " + t
	case Field:
		return "field " + v.Field.String()
	case Hidden:
		return "hidden " + t
	}
	return "any " + t
}

// Oracle answers type questions for one run. Runs are single-threaded: an Oracle
// need not be safe for concurrent use.
type Oracle interface {
	// Types calls fn for every class whose instances may be values of v: those
	// known now, and later ones as reachable code creates them or makes them flow
	// to v. fn is called at most once per class for a given question. Only
	// concrete classes that are subtypes of v.Type are answered.
	Types(v Value, fn func(*hierarchy.Class))
	// Created tells the oracle that instances of c may appear at v: an allocation,
	// a reflective or native creation whose result is v, or any place (a Declared
	// value) for objects the JVM or native code creates.
	Created(v Value, c *hierarchy.Class)
	// Scope returns the part of v that answers depend on: questions with the same
	// scope get the same answers, so the solver shares one target set between
	// them (all calls of a method on one declared type, under CHA and RTA).
	Scope(v Value) Value
	// Fixed reports whether answers never grow after the question (CHA), so the
	// solver may share and cache them between runs.
	Fixed() bool
}

// Selector is an Oracle that can answer Types together with what each class selects
// for a virtual call (hierarchy.Select) faster than asking Select class by class: CHA
// computes the selections incrementally down the hierarchy, which keeps a deep
// superclass chain linear instead of walking it once per class.
type Selector interface {
	// SelectTypes calls fn as Types(v, ...) would, with each class's selection of
	// rm (nil where the JVM throws).
	SelectTypes(v Value, rm *hierarchy.Method, fn func(c *hierarchy.Class, m *hierarchy.Method))
}

// SelectTypes calls fn for every class o.Types answers about v, with the class's
// selection of rm: through o's Selector when it has one, else with hierarchy.Select.
func SelectTypes(o Oracle, h *hierarchy.Hierarchy, v Value, rm *hierarchy.Method, fn func(c *hierarchy.Class, m *hierarchy.Method)) {
	if s, ok := o.(Selector); ok {
		s.SelectTypes(v, rm, fn)
		return
	}
	o.Types(v, func(c *hierarchy.Class) { fn(c, h.Select(c, rm)) })
}

// Concrete reports whether instances of c can exist.
func Concrete(c *hierarchy.Class) bool {
	return !c.Phantom && !c.IsInterface() && !c.IsAbstract()
}

// Follower is an Oracle whose answers follow values through the program (XTA, TFA):
// types flow along calls, fields and arrays, so it must be told what the solver
// finds, as it finds it. CHA and RTA answer from declared types and are not
// Followers. Handles of target sets (set) are the solver's: a set is the shared
// target list of one or more call sites, growing as the solver finds members.
type Follower interface {
	Oracle
	// Reached tells that m became reachable; f is its facts, nil for a method
	// without code (native, abstract).
	Reached(m *hierarchy.Method, f *facts.Method)
	// Calls tells that the instruction at pc in caller (nil: the JVM or native
	// code) may call every member of set, now and later, in the way kind says.
	Calls(caller *hierarchy.Method, pc int32, set int32, kind CallKind)
	// Member tells that callee is a member of set. The solver reports every member
	// of a set once, from the first Calls naming it on.
	Member(set int32, callee *hierarchy.Method)
	// Captured tells that the values the invokedynamic at pc in from captures (its
	// operands) reach the parameters of to other than by a call: the arguments a
	// lambda or method reference made there binds.
	Captured(from *hierarchy.Method, pc int32, to *hierarchy.Method)
	// Written tells that code the oracle does not follow may write field f with
	// any object of its type: deserialization, which fills the fields of the
	// objects it creates, private ones included, with objects it creates too.
	Written(f *hierarchy.Field)
	// CreatesOnly tells, before any of its calls, that the call at pc in caller
	// returns only the objects its Creating calls make (a reflective
	// instantiation): not what its Direct targets return.
	CreatesOnly(caller *hierarchy.Method, pc int32)
}

// LambdaFollower is a Follower that follows lambda objects (those LambdaMetafactory
// makes at invokedynamic instructions) as values, from their capture site.
type LambdaFollower interface {
	// Lambdas tells fn, now and later, the invokedynamic (its method and pc) that
	// created each lambda value v may hold, once each. It returns false when the
	// oracle does not follow lambdas into v (v is any object: a JDK value, a
	// widened set): every lambda of a fitting interface may be there, and fn is
	// never called.
	Lambdas(v Value, fn func(creator *hierarchy.Method, pc int32)) bool
	// LambdaDispatch tells, before any of its calls, that set holds what a
	// dispatch reaches through lambda objects: their implementations, which get
	// the values the lambda captured first (Captured), then the call's arguments.
	LambdaDispatch(set int32)
}

// Tracer is a Follower that can say how a value came to hold an object: the
// chain of values it flowed through, back to where it was created or to the
// value that was widened to any object. It is what answers "why may this
// receiver be a C", which a call path alone does not: under XTA and TFA a
// dispatch reaches C's method only where C's objects flow.
type Tracer interface {
	// Trace makes the run record, for objects of the classes cs and for lambdas
	// whose implementation is one of impls, the first way each value received
	// one. It must be called before the run tells anything.
	Trace(cs []*hierarchy.Class, impls []*hierarchy.Method)
	// Explain returns, for each traced object v holds, in the order they came
	// and at most most of them, the steps by which v came to hold it, v first,
	// each a sentence. A value that holds any object has one chain, to where it
	// became so. It returns nil when v holds no traced object.
	Explain(v Value, most int) []Chain
}

// Chain is how a value came to hold an object (Tracer.Explain).
type Chain struct {
	// Object names the object ("an object of class p.C", "the lambda created
	// at ..."); it is empty when the value holds any object.
	Object string   `json:"object,omitempty"`
	Steps  []string `json:"steps"`
}

// CallKind says how a call hands values to its targets.
type CallKind uint8

// Call kinds.
const (
	// Direct: the call's operands are the target's parameters and its result is
	// the target's return.
	Direct CallKind = iota
	// Creating: the targets are constructors run on objects the call itself
	// creates (reflection, native code): the call's result has their classes.
	Creating
	// Initializes: the targets are the class initialisers the instruction
	// triggers (JVMS 5.5): it hands them nothing and gets nothing back.
	Initializes
)
