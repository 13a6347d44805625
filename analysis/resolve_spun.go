package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
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
// The superclass's own methods need no edges of their own: the spun class's objects
// are objects of the superclass, which the reflective instantiation that constructs
// them (its constructor calls the superclass's) makes instantiated, and calls on
// them dispatch to the superclass's methods, where invokeSuper ends.
type spunResolver struct{}

// cglibFlavour is one packaging of CGLIB's proxy package.
type cglibFlavour struct {
	pkg  string // the proxy package's internal name with the class-name prefix
	name string // as evidence says it
}

var cglibFlavours = []cglibFlavour{
	{"net/sf/cglib/proxy/", "CGLIB"},
	{"com/google/inject/internal/cglib/proxy/$", "Guice AOP (CGLIB)"},
	{"org/springframework/cglib/proxy/", "Spring (CGLIB)"},
}

// cglibCallbacks are CGLIB's callback interfaces whose methods the spun class calls
// (NoOp has none).
var cglibCallbacks = []string{"MethodInterceptor", "InvocationHandler", "LazyLoader", "Dispatcher", "ProxyRefDispatcher", "FixedValue"}

func (spunResolver) Name() string { return "spun" }

func (spunResolver) APIs() []string {
	var apis []string
	for _, f := range cglibFlavours {
		apis = append(apis, f.pkg+"Enhancer.create", f.pkg+"Enhancer.createClass")
	}
	return apis
}

func (spunResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	if rm.IsStatic() {
		return // the static create(Class, Callback...) delegate to the instance's create
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
	where := s.localFlow(at.caller).place(at.line)
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatProxy, name: "Enhancer." + rm.Name,
		reason: callgraph.Reason{Kind: callgraph.KindProxy, Resolver: "spun"}, levelFree: true}
	d.reason.Evidence = fl.name + ": the subclass spun at run time at " + where + " calls " +
		strings.Join(names, ", ") + " of the callbacks registered for it; they are registered elsewhere, so: every callback class " +
		s.opts.Algorithm.String() + " allows (they run the superclass's methods through MethodProxy.invokeSuper, and the interceptors bound to them)"
	d.unresolved = d.reason.Evidence
	d.fallback = func() int32 {
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
