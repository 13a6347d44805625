package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// unsafeResolver: sun.misc.Unsafe and jdk.internal.misc.Unsafe.
//
// allocateInstance(Class) creates an object without running a constructor; it
// initialises the class first. With a class literal argument the site is resolved at
// every level: the class is initialised and, under RTA, instantiated.
//
// Otherwise no constructor runs, so there are no constructor edges, but the class is
// unknown: any <clinit> may run (the level's loading fallback), and under RTA any
// class may now have instances. The classes made instantiated are those of the
// level's conservative set for reflective instantiation (every constructor at
// Behaved-CLs; public ones and those accessible from the calling class at
// Encap-Respect): an object allocateInstance creates is one reflective instantiation
// could have created, and since that set at a level is a subset of the set at the
// level before, the instantiated classes, and so the graphs, keep the subgraph
// property across levels.
//
// ensureClassInitialized(Class) initialises a class: resolved with a class literal,
// else every <clinit> may run.
type unsafeResolver struct{}

func (unsafeResolver) Name() string { return "unsafe" }

func (unsafeResolver) APIs() []string {
	return []string{
		"sun/misc/Unsafe.allocateInstance", "jdk/internal/misc/Unsafe.allocateInstance",
		"sun/misc/Unsafe.ensureClassInitialized", "jdk/internal/misc/Unsafe.ensureClassInitialized",
	}
}

func (unsafeResolver) Resolve(s *solver, at site, c *facts.Call, rm *hierarchy.Method) {
	if rm.IsStatic() || !strings.HasPrefix(rm.Desc, "(Ljava/lang/Class;)") {
		return
	}
	d := &dynamicSite{at: at, call: c, api: rm, name: "Unsafe." + rm.Name,
		reason: callgraph.Reason{Kind: callgraph.KindReflection, Resolver: "unsafe"}}
	loading := func() int32 {
		s.fallbackBundles(at, callgraph.FeatLoading, false, false, d.reason)
		return -1
	}
	switch rm.Name {
	case "allocateInstance":
		d.feature = callgraph.FeatInstantiation
		d.own = []siteResolver{classArgResolver{arg: 1, instantiates: true}}
		d.reason.Evidence = d.name + ": the class is not a class literal: no constructor runs, but any class that reflective instantiation at " +
			s.fallbackLevel().Title() + " could create may now have instances, and any <clinit> may run"
		d.fallback = func() int32 {
			s.unsafeInstantiate(at)
			return loading()
		}
	case "ensureClassInitialized":
		d.feature, d.inits = callgraph.FeatLoading, true
		d.own = []siteResolver{classArgResolver{arg: 1}}
		d.reason.Evidence = d.name + ": the class is not a class literal: every <clinit> may run"
		d.fallback = loading
	default:
		return
	}
	d.unresolved = d.reason.Evidence
	s.resolveSite(d)
}

// unsafeInstantiate tells the oracle that the classes of the level's reflective
// instantiation fallback are instantiated: once per set and run where objects
// are seen everywhere (RTA), at the site's result for an oracle that follows
// values.
func (s *solver) unsafeInstantiate(at site) {
	if s.oracle.Fixed() {
		return // CHA's answers do not depend on instantiation
	}
	kinds := []setKind{setAllCtors}
	if s.fallbackLevel().RespectsEncapsulation() {
		kinds = []setKind{setPublicCtors, setSafeCtors}
	}
	if s.api.unsafeAlloc == nil {
		s.api.unsafeAlloc = map[fallbackKey]bool{}
	}
	for _, k := range kinds {
		key := fallbackKey{kind: k}
		if k == setSafeCtors {
			key.ctx = at.caller.Class.ID
		}
		if s.fl != nil {
			for _, id := range s.a.fallbackSet(key) {
				c := s.methods[id].Class
				s.oracle.Created(algo.DefOf(at.caller, at.pc, c), c)
			}
			continue
		}
		if s.api.unsafeAlloc[key] {
			continue
		}
		s.api.unsafeAlloc[key] = true
		for _, id := range s.a.fallbackSet(key) {
			s.oracle.Created(algo.Any(s.methods[id].Class), s.methods[id].Class)
		}
	}
}
