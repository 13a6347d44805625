package analysis

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// bootstrapResolver resolves, at Correct-JDK, the method-handle invocations with
// which the JDK calls bootstrap methods. The JVM links an invokedynamic instruction
// or a dynamic constant (ldc of CONSTANT_Dynamic) by calling
// MethodHandleNatives.linkCallSite or linkDynamicConstant, which hand the bootstrap
// method of the instruction to BootstrapMethodInvoker.invoke; it invokes that
// handle (directly, or through invokeWithArguments in invokeWithManyArguments).
// Below Correct-JDK the handle is unknown there and the sites fall back to every
// public method. A bootstrap method is named by the BootstrapMethods attribute of
// the class whose instruction is linked (JVMS 4.7.23), so the handle is one of the
// methods those attributes name: the targets are all of them in the class path,
// a few dozen methods where the fallback has every public one. widenAndCast
// converts a dynamic constant's boxed value through MethodHandles.identity, which
// calls nothing.
//
// The same resolver answers the invocations inside MethodHandle.invokeWithArguments
// and its AsVarargsCollector override: they invoke the receiver handle (through an
// invoker, or its target), whose targets the invokeWithArguments call site that
// called them has already (resolve_mh.go treats that call as the invocation, as it
// does invokeExact). Below Correct-JDK they fall back to every public method.
//
// So do the adapters between pull-mode and push-mode bootstrap methods
// (BootstrapMethodInvoker$PullAdapter, $PushAdapter), which BootstrapMethodInvoker
// binds to the bootstrap method it links, and ConstantBootstraps.explicitCast's
// invocation of an identity handle, which calls nothing.
//
// And the invocation in MethodHandleImpl$BindCaller.checkInjectedInvoker, which runs
// the injected invoker (a hidden class the JDK spins from a template whose invoke_V
// invokes its handle argument) on a handle it builds: its targets are that handle's.
type bootstrapResolver struct{}

func (bootstrapResolver) appliesAt(l callgraph.Level) bool { return l.ModelsJDK() }

const (
	bootstrapInvoker = "java/lang/invoke/BootstrapMethodInvoker"
	varargsCollector = "java/lang/invoke/MethodHandleImpl$AsVarargsCollector"
	bindCaller       = "java/lang/invoke/MethodHandleImpl$BindCaller"
)

func (bootstrapResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	m := d.at.caller
	if m == nil || d.api == nil || d.feature != callgraph.FeatMethodHandle || d.api.Class.Name != handleClass ||
		m.Class.Origin != hierarchy.JDK {
		return siteResult{}
	}
	if m.Name == "invokeWithArguments" && (m.Class.Name == handleClass || m.Class.Name == varargsCollector) {
		return siteResult{status: callgraph.Resolved,
			evidence: "invokes this handle: its targets are the edges of the invokeWithArguments call that called it (JDK model)"}
	}
	if m.Class.Name == bindCaller && m.Name == "checkInjectedInvoker" {
		// invoker.invoke(vamh, args): the invoker is invoke_V of the hidden class
		// BindCaller defines from its INJECTED_INVOKER_TEMPLATE, whose code is
		// vamh.invokeExact(args). It calls what the handle vamh refers to.
		res := handleResolver{1}.resolveSite(s, d)
		if res.status != callgraph.Unresolved {
			res.evidence = "the injected invoker's invoke_V invokes the handle it is given (JDK model: BindCaller's INJECTED_INVOKER_TEMPLATE); " + res.evidence
		}
		return res
	}
	if m.Class.Name == "java/lang/invoke/ConstantBootstraps" && m.Name == "explicitCast" {
		return siteResult{status: callgraph.Resolved,
			evidence: "the handle is MethodHandles.identity with its arguments cast: it converts the value and calls nothing (JDK model)"}
	}
	switch m.Class.Name {
	case bootstrapInvoker + "$PullAdapter", bootstrapInvoker + "$PushAdapter":
		// Their one handle parameter is the bootstrap method that pushMePullYou
		// (called by BootstrapMethodInvoker.invoke only) binds them to.
		bs := s.a.bootstrapMethods()
		return siteResult{status: callgraph.Resolved, methods: bs.methods, inits: bs.classes,
			evidence: "BootstrapMethodInvoker.invoke binds this adapter to the bootstrap method it links (pushMePullYou): one of the methods the class path's BootstrapMethods attributes name (JDK model)"}
	case bootstrapInvoker:
	default:
		return siteResult{}
	}
	switch m.Name {
	case "invoke", "invokeWithManyArguments":
		bs := s.a.bootstrapMethods()
		return siteResult{status: callgraph.Resolved, methods: bs.methods, inits: bs.classes,
			evidence: "the JVM hands BootstrapMethodInvoker the bootstrap method of the invokedynamic instruction or dynamic constant it links: one of the methods the class path's BootstrapMethods attributes name (JDK model)"}
	case "widenAndCast":
		return siteResult{status: callgraph.Resolved,
			evidence: "the handle is MethodHandles.identity adapted to Object: it converts the value and calls nothing (JDK model)"}
	}
	return siteResult{}
}

// bootstrapSet is every method that a BootstrapMethods attribute of the class path
// names, with their classes (invoking a static method initialises its class).
type bootstrapSet struct {
	methods []*hierarchy.Method
	classes []*hierarchy.Class
}

// bootstrapMethods returns the class path's bootstrap methods, found once per
// analyzer from the class files' attributes (decoded with the hierarchy: no method
// body is read).
func (a *Analyzer) bootstrapMethods() bootstrapSet {
	a.bootstrapOnce.Do(func() {
		seen := map[*hierarchy.Method]bool{}
		for _, c := range a.h.Classes() {
			f := a.h.File(c)
			if f == nil || f.Pool == nil {
				continue
			}
			for _, bm := range f.BootstrapMethods {
				_, ref := f.Pool.MethodHandle(bm.Ref)
				owner := a.h.Class(ref.Class)
				if owner == nil {
					continue
				}
				m, err := a.h.ResolveMethod(owner, ref.Name, ref.Desc, ref.Interface)
				if err != nil || m == nil || seen[m] {
					continue
				}
				seen[m] = true
				a.bootstraps.methods = append(a.bootstraps.methods, m)
				if !slices.Contains(a.bootstraps.classes, m.Class) {
					a.bootstraps.classes = append(a.bootstraps.classes, m.Class)
				}
			}
		}
	})
	return a.bootstraps
}
