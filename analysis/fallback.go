package analysis

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/jdkmodel"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// setKind names a conservative target set of assumption-levels.md. The "safe" kinds
// depend on the class whose code makes the dynamic call and hold only its non-public
// encapsulation-safe members; the public part is a separate shared set, so a site is
// two bundles and no set is copied per class.
type setKind uint8

const (
	setInitChain        setKind = iota // <clinit> chain of one class (ctx)
	setAllClinits                      // every <clinit>
	setAllCtors                        // every constructor
	setNoArgCtors                      // every no-argument constructor
	setAllMethods                      // every concrete method but constructors and <clinit>
	setPublicCtors                     // public constructors
	setPublicNoArgCtors                // public no-argument constructors
	setPublicMethods                   // public concrete methods
	setCloneCtors                      // no-argument constructors a Sisu clone may call (resolve_sisu.go)
	setSafeCtors                       // non-public constructors encapsulation-safe from ctx
	setSafeNoArgCtors                  // ... no-argument ones
	setSafeMethods                     // non-public concrete methods encapsulation-safe from ctx
)

type fallbackKey struct {
	kind  setKind
	ctx   int32     // class ID for context-dependent kinds, else 0
	shape callShape // what the set's methods and constructors must accept
	// received: the set's instance methods of the program's classes are only
	// those a created object may run (receivedIndex); a run's sets only.
	received bool
}

// callShape is what a reflective call passes that its API checks before calling its
// target: the number of arguments (Method.invoke and Constructor.newInstance reject a
// target with another number of parameters), a null receiver (Method.invoke throws
// NullPointerException for an instance method) and the creation of an object
// (Constructor.newInstance and Class.newInstance throw InstantiationException for an
// abstract class or an interface), and the classes of the first arguments (both
// reject a target whose parameter cannot take the argument).
type callShape struct {
	args     int16 // 1 + the number of arguments; 0 when not known
	static   bool  // the receiver is null: static methods only
	concrete bool  // constructors of concrete classes only
	// recv, when not 0, is 1 + the ID of the receiver's declared class, for a
	// Method.invoke whose Method is an instance method (a proxied interface's): it
	// reaches instance methods of that class's concrete subtypes only (Method.invoke
	// throws IllegalArgumentException for a receiver that is not an instance of the
	// method's class). fallbackSet applies it; accepts does not.
	recv int32
	// argClass[i], when not 0, is 1 + the ID of a class (neither an interface nor
	// Object) that argument i is an instance of, when it is not null.
	argClass [shapedArgs]int32
}

// shapedArgs is how many leading arguments a callShape records the classes of.
const shapedArgs = 4

// accepts reports whether a target m can be called with the shape.
func (c callShape) accepts(h *hierarchy.Hierarchy, m *hierarchy.Method) bool {
	if (c.args != 0 && paramCount(m.Desc) != int(c.args)-1) || (c.static && !m.IsStatic()) ||
		(c.concrete && m.Name == "<init>" && !concrete(m.Class)) {
		return false
	}
	for i, id := range c.argClass {
		if id != 0 && !takes(h, jdkmodel.ParamDesc(m.Desc, i), h.Classes()[id-1]) {
			return false
		}
	}
	return true
}

// takes reports whether a parameter of type desc may be given an instance of arg
// (or of a subclass of it) by Method.invoke or Constructor.newInstance, which
// unwrap a primitive parameter's argument from its box. It answers true whenever
// the hierarchy cannot tell.
func takes(h *hierarchy.Hierarchy, desc string, arg *hierarchy.Class) bool {
	switch {
	case desc == "":
		return true
	case desc[0] == '[':
		return false // an array's supertypes are Object and interfaces, which arg is not
	case desc[0] != 'L':
		return unboxes(arg.Name)
	}
	p := h.Class(desc[1 : len(desc)-1])
	if p == nil || p.Phantom || p.Incomplete() || arg.Phantom || arg.Incomplete() {
		return true
	}
	if p.IsInterface() {
		return !arg.IsFinal() || h.IsSubtype(arg, p)
	}
	return h.IsSubclass(arg, p) || h.IsSubclass(p, arg)
}

