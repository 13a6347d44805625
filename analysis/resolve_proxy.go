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

// annotationValueCaller is the JDK's one call of InvocationHandler.invoke (JDK 17):
// it passes the member "value" of an annotation type (AnnotationType.members), an
// instance method of an interface.
const annotationValueCaller = "sun/reflect/annotation/AnnotationSupport"

// proxiedReceiver applies to a Method.invoke site in an InvocationHandler's invoke
// whose Method is invoke's own Method parameter: the proxy class passes the method
// of a proxied interface called on the proxy (or Object's equals, hashCode,
// toString), an instance method. At Correct-JDK, where the JDK's only call of
// InvocationHandler.invoke passes an annotation member, that holds when no other
// instruction calls the handler: the site then reaches instance methods of the
// receiver's declared class and its subtypes only, and never a static method.
// proxiedReceiver returns that class (Object when the receiver's type is not
// known), or nil when the rule does not apply.
func (s *solver) proxiedReceiver(d *dynamicSite) *hierarchy.Class {
	m := d.at.caller
	if !s.opts.Level.ModelsJDK() || m == nil || m.Name != "invoke" || m.Desc != handlerInvoke || m.IsStatic() {
		return nil
	}
	ih := s.h.Class(handlerClass)
	lf := s.localFlow(m)
	if ih == nil || lf == nil || !s.h.IsSubtype(m.Class, ih) {
		return nil
	}
	ops := lf.operands(d.at.pc)
	if len(ops) < 2 || len(ops[0]) != 1 || ops[0][0] != (facts.Def{Kind: facts.DefParam, N: 2}) {
		return nil
	}
	callers, all := s.values().Callers(m)
	if !all {
		return nil
	}
	for _, cr := range callers {
		if cr.Caller.Class.Name != annotationValueCaller || cr.Caller.Class.Origin != hierarchy.JDK {
			return nil
		}
	}
	t := s.h.Class("java/lang/Object")
	if c := s.h.Class(lf.declaredType(ops[1])); c != nil && !c.Phantom {
		t = c
	}
	return t
}

// declaredType returns the class every definition in defs has by its declaration
// (a field's or a parameter's type, a cast's, a call's return type, the class of
// an allocation), or "" when they differ or one is not known.
func (lf *localFlow) declaredType(defs []facts.Def) string {
	out := ""
	for _, d := range defs {
		t := ""
		switch {
		case d.Kind == facts.DefParam && d.N == 0 && !lf.m.IsStatic():
			t = lf.m.Class.Name
		case d.Kind == facts.DefParam:
			n := d.N
			if !lf.m.IsStatic() {
				n--
			}
			t = paramClass(lf.m.Desc, n)
		case d.Kind != facts.DefInstr:
		case lf.fieldAt(d.N) != nil && !lf.fieldAt(d.N).Write:
			t = descClass(lf.fieldAt(d.N).Ref.Desc)
		case lf.checkAt(d.N) != nil && !lf.checkAt(d.N).Instanceof:
			t = lf.checkAt(d.N).Type
		case lf.allocAt(d.N) != nil && lf.allocAt(d.N).Dims == 0:
			t = lf.allocAt(d.N).Type
		case lf.callAt(d.N) != nil && lf.callAt(d.N).Indy == nil:
			desc := lf.callAt(d.N).Ref.Desc
			t = descClass(desc[strings.IndexByte(desc, ')')+1:])
		}
		if t == "" || out != "" && t != out {
			return ""
		}
		out = t
	}
	return out
}

// descClass returns the class a field descriptor names, or "" for another type.
func descClass(desc string) string {
	if len(desc) > 2 && desc[0] == 'L' {
		return desc[1 : len(desc)-1]
	}
	return ""
}
