package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// spunResolver: subclasses spun at run time by CGLIB's Enhancer, plain
// (net.sf.cglib.proxy) or repackaged inside Guice (com.google.inject.internal.cglib,
// whose ProxyFactory spins the subclasses of Guice's AOP) and Spring
// (org.springframework.cglib: Spring's AOP and @Configuration classes). Such a class is not in
// AppClasses: each method it overrides calls the entry method of the callback
// registered for it (MethodInterceptor.intercept, InvocationHandler.invoke,
// loadObject of the loaders and dispatchers, FixedValue.loadObject), and the callback
// runs the superclass's method through MethodProxy.invokeSuper, or the interceptors
// bound to it (Guice's InterceptorStackCallback calls the aopalliance
// MethodInterceptor.invoke of each). As for proxies (resolve_proxy.go), the spun
// class's calls are edges from the site that creates it, Enhancer.create or
// createClass, to the callbacks' entry methods, dispatched on every callback class
// the algorithm allows: the callbacks are registered apart from the site (Guice's
// Enhancer.registerCallbacks at each construction), so the site is unresolved, and
// since that does not depend on the assumption level it has no level fallback.
//
// The superclass's methods are reached twice: the spun class's objects are objects
// of the superclass C, so calls on them dispatch to C's methods, and the callback
// runs C's method through MethodProxy.invokeSuper, whose FastClass is spun too. An
// invokeSuper site calls, of each class a reachable Enhancer site of its flavour
// shows as a superclass, every method the spun subclass may override (not static,
// private, final or abstract, as selected from C): the run grows one set of them
// per flavour (spunSupers), as it does the method-handle targets. A superclass no
// site shows (Guice's and Spring's, from their bindings) is not in it: its methods
// are reached where the spun objects are called. When the site shows C (setSuperclass of a class literal on the
// Enhancer the method allocates), C is instantiated there: create() runs a
// constructor of C (the spun class's constructors call their super's) and returns a
// C, createClass() makes a class whose objects, made elsewhere, are C's. When it
// does not (Guice's and Spring's superclasses come from their bindings), C is any
// class: the reflective instantiation that constructs the spun objects (the
// Constructor.newInstance of CGLIB's ReflectUtils, Guice's ProxyConstructor) reaches
// constructors by its level's rules, and CGLIB's own setAccessible(true) gives
// those sites level 1's set, every constructor, at every level (resolve_access.go).
type spunResolver struct{}

// cglibFlavour is one packaging of CGLIB's proxy package.
type cglibFlavour struct {
	pkg  string // the proxy package's internal name with the class-name prefix
	name string // as evidence says it
	// owner is the package prefix of the framework that repackaged it, whose own
	// sites evidence names as ownerName.
	owner, ownerName string
}

var cglibFlavours = []cglibFlavour{
	{"net/sf/cglib/proxy/", "CGLIB", "", ""},
	{"com/google/inject/internal/cglib/proxy/$", "Guice's CGLIB", "com/google/inject/", "Guice AOP (Guice's CGLIB)"},
	{"org/springframework/cglib/proxy/", "Spring's CGLIB", "org/springframework/", "Spring (Spring's CGLIB)"},
}

// cglibCallbacks are CGLIB's callback interfaces whose methods the spun class calls
// (NoOp has none).
var cglibCallbacks = []string{"MethodInterceptor", "InvocationHandler", "LazyLoader", "Dispatcher", "ProxyRefDispatcher", "FixedValue"}

func (spunResolver) Name() string { return "spun" }

func (spunResolver) APIs() []string {
	var apis []string
	for _, f := range cglibFlavours {
		apis = append(apis, f.pkg+"Enhancer.create", f.pkg+"Enhancer.createClass", f.pkg+"MethodProxy.invokeSuper")
	}
	return apis
}