// unboxes reports whether an instance of the class may be unwrapped to a primitive.
func unboxes(class string) bool {
	switch class {
	case "java/lang/Boolean", "java/lang/Character", "java/lang/Byte", "java/lang/Short",
		"java/lang/Integer", "java/lang/Long", "java/lang/Float", "java/lang/Double", "java/lang/Number":
		return true
	}
	return false
}

// members returns the test a method passes to be in a set of kind k, or nil for the
// kinds that depend on the class whose code makes the call (safeSet).
func (k setKind) members() func(m *hierarchy.Method) bool {
	isCtor := func(m *hierarchy.Method) bool { return m.Name == "<init>" }
	noArg := func(m *hierarchy.Method) bool { return m.Desc == "()V" }
	isMethod := func(m *hierarchy.Method) bool {
		return m.Name != "<init>" && m.Name != "<clinit>" && !m.IsAbstract()
	}
	public := func(m *hierarchy.Method) bool { return m.Access&0x0001 != 0 }
	switch k {
	case setAllClinits:
		return func(m *hierarchy.Method) bool { return m.Name == "<clinit>" }
	case setAllCtors:
		return isCtor
	case setNoArgCtors:
		return func(m *hierarchy.Method) bool { return isCtor(m) && noArg(m) }
	case setAllMethods:
		return isMethod
	case setPublicCtors:
		return func(m *hierarchy.Method) bool { return isCtor(m) && public(m) }
	case setPublicNoArgCtors:
		return func(m *hierarchy.Method) bool { return isCtor(m) && noArg(m) && public(m) }
	case setPublicMethods:
		return func(m *hierarchy.Method) bool { return isMethod(m) && public(m) }
	case setCloneCtors:
		return func(m *hierarchy.Method) bool { return isCtor(m) && noArg(m) && cloneable(m.Class, m) }
	}
	return nil
}

// fallbackSet returns the members of a conservative set, computed once per analyzer.
func (a *Analyzer) fallbackSet(k fallbackKey) []int32 {
	a.mu.Lock()
	ids, ok := a.fallbacks[k]
	a.mu.Unlock()
	if ok {
		return ids
	}
	keep := k.kind.members()
	if keep != nil {
		for _, m := range a.h.Methods() {
			if keep(m) {
				ids = append(ids, m.ID)
			}
		}
	} else {
		ids = a.safeSet(k)
	}
	if k.shape != (callShape{}) {
		on := a.instanceMethodsOn(k.shape.recv)
		ids = slices.DeleteFunc(slices.Clone(ids), func(id int32) bool {
			return !k.shape.accepts(a.h, a.h.Methods()[id]) || on != nil && !on[id]
		})
	}
	a.mu.Lock()
	a.fallbacks[k] = ids
	a.mu.Unlock()
	return ids
}

// instanceMethodsOn returns the instance methods a receiver of the class recv-1
// (callShape.recv) may run: those its concrete subtypes declare or inherit. nil when
// recv is 0.
func (a *Analyzer) instanceMethodsOn(recv int32) map[int32]bool {
	if recv == 0 {
		return nil
	}
	t := a.h.Classes()[recv-1]
	on := map[int32]bool{}
	seen := map[*hierarchy.Class]bool{}
	a.h.AllSubtypes(t, func(r *hierarchy.Class) bool {
		if r.Phantom || r.IsInterface() || r.IsAbstract() {
			return true
		}
		a.h.Supertypes(r, func(c *hierarchy.Class) bool {
			if !seen[c] {
				seen[c] = true
				for _, m := range c.Methods {
					if !m.IsStatic() {
						on[m.ID] = true
					}
				}
			}
			return true
		})
		return true
	})
	return on
}

