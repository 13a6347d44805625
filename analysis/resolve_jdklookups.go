package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// jdkLookupResolver resolves, at Correct-JDK, java.lang.invoke's own lookups and
// class initialisations whose arguments its code computes at run time, from what
// that code can compute (JDK 17's java.base):
//
//   - MethodHandleImpl$BindCaller.makeInjectedInvoker and checkInjectedInvoker look
//     up invoke_V in the injected invoker, a hidden class BindCaller defines from its
//     INJECTED_INVOKER_TEMPLATE bytes (not on the class path, no <clinit>). Its code
//     is vamh.invokeExact(args): it calls the handle it is given, which a reachable
//     lookup made, so the handle adds no target of its own to the handles of the run.
//
//   - ClassSpecializer$Factory.findFactory looks up "make" in a species class. The
//     class path's only ClassSpecializer is BoundMethodHandle$Specializer (the class
//     is package-private in java.base, so no other can exist; the rule checks it),
//     whose species are subclasses of BoundMethodHandle: one loaded from the boot
//     class path (loadSpecies: BootLoader.loadClassOrNull of
//     BoundMethodHandle$Species_*, the ones jlink pre-generates), whose make is on
//     the class path, or one generateConcreteSpeciesCode spins, whose make is
//     `new Species(mt, lf, args)` and whose constructor calls
//     BoundMethodHandle(MethodType, LambdaForm) (the baseConstructorType) and stores
//     fields.
//
//   - DirectMethodHandle.shouldBeInitialized calls Unsafe.ensureClassInitialized only
//     for a class VerifyAccess.isSamePackage finds in java.lang.invoke or
//     sun.invoke.util with the boot loader, other than ValueConversions,
//     MethodHandleImpl and Invokers (it returns before): a class of java.base in
//     those packages (no other loader may define java.*, and a package of java.base
//     is in no other module).
//
//   - Lookup.ensureInitialized initialises the class it is given, and
//     VarHandles.makeFieldHandle, for a static field, the class given to
//     Lookup.findStaticVarHandle or the declaring class of unreflectVarHandle's
//     Field: the callers' sites of those APIs are loading sites at every level
//     (resolve_reflect.go's rkInitialize, varHandleInitResolver below), so the JDK's own site adds
//     nothing of its own. A reflective call of those APIs falls back to every
//     <clinit> where it is unresolved; one resolved to them (Method.invoke of a
//     known Method with an unknown Class argument) is not seen as such, as for
//     the other APIs whose natives the JDK model resolves at their call sites.
//
//   - DirectMethodHandle.allocateInstance is the `new` of a constructor's direct
//     method handle: its LambdaForm (makePreparedLambdaForm with doesAlloc)
//     allocates instanceClass, the constructor's class, and calls the constructor
//     through linkToSpecial. Every site that invokes a handle has, with the
//     constructor, its class created and initialised: a resolved lookup or constant
//     names it (findConstructor, REF_newInvokeSpecial), an unresolved invocation
//     falls back to constructors that create their classes, and a lambda's
//     constructor reference creates its class at the invokedynamic. What is left
//     is the JVM's invocation of a bootstrap method that is a constructor
//     (BootstrapMethodInvoker, whose model calls it): those classes are created
//     here.
//
// Below Correct-JDK the sites keep the method-handle and loading fallbacks.
type jdkLookupResolver struct{}

func (jdkLookupResolver) appliesAt(l callgraph.Level) bool { return l.ModelsJDK() }

const (
	classSpecializer = "java/lang/invoke/ClassSpecializer"
	bmhSpecializer   = "java/lang/invoke/BoundMethodHandle$Specializer"
	boundHandle      = "java/lang/invoke/BoundMethodHandle"
)