func (spunResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	if rm.IsStatic() && !strings.HasPrefix(rm.Desc, "(Ljava/lang/Class;") {
		return
	}
	var fl cglibFlavour
	for _, f := range cglibFlavours {
		if strings.HasPrefix(rm.Class.Name, f.pkg) {
			fl = f
		}
	}
	if fl.pkg == "" {
		return
	}
	if rm.Name == "invokeSuper" {
		s.invokeSuper(at, c, rm, fl)
		return
	}
	if fl.owner != "" && strings.HasPrefix(at.caller.Class.Name, fl.owner) {
		fl.name = fl.ownerName
	}
	type entry struct {
		iface *hierarchy.Class
		m     *hierarchy.Method
	}
	var entries []entry
	var names []string
	for _, cb := range cglibCallbacks {
		ic := s.h.Class(fl.pkg + cb)
		if ic == nil || ic.Phantom {
			continue
		}
		for _, m := range ic.Methods {
			if !m.IsStatic() && m.Name != "<clinit>" {
				entries = append(entries, entry{ic, m})
				names = append(names, strings.TrimPrefix(cb, "$")+"."+m.Name)
			}
		}
	}
	if len(entries) == 0 {
		return
	}
	supers, subject := spunSuperclasses(s, at, fl, rm)
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatProxy, name: "Enhancer." + rm.Name,
		reason: callgraph.Reason{Kind: callgraph.KindProxy, Resolver: "spun"}, levelFree: true}
	d.reason.Evidence = fl.name + ": " + subject + " calls " + strings.Join(names, ", ") +
		" of the callbacks registered for it; they are registered elsewhere, so: every callback class " +
		s.opts.Algorithm.String() + " allows (they run the superclass's methods through MethodProxy.invokeSuper, and the interceptors bound to them)"
	d.unresolved = d.reason.Evidence
	constructed := false
	construct := func() {
		if !constructed {
			constructed = true
			s.constructSpun(at, rm, supers, fl.name+": "+subject)
			s.spunSupers(fl).add(s, supers)
		}
	}
	d.own = []siteResolver{spunCallbackResolver{fl: fl, name: fl.name + ": " + subject, construct: construct}}
	d.fallback = func() int32 {
		construct()
		// The site's hover lists the first set, MethodInterceptor.intercept's: the
		// callback AOP uses (Guice's only one besides NoOp).
		set := int32(-1)
		for i, e := range entries {
			if t := s.dispatch(at, algo.Any(e.iface), e.m, d.reason); i == 0 {
				set = t
			}
		}
		return set
	}
	s.resolveSite(d)
}

// spunSupers is a run's set of the superclass methods that one flavour's
// MethodProxy.invokeSuper may run.
type spunSupers struct {
	set     int32
	classes map[int32]bool // the superclasses added, by ID
	seen    map[int32]bool // the methods added, by ID
}

func (s *solver) spunSupers(fl cglibFlavour) *spunSupers {
	if s.api.spun == nil {
		s.api.spun = map[string]*spunSupers{}
	}
	ss := s.api.spun[fl.pkg]
	if ss == nil {
		ss = &spunSupers{set: s.newSet(), classes: map[int32]bool{}, seen: map[int32]bool{}}
		s.cond[ss.set] = map[int32]int32{}
		s.api.spun[fl.pkg] = ss
	}
	return ss
}

// add adds the methods that a subclass of each of supers may override, as selected
// from the superclass: what invokeSuper runs for them.
func (ss *spunSupers) add(s *solver, supers []*hierarchy.Class) {
	for _, c := range supers {
		if ss.classes[c.ID] {
			continue
		}
		ss.classes[c.ID] = true
		sigs := map[string]bool{}
		s.h.Supertypes(c, func(k *hierarchy.Class) bool {
			for _, m := range k.Methods {
				if m.IsStatic() || m.IsPrivate() || m.Name == "<init>" || m.Name == "<clinit>" || sigs[m.Name+m.Desc] {
					continue
				}
				sigs[m.Name+m.Desc] = true
				if t := s.h.Select(c, m); t != nil && !t.IsAbstract() && !t.IsFinal() && !ss.seen[t.ID] {
					ss.seen[t.ID] = true
					s.growCond(ss.set, t.ID, s.cur)
				}
			}
			return true
		})
	}
}

// invokeSuper resolves a MethodProxy.invokeSuper call: it runs the superclass's
// method that the spun subclass's method overrides, one of the flavour's set.
func (s *solver) invokeSuper(at site, c *facts.Call, rm *hierarchy.Method, fl cglibFlavour) {
	ss := s.spunSupers(fl)
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatProxy, name: "MethodProxy.invokeSuper",
		reason: callgraph.Reason{Kind: callgraph.KindProxy, Resolver: "spun"}, levelFree: true}
	d.reason.Evidence = fl.name + ": MethodProxy.invokeSuper runs the superclass's method that the subclass spun at run time overrides: " +
		"a method of a superclass that a reachable Enhancer site shows (the subclasses of superclasses no site shows run theirs where their objects are called)"
	d.unresolved = d.reason.Evidence
	d.fallback = func() int32 {
		s.bundle(at, ss.set, s.reason(d.reason), false)
		return ss.set
	}
	s.resolveSite(d)
}

