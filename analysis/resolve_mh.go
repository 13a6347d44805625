package analysis

import (
	"slices"
	"strconv"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Method handles. Two kinds of calls are sites:
//
//   - lookups (MethodHandles.Lookup.find*, bind, unreflect*) create a handle. They call
//     nothing themselves; the site records what the handle refers to, resolved when
//     the class, name and type arguments are class and string literals in the same
//     method (findStatic and findVirtual also when only the class is known: the
//     name is resolved in that class's hierarchy).
//   - invocations (MethodHandle.invoke, invokeExact, invokeWithArguments) call the
//     handle's target. When every definition of the receiver is a resolved lookup in
//     the same method (possibly through bindTo, asType and similar adapters, or a
//     cast), the targets are those of the lookups; otherwise the site falls back to
//     the level's conservative set.
//
// A third kind calls a handle later, from native code: Linker.upcallStub (Java 22's
// Foreign Function & Memory API) makes a function pointer that calls its handle
// argument whenever native code calls the pointer. jcg-lsp takes the stub's creation
// for the calls: the site is resolved as an invocation of that argument.
//
// Literal arguments name their class and member whatever the level assumes, so this
// resolution is valid at every level. ldc of MethodHandle constants and invokedynamic
// are resolved in resolve_indy.go.
//
// A handle may be created in one class and invoked in another (a static final field
// holding a handle to a private method is the common case). At Encap-Respect the
// conservative set of an invocation only holds what its own class may access, so
// unresolved invocations also reach every target of every reachable lookup: a shared
// set (handleSet) of the resolved lookups' targets and, for unresolved lookups, of the
// non-public members their class may access; an unresolved lookup whose Lookup or
// Method an access override may have reached (resolve_access.go) adds instead every
// member of its class argument, that class's supertypes and subclasses, or of every
// class when the argument is not known.
type mhResolver struct{}

var mhLookups = map[string]bool{
	"findVirtual": true, "findStatic": true, "findSpecial": true, "findConstructor": true,
	"findGetter": true, "findSetter": true, "findStaticGetter": true, "findStaticSetter": true,
	"findVarHandle": true, "findStaticVarHandle": true, "bind": true,
	"unreflect": true, "unreflectSpecial": true, "unreflectConstructor": true,
	"unreflectGetter": true, "unreflectSetter": true, "unreflectVarHandle": true,
}

var mhInvokes = []string{"invoke", "invokeExact", "invokeWithArguments"}

// mhAdapters are calls whose result handle calls the target of one argument handle
// (the receiver for MethodHandle methods, the first argument for MethodHandles ones)
// and nothing else of the program.
var mhAdapters = map[string]bool{
	"java/lang/invoke/MethodHandle.bindTo": true, "java/lang/invoke/MethodHandle.asType": true,
	"java/lang/invoke/MethodHandle.asSpreader": true, "java/lang/invoke/MethodHandle.asCollector": true,
	"java/lang/invoke/MethodHandle.asVarargsCollector": true, "java/lang/invoke/MethodHandle.asFixedArity": true,
	"java/lang/invoke/MethodHandle.withVarargs":           true,
	"java/lang/invoke/MethodHandles.insertArguments":      true,
	"java/lang/invoke/MethodHandles.dropArguments":        true,
	"java/lang/invoke/MethodHandles.dropArgumentsToMatch": true,
	"java/lang/invoke/MethodHandles.dropReturn":           true,
}

const (
	lookupClass = "java/lang/invoke/MethodHandles$Lookup"
	handleClass = "java/lang/invoke/MethodHandle"
	linkerClass = "java/lang/foreign/Linker"
)

func (mhResolver) Name() string { return "methodhandle" }

func (mhResolver) APIs() []string {
	var out []string
	for n := range mhLookups {
		out = append(out, lookupClass+"."+n)
	}
	for _, n := range mhInvokes {
		out = append(out, handleClass+"."+n)
	}
	return append(out, linkerClass+".upcallStub")
}

func (mhResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	switch {
	case rm.Class.Name == handleClass:
		s.handleInvoke(at, c, rm, "MethodHandle."+rm.Name, 0)
	case rm.Class.Name == linkerClass && rm.Name == "upcallStub" && strings.HasPrefix(rm.Desc, "(Ljava/lang/invoke/MethodHandle;"):
		// Operand 0 is the linker, 1 the handle native code will call.
		s.handleInvoke(at, c, rm, "Linker.upcallStub (native code calls the handle)", 1)
	case rm.Class.Name == lookupClass && mhLookups[rm.Name] && !rm.IsPrivate():
		s.handleLookup(at, c, rm)
	}
}

var handleSetReason = callgraph.Reason{Kind: callgraph.KindMethodHandle, Resolver: "methodhandle",
	Evidence: "a method handle created elsewhere may be invoked here: targets of the reachable lookups (Lookup.find*, unreflect*)"}

// handleInvoke resolves a call of a method handle, the call's operand handle.
func (s *solver) handleInvoke(at site, c *facts.Call, rm *hierarchy.Method, name string, handle int) {
	lv := s.fallbackLevel()
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatMethodHandle, name: name,
		reason: callgraph.Reason{Kind: callgraph.KindMethodHandle, Resolver: "methodhandle"},
		own:    []siteResolver{handleResolver{handle}}}
	if !lv.RespectsEncapsulation() {
		d.reason.Evidence = d.name + ": the handle is not known here: any concrete method or constructor may be called (and any <clinit>)"
	} else {
		d.reason.Evidence = d.name + ": the handle is not known here: any public method or constructor, one accessible from this class, or a target of a reachable lookup may be called (and any <clinit>)"
	}
	d.unresolved = d.reason.Evidence
	d.fallback = s.handleFallback(d)
	s.resolveSite(d)
}

