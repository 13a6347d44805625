package typeflow

import (
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Objects the hierarchy has no class for (TFA): lambdas and the program's arrays.
// In the sets they are IDs past the class IDs, one per instruction that creates
// them, and they flow like any object, filtered by declared types as an object of
// their type would be:
//   - a lambda, made by a LambdaMetafactory invokedynamic, is of a class the JVM
//     spins implementing its functional interface: an interface dispatch reaches
//     the lambdas in its receiver's node (Lambdas), not every lambda of the program
//     with its interface and name. Lambdas summarised code creates are created
//     anywhere: top nodes, the JDK's values, hold them.
//   - an array, made by an anewarray of the program's code, has a node of its own
//     elements: aastore feeds the element nodes of the arrays in its array
//     operand's node, aaload reads them (arrays), and an array that reaches a top
//     node (a JDK parameter, what native code holds, a widened set) has escaped:
//     its elements are top, since code the sets do not follow may store anything
//     into it. Arrays nobody traced (the JDK's, native code's, multianewarray's
//     nested ones) are one ID, anyArray, whose elements are elems.

const lambdaMetafactory = "java/lang/invoke/LambdaMetafactory"

// objKind is what an ID past the class IDs stands for.
type objKind uint8

const (
	objLambda    objKind = iota
	objArray             // the program's arrays, and anyArray
	objContainer         // a JDK collection or map the program creates (containers.go)
	objView              // an iterator or enumeration over a container's contents
)

// extraObj is the instruction that creates the objects of one ID.
type extraObj struct {
	kind objKind
	m    *hierarchy.Method // nil for anyArray and views
	pc   int32
	// cls is a lambda's functional interface, a container's or view's class; nil
	// for an array.
	cls *hierarchy.Class
	// elems is the node of an array's elements, of a container's (a map's
	// values) and of the contents a view walks; keys that of a map's keys.
	elems, keys int32
	// entry is an entry set's entry object, whose elems and keys are its map's: an
	// add to the entry set writes into the map (apply).
	entry int32
	// collects marks a collector of Collectors.toList and friends (containers.go).
	collects bool
	// of is the container a view walks (view), 0 for a view a call makes with
	// contents of its own (siteView): explanations name it.
	of int32
}

// newExtra makes the ID of x.
func (o *oracle) newExtra(x extraObj) int32 {
	id := o.nc + int32(len(o.extra))
	o.extra = append(o.extra, x)
	if x.m != nil {
		o.extraIDs[siteKey{x.m.ID, x.pc}] = id
	}
	o.all = append(o.all, false)
	o.global = append(o.global, false)
	return id
}

// lambdaID returns the ID of the lambdas the invokedynamic at pc in m creates,
// making it on first use, or -1 when their interface is not an interface of the
// class path (such a lambda has no methods to call).
func (o *oracle) lambdaID(m *hierarchy.Method, pc int32, iface string) int32 {
	if id, ok := o.extraIDs[siteKey{m.ID, pc}]; ok {
		return id
	}
	c := o.h.Class(iface)
	if c == nil || c.Phantom || !c.IsInterface() {
		return -1
	}
	return o.newExtra(extraObj{kind: objLambda, m: m, pc: pc, cls: c})
}

// createdExtra records lambda or array c as created anywhere, in the lists that
// eachExtraOf walks.
func (o *oracle) createdExtra(c int32) {
	if int(c-o.nc) >= len(o.extraAt) {
		o.extraAt = append(o.extraAt, make([]int32, int(c-o.nc)+1-len(o.extraAt))...)
	}
	o.extraAt[c-o.nc] = int32(len(o.extraOrder))
	o.extraOrder = append(o.extraOrder, c)
	x := o.extra[c-o.nc]
	if x.kind == objArray {
		o.arrayOrder = append(o.arrayOrder, c)
		return
	}
	i, ok := o.lambdaIfaces[x.cls.ID]
	if !ok {
		i = len(o.lambdasByIface)
		o.lambdaIfaces[x.cls.ID] = i
		o.lambdasByIface = append(o.lambdasByIface, []int32{x.cls.ID})
	}
	o.lambdasByIface[i] = append(o.lambdasByIface[i], c)
}

// eachExtraOf calls fn for each lambda and array created anywhere that is of type
// t, in the order they were created when t is Object, else arrays first. With the
// JDK followed there are tens of thousands of them, and every new top filter asks
// (createdPassing): going through the lambdas by interface, and the arrays only
// for the array types' supertypes, is what keeps that from dominating the run.
func (o *oracle) eachExtraOf(t *hierarchy.Class, fn func(c int32)) {
	switch {
	case t == o.h.Object():
		for _, c := range o.extraOrder {
			fn(c)
		}
		return
	case o.arraySuper(t):
		for _, c := range o.arrayOrder {
			fn(c)
		}
	}
	if !t.IsInterface() {
		return // a lambda's class implements its interface, and extends Object only
	}
	sub := o.subtypes(t)
	for _, ls := range o.lambdasByIface {
		if i := ls[0]; sub[i/64]&(1<<(i%64)) != 0 {
			for _, c := range ls[1:] {
				fn(c)
			}
		}
	}
}

// isArray reports whether ID c (past the class IDs) is an array's.
func (o *oracle) isArray(c int32) bool { return o.extra[c-o.nc].kind == objArray }

// classOf returns the class of ID c: a class's, a lambda's functional interface,
// a container's or view's class, Object for an array.
func (o *oracle) classOf(c int32) *hierarchy.Class {
	switch {
	case c < o.nc:
		return o.h.Classes()[c]
	case o.isArray(c):
		return o.h.Object()
	}
	return o.extra[c-o.nc].cls
}

// arraySuper reports whether an array is of type t: Object, Cloneable,
// Serializable (JLS 4.10.3).
func (o *oracle) arraySuper(t *hierarchy.Class) bool {
	return t == o.h.Object() || t.Name == "java/lang/Cloneable" || t.Name == "java/io/Serializable"
}

// lambdaNode returns the node of what the invokedynamic at pc in m pushes: the
// lambda it creates.
func (o *oracle) lambdaNode(m *hierarchy.Method, pc int32, iface string) int32 {
	c := o.lambdaID(m, pc, iface)
	if c < 0 {
		return o.none
	}
	id := o.newNode()
	o.add(id, c)
	return id
}

// arrayNode returns the node of what the anewarray at pc in m pushes: the array
// it creates, with a node of its elements.
func (o *oracle) arrayNode(m *hierarchy.Method, pc int32) int32 {
	id := o.newNode()
	o.add(id, o.arrayID(m, pc))
	return id
}

// arrayID returns the ID of the array that the instruction at pc in m creates,
// with a node of its elements.
func (o *oracle) arrayID(m *hierarchy.Method, pc int32) int32 {
	c, ok := o.extraIDs[siteKey{m.ID, pc}]
	if !ok {
		c = o.newExtra(extraObj{kind: objArray, m: m, pc: pc, elems: o.newNode()})
	}
	return c
}

// anyArrayNode returns a node holding the arrays nobody traced.
func (o *oracle) anyArrayNode() int32 {
	id := o.newNode()
	o.add(id, o.anyArray)
	return id
}

// escaped is told that object c reached top node into (or the sink): the
// elements of an array or a container (through a view too) may be anything from
// now on, since code the sets do not follow may store anything into it.
func (o *oracle) escaped(c, into int32) { o.escapedFor(c, o.escapeCause(c, into)) }

// escapedFor makes the contents of object c top for the reason why.
func (o *oracle) escapedFor(c int32, why topCause) {
	x := o.extra[c-o.nc]
	if x.kind == objLambda {
		return
	}
	for _, e := range []int32{x.elems, x.keys} {
		if e != 0 && !o.nodes[e].top {
			o.makeTop(e, why)
		}
	}
}

// arrays calls fn, now and later, with the element node of each array that node
// id may hold: elems (anything stored in any array) once id is top.
func (o *oracle) arrays(id int32, fn func(elems int32)) {
	if o.h.Object() == nil {
		fn(o.elems) // no JDK: questions need Object's class to be asked
		return
	}
	o.ask(sub{n: id, t: o.h.Object(), kind: objArray,
		objs:  func(c int32) { fn(o.extra[c-o.nc].elems) },
		onTop: func() { fn(o.elems) }})
}

// summarisedLambdas records the lambdas summarised method m creates as created
// anywhere: summarised code may hand them to any value it gives the program, whose
// nodes are top and so hold them.
func (o *oracle) summarisedLambdas(m *hierarchy.Method, f *facts.Method) {
	for i := range f.Calls {
		in := f.Calls[i].Indy
		if in == nil || in.Bootstrap.Class != lambdaMetafactory {
			continue
		}
		if ret := returnDesc(in.Desc); len(ret) > 2 && ret[0] == 'L' {
			if c := o.lambdaID(m, f.Calls[i].PC, ret[1:len(ret)-1]); c >= 0 {
				o.created(c)
			}
		}
	}
}

// refArray reports whether a descriptor is of an array of references (an array
// of arrays included).
func refArray(desc string) bool {
	return len(desc) > 1 && desc[0] == '[' && (desc[1] == 'L' || desc[1] == '[')
}
