package analysis

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// jdkInvokeResolver resolves, at Correct-JDK, Method.invoke sites of the JDK whose
// Method objects its own code determines.
//
// The annotation implementation: AnnotationInvocationHandler.equalsImpl and
// AnnotationSupport.getValueArray invoke Method objects they take from an annotation
// type's members (AnnotationInvocationHandler.getMemberMethods and
// AnnotationType.members: the declared methods of an annotation interface), on an
// object of that annotation type. So each call dispatches a member method of some
// annotation interface: its implementations among the receivers the algorithm
// allows (classes implementing an annotation interface; the JDK's annotation
// proxies answer through their handler, which the proxy's creation site reaches).
//
// SerializedLambda.readResolve: it invokes the method a PrivilegedExceptionAction
// (SerializedLambda$1) gets with getDeclaredMethod("$deserializeLambda$",
// SerializedLambda.class) from the capturing class: a static method javac generates in
// every class that captures a serializable lambda. Its targets are those methods of
// the class path. They are private, and SerializedLambda$1 makes the Method
// accessible: below Correct-JDK the site keeps its fallback (every public method),
// which misses them, so there it is partially resolved to them (a level-2 recall
// hole for programs that deserialize lambdas, found by the subgraph invariant).
//
// Below Correct-JDK the annotation sites fall back to every public method, which
// holds their targets (annotation members are public).
type jdkInvokeResolver struct{}

func (jdkInvokeResolver) appliesAt(callgraph.Level) bool { return true }

// deserializesLambda reports whether m is SerializedLambda.readResolve, whose
// Method.invoke the JDK model resolves at every level. The value analyses can
// follow its Method out of the action (getDeclaredMethod("$deserializeLambda$")
// on the capturing class) but not the action's setAccessible, by which it reaches
// a private method: they leave the site to the model.
func deserializesLambda(m *hierarchy.Method) bool {
	return m.Class.Name == "java/lang/invoke/SerializedLambda" && m.Name == "readResolve"
}

// annotationInvokers are the JDK classes whose Method.invoke sites call annotation
// members only.
var annotationInvokers = map[string]bool{
	"sun/reflect/annotation/AnnotationInvocationHandler": true,
	"sun/reflect/annotation/AnnotationSupport":           true,
}

func (jdkInvokeResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	m := d.at.caller
	if m == nil || d.feature != callgraph.FeatInvocation || m.Class.Origin != hierarchy.JDK {
		return siteResult{}
	}
	if deserializesLambda(m) {
		st := callgraph.Resolved
		if !s.opts.Level.ModelsJDK() {
			st = callgraph.Partial
		}
		res := siteResult{status: st,
			evidence: "Method.invoke of the capturing class's $deserializeLambda$ (SerializedLambda$1 looks it up by name): one of those javac generates (JDK model)"}
		for _, dm := range s.a.deserializeLambdas() {
			res.methods = append(res.methods, dm)
			res.inits = append(res.inits, dm.Class)
		}
		return res
	}
	if !annotationInvokers[m.Class.Name] || !s.opts.Level.ModelsJDK() {
		return siteResult{}
	}
	res := siteResult{status: callgraph.Resolved,
		evidence: "Method.invoke of an annotation type's member method (the declared methods of an annotation interface, from AnnotationType.members or getMemberMethods) on an annotation: its implementations (JDK model)"}
	for _, am := range s.a.annotationMembers() {
		res.virtual = append(res.virtual, virtualCall{declared: am.Class, method: am})
	}
	return res
}

// annotationMembers returns the member methods of every annotation interface of the
// class path, found once per analyzer.
func (a *Analyzer) annotationMembers() []*hierarchy.Method {
	a.annotationOnce.Do(func() {
		for _, c := range a.h.Classes() {
			if c.Phantom || c.Access&classfile.AccAnnotation == 0 {
				continue
			}
			for _, m := range c.Methods {
				if m.IsAbstract() && !m.IsStatic() {
					a.annotations = append(a.annotations, m)
				}
			}
		}
	})
	return a.annotations
}

// deserializeLambdas returns the class path's $deserializeLambda$ methods, found once
// per analyzer.
func (a *Analyzer) deserializeLambdas() []*hierarchy.Method {
	a.deserializeOnce.Do(func() {
		for _, c := range a.h.Classes() {
			if m := c.Method("$deserializeLambda$", "(Ljava/lang/invoke/SerializedLambda;)Ljava/lang/Object;"); m != nil && m.IsStatic() {
				a.deserializers = append(a.deserializers, m)
			}
		}
	})
	return a.deserializers
}