// handleFallback returns the fallback of a site that invokes a method handle not
// known there: the level's conservative set, and from Encap-Respect on the members
// that handles created anywhere refer to.
func (s *solver) handleFallback(d *dynamicSite) func() int32 {
	return func() int32 {
		s.fallbackBundles(d.at, callgraph.FeatMethodHandle, false, false, d.reason)
		if s.opts.Level.RespectsEncapsulation() && !s.whatIfSkips(d.at) {
			r := handleSetReason
			r.Fallback = s.fallbackLevel()
			s.bundle(d.at, s.handles().set, s.reason(r), true)
		}
		return -1
	}
}

// handleLookup records a lookup site: it calls nothing, and what it resolves to is
// called where the handle is invoked.
func (s *solver) handleLookup(at site, c *facts.Call, rm *hierarchy.Method) {
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatMethodHandle, name: "MethodHandles.Lookup." + rm.Name,
		own: []siteResolver{lookupResolver{}}}
	d.unresolved = d.name + ": the arguments are not class and string literals: the handle may refer to any member (its invocations fall back to the conservative set)"
	d.open = s.lookupOverride(at, rm)
	var classes []*hierarchy.Class
	bounded := false
	switch {
	case d.open != nil && d.open.bounded:
		// One of the JDK's overrides, which opens the members it names.
		d.unresolved += "; " + voided(d.open, "object") + ": the handle may refer to a non-public member it opened"
	case d.open != nil:
		classes, bounded = s.openLookupClasses(at, rm)
		if bounded {
			var names []string
			for _, c := range classes {
				names = append(names, strings.ReplaceAll(c.Name, "/", "."))
			}
			d.unresolved += "; " + voided(d.open, "object") + ": the handle may refer to a non-public member of " +
				strings.Join(names, ", ") + ", a supertype or a subclass"
		} else {
			d.unresolved += "; " + voided(d.open, "object") + ": the handle may refer to a non-public member of any class"
		}
	}
	d.apply = func(res siteResult) int32 {
		if s.opts.Level.RespectsEncapsulation() {
			hs := s.handles()
			s.collectTargets(at, res, hs.add(s))
		}
		return s.targetSet(at, res)
	}
	d.fallback = func() int32 {
		switch {
		case !s.opts.Level.RespectsEncapsulation():
		case d.open != nil && d.open.bounded:
			hs := s.handles()
			hs.addAccessible(s, at.caller.Class)
			add := hs.add(s)
			for _, id := range d.open.opened {
				add(id)
			}
		case d.open != nil && bounded:
			s.handles().addMembers(s, classes)
		case d.open != nil:
			s.handles().addAll(s)
		default:
			s.handles().addAccessible(s, at.caller.Class)
		}
		return -1
	}
	s.resolveSite(d)
}

// handleSet is the run's set of members that handles created by reachable lookups may
// refer to.
type handleSet struct {
	set    int32
	seen   map[int32]bool
	ctxs   map[int32]bool // classes whose accessible members were added
	mems   map[int32]bool // classes whose members of any access were added (addMembers)
	bounds map[int32]bool // the class arguments addMembers was given
	all    bool           // every method and constructor was added (addAll)
	// again, in an update's probe, are the updated run's members that the probe's
	// visits add again (see handles).
	again map[int32]bool
}

func (s *solver) handles() *handleSet {
	if s.api.handles == nil {
		hs := &handleSet{set: s.newSet(), seen: map[int32]bool{}, ctxs: map[int32]bool{}, mems: map[int32]bool{}, bounds: map[int32]bool{}}
		s.cond[hs.set] = map[int32]int32{}
		if s.inherit != nil && s.inherit.Trace.handleSet >= 0 {
			// A probe's handle set starts as the updated run's, which the methods it
			// visits again add to again (the JDK's, which did not change); a new
			// member changes the set, which patch refuses.
			old := s.inherit.Trace.handleSet
			s.sets[hs.set] = slices.Clone(s.inherit.Graph.Sets[old])
			for _, id := range s.sets[hs.set] {
				hs.seen[id] = true
			}
			hs.again = map[int32]bool{}
			s.inherited[hs.set] = old
			// What the probe adds is reachable as in the updated run, where sites
			// that invoke unknown handles bundle the set.
			s.live[hs.set] = slices.ContainsFunc(s.inherit.Graph.Bundles, func(b callgraph.Bundle) bool { return b.Set == old })
		}
		s.api.handles = hs
	}
	return s.api.handles
}

func (hs *handleSet) add(s *solver) func(int32) {
	return func(id int32) {
		switch {
		case !hs.seen[id]:
			hs.seen[id] = true
			s.growCond(hs.set, id, s.cur)
		case hs.again != nil:
			hs.again[id] = true
		}
	}
}

