package analysis

import (
	"slices"
	"strconv"
	"sync"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/config"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// configResolver resolves the JDK's reflective sites whose class names come from the
// configuration the class path ships rather than from the program. Service files
// and module descriptors are part of the closed world every level analyses (like
// the class files beside them), so it works at every level: at Correct-JDK it is
// "the JDK behaves as its specification and configuration say", below it that the
// program's configuration is the one it ships.
//
// ServiceLoader is the one such API whose every source of names is configuration:
// its specification says it finds providers in module descriptors (`provides S with
// P`) and in META-INF/services files of the class path, and nowhere else. Its
// loading, instantiation and factory-method sites (LazyClassPathLookupIterator,
// ModuleServicesLookupIterator, ProviderImpl in JDK 17 and 25) therefore reach only
// the declared providers: loading one (without initialising it), its public
// no-argument constructor, or its public static no-argument `provider()` method.
// The sites are resolved for every service at once: which service a ServiceLoader
// iterates is not followed through the loader object.
//
// Other configuration-driven sites (security providers, logging handlers) also read
// values the program may set at run time (Security.setProperty,
// LogManager.readConfiguration), so they keep the levels' treatment.
//
// The resolver runs after the value analyses: where they resolve a site (levels 3 to
// 6), their result stands, and every level otherwise gets the same providers, so
// the levels stay nested.
type configResolver struct{}

func (configResolver) appliesAt(callgraph.Level) bool { return true }

// serviceLoaderClass is the JDK class whose reflective sites (its own and its nested
// classes') take their class names from the service configuration.
const serviceLoaderClass = "java/util/ServiceLoader"

func (configResolver) resolveSite(s *solver, d *dynamicSite) siteResult {
	c := d.at.caller.Class
	if c.Origin != hierarchy.JDK || !inClass(c.Name, serviceLoaderClass) {
		return siteResult{}
	}
	sp := s.a.serviceProviders()
	if !sp.known {
		return siteResult{}
	}
	res := siteResult{status: callgraph.Resolved, evidence: sp.evidence}
	switch d.feature {
	case callgraph.FeatLoading:
		if d.inits {
			res.inits = sp.classes
		}
	case callgraph.FeatInstantiation:
		res.methods, res.allocs = sp.ctors, sp.ctorClasses
		res.inits = sp.ctorClasses
	case callgraph.FeatInvocation:
		res.methods = sp.factories
		for _, m := range sp.factories {
			res.inits = append(res.inits, m.Class)
		}
	default:
		return siteResult{}
	}
	return res
}

// inClass reports whether class name is outer or one of its nested classes.
func inClass(name, outer string) bool {
	return name == outer || len(name) > len(outer) && name[len(outer)] == '$' && name[:len(outer)] == outer
}

// serviceProviders are the service providers the class path declares, resolved
// against the hierarchy once per analyzer.
type serviceProviders struct {
	known       bool                // false when the program does not tell its configuration
	classes     []*hierarchy.Class  // every declared provider class the program has
	ctors       []*hierarchy.Method // their public no-argument constructors
	ctorClasses []*hierarchy.Class  // the concrete classes of ctors
	factories   []*hierarchy.Method // their public static provider() methods
	evidence    string
	once        sync.Once
}

// configured is implemented by programs that read the configuration their class
// path ships (index.Index).
type configured interface {
	Config() *config.Config
}

func (a *Analyzer) serviceProviders() *serviceProviders {
	sp := &a.services
	sp.once.Do(func() {
		p, ok := a.prog.(configured)
		if !ok {
			return
		}
		cfg := p.Config()
		if cfg == nil || len(cfg.Unread()) > 0 {
			// Providers declared in archives the configuration did not read would be
			// missed: ServiceLoader's sites keep the levels' treatment.
			return
		}
		sp.known = true
		seen := map[*hierarchy.Class]bool{}
		services := cfg.Services()
		for _, svc := range services {
			for _, pr := range cfg.Providers(svc) {
				if c := a.h.Class(pr.Class); c != nil && !c.Phantom && !seen[c] {
					seen[c] = true
					sp.classes = append(sp.classes, c)
				}
			}
		}
		slices.SortFunc(sp.classes, func(x, y *hierarchy.Class) int { return int(x.ID - y.ID) })
		for _, c := range sp.classes {
			if ctor := c.Method("<init>", "()V"); ctor != nil && ctor.IsPublic() && concrete(c) {
				sp.ctors = append(sp.ctors, ctor)
				sp.ctorClasses = append(sp.ctorClasses, c)
			}
			for _, m := range c.Methods {
				if m.Name == "provider" && m.IsStatic() && m.IsPublic() && len(m.Desc) > 2 && m.Desc[:2] == "()" {
					sp.factories = append(sp.factories, m)
				}
			}
		}
		sp.evidence = "ServiceLoader at Correct-JDK: a provider the class path declares (module provides or META-INF/services): " +
			strconv.Itoa(len(sp.classes)) + " providers of " + strconv.Itoa(len(services)) + " services"
	})
	return sp
}