func (jdkLookupResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	m := d.at.caller
	if m == nil || d.api == nil || m.Class.Origin != hierarchy.JDK {
		return siteResult{}
	}
	switch {
	case d.api.Class.Name == lookupClass && d.api.Name == "findStatic":
		switch {
		case m.Class.Name == bindCaller && (m.Name == "makeInjectedInvoker" || m.Name == "checkInjectedInvoker"):
			return siteResult{status: callgraph.Resolved,
				evidence: "the handle is invoke_V of the injected invoker, a hidden class BindCaller defines from INJECTED_INVOKER_TEMPLATE: " +
					"its code invokes the handle it is given, which a reachable lookup made (JDK model)"}
		case m.Class.Name == classSpecializer+"$Factory" && m.Name == "findFactory":
			return s.speciesFactories()
		}
	case d.api.Name == "ensureClassInitialized" && m.Class.Name == lookupClass && m.Name == "ensureInitialized":
		return siteResult{status: callgraph.Resolved,
			evidence: "Lookup.ensureInitialized initialises the class its caller passes: each call of it is a loading site that initialises that class (JDK model)"}
	case d.api.Name == "ensureClassInitialized" && m.Class.Name == "java/lang/invoke/VarHandles" && m.Name == "makeFieldHandle":
		return siteResult{status: callgraph.Resolved,
			evidence: "for a static field the class is the one given to Lookup.findStaticVarHandle or the declaring class of the Field given to " +
				"unreflectVarHandle (Lookup.getFieldVarHandleCommon): each call of those is a loading site that initialises it (JDK model)"}
	case d.api.Name == "allocateInstance" && m.Class.Name == "java/lang/invoke/DirectMethodHandle" && m.Name == "allocateInstance":
		res := siteResult{status: callgraph.Resolved,
			evidence: "the object of a constructor's direct method handle, whose LambdaForm allocates it and then calls the constructor: " +
				"the sites that invoke such a handle create and initialise its class with the constructor, and the JVM's bootstrap " +
				"invocations the classes of the bootstrap constructors (JDK model)"}
		for _, bm := range s.a.bootstrapMethods().methods {
			if bm.Name == "<init>" {
				res.allocs = append(res.allocs, bm.Class)
				res.inits = append(res.inits, bm.Class)
			}
		}
		return res
	case d.api.Name == "ensureClassInitialized" && m.Class.Name == "java/lang/invoke/DirectMethodHandle" && m.Name == "shouldBeInitialized":
		var inits []*hierarchy.Class
		for _, c := range s.h.Classes() {
			if c.Origin == hierarchy.JDK && !c.Phantom && mhSystemClass(c.Name) {
				inits = append(inits, c)
			}
		}
		return siteResult{status: callgraph.Resolved, inits: inits,
			evidence: "DirectMethodHandle.shouldBeInitialized initialises only a class of java.base in java.lang.invoke or sun.invoke.util " +
				"(VerifyAccess.isSamePackage with MethodHandle or ValueConversions), other than ValueConversions, MethodHandleImpl and Invokers (JDK model)"}
	}
	return siteResult{}
}

// mhSystemClass reports whether the class named name is one whose initialisation
// DirectMethodHandle.shouldBeInitialized helps along: in package java.lang.invoke or
// sun.invoke.util, and not one of the three it leaves alone.
func mhSystemClass(name string) bool {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return false
	}
	switch name[:i] {
	case "java/lang/invoke", "sun/invoke/util":
	default:
		return false
	}
	switch name {
	case "sun/invoke/util/ValueConversions", "java/lang/invoke/MethodHandleImpl", "java/lang/invoke/Invokers":
		return false
	}
	return true
}

