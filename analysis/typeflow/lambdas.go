package typeflow

import (
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Lambdas as values (TFA). The objects LambdaMetafactory makes at an invokedynamic
// have a class the JVM spins at run time, which the hierarchy does not have. In
// the sets they are one ID per invokedynamic, past the class IDs: a lambda flows
// from its capture site like any object, filtered by declared types as an object
// of a class implementing its functional interface (and so Object) would be, and
// an interface dispatch reaches the lambdas in its receiver's node (Lambdas), not
// every lambda of the program with its interface and name. Lambdas created by
// summarised code are created anywhere: top nodes, the JDK's values, hold them.

const lambdaMetafactory = "java/lang/invoke/LambdaMetafactory"

// lambdaSite is the invokedynamic that creates the lambdas of one ID.
type lambdaSite struct {
	m     *hierarchy.Method
	pc    int32
	iface *hierarchy.Class // the functional interface
}

// lambdaID returns the ID of the lambdas the invokedynamic at pc in m creates,
// making it on first use, or -1 when their interface is not an interface of the
// class path (such a lambda has no methods to call).
func (o *oracle) lambdaID(m *hierarchy.Method, pc int32, iface string) int32 {
	if id, ok := o.lambdaIDs[siteKey{m.ID, pc}]; ok {
		return id
	}
	c := o.h.Class(iface)
	if c == nil || c.Phantom || !c.IsInterface() {
		return -1
	}
	id := o.nc + int32(len(o.lambdas))
	o.lambdas = append(o.lambdas, lambdaSite{m: m, pc: pc, iface: c})
	o.lambdaIDs[siteKey{m.ID, pc}] = id
	o.all = append(o.all, false)
	o.global = append(o.global, false)
	return id
}

// classOf returns the class of ID c: a class's, or a lambda's functional
// interface.
func (o *oracle) classOf(c int32) *hierarchy.Class {
	if c < o.nc {
		return o.h.Classes()[c]
	}
	return o.lambdas[c-o.nc].iface
}

// typeID returns the class ID whose subtype tests answer for ID c: c's own, or a
// lambda's functional interface's.
func (o *oracle) typeID(c int32) int32 {
	if c < o.nc {
		return c
	}
	return o.lambdas[c-o.nc].iface.ID
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
