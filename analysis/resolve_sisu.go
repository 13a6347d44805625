package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// sisuCloneResolver: the clones Sisu spins at run time. CloningClassSpace.cloneClass(X)
// names a class X$__sisuN; loading it runs CloningClassSpace$CloningClassLoader.findClass,
// which writes with Sisu's repackaged ASM a class of that name that extends X (the name
// without its marker, CloningClassSpace.originalName) and whose one member is a public
// no-argument constructor calling X's <init>()V, and defines it with
// ClassLoader.defineClass. The clone is not in AppClasses: its methods are X's,
// inherited, and creating one runs X's no-argument constructor, whatever access the
// reflective instantiation of the clone (its public constructor) is allowed. So, as for
// CGLIB's subclasses (resolve_spun.go), the clone's calls are edges from the site that
// spins it, the defineClass call of findClass, and its objects are objects of X.
//
// X is named at run time by whatever reaches the class space's loadClass, cloneClass's
// argument or any other name with the marker, which no analysis here follows to
// findClass: the site is unresolved, at every level (a spun class is outside the
// closed world whatever the level), and its targets are the no-argument constructors
// the JVM lets the clone call (setCloneCtors): the clone's defining loader is
// CloningClassLoader, so the clone is in another run-time package than X, and X must
// be a public class, not final nor an interface, outside the java packages (which
// defineClass refuses), with a public or protected no-argument constructor; package
// and private ones fail with IllegalAccessError. Abstract classes are among them: the
// clone of one is not abstract, and can be instantiated (calls of X's abstract methods
// on it fail). Each such X is instantiated.
//
// The site is matched by the names of Sisu's class and method, not its package, so
// repackagings of Sisu (Maven's) are matched too.
type sisuCloneResolver struct{}

const (
	sisuCloningLoader = "CloningClassSpace$CloningClassLoader"
	sisuCloneSite     = "findClass"
)

func (sisuCloneResolver) Name() string { return "sisu-clone" }

func (sisuCloneResolver) APIs() []string { return []string{"java/lang/ClassLoader.defineClass"} }

func (sisuCloneResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	if at.caller == nil || at.caller.Name != sisuCloneSite || !isSisuCloningLoader(at.caller.Class.Name) {
		return
	}
	d := &dynamicSite{at: at, call: c, api: rm, feature: callgraph.FeatProxy, name: "ClassLoader.defineClass",
		reason: callgraph.Reason{Kind: callgraph.KindProxy, Resolver: "sisu-clone"}, levelFree: true}
	where := typeName("L"+at.caller.Class.Name+";") + "." + at.caller.Name
	if lf := s.localFlow(at.caller); lf != nil {
		where = lf.place(at.line)
	}
	d.reason.Evidence = "Sisu's CloningClassSpace: the clone X$__sisuN spun at " + where + " extends X, " +
		"a class named at run time (CloningClassSpace.cloneClass), and its constructor runs X's no-argument constructor; so: " +
		"the public or protected no-argument constructor of every class a clone may extend (public, not final, not an interface, not in java.*)"
	d.unresolved = d.reason.Evidence
	d.fallback = func() int32 {
		set := s.fallbackIndex(fallbackKey{kind: setCloneCtors})
		s.bundle(at, set, s.reason(d.reason), true)
		return set
	}
	s.resolveSite(d)
}

// isSisuCloningLoader reports whether an internal class name is Sisu's
// CloningClassLoader, in Sisu's package or a repackaging of it.
func isSisuCloningLoader(name string) bool {
	return name == sisuCloningLoader || strings.HasSuffix(name, "/"+sisuCloningLoader)
}

// cloneable reports whether a class in another run-time package may extend c and call
// its no-argument constructor m: what a Sisu clone of c needs.
func cloneable(c *hierarchy.Class, m *hierarchy.Method) bool {
	return !c.Phantom && c.IsPublic() && !c.IsInterface() && !c.IsFinal() && !strings.HasPrefix(c.Name, "java/") &&
		(m.IsPublic() || m.IsProtected())
}