// paramCount returns the number of parameters of a method descriptor.
func paramCount(desc string) int {
	n := 0
	for i := 1; i < len(desc) && desc[i] != ')'; i++ {
		for desc[i] == '[' {
			i++
		}
		if desc[i] == 'L' {
			for desc[i] != ';' {
				i++
			}
		}
		n++
	}
	return n
}

// safeSet computes the non-public members that code in class ctx may reach under
// Encap-Respect. Only classes of ctx's package, of its nest and the supertypes of the
// classes enclosing it can hold such members, so only those are scanned.
func (a *Analyzer) safeSet(k fallbackKey) []int32 {
	from := a.h.Classes()[k.ctx]
	seen := map[int32]bool{}
	var ids []int32
	scan := func(c *hierarchy.Class) {
		if c == nil || seen[c.ID] {
			return
		}
		seen[c.ID] = true
		for _, m := range c.Methods {
			if m.Access&0x0001 != 0 || m.IsAbstract() {
				continue
			}
			switch k.kind {
			case setSafeCtors, setSafeNoArgCtors:
				if m.Name != "<init>" || (k.kind == setSafeNoArgCtors && m.Desc != "()V") {
					continue
				}
				if !a.h.EncapsulationSafeConstructor(from, m) {
					continue
				}
			case setSafeMethods:
				if m.Name == "<init>" || m.Name == "<clinit>" || !a.h.EncapsulationSafe(from, m) {
					continue
				}
			}
			ids = append(ids, m.ID)
		}
	}
	for _, c := range a.h.PackageClasses(from.Package()) {
		scan(c)
	}
	for _, c := range a.h.NestClasses(from) {
		scan(c)
		a.h.Supertypes(c, func(s *hierarchy.Class) bool { scan(s); return true })
	}
	slices.Sort(ids)
	return ids
}

// fallbackBundles adds the edges of an unresolved site's conservative set under the
// run's level. feature decides which set; noArg narrows instantiation to no-argument
// constructors (Class.newInstance); open says that an access override may have
// reached the site's object, so that the level's encapsulation does not hold for it
// (resolve_access.go).
func (s *solver) fallbackBundles(at site, feature callgraph.Feature, noArg, open bool, r callgraph.Reason) {
	s.fallbackBundlesShaped(at, feature, noArg, open, r, callShape{})
}

// fallbackBundlesShaped is fallbackBundles for a site whose targets must accept
// shape.
func (s *solver) fallbackBundlesShaped(at site, feature callgraph.Feature, noArg, open bool, r callgraph.Reason, shape callShape) {
	if s.whatIfSkips(at) {
		return
	}
	level := s.opts.Level.FallbackLevel()
	r.Fallback = level
	encap := level.RespectsEncapsulation() && !open
	var kinds []setKind
	switch feature {
	case callgraph.FeatLoading:
		kinds = []setKind{setAllClinits}
	case callgraph.FeatInstantiation:
		switch {
		case !encap && noArg:
			kinds = []setKind{setAllClinits, setNoArgCtors}
		case !encap:
			kinds = []setKind{setAllClinits, setAllCtors}
		case noArg:
			kinds = []setKind{setAllClinits, setPublicNoArgCtors, setSafeNoArgCtors}
		default:
			kinds = []setKind{setAllClinits, setPublicCtors, setSafeCtors}
		}
	case callgraph.FeatInvocation, callgraph.FeatMethodHandle:
		if !encap {
			kinds = []setKind{setAllClinits, setAllMethods}
		} else {
			kinds = []setKind{setAllClinits, setPublicMethods, setSafeMethods}
		}
		if feature == callgraph.FeatMethodHandle {
			if !encap {
				kinds = append(kinds, setAllCtors)
			} else {
				kinds = append(kinds, setPublicCtors, setSafeCtors)
			}
		}
	}
	ri := s.reason(r)
	// An invocation needs a receiver for an instance method (receivedIndex).
	received := (feature == callgraph.FeatInvocation || feature == callgraph.FeatMethodHandle) && !s.oracle.Fixed() && s.lib == nil
	for _, k := range kinds {
		key := fallbackKey{kind: k}
		if k != setAllClinits {
			key.shape = shape
		}
		switch k {
		case setAllMethods, setPublicMethods, setSafeMethods:
			key.received = received
		}
		if k >= setSafeCtors {
			if at.caller == nil {
				continue
			}
			key.ctx = at.caller.Class.ID
		}
		s.bundle(at, s.fallbackIndex(key), ri, k != setAllClinits)
	}
}