// handlesKept says why a probe's handles may change the updated run's ("" when they
// do not): a handle set where the run had none, or a member whose first creator
// the probe visited again and that it did not create again (another creator may,
// but the trace keeps the first only).
func (s *solver) handlesKept(prev *Trace, visited callgraph.Bitset) string {
	hs := s.api.handles
	if hs != nil && hs.again == nil {
		return "a changed method creates method handles"
	}
	if prev.handleSet < 0 {
		return ""
	}
	for id, from := range prev.cond[prev.handleSet] {
		if from >= 0 && visited.Has(from) && (hs == nil || !hs.again[id]) {
			return "a changed method no longer creates a method handle it created"
		}
	}
	return ""
}

// addAccessible adds the non-public methods and constructors that a lookup in class c
// may reach under Encap-Respect (the public ones are in every fallback already).
func (hs *handleSet) addAccessible(s *solver, c *hierarchy.Class) {
	if hs.ctxs[c.ID] {
		return
	}
	hs.ctxs[c.ID] = true
	add := hs.add(s)
	for _, k := range []setKind{setSafeMethods, setSafeCtors} {
		for _, id := range s.a.fallbackSet(fallbackKey{kind: k, ctx: c.ID}) {
			add(id)
		}
	}
}

// addMembers adds every concrete method and constructor, of any access, declared in
// the classes, their subtypes and the supertypes of both: what a lookup with private
// access whose class argument is one of them may refer to (a method resolved in the
// class or a supertype, and what a virtual handle dispatches to on a subtype, which
// may be a default method of an interface only the subtype implements).
func (hs *handleSet) addMembers(s *solver, classes []*hierarchy.Class) {
	add := hs.add(s)
	members := func(k *hierarchy.Class) bool {
		if hs.mems[k.ID] {
			return true
		}
		hs.mems[k.ID] = true
		for _, m := range k.Methods {
			if m.Name != "<clinit>" && !m.IsAbstract() {
				add(m.ID)
			}
		}
		return true
	}
	for _, c := range classes {
		if hs.bounds[c.ID] {
			continue
		}
		hs.bounds[c.ID] = true
		s.h.AllSubtypes(c, func(k *hierarchy.Class) bool {
			s.h.Supertypes(k, members)
			return true
		})
	}
}

// addAll adds every concrete method and constructor: a lookup with private access
// whose class is not known, or an unreflect of an object setAccessible reached,
// may refer to any of them.
func (hs *handleSet) addAll(s *solver) {
	if hs.all {
		return
	}
	hs.all = true
	add := hs.add(s)
	for _, k := range []setKind{setAllMethods, setAllCtors} {
		for _, id := range s.a.fallbackSet(fallbackKey{kind: k}) {
			add(id)
		}
	}
}

// lookupOverride returns the access override that may have reached an object a
// lookup site makes its handle with (the Lookup, and the Method or Constructor of
// unreflect*: a Lookup with private access unreflects a Method that setAccessible
// never opened), or nil. Field handles call nothing.
func (s *solver) lookupOverride(at site, rm *hierarchy.Method) *override {
	var o *override
	switch rm.Name {
	case "unreflect", "unreflectSpecial":
		o = s.overrideAt(at.caller, at.pc, 1, objMethod)
	case "unreflectConstructor":
		o = s.overrideAt(at.caller, at.pc, 1, objCtor)
	case "unreflectGetter", "unreflectSetter", "unreflectVarHandle":
		return nil
	}
	if o == nil {
		o = s.overrideAt(at.caller, at.pc, 0, objLookup)
	}
	return o
}

// openLookupClasses returns the classes whose members an unresolved lookup site an
// override reached may refer to, when its class argument is known (a class literal,
// or what the value analyses find from Correct-String on): find*'s and
// findConstructor's class, unreflectSpecial's specialCaller (the method is one of
// its class or supertypes, invoked as invokespecial from it). ok is false for bind
// and the other unreflects, whose member may be of any class.
func (s *solver) openLookupClasses(at site, rm *hierarchy.Method) (classes []*hierarchy.Class, ok bool) {
	arg := 1
	switch {
	case rm.Name == "unreflectSpecial":
		arg = 2
	case !strings.HasPrefix(rm.Name, "find"):
		return nil, false
	}
	lf := s.localFlow(at.caller)
	if lf == nil {
		return nil, false
	}
	ops := lf.operands(at.pc)
	if arg >= len(ops) {
		return nil, false
	}
	if descs, ok := lf.constTypes(ops[arg]); ok {
		for _, t := range descs {
			name := className(t)
			if strings.HasPrefix(t, "[") {
				name = "java/lang/Object"
			}
			if c := s.h.Class(name); c != nil && !c.Phantom {
				classes = append(classes, c)
			}
		}
		return classes, true
	}
	var shown []string
	if c := lf.callAt(int(at.pc)); c != nil && s.valueClassArg(lf, c, arg, &classes, &shown) {
		return classes, true
	}
	return nil, false
}

// handleResolver resolves an invocation whose receiver handles all come from lookups
// with literal arguments in the same method.
// handleResolver resolves a handle operand of a call (0: the receiver of invoke) from
// the lookups that define it in the same method.
type handleResolver struct{ operand int }

func (handleResolver) appliesAt(callgraph.Level) bool { return true }