// spunSuperclasses returns the superclasses given to the Enhancer of a create or
// createClass site when the calling method allocates that Enhancer and every
// setSuperclass call on it there takes a class literal; nil when the site does not
// show them; subject names the spun class for evidence.
func spunSuperclasses(s *solver, at site, fl cglibFlavour, rm *hierarchy.Method) (supers []*hierarchy.Class, subject string) {
	lf := s.localFlow(at.caller)
	unknown := spunUnknown(lf, at)
	if lf == nil {
		return nil, unknown
	}
	ops := lf.operands(at.pc)
	if len(ops) == 0 || len(ops[0]) == 0 {
		return nil, unknown
	}
	if rm.IsStatic() {
		// Enhancer.create(Class superclass, ...): it calls the instance's create,
		// whose own site does not see the superclass.
		return literalSuperclasses(s, lf, ops[0], at, unknown)
	}
	allocs, ok := enhancerAllocs(lf, ops[0], fl)
	if !ok || enhancerEscapes(lf, allocs, fl) {
		return nil, unknown
	}
	var args []facts.Def
	for i := range lf.f.Calls {
		c := &lf.f.Calls[i]
		if c.Ref.Name == "setSuperclass" && c.Ref.Class == fl.pkg+"Enhancer" && onAlloc(lf, c, allocs) {
			if cops := lf.operands(c.PC); len(cops) > 1 {
				args = append(args, cops[1]...)
			}
		}
	}
	return literalSuperclasses(s, lf, args, at, unknown)
}

// spunUnknown names, for evidence, the class spun at a site that does not show its
// superclass.
func spunUnknown(lf *localFlow, at site) string {
	if lf == nil {
		return "the subclass spun at run time here, of a superclass not known here,"
	}
	return "the subclass spun at run time at " + lf.place(at.line) + ", of a superclass not known here,"
}

// literalSuperclasses returns the classes of a Class value every definition of which
// is a class literal, and the spun class's subject for evidence; nil and unknown
// otherwise.
func literalSuperclasses(s *solver, lf *localFlow, defs []facts.Def, at site, unknown string) ([]*hierarchy.Class, string) {
	types, ok := lf.constTypes(defs)
	if !ok {
		return nil, unknown
	}
	var supers []*hierarchy.Class
	var names []string
	for _, t := range types {
		if cl := s.h.Class(className(t)); cl != nil && !cl.Phantom && !cl.IsInterface() {
			supers = append(supers, cl)
			names = append(names, typeName(t))
		}
	}
	if len(supers) == 0 {
		return nil, unknown
	}
	return supers, "the subclass of " + strings.Join(names, ", ") + " spun at run time at " + lf.place(at.line)
}

// constructSpun makes the objects of a spun subclass of supers objects of supers: the
// value create() returns, or any (createClass: they are constructed elsewhere), and
// create() runs the superclass's constructors (the no-argument one, but for
// create(Class[], Object[])).
func (s *solver) constructSpun(at site, rm *hierarchy.Method, supers []*hierarchy.Class, ev string) {
	for _, c := range supers {
		if rm.Name == "createClass" {
			s.oracle.Created(algo.Any(c), c)
			continue
		}
		s.oracle.Created(algo.DefOf(at.caller, at.pc, c), c)
		noArg := rm.IsStatic() || rm.Desc == "()Ljava/lang/Object;" // create(Class[], Object[]) picks by its arguments
		r := callgraph.Reason{Kind: callgraph.KindProxy, Resolver: "spun", Evidence: ev + ": create() constructs it, and its constructor runs its superclass's"}
		for _, m := range c.Methods {
			if m.Name == "<init>" && !m.IsPrivate() && (!noArg || m.Desc == "()V") {
				s.edge(at, m, r)
			}
		}
	}
}

// spunCallbackResolver resolves a create() site whose callbacks the calling method
// allocates and sets on the Enhancer it allocates (setCallback(new X()), or the
// static create(Class, Callback) with new X()): the spun class calls X's entry
// methods.
type spunCallbackResolver struct {
	fl        cglibFlavour
	name      string // the flavour and the spun class, for evidence
	construct func() // adds the superclass's instantiation, within the site
}

