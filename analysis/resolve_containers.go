package analysis

import (
	"fmt"
	"strings"
	"sync"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/config"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Containers' index files. Some dependency-injection containers find the classes
// they instantiate in class-path files, as ServiceLoader finds providers in
// META-INF/services. Where the level models containers (Correct-JDK: a container
// does what its code and its index files say), the reflective site through which a
// container creates those classes reads the files: it is resolved to their classes
// where the container's code leaves no other source of names, and its edges name
// the index line that lists their class either way.
//
//   - Spring (4 and 5): SpringFactoriesLoader.loadFactories creates, with its
//     private instantiateFactory, the classes loadFactoryNames reads from every
//     META-INF/spring.factories under the factory type asked for: ClassUtils.forName,
//     an isAssignableFrom check, getDeclaredConstructor(), makeAccessible and
//     Constructor.newInstance. No other name reaches instantiateFactory, so
//     containerResolver resolves its site to the no-argument constructor of every
//     class a spring.factories lists under a type the class implements. Spring 6's
//     loader reads resource locations its callers name and creates through
//     FactoryInstantiator: no site of it matches, and it keeps its fallback.
//   - Sisu: QualifiedTypeBinder.newInstance (private) creates the Guice modules and
//     Sisu mediators among the classes its visitor hears of: those
//     META-INF/sisu/javax.inject.Named lists (BeanScanning.INDEX, GLOBAL_INDEX) or,
//     with component scanning (ON, CACHE, a ClassFinder of the program's), any class
//     of the class space. Which one is a run-time choice (Sisu's own launchers read
//     it from properties, and they are reachable wherever the fallbacks of
//     reflection are), so the index is not the complete source of the names and
//     does not narrow the site: the cast analysis resolves it from Correct-Cast on
//     to the modules and mediators of the class path (the casts of installModule
//     and registerMediator). At Correct-JDK annotateContainer gives the edges to the
//     classes an index lists that index line as their evidence, and the site's
//     evidence says that only component scanning finds the others.
//   - Spring's bean instantiation (BeanUtils.instantiateClass) creates what bean
//     definitions name, from XML, annotated configuration and component scanning:
//     there is no index, so it keeps its fallback, and its evidence says why.
type containerResolver struct{}

func (containerResolver) appliesAt(l callgraph.Level) bool { return l.ModelsContainers() }

// The containers' classes whose sites the resolver knows.
const (
	springFactoriesLoader = "org/springframework/core/io/support/SpringFactoriesLoader"
	springBeanUtils       = "org/springframework/beans/BeanUtils"
	sisuBinder            = "org/eclipse/sisu/space/QualifiedTypeBinder"
)

// containerSite tells which container's instantiation site d is, if any.
func containerSite(d *dynamicSite) string {
	m := d.at.caller
	if m == nil || d.feature != callgraph.FeatInstantiation || m.Class.Origin == hierarchy.JDK {
		return ""
	}
	switch {
	case m.Class.Name == springFactoriesLoader && m.Name == "instantiateFactory" && m.IsPrivate() && m.IsStatic():
		return springFactoriesLoader
	case m.Class.Name == sisuBinder && m.Name == "newInstance" && m.IsPrivate():
		return sisuBinder
	case m.Class.Name == springBeanUtils && m.Name == "instantiateClass":
		return springBeanUtils
	}
	return ""
}

func (containerResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	switch containerSite(d) {
	case springFactoriesLoader:
		return s.resolveSpringFactories(d)
	case springBeanUtils:
		return siteResult{evidence: "no index: Spring creates the beans its bean definitions name, which XML, annotated configuration and component scanning of the class path supply; no index file is the complete source of these names"}
	}
	return siteResult{}
}

// containerIndexes are the classes the index files of one analyzer's program name,
// found once.
type containerIndexes struct {
	once    sync.Once
	unknown string // why the files are not known; "" when they are
	spring  []springFactory
	sisu    map[string]config.Indexed // by class, the first line that lists it
	files   map[config.IndexKind]int  // how many files of each kind list classes
}

// springFactory is a class that instantiateFactory may create.
type springFactory struct {
	ctor     *hierarchy.Method // its no-argument constructor
	evidence string            // the spring.factories line that lists it
}

func (a *Analyzer) containers() *containerIndexes {
	ci := &a.containerIx
	ci.once.Do(func() {
		p, ok := a.prog.(configured)
		var cfg *config.Config
		if ok {
			cfg = p.Config()
		}
		switch {
		case cfg == nil:
			ci.unknown = "the class path's index files are not known"
			return
		case len(cfg.Unread()) > 0:
			// Files in archives the configuration did not read would be missed.
			ci.unknown = fmt.Sprintf("the index files of %d archives nested in jars were not read (%s)", len(cfg.Unread()), cfg.Unread()[0])
			return
		}
		ci.files = map[config.IndexKind]int{}
		for _, kind := range []config.IndexKind{config.SisuIndex, config.SpringFactories} {
			seen := map[string]bool{}
			for _, x := range cfg.Indexed(kind) {
				if f := x.Source.Path + "!" + x.Source.Entry; !seen[f] {
					seen[f] = true
					ci.files[kind]++
				}
			}
		}
		ci.spring = a.springFactories(cfg)
		ci.sisu = map[string]config.Indexed{}
		for _, x := range cfg.Indexed(config.SisuIndex) {
			if _, ok := ci.sisu[x.Class]; !ok {
				ci.sisu[x.Class] = x
			}
		}
	})
	return ci
}

// springFactories finds the classes instantiateFactory may create: those a
// spring.factories lists under a factory type they implement (else it throws
// before it looks for a constructor) and that have a no-argument constructor
// (getDeclaredConstructor()), in class-path order.
func (a *Analyzer) springFactories(cfg *config.Config) []springFactory {
	var out []springFactory
	seen := map[*hierarchy.Method]bool{}
	for _, x := range cfg.Indexed(config.SpringFactories) {
		c, key := a.h.Class(x.Class), a.h.Class(x.Key)
		if c == nil || c.Phantom || key == nil || key.Phantom || !concrete(c) || !a.h.IsSubtype(c, key) {
			continue
		}
		if ctor := c.Method("<init>", "()V"); ctor != nil && !seen[ctor] {
			seen[ctor] = true
			out = append(out, springFactory{ctor: ctor, evidence: indexEvidence(x)})
		}
	}
	return out
}

// resolveSpringFactories resolves instantiateFactory's Constructor.newInstance to
// the classes spring.factories lists: those the level's sets allow (every one when
// an access override may have reached the Constructor, as Spring's makeAccessible
// does; else Encap-Respect's), created and initialised.
func (s *solver) resolveSpringFactories(d *dynamicSite) siteResult {
	ci := s.a.containers()
	if ci.unknown != "" {
		return siteResult{evidence: ci.unknown}
	}
	res := siteResult{status: callgraph.Resolved, because: map[int32]string{}}
	from := d.at.caller.Class
	for _, f := range ci.spring {
		if !f.ctor.IsPublic() && !d.open.opens(f.ctor) && !s.h.EncapsulationSafeConstructor(from, f.ctor) {
			continue
		}
		res.methods = append(res.methods, f.ctor)
		res.allocs = append(res.allocs, f.ctor.Class)
		res.inits = append(res.inits, f.ctor.Class)
		res.because[f.ctor.ID] = f.evidence
	}
	res.evidence = fmt.Sprintf("SpringFactoriesLoader at Correct-JDK: the classes %s files list under a factory type they implement, created with their no-argument constructor: %s from %s (each edge names its line)",
		config.SpringFactoriesFile, howMany(len(res.methods), "class", "classes"), howMany(ci.files[config.SpringFactories], "file", "files"))
	if d.open != nil {
		res.evidence += "; " + voidedMembers(d.open, "constructor")
	}
	return res
}

// annotateContainer gives the edges of a resolved Sisu site to the classes an index
// lists that index line as their evidence, and says in the site's evidence that
// only component scanning finds the others.
func (s *solver) annotateContainer(d *dynamicSite, res *siteResult) {
	if !s.opts.Level.ModelsContainers() || containerSite(d) != sisuBinder {
		return
	}
	ci := s.a.containers()
	if ci.unknown != "" {
		res.evidence += "; " + ci.unknown
		return
	}
	listed := 0
	for _, m := range res.methods {
		x, ok := ci.sisu[m.Class.Name]
		if !ok || m.Name != "<init>" {
			continue
		}
		if res.because == nil {
			res.because = map[int32]string{}
		}
		res.because[m.ID] = indexEvidence(x)
		listed++
	}
	res.evidence += fmt.Sprintf("; %s (%s) list %d of these constructors' classes (each such edge names its line); no index lists the others: "+
		"only component scanning of the class space, which Sisu may choose at run time (BeanScanning), would create them, so the index does not narrow the site",
		howMany(ci.files[config.SisuIndex], "index file", "index files"), config.SisuIndexFile, listed)
}

// indexEvidence names the index line that lists a class, the file first (call
// hierarchies show the start of an edge's evidence).
func indexEvidence(x config.Indexed) string {
	s := fmt.Sprintf("%s:%d names %s", x.Source.Entry, x.Source.Line, dotted(x.Class))
	if x.Key != "" {
		s += " under " + dotted(x.Key)
	}
	return s + " (in " + x.Source.Path + ")"
}

func dotted(internal string) string { return strings.ReplaceAll(internal, "/", ".") }

// howMany renders n things: "1 class", "2 classes".
func howMany(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