func (r handleResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	lf := s.localFlow(d.at.caller)
	if lf == nil {
		return siteResult{}
	}
	ops := lf.operands(d.at.pc)
	if len(ops) <= r.operand {
		return siteResult{}
	}
	t := handleTrace{reader: d.at.caller.ID}
	s.reads.reader = t.reader
	s.traceHandle(lf, ops[r.operand], &t, 0)
	if len(t.evidence) == 0 {
		return siteResult{}
	}
	t.res.evidence = d.name + " of a handle from " + strings.Join(t.evidence, "; ")
	t.res.status = callgraph.Resolved
	if t.unknown {
		t.res.status = callgraph.Partial
	}
	return t.res
}

// handleTrace accumulates what the definitions of a handle resolve to.
type handleTrace struct {
	res      siteResult
	evidence []string
	unknown  bool // some definition is not a resolved lookup
	seen     map[defAt]bool
	fields   map[int32]bool // the fields followed (by ID): a store of a field's own value adds nothing
	reader   int32          // the method of the site: what it reads of other methods is recorded for it
}

// defAt is an instruction of a method, in a frame: the definitions traceHandle has
// followed.
type defAt struct {
	m, pc int32
	fr    *handleFrame
}

// handleFrame is a call traceHandle followed into its callee's returns: the
// callee's parameters are the call's operands in the caller's flow.
type handleFrame struct {
	lf  *localFlow
	ops [][]facts.Def
	up  *handleFrame
}

// traceHandle follows the definitions of a MethodHandle value back to lookups, in
// frame fr of a callee whose returns it follows (nil: the site's own method).
func (s *solver) traceHandle(lf *localFlow, defs []facts.Def, t *handleTrace, depth int) {
	s.traceHandleIn(lf, defs, t, depth, nil)
}

func (s *solver) traceHandleIn(lf *localFlow, defs []facts.Def, t *handleTrace, depth int, fr *handleFrame) {
	if t.seen == nil {
		t.seen = map[defAt]bool{}
	}
	for _, d := range defs {
		if d.Kind == facts.DefParam && fr != nil && d.N < len(fr.ops) && depth <= 16 {
			s.traceHandleIn(fr.lf, fr.ops[d.N], t, depth+1, fr.up)
			continue
		}
		if d.Kind != facts.DefInstr || depth > 16 {
			t.unknown = true
			continue
		}
		if k := (defAt{lf.m.ID, int32(d.N), fr}); t.seen[k] {
			continue
		} else {
			t.seen[k] = true
		}
		if fa := lf.fieldAt(d.N); fa != nil && !fa.Write {
			s.traceFieldHandle(fa, t, depth+1)
			continue
		}
		if chk := lf.checkAt(d.N); chk != nil && !chk.Instanceof {
			if ops := lf.operands(int32(d.N)); len(ops) == 1 {
				s.traceHandleIn(lf, ops[0], t, depth+1, fr)
				continue
			}
		}
		call := lf.callAt(d.N)
		if call == nil || call.Op == bytecode.Invokedynamic {
			t.unknown = true
			continue
		}
		crm := s.resolveCall(call)
		switch {
		case crm == nil:
			t.unknown = true
		case mhAdapters[crm.Class.Name+"."+crm.Name]:
			if ops := lf.operands(int32(d.N)); len(ops) > 0 {
				s.traceHandleIn(lf, ops[0], t, depth+1, fr)
			} else {
				t.unknown = true
			}
		case crm.Class.Name == lookupClass && mhLookups[crm.Name]:
			res, ev, ok := s.lookupTargets(lf, call, crm)
			if !ok {
				t.unknown = true
				continue
			}
			t.res.merge(res)
			t.evidence = append(t.evidence, ev)
		case boundCallee(crm) && strings.HasSuffix(crm.Desc, ")L"+handleClass+";"):
			s.traceReturns(crm, &handleFrame{lf: lf, ops: lf.operands(int32(d.N)), up: fr}, t, depth+1)
		default:
			t.unknown = true
		}
	}
}

// boundCallee reports whether a call resolved to m runs m and nothing else: m is
// static, private or a constructor, so its code is the callee's.
func boundCallee(m *hierarchy.Method) bool {
	return (m.IsStatic() || m.IsPrivate()) && !m.IsNative() && !m.IsAbstract()
}

// traceReturns follows what m returns (a JDK helper that makes or adapts a handle,
// BindCaller.prepareForInvoker), with m's parameters bound to the call's operands
// in fr; m's code is read for the site.
func (s *solver) traceReturns(m *hierarchy.Method, fr *handleFrame, t *handleTrace, depth int) {
	lf := s.localFlow(m)
	if lf == nil || depth > 16 {
		t.unknown = true
		return
	}
	s.reads.ReadFacts(m)
	returns := 0
	lf.fl.EachInstr(func(pc int, op bytecode.Opcode, operand func(int) []facts.Def) {
		if op == bytecode.Areturn {
			returns++
			s.traceHandleIn(lf, operand(0), t, depth, fr)
		}
	})
	if returns == 0 {
		t.unknown = true
	}
}

// valueClassArg evaluates a lookup's Class argument i that is not a literal with the
// value analyses, from Correct-String on (a helper's private parameter given class
// literals by its callers, a private field): it adds the classes to classes and
// what they rest on to shown, and reports whether the argument is known.
func (s *solver) valueClassArg(lf *localFlow, c *facts.Call, i int, classes *[]*hierarchy.Class, shown *[]string) bool {
	if !s.opts.Level.TrustsStrings() {
		return false
	}
	cl := s.values().ClassOperand(lf.m, c.PC, i)
	if !cl.Complete {
		return false
	}
	for _, k := range cl.Set {
		if !k.Phantom {
			*classes = append(*classes, k)
		}
	}
	*shown = append(*shown, cl.Evidence)
	return true
}

