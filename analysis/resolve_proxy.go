package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// proxyResolver: dynamic proxies. A proxy class is generated at run time (it is not in
// AppClasses); each call of an interface method on a proxy runs InvocationHandler.invoke
// of the proxy's handler. The edges go from the site that creates the proxy to the
// handler's invoke: Proxy.newProxyInstance(loader, interfaces, handler), and
// Proxy.getProxyClass(loader, interfaces), whose class gets its handler later through
// reflective instantiation.
//
// When every definition of the handler argument in the calling method is an
// allocation (new H) or a lambda, the site is resolved: the targets are H's invoke, or
// the lambda's body. Otherwise InvocationHandler.invoke is dispatched on every handler
// class the algorithm allows (CHA: every implementation; RTA: the instantiated ones).
// That does not depend on the assumption level, so such a site is unresolved without
// a level fallback.
type proxyResolver struct{}

const (
	proxyNewDesc   = "(Ljava/lang/ClassLoader;[Ljava/lang/Class;Ljava/lang/reflect/InvocationHandler;)Ljava/lang/Object;"
	proxyClassDesc = "(Ljava/lang/ClassLoader;[Ljava/lang/Class;)Ljava/lang/Class;"
	handlerClass   = "java/lang/reflect/InvocationHandler"
	handlerInvoke  = "(Ljava/lang/Object;Ljava/lang/reflect/Method;[Ljava/lang/Object;)Ljava/lang/Object;"
)

func (proxyResolver) Name() string { return "proxy" }

func (proxyResolver) APIs() []string {
	return []string{"java/lang/reflect/Proxy.newProxyInstance", "java/lang/reflect/Proxy.getProxyClass"}
}

func (proxyResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	if rm.Desc != proxyNewDesc && rm.Desc != proxyClassDesc {
		return // the JDK's private helpers
	}
	ih := s.h.Class(handlerClass)
	if ih == nil {
		return
	}
	inv := ih.Method("invoke", handlerInvoke)
	if inv == nil {
		return
	}
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatProxy, name: "Proxy." + rm.Name,
		reason: callgraph.Reason{Kind: callgraph.KindProxy, Resolver: "proxy"}, levelFree: true}
	if rm.Desc == proxyNewDesc {
		d.own = []siteResolver{proxyHandlerResolver{arg: 2, invoke: inv}}
		d.reason.Evidence = d.name + ": calls on the proxy run InvocationHandler.invoke of its handler, which is not known here: every handler class " + s.opts.Algorithm.String() + " allows"
	} else {
		d.reason.Evidence = d.name + ": the proxy's handler is given to its constructor later: InvocationHandler.invoke of every handler class " + s.opts.Algorithm.String() + " allows"
	}
	d.unresolved = d.reason.Evidence
	d.fallback = func() int32 {
		handler := algo.Any(ih) // getProxyClass: the handler comes with the constructor call
		if rm.Desc == proxyNewDesc {
			handler = algo.OperandOf(at.caller, at.pc, 2, ih)
		}
		return s.dispatch(at, handler, inv, d.reason)
	}
	s.resolveSite(d)
}

// proxyHandlerResolver resolves a proxy whose handler argument is allocated, or is a
// lambda, in the calling method.
type proxyHandlerResolver struct {
	arg    int
	invoke *hierarchy.Method
}

func (proxyHandlerResolver) appliesAt(callgraph.Level) bool { return true }

func (p proxyHandlerResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	lf, defs := s.siteOperand(d, p.arg)
	if lf == nil {
		return siteResult{}
	}
	var res siteResult
	var shown []string
	for _, def := range defs {
		if def.Kind != facts.DefInstr {
			return siteResult{}
		}
		if al := lf.allocAt(def.N); al != nil && al.Op == bytecode.New {
			c := s.h.Class(al.Type)
			if c == nil || c.Phantom {
				return siteResult{}
			}
			// The allocation creates exactly c: select, don't dispatch.
			if t := s.h.Select(c, p.invoke); t != nil {
				res.methods = append(res.methods, t)
			}
			shown = append(shown, "new "+typeName("L"+c.Name+";"))
			continue
		}
		c := lf.callAt(def.N)
		if c == nil {
			return siteResult{}
		}
		impl, ok := c.Indy.LambdaImpl()
		if !ok || returnClass(c.Indy.Desc) != handlerClass {
			return siteResult{}
		}
		r, ok := s.constantHandle(impl.RefKind, impl.Ref)
		if !ok {
			return siteResult{}
		}
		res.merge(r)
		shown = append(shown, "lambda "+strings.ReplaceAll(impl.Ref.Class, "/", ".")+"::"+impl.Ref.Name)
	}
	if len(shown) == 0 {
		return siteResult{}
	}
	res.status = callgraph.Resolved
	res.evidence = d.name + ": calls on the proxy run InvocationHandler.invoke of its handler: " + strings.Join(shown, " | ")
	return res
}
