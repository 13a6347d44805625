package analysis

import (
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// serialResolver: Java serialization (Java Object Serialization Specification,
// sections 2 and 3). The streams call hooks of the serialized classes reflectively,
// private ones included, so no level's reflective fallback covers them.
//
// Deserialization (ObjectInputStream.readObject, readUnshared, and defaultReadObject
// and readFields, which read nested objects) may create an object of any serializable
// class of the program: the stream is input, and the closed world only says its
// classes are among AppClasses. For each concrete serializable class it initialises
// the class, runs the no-argument constructor of the first non-serializable superclass
// (an Externalizable class's public no-argument constructor; a record's canonical
// constructor), and calls the private readObject and readObjectNoData methods of the
// serializable classes of its superclass chain (readExternal for Externalizable
// classes), readResolve when the class declares or inherits an accessible one, and
// validateObject when it is an ObjectInputValidation. Enum constants are looked up,
// not created: only their class is initialised. Under RTA every such class becomes
// instantiated; to the algorithms that follow values the objects appear in the
// stream's code (what readObject returns) and in the fields it fills, which may then
// hold anything (algo.Follower.Written), not everywhere: a local holding an
// exception the program creates is not every serializable exception.
//
// Serialization (ObjectOutputStream.writeObject, writeUnshared, defaultWriteObject,
// writeFields) handles existing objects, so it uses the serializable classes the
// algorithm says exist: their private writeObject methods, writeReplace and, for
// Externalizable classes, writeExternal.
//
// The targets do not depend on the call site, so they are computed once per run into
// shared sets, and each site is a few bundles. Serialization is not one of the
// dynamic features of assumption-levels.md, so its calls are not recorded as sites.
type serialResolver struct{}

var (
	serialReadAPIs  = []string{"readObject", "readUnshared", "defaultReadObject", "readFields"}
	serialWriteAPIs = []string{"writeObject", "writeUnshared", "defaultWriteObject", "writeFields"}
)

func (serialResolver) Name() string { return "serialization" }

func (serialResolver) APIs() []string {
	var out []string
	for _, n := range serialReadAPIs {
		out = append(out, "java/io/ObjectInputStream."+n)
	}
	for _, n := range serialWriteAPIs {
		out = append(out, "java/io/ObjectOutputStream."+n)
	}
	return out
}

func (serialResolver) Resolve(s *solver, at site, _ *facts.Call, rm *hierarchy.Method) {
	if rm.IsStatic() {
		return
	}
	ss := s.serial()
	if ss == nil {
		return
	}
	var sets func() []serialBundle
	switch {
	case rm.Class.Name == "java/io/ObjectInputStream" && slices.Contains(serialReadAPIs, rm.Name):
		sets = func() []serialBundle { return ss.readSets(s, at) }
	case rm.Class.Name == "java/io/ObjectOutputStream" && slices.Contains(serialWriteAPIs, rm.Name):
		sets = func() []serialBundle { return ss.writeSets(s) }
	default:
		return
	}
	// The streams (de)serialize in their own methods, which run only on a stream:
	// a site whose receiver the algorithm never sees hold one reads and writes
	// nothing. (TreeMap.buildFromSorted, reachable from new TreeMap(SortedMap),
	// names readObject on a stream that is null there; taking every such site for
	// a deserialization created every serializable class of the JDK.)
	// The stream's code, not the site's method, calls the hooks, with the objects
	// it creates: a Follower hears them as the JVM's calls (it holds anything).
	s.onReceiver(at, rm.Class, func() {
		for _, b := range sets() {
			s.bundleFrom(at, nil, b.set, b.reason, false)
		}
	})
}

// onReceiver calls fn once, when the algorithm first says that an object of class
// cls (or a subclass) may be the receiver of the instance call at site at: at once
// under CHA, as the run finds one under the other algorithms.
func (s *solver) onReceiver(at site, cls *hierarchy.Class, fn func()) {
	if at.caller == nil || at.pc < 0 {
		fn()
		return
	}
	done := false
	s.oracle.Types(algo.OperandOf(at.caller, at.pc, 0, cls), func(*hierarchy.Class) {
		if !done {
			done = true
			fn()
		}
	})
}

// serialSets holds a run's serialization targets.
type serialSets struct {
	ser, ext, validation, enum, record *hierarchy.Class
	readObject                         *hierarchy.Method // ObjectInputStream.readObject(), nil without it

	made  *serialCreatable // what deserialization may create: see creatable
	read  []serialBundle   // built at the first deserialization site
	write []serialBundle   // built at the first serialization site, then grown by the oracle
}

type serialBundle struct {
	set, reason int32
	kind        serialKind
}

// serialKind names a set of serialization targets: which list of readSets or
// writeSets it is. An update after a member edit computes each again
// (Trace.serial).
type serialKind int8

const (
	serialReadInit serialKind = iota
	serialReadCtor
	serialReadHook
	serialReadResolve
	serialReadExt
	serialValidate
	serialWriteHook
	serialWriteReplace
	serialWriteExt
)

const (
	oisDesc = "(Ljava/io/ObjectInputStream;)V"
	oosDesc = "(Ljava/io/ObjectOutputStream;)V"
)

func (s *solver) serial() *serialSets {
	if s.api.serial == nil {
		ser := s.h.Class("java/io/Serializable")
		if ser == nil || ser.Phantom {
			return nil
		}
		s.api.serial = &serialSets{ser: ser,
			ext:        s.h.Class("java/io/Externalizable"),
			validation: s.h.Class("java/io/ObjectInputValidation"),
			enum:       s.h.Class("java/lang/Enum"),
			record:     s.h.Class("java/lang/Record"),
		}
		if ois := s.h.Class("java/io/ObjectInputStream"); ois != nil {
			s.api.serial.readObject = ois.Method("readObject", "()Ljava/lang/Object;")
		}
	}
	return s.api.serial
}

// serialReason makes the reason of one kind of serialization edge.
func serialReason(kind callgraph.Kind, evidence string) callgraph.Reason {
	return callgraph.Reason{Kind: kind, Resolver: "serialization", Evidence: evidence}
}

var (
	readInitReason     = serialReason(callgraph.KindInit, "deserialization initialises the class of each object it creates: any serializable class")
	readCtorReason     = serialReason(callgraph.KindSerialization, "deserialization creates objects of any serializable class: the no-argument constructor of its first non-serializable superclass (an Externalizable class's public no-argument constructor, a record's canonical constructor)")
	readHookReason     = serialReason(callgraph.KindSerialization, "deserialization calls the private readObject and readObjectNoData methods of the serializable classes of each object's class chain")
	readResolveReason  = serialReason(callgraph.KindSerialization, "deserialization calls readResolve of each object whose class declares or inherits one")
	readExtReason      = serialReason(callgraph.KindSerialization, "deserialization calls readExternal of Externalizable objects")
	validateReason     = serialReason(callgraph.KindSerialization, "deserialization calls validateObject of registered ObjectInputValidation objects")
	writeHookReason    = serialReason(callgraph.KindSerialization, "serialization calls the private writeObject methods of the serializable classes of each object's class chain")
	writeReplaceReason = serialReason(callgraph.KindSerialization, "serialization calls writeReplace of each object whose class declares or inherits one")
	writeExtReason     = serialReason(callgraph.KindSerialization, "serialization calls writeExternal of Externalizable objects")
)

// readSets builds, once per run, the targets of deserialization.
func (ss *serialSets) readSets(s *solver, at site) []serialBundle {
	if ss.read != nil {
		return ss.read
	}
	type list struct {
		r    callgraph.Reason
		ids  []int32
		seen map[int32]bool
	}
	lists := []*list{{r: readInitReason}, {r: readCtorReason}, {r: readHookReason}, {r: readResolveReason}, {r: readExtReason}, {r: validateReason}}
	add := func(l *list, m *hierarchy.Method) {
		if m == nil {
			return
		}
		if l.seen == nil {
			l.seen = map[int32]bool{}
		}
		if !l.seen[m.ID] {
			l.seen[m.ID] = true
			l.ids = append(l.ids, m.ID)
		}
	}
	inits, ctors, hooks, resolves, externals, validates := lists[0], lists[1], lists[2], lists[3], lists[4], lists[5]
	var created []*hierarchy.Class
	s.h.AllSubtypes(ss.ser, func(c *hierarchy.Class) bool {
		if !concrete(c) {
			return true
		}
		for _, id := range s.a.initChain(c) {
			add(inits, s.methods[id])
		}
		if ss.enum != nil && s.h.IsSubclass(c, ss.enum) {
			return true // enum constants are looked up by name (Enum.valueOf)
		}
		if c.Name == "java/lang/Class" {
			// A stream holds classes as TC_CLASS, resolved by name
			// (ObjectInputStream.resolveClass), and the JVM instantiates
			// java.lang.Class for nobody (hotspot
			// InstanceKlass::check_valid_for_instantiation).
			return true
		}
		created = append(created, c)
		switch {
		case ss.isRecord(c):
			for _, m := range recordConstructors(s.h, c) {
				add(ctors, m)
			}
		case ss.isExternal(s.h, c):
			add(ctors, ss.serialCtor(s.h, c))
			if re := ss.ext.Method("readExternal", "(Ljava/io/ObjectInput;)V"); re != nil {
				add(externals, s.h.Select(c, re))
			}
		default:
			for k := c; k != nil && s.h.IsSubtype(k, ss.ser); k = k.Super {
				add(hooks, privateHook(k, "readObject", oisDesc))
				add(hooks, privateHook(k, "readObjectNoData", "()V"))
			}
			add(ctors, ss.serialCtor(s.h, c))
		}
		add(resolves, inheritableHook(s.h, c, "readResolve"))
		if ss.validation != nil && s.h.IsSubtype(c, ss.validation) {
			if v := ss.validation.Method("validateObject", "()V"); v != nil {
				add(validates, s.h.Select(c, v))
			}
		}
		return true
	})
	ss.read = []serialBundle{}
	for i, l := range lists {
		if len(l.ids) == 0 {
			continue
		}
		slices.Sort(l.ids)
		ss.read = append(ss.read, serialBundle{set: s.addSet(l.ids), reason: s.reason(l.r), kind: serialReadInit + serialKind(i)})
	}
	// Deserialization creates these objects in the stream's code, and fills their
	// fields; under CHA this changes nothing.
	if !s.oracle.Fixed() {
		at := algo.ReturnOf(ss.readObject, s.h.Class("java/lang/Object"))
		if ss.readObject == nil {
			at = algo.Value{} // no stream class: anywhere
		}
		for _, c := range created {
			at.Type = c
			s.oracle.Created(at, c)
			if s.fl != nil && !ss.isExternal(s.h, c) && !ss.isRecord(c) {
				ss.fieldsWritten(s, c)
			}
		}
	}
	return ss.read
}

// fieldsWritten tells the Follower that deserialization may write the instance
// fields, but the transient ones, of the serializable classes of c's chain.
func (ss *serialSets) fieldsWritten(s *solver, c *hierarchy.Class) {
	for k := c; k != nil && s.h.IsSubtype(k, ss.ser); k = k.Super {
		for _, f := range k.Fields {
			if f.Access&(classfile.AccStatic|classfile.AccTransient) == 0 && (f.Desc[0] == 'L' || f.Desc[0] == '[') {
				s.fl.Written(f)
			}
		}
	}
}

// serialCtor returns the constructor with which deserialization creates an object
// of c, a concrete serializable class other than a record or an enum (the cons of
// its ObjectStreamClass), or nil: an Externalizable class's public no-argument
// constructor; otherwise the no-argument constructor of its first non-serializable
// superclass, which ReflectionFactory.newConstructorForSerialization refuses when it
// is private, or package-private in another package than c's.
func (ss *serialSets) serialCtor(h *hierarchy.Hierarchy, c *hierarchy.Class) *hierarchy.Method {
	if ss.isExternal(h, c) {
		if m := c.Method("<init>", "()V"); m != nil && m.IsPublic() {
			return m
		}
		return nil
	}
	k := c
	for k != nil && h.IsSubtype(k, ss.ser) {
		k = k.Super
	}
	if k == nil {
		return nil
	}
	m := k.Method("<init>", "()V")
	if m == nil || m.IsPrivate() || (!m.IsPublic() && !m.IsProtected() && !hierarchy.SamePackage(k, c)) {
		return nil
	}
	return m
}

func (ss *serialSets) isExternal(h *hierarchy.Hierarchy, c *hierarchy.Class) bool {
	return ss.ext != nil && h.IsSubtype(c, ss.ext)
}

func (ss *serialSets) isRecord(c *hierarchy.Class) bool {
	return ss.record != nil && c.Super == ss.record
}

// writeSets builds, once per run, the growing sets of serialization targets, fed by
// the serializable classes the oracle reports.
func (ss *serialSets) writeSets(s *solver) []serialBundle {
	if ss.write != nil {
		return ss.write
	}
	hooks, replaces, externals := s.newSet(), s.newSet(), s.newSet()
	ss.write = []serialBundle{
		{set: hooks, reason: s.reason(writeHookReason), kind: serialWriteHook},
		{set: replaces, reason: s.reason(writeReplaceReason), kind: serialWriteReplace},
		{set: externals, reason: s.reason(writeExtReason), kind: serialWriteExt},
	}
	seen := map[int32]bool{}
	add := func(set int32, m *hierarchy.Method) {
		if m != nil && !seen[m.ID] {
			seen[m.ID] = true
			s.grow(set, m.ID)
		}
	}
	var writeExternal *hierarchy.Method
	if ss.ext != nil {
		writeExternal = ss.ext.Method("writeExternal", "(Ljava/io/ObjectOutput;)V")
	}
	s.oracle.Types(algo.Any(ss.ser), func(c *hierarchy.Class) {
		if ss.enum != nil && s.h.IsSubclass(c, ss.enum) {
			return // enum constants are written by name
		}
		add(replaces, inheritableHook(s.h, c, "writeReplace"))
		switch {
		case ss.isRecord(c):
		case ss.isExternal(s.h, c):
			if writeExternal != nil {
				add(externals, s.h.Select(c, writeExternal))
			}
		default:
			for k := c; k != nil && s.h.IsSubtype(k, ss.ser); k = k.Super {
				add(hooks, privateHook(k, "writeObject", oosDesc))
			}
		}
	})
	return ss.write
}

// privateHook returns k's private instance method name desc, the form in which the
// streams look up readObject, readObjectNoData and writeObject.
func privateHook(k *hierarchy.Class, name, desc string) *hierarchy.Method {
	m := k.Method(name, desc)
	if m == nil || !m.IsPrivate() || m.IsStatic() {
		return nil
	}
	return m
}

// inheritableHook returns the readResolve or writeReplace method (returning Object,
// no parameters) that the streams use for objects of class c: declared in c or a
// superclass, not static or abstract, and accessible to c (private only in c itself,
// package-private only in c's package).
func inheritableHook(h *hierarchy.Hierarchy, c *hierarchy.Class, name string) *hierarchy.Method {
	for k := c; k != nil; k = k.Super {
		m := k.Method(name, "()Ljava/lang/Object;")
		if m == nil {
			continue
		}
		switch {
		case m.IsStatic() || m.IsAbstract():
			return nil
		case m.IsPublic() || m.IsProtected():
			return m
		case m.IsPrivate():
			if k == c {
				return m
			}
			return nil
		case hierarchy.SamePackage(k, c):
			return m
		}
		return nil
	}
	return nil
}

// recordConstructors returns a record's canonical constructor, found from its Record
// attribute, or all its constructors when that fails.
func recordConstructors(h *hierarchy.Hierarchy, c *hierarchy.Class) []*hierarchy.Method {
	if f := h.File(c); f != nil && f.Record != nil {
		var b strings.Builder
		b.WriteByte('(')
		for _, rc := range f.Record {
			b.WriteString(rc.Desc)
		}
		b.WriteString(")V")
		if m := c.Method("<init>", b.String()); m != nil {
			return []*hierarchy.Method{m}
		}
	}
	var out []*hierarchy.Method
	for _, m := range c.Methods {
		if m.Name == "<init>" {
			out = append(out, m)
		}
	}
	return out
}

// serialSets returns the run's sets of serialization targets, by kind.
func (s *solver) serialSets() map[serialKind]int32 {
	out := map[serialKind]int32{}
	if ss := s.api.serial; ss != nil {
		for _, b := range append(slices.Clip(ss.read), ss.write...) {
			out[b.kind] = b.set
		}
	}
	return out
}