// speciesFactories answers ClassSpecializer$Factory.findFactory: the make methods of
// the class path's species of BoundMethodHandle and what a spun species' make runs,
// or nothing (the site falls back) when the class path has a ClassSpecializer other
// than BoundMethodHandle's.
func (s *solver) speciesFactories() siteResult {
	cs, bmh := s.h.Class(classSpecializer), s.h.Class(boundHandle)
	if cs == nil || bmh == nil {
		return siteResult{}
	}
	only := true
	s.h.AllSubtypes(cs, func(k *hierarchy.Class) bool {
		if k != cs && k.Name != bmhSpecializer {
			only = false
		}
		return only
	})
	base := bmh.Method("<init>", "(Ljava/lang/invoke/MethodType;Ljava/lang/invoke/LambdaForm;)V")
	if !only || base == nil {
		return siteResult{}
	}
	res := siteResult{status: callgraph.Resolved, methods: []*hierarchy.Method{base}}
	s.h.AllSubtypes(bmh, func(k *hierarchy.Class) bool {
		if k.Origin != hierarchy.JDK {
			return true
		}
		for _, m := range k.Methods {
			if m.Name == "make" && m.IsStatic() {
				res.methods = append(res.methods, m)
				res.inits = append(res.inits, k)
			}
		}
		return true
	})
	res.evidence = "the species class is a subclass of BoundMethodHandle, the top class of the only ClassSpecializer (BoundMethodHandle$Specializer): " +
		"one the JDK pre-generates, whose make is on the class path, or one the factory spins, whose make constructs it through " +
		"BoundMethodHandle(MethodType, LambdaForm) (JDK model)"
	return res
}

// varHandleInitResolver: creating a VarHandle for a static field initialises the
// class (VarHandles.makeFieldHandle calls Unsafe.ensureClassInitialized eagerly, not
// at the first access): findStaticVarHandle's class argument, unreflectVarHandle's
// Field's declaring class. Each call is a loading site at every level, resolved when
// the class is a class literal or, from Correct-String on, what the value analyses
// find; unreflectVarHandle's Field is not traced. The site is apart from the lookup
// site of the same call (resolve_mh.go), which records what the handle accesses,
// and has its own name ("VarHandle creation (...)"): a call's sites differ by API.
type varHandleInitResolver struct{}

func (varHandleInitResolver) Name() string { return "varhandle" }

func (varHandleInitResolver) APIs() []string {
	return []string{lookupClass + ".findStaticVarHandle", lookupClass + ".unreflectVarHandle"}
}

func (varHandleInitResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	if rm.Class.Name != lookupClass || rm.IsStatic() {
		return
	}
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatLoading, inits: true,
		name:   "VarHandle creation (MethodHandles.Lookup." + rm.Name + ")",
		reason: callgraph.Reason{Kind: callgraph.KindReflection, Resolver: "varhandle"}}
	if rm.Name == "findStaticVarHandle" {
		d.own = []siteResolver{classArgResolver{arg: 1}, valueClassInit{arg: 1}}
		d.reason.Evidence = d.name + ": the class is not known: creating the VarHandle initialises it, so every <clinit> may run"
	} else {
		d.reason.Evidence = d.name + ": the Field is not known: creating a VarHandle for a static field initialises its declaring class, so every <clinit> may run"
	}
	d.unresolved = d.reason.Evidence
	d.fallback = func() int32 {
		s.fallbackBundles(at, callgraph.FeatLoading, false, false, d.reason)
		return -1
	}
	s.resolveSite(d)
}

// valueClassInit resolves, from Correct-String on, a site that initialises the class
// of its Class argument arg with the classes the value analyses find for it.
type valueClassInit struct{ arg int }

func (valueClassInit) appliesAt(l callgraph.Level) bool { return l.TrustsStrings() }

func (p valueClassInit) resolveSite(s *solver, d *dynamicSite) siteResult {
	if d.at.caller == nil || d.call == nil {
		return siteResult{}
	}
	s.reads.reader = d.at.caller.ID
	cls := s.values().ClassOperand(d.at.caller, d.call.PC, p.arg)
	if !cls.Complete {
		return siteResult{points: specPoints(cls.Points)}
	}
	res := siteResult{status: callgraph.Resolved, evidence: d.name + " initialises " + envNote(cls.Evidence, cls.Env)}
	for _, c := range cls.Set {
		if !c.Phantom {
			res.inits = append(res.inits, c)
		}
	}
	return res
}
