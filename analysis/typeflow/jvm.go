package typeflow

import (
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// The rules for what bytecode does not show: the heap of fields and what code
// the program does not contain writes into it (Unsafe, reflection, native
// code), objects the JVM makes, and native methods' values.

func (o *oracle) fieldNode(f *hierarchy.Field) int32 {
	id := o.nm + f.ID
	if n := &o.nodes[id]; !n.field {
		n.field = true
		switch {
		case !o.guarded(f):
			o.open(id, f)
		case o.serialized(f):
			// Serialization reads it whatever its access: what the field holds
			// reaches the stream's code (its writes, Written, come with the
			// objects deserialization creates).
			o.link(id, o.heap, noFilter)
			o.ownFields = append(o.ownFields, id)
		default:
			o.ownFields = append(o.ownFields, id)
		}
	}
	return id
}

// guarded reports whether code the sets do not follow (the JDK, native code) can
// reach field f only through what f's own program hands it: under Encap-Respect
// and above, a field of the application or its libraries that is not public,
// until the program asks for access to fields by name (ownAccess) or hands out a
// method handle of f (handedFields).
func (o *oracle) guarded(f *hierarchy.Field) bool {
	return o.encap && !o.ownAccess && f.Class.Origin != hierarchy.JDK && f.Access&accPublic == 0 && !o.handed[f.ID]
}

// open lets what field node id holds reach the heap of fields that native code
// reads (Unsafe reads any field: arrays stored there escape), and escaped values
// into it.
func (o *oracle) open(id int32, f *hierarchy.Field) {
	o.link(id, o.heap, noFilter)
	o.escapeTo(id, f)
}

// serialized reports whether serialization may read field f: an instance field,
// not transient, of a serializable class.
func (o *oracle) serialized(f *hierarchy.Field) bool {
	if f.Access&(classfile.AccStatic|classfile.AccTransient) != 0 {
		return false
	}
	ser := o.h.Class("java/io/Serializable")
	return ser != nil && o.h.IsSubtype(f.Class, ser)
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
// time: what lets JDK code read and write a class's private fields under
// Encap-Respect.
func grantsFieldAccess(ref classfile.Ref) bool {
	switch ref.Class {
	case "java/util/concurrent/atomic/AtomicReferenceFieldUpdater", "java/lang/reflect/Field",
		"java/lang/reflect/AccessibleObject", "sun/misc/Unsafe", "jdk/internal/misc/Unsafe":
		return true
	case "java/lang/invoke/MethodHandles$Lookup":
		switch ref.Name {
		case "findVarHandle", "findStaticVarHandle", "unreflectVarHandle", "findSetter", "findStaticSetter", "unreflectSetter",
			"findGetter", "findStaticGetter", "unreflectGetter":
			return true
		}
	}
	return false
}

// grantOwnAccess opens every field from now on.
func (o *oracle) grantOwnAccess() {
	if o.ownAccess {
		return
	}
	o.ownAccess = true
	fs := o.h.Fields()
	for _, id := range o.ownFields {
		o.open(id, fs[id-o.nm])
	}
	o.ownFields = nil
}

// handedFields opens the fields that method handle constants in m's code (ldc,
// bootstrap arguments) read or write: a record's ObjectMethods bootstrap gets
// handles of its private fields, and JDK code then reads them.
func (o *oracle) handedFields(f *facts.Method) {
	var visit func(c *facts.Constant)
	visit = func(c *facts.Constant) {
		switch c.Kind {
		case facts.ConstMethodHandle:
			if c.RefKind >= classfile.RefGetField && c.RefKind <= classfile.RefPutStatic {
				o.hand(c.Ref)
			}
		case facts.ConstDynamic:
			for i := range c.Dynamic.Args {
				visit(&c.Dynamic.Args[i])
			}
		}
	}
	for i := range f.HandleConsts {
		visit(&f.HandleConsts[i].Const)
	}
	for i := range f.Calls {
		if in := f.Calls[i].Indy; in != nil {
			for j := range in.Args {
				visit(&in.Args[j])
			}
		}
	}
}

// hand opens the field ref names, once.
func (o *oracle) hand(ref classfile.Ref) {
	c := o.h.Class(ref.Class)
	if c == nil {
		return
	}
	fd, err := o.h.ResolveField(c, ref.Name, ref.Desc)
	if err != nil || o.handed[fd.ID] {
		return
	}
	guarded := o.guarded(fd)
	o.handed[fd.ID] = true
	if guarded && o.nodes[o.nm+fd.ID].field {
		o.open(o.nm+fd.ID, fd) // links are never doubled: ownFields may open it again
	}
}

const accPublic = 0x0001

// onlyReads reports whether JDK method m only reads what it is handed: it turns
// it into a string (toString), keeping neither the object nor anything it holds,
// so an array or a container the program hands it has not escaped. javac 17 calls
// String.valueOf on each object a string concatenation joins.
func onlyReads(m *hierarchy.Method) bool {
	const obj = "(Ljava/lang/Object;)"
	switch m.Name {
	case "valueOf":
		return m.Class.Name == "java/lang/String" && m.Desc == obj+"Ljava/lang/String;"
	case "append":
		return m.Class.Name == "java/lang/StringBuilder" && m.Desc == obj+"Ljava/lang/StringBuilder;" ||
			m.Class.Name == "java/lang/StringBuffer" && m.Desc == obj+"Ljava/lang/StringBuffer;"
	case "print", "println":
		return m.Class.Name == "java/io/PrintStream" && m.Desc == obj+"V"
	case "toString":
		return m.Class.Name == "java/util/Objects" && (m.Desc == obj+"Ljava/lang/String;" || m.Desc == "(Ljava/lang/Object;Ljava/lang/String;)Ljava/lang/String;")
	}
	return false
}

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
