package typeflow

import (
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// The rules for what bytecode does not show: the heap of fields and what code
// the program does not contain writes into it (Unsafe, reflection, native
// code), objects the JVM makes, and native methods' values.

func (o *oracle) fieldNode(f *hierarchy.Field) int32 {
	id := o.nm + f.ID
	if n := &o.nodes[id]; !n.field {
		n.field = true
		n.out = append(n.out, edge{to: o.heap, filter: noFilter})
		if o.encap && !o.ownAccess && f.Class.Origin != hierarchy.JDK && f.Access&accPublic == 0 {
			o.ownFields = append(o.ownFields, id)
		} else {
			o.escapeTo(id, f)
		}
	}
	return id
}

// escapeTo lets escaped values of a fitting type into field f's node id.
func (o *oracle) escapeTo(id int32, f *hierarchy.Field) {
	if t, ok := o.typeOf(f.Desc); ok {
		if fl, ok := o.filter([]*hierarchy.Class{t}); ok {
			o.link(o.escape, id, fl)
		}
	}
}

// grantsFieldAccess reports whether a call hands out access to fields named at run
// time: what lets JDK code write a class's private fields under Encap-Respect.
func grantsFieldAccess(ref classfile.Ref) bool {
	switch ref.Class {
	case "java/util/concurrent/atomic/AtomicReferenceFieldUpdater", "java/lang/reflect/Field",
		"sun/misc/Unsafe", "jdk/internal/misc/Unsafe":
		return true
	case "java/lang/invoke/MethodHandles$Lookup":
		switch ref.Name {
		case "findVarHandle", "findStaticVarHandle", "unreflectVarHandle", "findSetter", "findStaticSetter", "unreflectSetter":
			return true
		}
	}
	return false
}

// grantOwnAccess lets escaped values into every field from now on.
func (o *oracle) grantOwnAccess() {
	if o.ownAccess {
		return
	}
	o.ownAccess = true
	fs := o.h.Fields()
	for _, id := range o.ownFields {
		o.escapeTo(id, fs[id-o.nm])
	}
	o.ownFields = nil
}

const accPublic = 0x0001

// hidden records an object of class c made by code the program does not contain
// (algo.Hidden: the JVM's, native code's, a constructor reference's class). That
// code hands it to the program only as what calls into it return or pass on: a
// constructor reached without being named returns it (ctorCalls), and the JDK's
// code, summarised, returns, holds and stores any object created anywhere. So it
// is created at no value; without summarised code, everywhere.
func (o *oracle) hidden(c int32) {
	if o.summarised != nil && !o.globalException(c) {
		o.created(c)
	} else {
		o.addGlobal(c)
	}
}

// globalException reports whether class c is an exception the sets make global:
// XTA's (see Created).
func (o *oracle) globalException(c int32) bool {
	return o.flow == nil && o.thrown != nil && o.isSub(c, o.thrown)
}

// native adds the edges of the native heap for native method m.
func (o *oracle) native(m *hierarchy.Method) {
	writes := writesAnyField(m)
	hand := func(from int32) {
		o.link(from, o.held, noFilter)
		if writes {
			o.link(from, o.escape, noFilter)
		}
	}
	if o.flow == nil {
		hand(m.ID)
	} else {
		o.eachParam(m, func(p, _ int32) { hand(p) })
	}
	ret := returnDesc(m.Desc)
	switch {
	case m.Name == "clone" && m.Class == o.h.Object():
		// The JVM copies the receiver: under XTA its class is in the caller's set
		// already; under TFA the receiver's set is the result's.
		if o.flow != nil {
			o.link(o.param(m, 0), m.ID, noFilter)
		}
	case len(ret) > 1 && ret[0] == '[':
		o.link(o.held, o.elems, noFilter)
		if fl, ok := o.returnFilter(m); ok && o.flow != nil {
			o.link(o.heap, m.ID, fl) // an array nobody traced
		}
	default:
		if fl, ok := o.returnFilter(m); ok {
			o.link(o.heap, m.ID, fl)
		}
	}
}

// writesAnyField reports whether native m may store what it is given in fields or
// arrays that no bytecode names: Unsafe's accessors (and so VarHandles, field
// updaters and reflection built on them), reflective array stores, and the JVM's
// setters of System.in, out and err.
func writesAnyField(m *hierarchy.Method) bool {
	switch m.Class.Name {
	case "jdk/internal/misc/Unsafe", "sun/misc/Unsafe", "java/lang/reflect/Array":
		return true
	case "java/lang/System":
		return m.Name == "setIn0" || m.Name == "setOut0" || m.Name == "setErr0"
	}
	return false
}
