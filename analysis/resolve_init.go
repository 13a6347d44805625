package analysis

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// initialize adds the class-initialisation edges of an instruction that triggers the
// initialisation of c (JVMS 5.5: new, getstatic, putstatic, invokestatic, and
// reflection): c's <clinit> and those of the superclasses and of the superinterfaces
// declaring default methods, which the JVM initialises first.
func (s *solver) initialize(at site, c *hierarchy.Class) {
	if c == nil || c.Phantom {
		return
	}
	// Code of a class runs only once it is initialised: triggers of the caller's own
	// class or its superclasses are no-ops.
	if at.caller != nil && s.h.IsSubtype(at.caller.Class, c) && !c.IsInterface() {
		return
	}
	chain := s.a.initChain(c)
	if len(chain) == 0 {
		return
	}
	s.bundle(at, s.initSet(c, chain), s.std.init, false)
}

// initSet returns this run's set for an initialisation chain.
func (s *solver) initSet(c *hierarchy.Class, chain []int32) int32 {
	k := fallbackKey{kind: setInitChain, ctx: c.ID}
	if i, ok := s.fallback[k]; ok {
		return i
	}
	i := s.addSet(chain)
	s.fallback[k] = i
	return i
}

// initChain returns the sorted IDs of the <clinit> methods that initialising c may run.
func (a *Analyzer) initChain(c *hierarchy.Class) []int32 {
	a.mu.Lock()
	chain, ok := a.initChains[c.ID]
	a.mu.Unlock()
	if ok {
		return chain
	}
	seen := map[int32]bool{}
	var walk func(c *hierarchy.Class, top bool)
	walk = func(c *hierarchy.Class, top bool) {
		if c == nil || c.Phantom || seen[c.ID] {
			return
		}
		seen[c.ID] = true
		// JVMS 5.5 step 7: a class's superinterfaces, direct or indirect, are
		// initialised only when they declare non-abstract, non-static methods; an
		// interface's own initialisation does not initialise its superinterfaces.
		if top || !c.IsInterface() || declaresDefault(c) {
			if m := c.Method("<clinit>", "()V"); m != nil {
				chain = append(chain, m.ID)
			}
		}
		if top && c.IsInterface() {
			return
		}
		walk(c.Super, false)
		for _, i := range c.Interfaces {
			walk(i, false)
		}
	}
	walk(c, true)
	slices.Sort(chain)
	a.mu.Lock()
	a.initChains[c.ID] = chain
	a.mu.Unlock()
	return chain
}

func declaresDefault(c *hierarchy.Class) bool {
	for _, m := range c.Methods {
		if !m.IsAbstract() && !m.IsStatic() && m.Name != "<clinit>" {
			return true
		}
	}
	return false
}

// finalizer adds the JVM's call of finalize on objects of a newly allocated class
// that overrides Object.finalize.
func (s *solver) finalizer(at site, c *hierarchy.Class) {
	obj := s.h.Class("java/lang/Object")
	if obj == nil {
		return
	}
	fin := obj.Method("finalize", "()V")
	if fin == nil {
		return
	}
	if t := s.h.Select(c, fin); t != nil && t != fin {
		s.edge(at, t, finalizerReason)
	}
}