// valueNameArg evaluates a lookup's name argument i that is not a literal with the
// string analysis, from Correct-String on: its strings when they are finitely many.
func (s *solver) valueNameArg(lf *localFlow, c *facts.Call, i int) ([]string, bool) {
	if !s.opts.Level.TrustsStrings() {
		return nil, false
	}
	v := s.values().StringOperand(lf.m, c.PC, i).Values()
	return v, len(v) > 0
}

// traceFieldHandle follows a handle read from a field to what its class's nest
// stores in it (the JDK keeps many handles in static final fields that its
// <clinit> fills with lookups). A final field is written by its declaring class's
// bytecode only (JVMS 6.5 putfield/putstatic), a private one by its nest's; from
// Correct-String on, reflection is assumed not to alter such fields, as the value
// analyses assume (values.followable). The site reads the facts of every method it
// scans: an edit to one of them revisits the site (Trace's value reads). A field
// that is not followed, or has no store, is unknown.
func (s *solver) traceFieldHandle(fa *facts.FieldAccess, t *handleTrace, depth int) {
	fd := s.resolveFieldRef(fa.Ref)
	if fd == nil || !s.opts.Level.TrustsPrivateState() || fd.Access&(classfile.AccPrivate|classfile.AccFinal) == 0 {
		t.unknown = true
		return
	}
	if t.fields == nil {
		t.fields = map[int32]bool{}
	}
	if t.fields[fd.ID] {
		return
	}
	t.fields[fd.ID] = true
	before, stores := len(t.evidence), 0
	prev := s.reads.reader
	s.reads.reader = t.reader
	defer func() { s.reads.reader = prev }()
	for _, c := range s.h.NestClasses(fd.Class) {
		for _, m := range c.Methods {
			lf := s.localFlow(m)
			if lf == nil {
				continue
			}
			s.reads.ReadFacts(m)
			for i := range lf.f.Fields {
				w := &lf.f.Fields[i]
				if !w.Write || w.Ref.Name != fd.Name || w.Ref.Desc != fd.Desc || s.resolveFieldRef(w.Ref) != fd {
					continue
				}
				ops := lf.operands(w.PC)
				if len(ops) == 0 {
					t.unknown = true
					continue
				}
				stores++
				s.traceHandle(lf, ops[len(ops)-1], t, depth)
			}
		}
	}
	if stores == 0 {
		t.unknown = true
	}
	for i := before; i < len(t.evidence); i++ {
		t.evidence[i] = "the field " + strings.ReplaceAll(fd.Class.Name, "/", ".") + "." + fd.Name + ": " + t.evidence[i]
	}
}

// resolveFieldRef returns the field a field instruction names, or nil.
func (s *solver) resolveFieldRef(ref *classfile.Ref) *hierarchy.Field {
	c := s.h.Class(ref.Class)
	if c == nil {
		return nil
	}
	fd, err := s.h.ResolveField(c, ref.Name, ref.Desc)
	if err != nil {
		return nil
	}
	return fd
}

// resolveCall returns the method a call instruction resolves to, or nil.
func (s *solver) resolveCall(c *facts.Call) *hierarchy.Method {
	owner := s.h.Class(c.Ref.Class)
	if owner == nil {
		return nil
	}
	m, err := s.h.ResolveMethod(owner, c.Ref.Name, c.Ref.Desc, c.Ref.Interface)
	if err != nil {
		return nil
	}
	return m
}

// lookupResolver resolves a lookup site with literal arguments.
type lookupResolver struct{}

func (lookupResolver) appliesAt(callgraph.Level) bool { return true }

func (lookupResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	lf := s.localFlow(d.at.caller)
	if lf == nil {
		return siteResult{}
	}
	s.reads.reader = d.at.caller.ID
	res, ev, ok := s.lookupTargets(lf, d.call, d.api)
	if !ok {
		return siteResult{}
	}
	res.status, res.evidence = callgraph.Resolved, ev
	return res
}