// openedBundle adds to the conservative set of an unresolved reflective site the
// non-public members that a bounded access override (one of the JDK's) that may
// have reached its object opened: the level's sets hold the others.
func (s *solver) openedBundle(at site, feature callgraph.Feature, d *dynamicSite) {
	if d.open == nil || !d.open.bounded || s.whatIfSkips(at) {
		return
	}
	var ids []int32
	for _, id := range d.open.opened {
		m := s.h.Methods()[id]
		ctor := m.IsConstructor()
		switch {
		case feature == callgraph.FeatInstantiation && (!ctor || d.noArg && m.Desc != "()V"),
			feature == callgraph.FeatInvocation && (ctor || m.IsAbstract()),
			!d.shape.accepts(s.h, m):
			continue
		}
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return
	}
	r := d.reason
	r.Fallback = s.opts.Level.FallbackLevel()
	s.bundle(at, s.addSet(ids), s.reason(r), true)
}

// whatIfSkips reports whether the site at gets no conservative edges: a JDK site
// in a run asked what the JDK's fallbacks bring in (Options.WithoutJDKFallbacks),
// which it tells of the site.
func (s *solver) whatIfSkips(at site) bool {
	if s.opts.WithoutJDKFallbacks == nil || at.caller == nil || at.caller.Class.Origin != hierarchy.JDK {
		return false
	}
	s.opts.WithoutJDKFallbacks(at.caller.ID, at.pc)
	return true
}

// fallbackIndex returns this run's set index of a conservative set.
func (s *solver) fallbackIndex(k fallbackKey) int32 {
	if i, ok := s.fallback[k]; ok {
		return i
	}
	var i int32
	if k.received {
		i = s.receivedIndex(k)
	} else {
		i = s.addSet(s.a.fallbackSet(k))
	}
	s.fallback[k] = i
	return i
}

// receivedIndex makes the growable set of a conservative set of methods whose
// instance methods of the application's and libraries' classes are those an
// object the run creates may run: an unresolved Method.invoke or method handle
// calls an instance method on a receiver, an instance of a subtype of the
// method's class, and under RTA, XTA and TFA every object comes from a creation
// the oracle hears of (allocations, reflective and native instantiation,
// deserialization, the JVM's). Every supertype's methods count, overridden or
// not: a handle from findSpecial runs the method itself. The filter keeps the
// issue's ten lines from reaching B.run, whose B is never created. The JDK's
// classes and interfaces' default methods are kept whole: the JDK spins classes
// that extend its own at run time (method handle species, lambda forms), and
// lambdas and proxies, of classes outside the hierarchy, run default methods.
func (s *solver) receivedIndex(k fallbackKey) int32 {
	all := k
	all.received = false
	set := s.newSet()
	waiting := map[int32]bool{} // by method ID: until an object that may run it is created
	for _, id := range s.a.fallbackSet(all) {
		if m := s.methods[id]; m.IsStatic() || m.Class.Origin == hierarchy.JDK || m.Class.IsInterface() {
			s.grow(set, id)
		} else {
			waiting[id] = true
		}
	}
	if len(waiting) == 0 || s.h.Object() == nil {
		return set
	}
	seen := map[int32]bool{} // by class ID: its methods are in
	s.oracle.Types(algo.Any(s.h.Object()), func(c *hierarchy.Class) {
		s.h.Supertypes(c, func(t *hierarchy.Class) bool {
			if t.Origin != hierarchy.JDK && !seen[t.ID] {
				seen[t.ID] = true
				for _, m := range t.Methods {
					if waiting[m.ID] {
						delete(waiting, m.ID)
						s.grow(set, m.ID)
					}
				}
			}
			return true
		})
	})
	return set
}

