package analysis

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// annotationResolver resolves, at Correct-JDK, the Method.invoke sites of the JDK's
// annotation implementation. AnnotationInvocationHandler.equalsImpl and
// AnnotationSupport.getValueArray invoke Method objects they take from an annotation
// type's members (AnnotationInvocationHandler.getMemberMethods and
// AnnotationType.members: the declared methods of an annotation interface), on an
// object of that annotation type. So each call dispatches a member method of some
// annotation interface: its implementations among the receivers the algorithm
// allows (classes implementing an annotation interface; the JDK's annotation
// proxies answer through their handler, which the proxy's creation site reaches).
// Below Correct-JDK, or with the JDK's code not taken at its word, the Method is not
// known there and the sites fall back to every public method.
type annotationResolver struct{}

func (annotationResolver) appliesAt(l callgraph.Level) bool { return l.ModelsJDK() }

// annotationInvokers are the JDK classes whose Method.invoke sites call annotation
// members only.
var annotationInvokers = map[string]bool{
	"sun/reflect/annotation/AnnotationInvocationHandler": true,
	"sun/reflect/annotation/AnnotationSupport":           true,
}

func (annotationResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	m := d.at.caller
	if m == nil || d.feature != callgraph.FeatInvocation || m.Class.Origin != hierarchy.JDK || !annotationInvokers[m.Class.Name] {
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