// lookupTargets resolves the lookup call c (resolved to rm) in lf's method from its
// literal arguments: the handle's targets and the evidence, or ok false.
func (s *solver) lookupTargets(lf *localFlow, c *facts.Call, rm *hierarchy.Method) (res siteResult, evidence string, ok bool) {
	ops := lf.operands(c.PC)
	api := "MethodHandles.Lookup." + rm.Name
	arg := func(i int) []facts.Def {
		if i < len(ops) {
			return ops[i]
		}
		return nil
	}
	var classes []*hierarchy.Class
	var shown []string
	traced := false // some argument is not a literal: the value analyses found it
	classArg := func(i int) bool {
		descs, ok := lf.constTypes(arg(i))
		if !ok {
			traced = s.valueClassArg(lf, c, i, &classes, &shown)
			return traced
		}
		for _, t := range descs {
			shown = append(shown, typeName(t))
			name := className(t)
			if strings.HasPrefix(t, "[") {
				name = "java/lang/Object" // an array class has Object's members
			}
			if c := s.h.Class(name); c != nil && !c.Phantom {
				classes = append(classes, c)
			} // a primitive or missing class has no members to call
		}
		return true
	}
	var names []string
	nameArg := func(i int) bool {
		var ok bool
		if names, ok = lf.constStrings(arg(i)); !ok {
			names, ok = s.valueNameArg(lf, c, i)
			traced = traced || ok
		}
		if !ok {
			return false
		}
		for _, n := range names {
			shown = append(shown, strconv.Quote(n))
		}
		return true
	}
	var types []methodMatcher
	typeArg := func(i int) {
		types = s.methodTypes(lf, arg(i))
		var ts []string
		for _, mt := range types {
			ts = append(ts, mt.String())
		}
		if len(types) == 1 && types[0].any() {
			shown = append(shown, "any type")
		} else {
			shown = append(shown, strings.Join(ts, " | "))
		}
	}
	ev := func(note string) string {
		kind := "constant arguments"
		if traced {
			kind = "arguments traced by the value analyses"
		}
		e := api + " — " + kind + " (" + strings.Join(shown, ", ") + ")"
		if note != "" {
			e += ": " + note
		}
		return e
	}
	switch rm.Name {
	case "findVirtual", "findStatic":
		if !classArg(1) {
			return res, "", false
		}
		// A name that is not known still names a method of the class argument: the
		// lookup resolves it in that class and its supertypes, as invokestatic or
		// invokevirtual would (JVMS 5.4.3.3), so the handle refers to one of the
		// methods of that hierarchy the type matches, whatever the level assumes.
		// At Encap-Respect, of the application's lookups, those the method's class
		// may access, as for an unresolved lookup (handleLookup); one whose Lookup an
		// access override may have reached stays unresolved (its handle may refer to
		// a member of a subclass too: handleSet.addMembers).
		anyName := false
		if !nameArg(2) {
			if s.lookupOverride(site{caller: lf.m, pc: c.PC}, rm) != nil {
				return res, "", false
			}
			anyName = true
			shown = append(shown, "any name")
		}
		accessible := func(*hierarchy.Method, *hierarchy.Class) bool { return true }
		filtered := anyName && s.opts.Level.RespectsEncapsulation() && lf.m.Class.Origin != hierarchy.JDK
		if filtered {
			accessible = func(m *hierarchy.Method, ref *hierarchy.Class) bool { return s.h.Accessible(lf.m.Class, m, ref) }
		}
		typeArg(3)
		static := rm.Name == "findStatic"
		for _, c := range classes {
			if anyName {
				names = s.handleNames(c, static)
			}
			for _, n := range names {
				for _, mt := range types {
					for _, m := range s.handleCandidates(c, n, mt, static) {
						if !accessible(m, c) {
							continue
						}
						if static {
							res.methods = append(res.methods, m)
							res.inits = append(res.inits, m.Class)
						} else {
							res.virtual = append(res.virtual, virtualCall{declared: c, method: m})
						}
					}
				}
			}
		}
		if anyName {
			kind := "an instance"
			if static {
				kind = "a static"
			}
			access := ""
			if filtered {
				access = " and this class may access (Encap-Respect)"
			}
			return res, ev("the name is not known: " + kind + " method of the class or its supertypes that the type matches" + access +
				", as the lookup resolves it (JVMS 5.4.3.3)"), true
		}
		return res, ev(""), true
	case "findSpecial":
		if !classArg(1) || !nameArg(2) {
			return res, "", false
		}
		typeArg(3)
		refs := classes
		classes = nil
		if !classArg(4) {
			return res, "", false
		}
		for _, c := range refs {
			for _, n := range names {
				for _, mt := range types {
					for _, m := range s.handleCandidates(c, n, mt, false) {
						for _, caller := range classes {
							if t := s.h.SpecialTarget(caller, m, c); t != nil {
								res.methods = append(res.methods, t)
							}
						}
					}
				}
			}
		}
		return res, ev(""), true
	case "findConstructor":
		if !classArg(1) {
			return res, "", false
		}
		typeArg(2)
		for _, c := range classes {
			if !concrete(c) {
				continue // findConstructor of an abstract class or interface fails
			}
			for _, m := range c.Methods {
				if m.Name != "<init>" {
					continue
				}
				for _, mt := range types {
					if mt.matchesConstructor(m.Desc) {
						res.methods = append(res.methods, m)
						break
					}
				}
			}
			res.allocs = append(res.allocs, c)
			res.inits = append(res.inits, c)
		}
		return res, ev(""), true
	case "findGetter", "findSetter", "findVarHandle":
		classArg(1)
		nameArg(2)
		return res, ev("an instance field access calls no method"), true
	case "findStaticGetter", "findStaticSetter", "findStaticVarHandle":
		if !classArg(1) {
			return res, "", false
		}
		nameArg(2)
		ftypes, _ := lf.constTypes(arg(3))
		for _, c := range classes {
			res.inits = append(res.inits, s.staticFieldClass(c, names, ftypes)...)
		}
		return res, ev("a static field access initialises its class"), true
	case "bind":
		// bind(receiver, name, type): a virtual lookup on the receiver's class, bound.
		if !nameArg(2) {
			return res, "", false
		}
		typeArg(3)
		type receiver struct {
			class *hierarchy.Class
			exact bool // an allocation: exactly this class, else it or a subclass
		}
		var recv []receiver
		for _, d := range arg(1) {
			switch {
			case d.Kind == facts.DefParam && d.N == 0 && !lf.m.IsStatic():
				recv = append(recv, receiver{class: lf.m.Class})
				shown = append(shown, "this")
			case d.Kind == facts.DefInstr && lf.allocAt(d.N) != nil && lf.allocAt(d.N).Op == bytecode.New:
				c := s.h.Class(lf.allocAt(d.N).Type)
				if c == nil || c.Phantom {
					continue
				}
				recv = append(recv, receiver{class: c, exact: true})
				shown = append(shown, "new "+typeName("L"+c.Name+";"))
			default:
				return res, "", false
			}
		}
		for _, r := range recv {
			for _, n := range names {
				for _, mt := range types {
					for _, m := range s.handleCandidates(r.class, n, mt, false) {
						if !r.exact {
							res.virtual = append(res.virtual, virtualCall{declared: r.class, method: m})
						} else if t := s.h.Select(r.class, m); t != nil {
							res.methods = append(res.methods, t)
						}
					}
				}
			}
		}
		return res, ev(""), true
	}
	return res, "", false // unreflect*: the Method, Constructor or Field is not traced
}