// visitNative adds the out-edges of the synthetic NativeMethod node: native code may
// run any initialiser and, at level 1, call anything; from level 2 on it is external
// code that reaches only public methods and constructors. At level 6 the node is the
// JVM, with the JDK model's upcalls, and the public fallback only once an application
// or library native is reachable (nativeFallback).
func (s *solver) visitNative() {
	if s.jdk != nil {
		s.jvmUpcalls()
		if s.appNative {
			s.nativeFallback()
		}
		return
	}
	s.nativeFallback()
}

// nativeFallback adds the NativeMethod node's conservative out-edges of levels 1-2.
func (s *solver) nativeFallback() {
	at := site{pc: -1, line: -1, call: -1}
	r := nativeReason
	var kinds []setKind
	r.Fallback = s.opts.Level.FallbackLevel()
	if !r.Fallback.RespectsEncapsulation() {
		kinds = []setKind{setAllClinits, setAllCtors, setAllMethods}
	} else {
		kinds = []setKind{setAllClinits, setPublicCtors, setPublicMethods}
	}
	ri := s.reason(r)
	first := len(s.bundles)
	for _, k := range kinds {
		s.bundle(at, s.fallbackIndex(fallbackKey{kind: k}), ri, k == setAllCtors || k == setPublicCtors)
	}
	if s.opts.Level.RespectsEncapsulation() && s.jdk == nil {
		// Level 1's sets hold everything the JVM may call already; at level 6 the
		// node is the JVM, whose upcalls the model's jvm entries add (jvmUpcalls),
		// and this fallback is only application natives' access to public members.
		if t := s.a.modelTargets(); t != nil {
			s.bundle(at, s.jvmSet(t), s.reason(jvmReason), true)
			for _, c := range t.created {
				s.oracle.Created(algo.HiddenOf(c), c)
			}
		}
	}
	if s.rep != nil && s.jdk == nil {
		// At Correct-JDK the node's edges are the JVM's upcalls, whose dispatches grow
		// with the oracle, and this fallback may come after its visit: they are in
		// the final graph only.
		s.rep.nativeVisited(first, len(s.bundles))
	}
}

// jvmReason is the reason of the NativeMethod node's edges to what the JVM calls
// beyond level 2's public methods (correctjdk.go, jvmTargets).
var jvmReason = callgraph.Reason{Kind: callgraph.KindNative, Resolver: "jdk-model",
	Evidence: "the JVM and the JDK's native code may call these, public or not (analysis/jdkmodel/jdk.model)"}

// jvmSet returns this run's set of the JDK model's targets.
func (s *solver) jvmSet(t *jvmTargets) int32 {
	if s.jvmSetIdx < 0 {
		s.jvmSetIdx = s.addSet(t.methods)
	}
	return s.jvmSetIdx
}

// nativeEvidence is the evidence of native sites at fallback level fb.
func nativeEvidence(fb callgraph.Level) string {
	if fb.RespectsEncapsulation() {
		return "native method: may call back into any public method"
	}
	return "native method: may call back into any method"
}

// nativeSite records a call of a native method as a dynamic site: native code is
// reached and may call back (through the NativeMethod node).
func (s *solver) nativeSite(at site, m *hierarchy.Method) {
	fb := s.opts.Level.FallbackLevel()
	s.sites = append(s.sites, callgraph.Site{
		Caller: at.caller.ID, PC: at.pc, Line: at.line, Call: at.call,
		Feature: callgraph.FeatNative, API: m.Class.Name + "." + m.Name,
		Status: callgraph.Unresolved, Evidence: nativeEvidence(fb),
		Targets: s.singleton(m.ID), Fallback: fb,
	})
}
