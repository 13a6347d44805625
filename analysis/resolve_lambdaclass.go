package analysis

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// lambdaClassResolver resolves, at Correct-JDK, the reflective sites with which the
// JDK's lambda metafactory instantiates the class it spins for a lambda.
// InnerClassLambdaMetafactory.buildCallSite defines a hidden class implementing the
// functional interface, then makes the call site's target from it: the one
// instance of a non-capturing lambda (Constructor.newInstance of the class's only
// constructor, or a getter of its LAMBDA_INSTANCE$ field), or a handle to its
// constructor (Lookup.findConstructor). Below Correct-JDK these sites name a class
// the graph cannot know and fall back to every constructor (or, for the lookups,
// every accessible member) of the level.
//
// What the spun class does is the JDK's model of lambdas, which the graph has
// already: its constructor stores the captured values and calls Object.<init>, and
// its interface method calls the implementation method, which the lambda's
// invokedynamic and the dispatch through lambda objects (resolve_indy.go) give
// their edges. So the instantiation calls Object.<init> and creates no class of the
// graph, and the lookups refer to members of no class of the graph (the handles
// call what the spun class calls).
type lambdaClassResolver struct{}

func (lambdaClassResolver) appliesAt(l callgraph.Level) bool { return l.ModelsJDK() }

// lambdaFactory is the JDK class that spins lambda classes, and its method that
// instantiates them.
const (
	lambdaFactory      = "java/lang/invoke/InnerClassLambdaMetafactory"
	lambdaFactorySites = "buildCallSite"
)

const lambdaClassEvidence = "the lambda class InnerClassLambdaMetafactory spins (hidden: not in the graph): its constructor stores the captured values and calls Object.<init>; the lambda's calls are the edges of its invokedynamic and of dispatch on lambda objects (JDK model)"

func (lambdaClassResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	m := d.at.caller
	if m == nil || d.api == nil || m.Class.Origin != hierarchy.JDK || m.Class.Name != lambdaFactory || m.Name != lambdaFactorySites {
		return siteResult{}
	}
	res := siteResult{status: callgraph.Resolved, evidence: lambdaClassEvidence}
	switch {
	case d.feature == callgraph.FeatInstantiation && d.api.Class.Name == "java/lang/reflect/Constructor" && d.api.Name == "newInstance":
		if obj := s.h.Object(); obj != nil {
			if init := obj.Method("<init>", "()V"); init != nil {
				res.methods = []*hierarchy.Method{init}
			}
		}
		return res
	case d.feature == callgraph.FeatMethodHandle && d.api.Class.Name == lookupClass &&
		(d.api.Name == "findConstructor" || d.api.Name == "findStaticGetter" || d.api.Name == "findStatic"):
		return res
	}
	return siteResult{}
}