// staticFieldClass returns the classes whose initialisation an access of the static
// field named one of names (any name when names is empty) in c triggers: the declaring
// class of the resolved field.
func (s *solver) staticFieldClass(c *hierarchy.Class, names, descs []string) []*hierarchy.Class {
	if len(names) == 0 {
		return []*hierarchy.Class{c}
	}
	var out []*hierarchy.Class
	for _, n := range names {
		found := false
		for _, d := range descs {
			if f, err := s.h.ResolveField(c, n, d); err == nil && f != nil {
				out = append(out, f.Class)
				found = true
			}
		}
		if !found {
			// The type is unknown: any field of that name c has.
			s.h.Supertypes(c, func(k *hierarchy.Class) bool {
				for _, f := range k.Fields {
					if f.Name == n && f.IsStatic() {
						out = append(out, k)
						found = true
						return false
					}
				}
				return true
			})
		}
	}
	return out
}

// handleCandidates returns the methods a find* of name in c with a type matching mt
// resolves to: static or instance methods, found as method resolution would.
func (s *solver) handleCandidates(c *hierarchy.Class, name string, mt methodMatcher, static bool) []*hierarchy.Method {
	ok := func(m *hierarchy.Method) bool {
		return m != nil && m.IsStatic() == static && m.Name != "<init>" && m.Name != "<clinit>"
	}
	if desc, exact := mt.exact(); exact {
		m, err := s.h.ResolveMethod(c, name, desc, c.IsInterface())
		if err != nil || !ok(m) {
			return nil
		}
		return []*hierarchy.Method{m}
	}
	descs := map[string]bool{}
	var order []string
	s.eachLookupMethod(c, func(m *hierarchy.Method) {
		if m.Name == name && m.IsStatic() == static && !descs[m.Desc] && mt.matches(m.Desc) {
			descs[m.Desc] = true
			order = append(order, m.Desc)
		}
	})
	var out []*hierarchy.Method
	for _, d := range order {
		if m, err := s.h.ResolveMethod(c, name, d, c.IsInterface()); err == nil && ok(m) {
			out = append(out, m)
		}
	}
	return out
}

// handleNames returns the names of the static (or instance) methods that c and its
// supertypes declare (Object's too for an interface): what a find* of c whose name
// is not known may resolve. handleCandidates then resolves each as the lookup would.
func (s *solver) handleNames(c *hierarchy.Class, static bool) []string {
	seen := map[string]bool{}
	var out []string
	s.eachLookupMethod(c, func(m *hierarchy.Method) {
		if m.IsStatic() == static && m.Name != "<init>" && m.Name != "<clinit>" && !seen[m.Name] {
			seen[m.Name] = true
			out = append(out, m.Name)
		}
	})
	return out
}

// eachLookupMethod calls fn for each method declared in c and its supertypes, and
// in Object for an interface: where a lookup on c resolves a method.
func (s *solver) eachLookupMethod(c *hierarchy.Class, fn func(*hierarchy.Method)) {
	scan := func(k *hierarchy.Class) bool {
		for _, m := range k.Methods {
			fn(m)
		}
		return true
	}
	s.h.Supertypes(c, scan)
	if c.IsInterface() && s.h.Object() != nil {
		scan(s.h.Object())
	}
}

// methodMatcher is what is known of a MethodType: the return type and the leading
// parameter types ("" where unknown); exact when the parameter count is known.
type methodMatcher struct {
	ret    string
	params []string
	count  bool
}

func (mt methodMatcher) any() bool { return mt.ret == "" && len(mt.params) == 0 && !mt.count }

// exact returns the descriptor when every part of the type is known.
func (mt methodMatcher) exact() (string, bool) {
	if mt.ret == "" || !mt.count {
		return "", false
	}
	for _, p := range mt.params {
		if p == "" {
			return "", false
		}
	}
	return "(" + strings.Join(mt.params, "") + ")" + mt.ret, true
}

func (mt methodMatcher) matches(desc string) bool {
	ps, ret, ok := splitDesc(desc)
	if !ok || (mt.ret != "" && ret != mt.ret) || len(ps) < len(mt.params) || (mt.count && len(ps) != len(mt.params)) {
		return false
	}
	for i, p := range mt.params {
		if p != "" && ps[i] != p {
			return false
		}
	}
	return true
}

// matchesConstructor matches a constructor descriptor: the type's return type must be
// void (findConstructor's type describes the constructor, returning void).
func (mt methodMatcher) matchesConstructor(desc string) bool {
	if mt.ret != "" && mt.ret != "V" {
		return false
	}
	c := mt
	c.ret = ""
	return c.matches(desc)
}

