package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// byteBuddyResolver: subclasses ByteBuddy spins at run time,
//
//	new ByteBuddy().subclass(C.class).method(matcher).intercept(impl).make().load(cl).getLoaded()
//
// modelled as CGLIB's (resolve_spun.go): the spun class is not in AppClasses, so its
// calls are edges from the site that spins it, and its objects are objects of C, whose
// methods calls on C receivers dispatch to. The site is DynamicType.Builder.make():
// it is the one call every definition goes through (load and getLoaded only move the
// made bytes into a class loader), and its receiver is the builder chain itself, so
// the method's local flow shows, from make() back to ByteBuddy.subclass, the
// superclass and every Implementation given to intercept.
//
// When that chain is all in the calling method, made of builder methods that add no
// code of their own, C is a class literal and each Implementation is one the resolver
// knows, the site is resolved: C is instantiated (the loaded class is instantiated
// elsewhere, reflectively, and ByteBuddy's default constructor strategy imitates
// every visible constructor of C, each calling its super's: edges to C's non-private
// constructors), and the spun methods call the interception targets:
//   - MethodDelegation.to(X.class): the static non-private methods of X (ByteBuddy
//     binds among them by signature and annotations, so every one may be bound);
//   - MethodDelegation.to(new X()): the instance non-private methods of X and of its
//     superclasses, as X's objects select them;
//   - InvocationHandlerAdapter.of(new H()): H's InvocationHandler.invoke;
//   - FixedValue, StubMethod, SuperMethodCall: nothing beyond C's own methods.
//
// Otherwise the site is unresolved, with no level fallback (it does not depend on the
// level): the spun class may call InvocationHandler.invoke on every handler class the
// algorithm allows, and C's construction is kept where C is known; delegation
// targets not known at the site are not followed, and its evidence says so.
type byteBuddyResolver struct{}

const (
	bbBuilder = "net/bytebuddy/dynamic/DynamicType$Builder"
	bbImpl    = "net/bytebuddy/implementation/"
)

// bbChainMethods are the builder methods that may stand between subclass and make
// without adding code of their own (visit, initializer and the like are not: they
// make the site unresolved).
var bbChainMethods = map[string]bool{
	"method": true, "defineMethod": true, "defineConstructor": true, "constructor": true, "invokable": true,
	"intercept": true, "withParameter": true, "withParameters": true, "throwing": true, "name": true,
	"suffix": true, "modifiers": true, "merge": true, "implement": true, "annotateType": true,
	"defineField": true, "field": true, "annotateField": true, "annotateMethod": true, "attribute": true,
	"typeVariable": true, "withHashCodeEquals": true, "withToString": true,
}

func (byteBuddyResolver) Name() string { return "bytebuddy" }

func (byteBuddyResolver) APIs() []string { return []string{bbBuilder + ".make"} }

func (byteBuddyResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	ih := s.h.Class("java/lang/reflect/InvocationHandler")
	if rm.IsStatic() || ih == nil || ih.Phantom {
		return
	}
	invoke := ih.Method("invoke", "(Ljava/lang/Object;Ljava/lang/reflect/Method;[Ljava/lang/Object;)Ljava/lang/Object;")
	if invoke == nil {
		return
	}
	ch := byteBuddyChain(s, at)
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatProxy, name: "DynamicType.Builder." + rm.Name,
		reason: callgraph.Reason{Kind: callgraph.KindProxy, Resolver: "bytebuddy"}, levelFree: true}
	d.reason.Evidence = "ByteBuddy: " + ch.subject + " calls the implementations given to intercept; they are not known here, so: InvocationHandler.invoke of every handler class " +
		s.opts.Algorithm.String() + " allows (InvocationHandlerAdapter); MethodDelegation's targets and other implementations not known here are not followed"
	d.unresolved = d.reason.Evidence
	constructed := false
	construct := func() {
		if !constructed {
			constructed = true
			r := callgraph.Reason{Kind: callgraph.KindProxy, Resolver: "bytebuddy",
				Evidence: "ByteBuddy: " + ch.subject + ": its constructors, imitating its superclass's, run them"}
			for _, sc := range ch.supers {
				s.oracle.Created(algo.Any(sc), sc)
				for _, m := range sc.Methods {
					if m.Name == "<init>" && !m.IsPrivate() {
						s.edge(at, m, r)
					}
				}
			}
		}
	}
	d.own = []siteResolver{byteBuddyImplResolver{chain: ch, construct: construct, invoke: invoke}}
	d.fallback = func() int32 {
		construct()
		return s.dispatch(at, algo.Any(ih), invoke, d.reason)
	}
	s.resolveSite(d)
}

// bbChain is what the calling method shows of the builder a make() site makes.
type bbChain struct {
	supers  []*hierarchy.Class // class literals given to subclass; nil when not known
	impls   []facts.Def        // the Implementations given to intercept
	ok      bool               // the whole chain, down to subclass, is in the method
	subject string             // the spun class, for evidence
	lf      *localFlow
}

