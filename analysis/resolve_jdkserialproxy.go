package analysis

import (
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// serialProxyResolver resolves the reflective and method-handle sites with which the
// JDK's serialization and dynamic proxies create objects and call default methods.
// Below Correct-JDK their Constructor, class or handle is unknown there and they
// fall back to the level's conservative set; the JDK's code says what they are.
//
//   - ObjectStreamClass.newInstance (and the lambda it runs under a security
//     manager's protection domains) calls cons.newInstance(). cons is set only by
//     ObjectStreamClass's constructor, for a serializable class that is not an enum,
//     an array or a record: getExternalizableConstructor (an Externalizable class's
//     public no-argument constructor) or ReflectionFactory.newConstructorForSerialization,
//     whose accessor, spun by MethodAccessorGenerator.generateSerializationConstructor,
//     allocates the class (new: it initialises the class) and runs the no-argument
//     constructor of its first non-serializable superclass on it, an abstract class's
//     too (the accessor bypasses Constructor.newInstance's checks). So the targets are
//     those of the deserialization sites (resolve_serial.go), records excepted; and
//     a proxy class is serializable (Proxy is), so the class initialised may be one,
//     whose <clinit> initialises what proxyInits says. These constructors are often
//     not public, so no level's fallback holds them: below Correct-JDK the site is
//     partially resolved to them (as the readObject sites give them at every level).
//   - ObjectInputStream.readRecord invokes RecordSupport.deserializationCtr(desc): the
//     record's canonical constructor (canonicalRecordCtr: unreflectConstructor of the
//     constructor whose parameters are the record components' types), adapted with
//     asType, dropArguments and foldArguments whose combiners read the stream's
//     values: arrayElementGetter, insertArguments, empty (they call nothing) and, for
//     primitive components, Bits.getShort ... getBoolean (findStatic in
//     RecordSupport's <clinit>). The targets are the canonical constructors of the
//     class path's serializable records and those Bits methods; partially resolved
//     below Correct-JDK for the same reason. The unreflectConstructor lookup itself
//     refers to those constructors (partially below Correct-JDK too: a resolved
//     lookup adds its targets to the handles every unresolved invocation may call,
//     resolve_mh.go, which must hold them at every level for the levels to nest).
//   - Proxy.newProxyInstance(Class, Constructor, InvocationHandler) calls
//     cons.newInstance(h) with the constructor getProxyConstructor found
//     (proxyClass.getConstructor(InvocationHandler.class)) on a class ProxyGenerator
//     spun: its constructor calls Proxy.<init>(InvocationHandler) only, and
//     instantiating it initialises it (proxyInits). The object is of the spun class
//     (not in the graph: calls on it run its handler's invoke, which the site that
//     creates the proxy has, resolve_proxy.go).
//   - Proxy.invokeDefault (InvocationHandler.invokeDefault) checks that the Method is
//     a default method (Method.isDefault: public, not abstract or static, of an
//     interface) of a proxy interface of the proxy, and invokes the handle
//     defaultMethodHandle makes: findSpecial(proxyInterface, name, type, proxyClass),
//     which refers to that method or a default method overriding it in a
//     subinterface, adapted by asType, catchException with InvocationException.wrap
//     (findStatic) and asSpreader. Any interface may be proxied, so the targets are
//     the class path's public default methods (and Object's public methods:
//     defaultTargets), and wrap.
//   - BootstrapConstructorAccessorImpl.newInstance calls Unsafe.allocateInstance on
//     its constructor's class. ReflectionFactory.newConstructorAccessor, its only
//     creator, makes one for a constructor of a subclass of ConstructorAccessorImpl
//     (the accessors MethodAccessorGenerator spins, which Class.newInstance creates
//     this way), and hotspot lets only boot classes and the reflection class loader's
//     extend a class of jdk.internal.reflect (ClassFileParser's super-class check).
//     So the site creates, without a constructor, an object of a concrete subclass of
//     ConstructorAccessorImpl and initialises its class (the spun ones have no
//     <clinit>).
//   - ReflectionFactory's *ForSerialization methods (for serialization libraries)
//     make handles to a serializable class's hooks with setAccessible(true) and
//     unreflect: its private readObject, readObjectNoData and writeObject taking the
//     stream, or the readResolve and writeReplace it declares or inherits. A
//     resolved lookup adds its targets to the handles unresolved invocations may
//     call (resolve_mh.go); they are private, so below Correct-JDK the lookups are
//     partially resolved to them.
//
// All of it holds at Correct-JDK (the JDK behaves as its code says). Below it the
// sites whose targets are not public (serialization's constructors and hooks) keep
// their fallback but are partially resolved to them, as the readObject sites are at
// every level, so that the levels nest.
type serialProxyResolver struct{}

// serialProxyClasses are the classes whose sites serialProxyResolver answers.
var serialProxyClasses = map[string]bool{
	"java/io/ObjectStreamClass": true, "java/io/ObjectInputStream": true, proxyClass: true,
	"jdk/internal/reflect/BootstrapConstructorAccessorImpl": true, reflectionFactory: true,
}

func (serialProxyResolver) appliesAt(callgraph.Level) bool { return true }

const (
	proxyClass        = "java/lang/reflect/Proxy"
	proxyPrivateDesc  = "(Ljava/lang/Class;Ljava/lang/reflect/Constructor;Ljava/lang/reflect/InvocationHandler;)Ljava/lang/Object;"
	ctorAccessorClass = "jdk/internal/reflect/ConstructorAccessorImpl"
	reflectionFactory = "jdk/internal/reflect/ReflectionFactory"
)

func (serialProxyResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	m := d.at.caller
	if m == nil || d.api == nil || m.Class.Origin != hierarchy.JDK || !serialProxyClasses[m.Class.Name] {
		return siteResult{}
	}
	jdk := s.opts.Level.ModelsJDK()
	api := d.api.Class.Name + "." + d.api.Name
	switch m.Class.Name + "." + m.Name {
	case "java/io/ObjectStreamClass.newInstance", "java/io/ObjectStreamClass.lambda$newInstance$0":
		if api != "java/lang/reflect/Constructor.newInstance" {
			return siteResult{}
		}
		return s.serialConsResult(jdk)
	case "java/io/ObjectInputStream.readRecord":
		if api != handleClass+".invokeExact" {
			return siteResult{}
		}
		return s.recordCtrResult(jdk, true)
	case "java/io/ObjectStreamClass.lambda$canonicalRecordCtr$2":
		if api != lookupClass+".unreflectConstructor" {
			return siteResult{}
		}
		return s.recordCtrResult(jdk, false)
	case reflectionFactory + ".findReadWriteObjectForSerialization", reflectionFactory + ".getReplaceResolveForSerialization":
		if api != lookupClass+".unreflect" {
			return siteResult{}
		}
		return s.serialHookResult(jdk, m.Name == "findReadWriteObjectForSerialization")
	}
	if !jdk {
		return siteResult{}
	}
	switch {
	case m.Class.Name == proxyClass && m.Name == "newProxyInstance" && m.Desc == proxyPrivateDesc &&
		api == "java/lang/reflect/Constructor.newInstance":
		res := siteResult{status: callgraph.Resolved, inits: slices.Clone(s.a.proxyInits()),
			evidence: "the constructor of a proxy class ProxyGenerator spins (not in the graph): it calls Proxy.<init>(InvocationHandler) only; instantiating it initialises it, and its <clinit> initialises its interfaces and its methods' parameter classes with Class.forName (JDK model)"}
		if p := s.h.Class(proxyClass); p != nil {
			if init := p.Method("<init>", "(Ljava/lang/reflect/InvocationHandler;)V"); init != nil {
				res.methods = []*hierarchy.Method{init}
			}
		}
		return res
	case m.Class.Name == proxyClass && m.Name == "defaultMethodHandle" && api == lookupClass+".findSpecial":
		return siteResult{status: callgraph.Resolved, methods: s.defaultTargets(),
			evidence: "findSpecial of the default method InvocationHandler.invokeDefault was given, in a proxy interface: a public default method of an interface (JDK model)"}
	case m.Class.Name == proxyClass && m.Name == "invokeDefault" && api == handleClass+".invokeExact":
		res := siteResult{status: callgraph.Resolved, methods: s.defaultTargets(),
			evidence: "the handle defaultMethodHandle makes: the default method InvocationHandler.invokeDefault was given (a public default method of an interface), its exceptions wrapped by InvocationException.wrap (JDK model)"}
		if ie := s.h.Class(proxyClass + "$InvocationException"); ie != nil {
			if wrap := ie.Method("wrap", "(Ljava/lang/Throwable;)Ljava/lang/Object;"); wrap != nil {
				res.methods = append(res.methods, wrap)
			}
		}
		return res
	case m.Class.Name == "jdk/internal/reflect/BootstrapConstructorAccessorImpl" && m.Name == "newInstance" &&
		d.api.Name == "allocateInstance":
		res := siteResult{status: callgraph.Resolved,
			evidence: "the class of a constructor ReflectionFactory gives a BootstrapConstructorAccessorImpl: a subclass of ConstructorAccessorImpl, created without a constructor and initialised (JDK model)"}
		if acc := s.h.Class(ctorAccessorClass); acc != nil && !acc.Phantom {
			s.h.AllSubtypes(acc, func(c *hierarchy.Class) bool {
				if concrete(c) {
					res.inits = append(res.inits, c)
					res.allocs = append(res.allocs, c)
				}
				return true
			})
		}
		return res
	}
	return siteResult{}
}

// defaultTargets returns what findSpecial(proxyInterface, name, type, proxyClass) of
// a public default method may refer to: such a method, or a public method of Object
// when the default method is declared in a superinterface with the name and
// descriptor of one (JVMS 5.4.3.4 looks in Object before the superinterfaces; javac
// never compiles such an interface, other class files may).
func (s *solver) defaultTargets() []*hierarchy.Method {
	out := slices.Clone(s.a.publicDefaults())
	if obj := s.h.Object(); obj != nil {
		for _, m := range obj.Methods {
			if m.IsPublic() && !m.IsStatic() && m.Name != "<init>" {
				out = append(out, m)
			}
		}
	}
	return out
}

// serialConsResult is the result of ObjectStreamClass.newInstance's
// cons.newInstance(): resolved at Correct-JDK, partial below it.
func (s *solver) serialConsResult(jdk bool) siteResult {
	ss := s.serial()
	if ss == nil {
		return siteResult{}
	}
	sc := ss.creatable(s)
	res := siteResult{status: callgraph.Partial, ownAccessor: true, methods: slices.Clone(sc.ctors), allocs: slices.Clone(sc.classes),
		inits:    slices.Clone(sc.classes),
		evidence: "cons, the serialization constructor of a serializable class: an Externalizable class's public no-argument constructor, or an accessor that allocates the class and runs the no-argument constructor of its first non-serializable superclass (JDK model)"}
	if jdk {
		// A proxy class's initialisation too; below Correct-JDK the fallback
		// runs every <clinit> already.
		res.status, res.inits = callgraph.Resolved, append(res.inits, s.a.proxyInits()...)
	}
	return res
}

// recordCtrResult is the result of readRecord's invocation of the adapted canonical
// constructor (with the Bits methods that read primitive components when bits is
// set), or of the lookup that makes the constructor's handle.
func (s *solver) recordCtrResult(jdk, bits bool) siteResult {
	ss := s.serial()
	if ss == nil {
		return siteResult{}
	}
	sc := ss.creatable(s)
	res := siteResult{status: callgraph.Partial, methods: slices.Clone(sc.recordCtors), inits: slices.Clone(sc.records),
		evidence: "the canonical constructor of a serializable record (ObjectStreamClass.canonicalRecordCtr unreflects it) (JDK model)"}
	if bits {
		res.evidence = "the canonical constructor of a serializable record (ObjectStreamClass.canonicalRecordCtr), adapted by RecordSupport.deserializationCtr to read its components with Bits.get* (JDK model)"
		if b := s.h.Class("java/io/Bits"); b != nil && !b.Phantom {
			for _, m := range b.Methods {
				if m.IsStatic() && strings.HasPrefix(m.Name, "get") && strings.HasPrefix(m.Desc, "([BI)") {
					res.methods = append(res.methods, m)
				}
			}
			res.inits = append(res.inits, b)
		}
	}
	if jdk {
		res.status = callgraph.Resolved
	}
	return res
}

// serialHookResult is the result of the lookups with which ReflectionFactory's
// readObjectForSerialization, readObjectNoDataForSerialization and
// writeObjectForSerialization (private) or readResolveForSerialization and
// writeReplaceForSerialization (inherited) make a handle to a serializable class's
// hook, after setAccessible(true): resolved at Correct-JDK, partial below it.
func (s *solver) serialHookResult(jdk, private bool) siteResult {
	ss := s.serial()
	if ss == nil {
		return siteResult{}
	}
	res := siteResult{status: callgraph.Partial}
	if private {
		res.evidence = "unreflect of a serializable class's private readObject, readObjectNoData or writeObject method taking the stream (ReflectionFactory.findReadWriteObjectForSerialization) (JDK model)"
	} else {
		res.evidence = "unreflect of the readResolve or writeReplace method a serializable class declares or inherits (ReflectionFactory.getReplaceResolveForSerialization) (JDK model)"
	}
	seen := map[*hierarchy.Method]bool{}
	add := func(m *hierarchy.Method) {
		if m != nil && !seen[m] && !m.IsStatic() && !m.IsAbstract() {
			seen[m] = true
			res.methods = append(res.methods, m)
		}
	}
	// Any subtype of Serializable: the methods take a Class and check only
	// Serializable.class.isAssignableFrom(cl).
	s.h.AllSubtypes(ss.ser, func(c *hierarchy.Class) bool {
		if private {
			add(privateHook(c, "readObject", oisDesc))
			add(privateHook(c, "readObjectNoData", oisDesc))
			add(privateHook(c, "writeObject", oosDesc))
			return true
		}
		for _, name := range []string{"readResolve", "writeReplace"} {
			for k := c; k != nil; k = k.Super {
				if m := k.Method(name, "()Ljava/lang/Object;"); m != nil {
					add(m)
					break
				}
			}
		}
		return true
	})
	if jdk {
		res.status = callgraph.Resolved
	}
	return res
}

// serialCreatable is what deserialization may create: the classes ObjectStreamClass
// has a cons for, with those constructors, and the serializable records, with their
// canonical constructors.
type serialCreatable struct {
	classes, records   []*hierarchy.Class
	ctors, recordCtors []*hierarchy.Method
}

// creatable computes, once per run, what deserialization may create: the concrete
// serializable classes, but enums (looked up by name) and java.lang.Class (a stream
// holds classes by name).
func (ss *serialSets) creatable(s *solver) *serialCreatable {
	if ss.made != nil {
		return ss.made
	}
	sc := &serialCreatable{}
	seen := map[*hierarchy.Method]bool{}
	add := func(list *[]*hierarchy.Method, m *hierarchy.Method) {
		if m != nil && !seen[m] {
			seen[m] = true
			*list = append(*list, m)
		}
	}
	s.h.AllSubtypes(ss.ser, func(c *hierarchy.Class) bool {
		if !concrete(c) || (ss.enum != nil && s.h.IsSubclass(c, ss.enum)) || c.Name == "java/lang/Class" {
			return true
		}
		if ss.isRecord(c) {
			sc.records = append(sc.records, c)
			for _, m := range recordConstructors(s.h, c) {
				add(&sc.recordCtors, m)
			}
			return true
		}
		sc.classes = append(sc.classes, c)
		add(&sc.ctors, ss.serialCtor(s.h, c))
		return true
	})
	ss.made = sc
	return sc
}

// proxyInits returns, once per analyzer, the classes a proxy class's initialisation
// may initialise: its superclass Proxy, its superinterfaces that declare default
// methods (JVMS 5.5), and what its <clinit> (ProxyGenerator.generateStaticInitializer)
// loads with Class.forName(String), which initialises: the proxy interface of each
// proxy method (Object for hashCode, equals and toString) and the classes of its
// parameters. Any interface may be proxied (ObjectInputStream.resolveProxyClass, in
// every graph that deserializes, takes their names from the stream), so these are
// every interface and every class that is a parameter of a public instance method of
// an interface (arrays are loaded, not initialised): those whose initialisation runs
// code.
func (a *Analyzer) proxyInits() []*hierarchy.Class {
	a.proxyInitOnce.Do(func() {
		seen := map[*hierarchy.Class]bool{}
		add := func(c *hierarchy.Class) {
			if c != nil && !c.Phantom && !seen[c] {
				seen[c] = true
				if len(a.initChain(c)) > 0 {
					a.proxyInitClasses = append(a.proxyInitClasses, c)
				}
			}
		}
		add(a.h.Class(proxyClass))
		add(a.h.Object()) // the class of hashCode, equals and toString, and equals's parameter
		for _, c := range a.h.Classes() {
			if c.Phantom || !c.IsInterface() {
				continue
			}
			add(c)
			for _, m := range c.Methods {
				if !m.IsPublic() || m.IsStatic() {
					continue
				}
				for n := range paramCount(m.Desc) {
					if name := paramClass(m.Desc, n); name != "" {
						add(a.h.Class(name))
					}
				}
			}
		}
	})
	return a.proxyInitClasses
}

// publicDefaults returns, once per analyzer, the class path's public default
// methods: the public instance methods of interfaces that are not abstract.
func (a *Analyzer) publicDefaults() []*hierarchy.Method {
	a.defaultsOnce.Do(func() {
		for _, c := range a.h.Classes() {
			if c.Phantom || !c.IsInterface() {
				continue
			}
			for _, m := range c.Methods {
				if m.IsPublic() && !m.IsStatic() && !m.IsAbstract() && m.Name != "<clinit>" {
					a.defaults = append(a.defaults, m)
				}
			}
		}
	})
	return a.defaults
}