func (spunCallbackResolver) appliesAt(callgraph.Level) bool { return true }

func (p spunCallbackResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	p.construct()
	if d.api.Name != "create" {
		return siteResult{} // createClass: instances get their callbacks elsewhere
	}
	lf := s.localFlow(d.at.caller)
	if lf == nil {
		return siteResult{}
	}
	ops := lf.operands(d.at.pc)
	var defs []facts.Def
	switch {
	case d.api.IsStatic() && d.api.Desc == "(Ljava/lang/Class;L"+p.fl.pkg+"Callback;)Ljava/lang/Object;" && len(ops) == 2:
		defs = ops[1]
	case !d.api.IsStatic() && len(ops) > 0:
		allocs, ok := enhancerAllocs(lf, ops[0], p.fl)
		if !ok || enhancerEscapes(lf, allocs, p.fl) {
			return siteResult{}
		}
		for i := range lf.f.Calls {
			c := &lf.f.Calls[i]
			if c.Ref.Class != p.fl.pkg+"Enhancer" || !onAlloc(lf, c, allocs) {
				continue
			}
			switch c.Ref.Name {
			case "setCallback":
				o := lf.operands(c.PC)
				if len(o) < 2 {
					return siteResult{}
				}
				defs = append(defs, o[1]...)
			case "setCallbacks", "setCallbackFilter", "setCallbackType", "setCallbackTypes":
				return siteResult{} // arrays of callbacks, or types only: not followed
			}
		}
	}
	if len(defs) == 0 {
		return siteResult{}
	}
	var res siteResult
	var shown []string
	for _, def := range defs {
		c := newClass(s, lf, []facts.Def{def})
		if c == nil {
			return siteResult{}
		}
		// The allocation creates exactly c: select each callback entry it implements.
		for _, cb := range cglibCallbacks {
			ic := s.h.Class(p.fl.pkg + cb)
			if ic == nil || !s.h.IsSubtype(c, ic) {
				continue
			}
			for _, m := range ic.Methods {
				if !m.IsStatic() && m.Name != "<clinit>" {
					if t := s.h.Select(c, m); t != nil {
						res.methods = append(res.methods, t)
					}
				}
			}
		}
		shown = append(shown, "new "+typeName("L"+c.Name+";"))
	}
	res.status = callgraph.Resolved
	res.evidence = p.name + " calls the callback set on its Enhancer: " + strings.Join(shown, " | ")
	return res
}

// enhancerAllocs returns the allocations of the Enhancer class that are every
// definition of a value; ok is false when some definition is something else.
func enhancerAllocs(lf *localFlow, defs []facts.Def, fl cglibFlavour) (map[int]bool, bool) {
	allocs := map[int]bool{}
	for _, d := range defs {
		al := lf.allocAt(d.N)
		if d.Kind != facts.DefInstr || al == nil || al.Op != bytecode.New || al.Type != fl.pkg+"Enhancer" {
			return nil, false
		}
		allocs[d.N] = true
	}
	return allocs, len(allocs) > 0
}

// enhancerEscapes reports whether a use of allocs in lf's method is anything but a
// local variable, a stack copy, or the receiver of a method of the Enhancer: then
// other code may set its superclass or callbacks.
func enhancerEscapes(lf *localFlow, allocs map[int]bool, fl cglibFlavour) bool {
	escapes := false
	lf.fl.EachInstr(func(pc int, op bytecode.Opcode, operand func(n int) []facts.Def) {
		for n := 0; !escapes; n++ {
			defs := operand(n)
			if defs == nil {
				return
			}
			mine := false
			for _, d := range defs {
				mine = mine || d.Kind == facts.DefInstr && allocs[d.N]
			}
			if !mine {
				continue
			}
			switch {
			case moves(op):
			case op.IsInvoke() && n == 0:
				c := lf.callAt(pc)
				escapes = c == nil || c.Ref.Class != fl.pkg+"Enhancer"
			default:
				escapes = true
			}
		}
	})
	return escapes
}

// onAlloc reports whether the receiver of call c may be one of allocs.
func onAlloc(lf *localFlow, c *facts.Call, allocs map[int]bool) bool {
	ops := lf.operands(c.PC)
	if len(ops) == 0 {
		return false
	}
	for _, d := range ops[0] {
		if d.Kind == facts.DefInstr && allocs[d.N] {
			return true
		}
	}
	return false
}