// byteBuddyChain follows the receiver of a make() site back through builder methods
// to ByteBuddy.subclass.
func byteBuddyChain(s *solver, at site) bbChain {
	lf := s.localFlow(at.caller)
	unknown := spunUnknown(lf, at)
	ch := bbChain{subject: unknown, lf: lf}
	if lf == nil {
		return ch
	}
	ops := lf.operands(at.pc)
	if len(ops) == 0 {
		return ch
	}
	var supers []facts.Def
	seen := map[int]bool{}
	ok := true
	var walk func(defs []facts.Def)
	walk = func(defs []facts.Def) {
		for _, d := range defs {
			if !ok {
				return
			}
			if d.Kind != facts.DefInstr {
				ok = false
				return
			}
			if seen[d.N] {
				continue
			}
			seen[d.N] = true
			c := lf.callAt(d.N)
			if c == nil {
				ok = false
				return
			}
			o := lf.operands(c.PC)
			switch {
			case c.Ref.Class == "net/bytebuddy/ByteBuddy" && c.Ref.Name == "subclass" && len(o) > 1:
				supers = append(supers, o[1]...)
			case strings.HasPrefix(c.Ref.Class, bbBuilder) && bbChainMethods[c.Ref.Name] && len(o) > 0:
				if c.Ref.Name == "intercept" && len(o) > 1 {
					ch.impls = append(ch.impls, o[1]...)
				}
				walk(o[0])
			default:
				ok = false
			}
		}
	}
	walk(ops[0])
	ch.ok = ok
	if !ok || len(supers) == 0 {
		return ch
	}
	ch.supers, ch.subject = literalSuperclasses(s, lf, supers, at, unknown)
	return ch
}

// byteBuddyImplResolver resolves a make() site whose builder chain the calling method
// shows, with Implementations it knows.
type byteBuddyImplResolver struct {
	chain     bbChain
	construct func()
	invoke    *hierarchy.Method // InvocationHandler.invoke
}

func (byteBuddyImplResolver) appliesAt(callgraph.Level) bool { return true }

func (p byteBuddyImplResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	p.construct()
	ch := p.chain
	if !ch.ok || ch.supers == nil {
		return siteResult{}
	}
	lf := ch.lf
	var res siteResult
	var shown []string
	for _, def := range ch.impls {
		if def.Kind != facts.DefInstr {
			return siteResult{}
		}
		if f := lf.fieldAt(def.N); f != nil {
			// SuperMethodCall.INSTANCE, StubMethod.INSTANCE: the superclass's method, or none.
			if f.Ref.Class != bbImpl+"SuperMethodCall" && f.Ref.Class != bbImpl+"StubMethod" {
				return siteResult{}
			}
			shown = append(shown, typeName("L"+f.Ref.Class+";")+"."+f.Ref.Name)
			continue
		}
		c := lf.callAt(def.N)
		if c == nil {
			return siteResult{}
		}
		var args []facts.Def
		if o := lf.operands(c.PC); len(o) > 0 {
			args = o[0] // every method followed here is static: its first argument
		}
		switch {
		case c.Ref.Class == bbImpl+"FixedValue":
			shown = append(shown, "FixedValue."+c.Ref.Name)
		case c.Ref.Class == bbImpl+"MethodDelegation" && c.Ref.Name == "to" && strings.HasPrefix(c.Ref.Desc, "(Ljava/lang/Class;)"):
			types, ok := lf.constTypes(args)
			if !ok {
				return siteResult{}
			}
			for _, t := range types {
				x := s.h.Class(className(t))
				if x == nil || x.Phantom {
					return siteResult{}
				}
				for _, m := range x.Methods {
					if m.IsStatic() && !m.IsPrivate() && m.Name != "<clinit>" {
						res.methods = append(res.methods, m)
					}
				}
				shown = append(shown, "the static methods of "+typeName(t))
			}
		case c.Ref.Class == bbImpl+"MethodDelegation" && c.Ref.Name == "to" && strings.HasPrefix(c.Ref.Desc, "(Ljava/lang/Object;"):
			x := newClass(s, lf, args)
			if x == nil {
				return siteResult{}
			}
			res.methods = append(res.methods, instanceMethods(x)...)
			shown = append(shown, "the instance methods of new "+typeName("L"+x.Name+";"))
		case c.Ref.Class == bbImpl+"InvocationHandlerAdapter" && c.Ref.Name == "of":
			x := newClass(s, lf, args)
			if x == nil {
				return siteResult{}
			}
			if t := s.h.Select(x, p.invoke); t != nil {
				res.methods = append(res.methods, t)
			}
			shown = append(shown, "InvocationHandler.invoke of new "+typeName("L"+x.Name+";"))
		default:
			return siteResult{}
		}
	}
	res.status = callgraph.Resolved
	res.evidence = "ByteBuddy: " + ch.subject + " delegates to: " + strings.Join(shown, " | ")
	return res
}

// newClass returns the class every definition of which allocates, nil when a
// definition is something else or the allocations differ.
func newClass(s *solver, lf *localFlow, defs []facts.Def) *hierarchy.Class {
	var x *hierarchy.Class
	for _, d := range defs {
		al := lf.allocAt(d.N)
		if d.Kind != facts.DefInstr || al == nil || al.Op != bytecode.New {
			return nil
		}
		c := s.h.Class(al.Type)
		if c == nil || c.Phantom || x != nil && c != x {
			return nil
		}
		x = c
	}
	return x
}

// instanceMethods returns the non-private instance methods an object of x has, each
// as x selects it (an override hides its superclass's method).
func instanceMethods(x *hierarchy.Class) []*hierarchy.Method {
	var ms []*hierarchy.Method
	seen := map[string]bool{}
	for k := x; k != nil; k = k.Super {
		for _, m := range k.Methods {
			if m.IsStatic() || m.IsPrivate() || m.Name == "<init>" || m.Name == "<clinit>" || seen[m.Name+m.Desc] {
				continue
			}
			seen[m.Name+m.Desc] = true
			ms = append(ms, m)
		}
	}
	return ms
}