func (mt methodMatcher) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, p := range mt.params {
		if i > 0 {
			b.WriteString(", ")
		}
		if p == "" {
			b.WriteByte('?')
		} else {
			b.WriteString(typeName(p))
		}
	}
	if !mt.count {
		if len(mt.params) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("...")
	}
	b.WriteByte(')')
	if mt.ret == "" {
		b.WriteByte('?')
	} else {
		b.WriteString(typeName(mt.ret))
	}
	return b.String()
}

const maxMatchers = 16

// methodTypes returns what the definitions of a MethodType value say about it: one
// matcher per alternative, or a single matcher of anything when a definition is not
// a MethodType.methodType or fromMethodDescriptorString call with literal arguments.
func (s *solver) methodTypes(lf *localFlow, defs []facts.Def) []methodMatcher {
	anything := []methodMatcher{{}}
	var out []methodMatcher
	for _, d := range defs {
		if d.Kind != facts.DefInstr {
			return anything
		}
		c := lf.callAt(d.N)
		if c == nil || c.Op != bytecode.Invokestatic || c.Ref.Class != "java/lang/invoke/MethodType" {
			return anything
		}
		ops := lf.operands(c.PC)
		known := func(i int) []string {
			if i < len(ops) {
				if ts, ok := lf.constTypes(ops[i]); ok {
					return ts
				}
			}
			return []string{""}
		}
		switch c.Ref.Name + c.Ref.Desc {
		case "fromMethodDescriptorString(Ljava/lang/String;Ljava/lang/ClassLoader;)Ljava/lang/invoke/MethodType;":
			if len(ops) == 0 {
				return anything
			}
			strs, ok := lf.constStrings(ops[0])
			if !ok {
				return anything
			}
			for _, str := range strs {
				ps, ret, ok := splitDesc(str)
				if !ok {
					return anything
				}
				out = append(out, methodMatcher{ret: ret, params: ps, count: true})
			}
		case "methodType(Ljava/lang/Class;)Ljava/lang/invoke/MethodType;":
			for _, r := range known(0) {
				out = append(out, methodMatcher{ret: r, count: true})
			}
		case "methodType(Ljava/lang/Class;Ljava/lang/Class;)Ljava/lang/invoke/MethodType;",
			"methodType(Ljava/lang/Class;Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/invoke/MethodType;":
			count := !strings.Contains(c.Ref.Desc, "[")
			for _, r := range known(0) {
				for _, p := range known(1) {
					out = append(out, methodMatcher{ret: r, params: []string{p}, count: count})
				}
			}
		case "methodType(Ljava/lang/Class;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodType;":
			inner := anything
			if len(ops) > 1 {
				inner = s.methodTypes(lf, ops[1])
			}
			for _, r := range known(0) {
				for _, mt := range inner {
					mt.ret = r
					out = append(out, mt)
				}
			}
		default: // methodType(Class, Class[]), methodType(Class, List), genericMethodType, ...
			if strings.HasPrefix(c.Ref.Name, "methodType") {
				for _, r := range known(0) {
					out = append(out, methodMatcher{ret: r})
				}
			} else {
				return anything
			}
		}
		if len(out) > maxMatchers {
			return anything
		}
	}
	if len(out) == 0 {
		return anything
	}
	return out
}

// splitDesc splits a method descriptor into its parameter and return descriptors.
func splitDesc(desc string) (params []string, ret string, ok bool) {
	if len(desc) < 3 || desc[0] != '(' {
		return nil, "", false
	}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		j := i
		for j < len(desc) && desc[j] == '[' {
			j++
		}
		if j >= len(desc) {
			return nil, "", false
		}
		if desc[j] == 'L' {
			k := strings.IndexByte(desc[j:], ';')
			if k < 0 {
				return nil, "", false
			}
			j += k
		} else if !strings.ContainsRune("ZBCSIJFD", rune(desc[j])) {
			return nil, "", false
		}
		params = append(params, desc[i:j+1])
		i = j + 1
	}
	if i >= len(desc)-1 {
		return nil, "", false
	}
	return params, desc[i+1:], true
}

// constantHandle returns what a constant method handle (a bootstrap argument, such as
// a lambda's implementation) calls when invoked: ok is false for field handles.
func (s *solver) constantHandle(kind uint8, ref classfile.Ref) (res siteResult, ok bool) {
	c := s.h.Class(ref.Class)
	if c == nil || c.Phantom {
		return res, false
	}
	m, err := s.h.ResolveMethod(c, ref.Name, ref.Desc, ref.Interface)
	if err != nil || m == nil {
		return res, false
	}
	switch kind {
	case classfile.RefInvokeVirtual, classfile.RefInvokeInterface:
		res.virtual = []virtualCall{{declared: c, method: m}}
	case classfile.RefInvokeStatic:
		res.methods, res.inits = []*hierarchy.Method{m}, []*hierarchy.Class{m.Class}
	case classfile.RefInvokeSpecial:
		res.methods = []*hierarchy.Method{m}
	case classfile.RefNewInvokeSpecial:
		res.methods, res.inits, res.allocs = []*hierarchy.Method{m}, []*hierarchy.Class{c}, []*hierarchy.Class{c}
	default:
		return res, false
	}
	return res, true
}
