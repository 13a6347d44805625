package analysis

import (
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// TypeOracle is the one question on which call-graph algorithms differ: which runtime
// classes may a value of a declared type have? Resolvers ask it and never look at the
// algorithm, so a finer algorithm (XTA, a type-flow analysis) is a new TypeOracle and
// nothing else. The method in which the value lives is passed for such algorithms.
type TypeOracle interface {
	// Types calls fn for every class whose instances may be values of declared type t
	// in method in: those known now, and later ones as reachable code creates them. fn
	// is called at most once per class for a given (in, t).
	Types(in *hierarchy.Method, t *hierarchy.Class, fn func(*hierarchy.Class))
	// Instantiated tells the oracle that reachable code in method in (nil for the JVM)
	// may create instances of c.
	Instantiated(in *hierarchy.Method, c *hierarchy.Class)
}

// Algorithm names accepted by Options.Algorithm.
const (
	CHA = "cha"
	RTA = "rta"
)

// concrete reports whether instances of c can exist.
func concrete(c *hierarchy.Class) bool {
	return !c.Phantom && !c.IsInterface() && !c.IsAbstract()
}

// chaOracle answers with every concrete subtype (Dean, Grove and Chambers, ECOOP'95).
type chaOracle struct{ h *hierarchy.Hierarchy }

func (o chaOracle) Types(_ *hierarchy.Method, t *hierarchy.Class, fn func(*hierarchy.Class)) {
	o.h.AllSubtypes(t, func(c *hierarchy.Class) bool {
		if concrete(c) {
			fn(c)
		}
		return true
	})
}

func (chaOracle) Instantiated(*hierarchy.Method, *hierarchy.Class) {}

// rtaOracle answers with the concrete subtypes that reachable code instantiates (Bacon
// and Sweeney, OOPSLA'96): the answer grows as the solver discovers allocations, so
// questions stay subscribed.
type rtaOracle struct {
	h     *hierarchy.Hierarchy
	inst  []bool                             // by class ID
	subs  map[int32][]func(*hierarchy.Class) // declared type ID -> subscribers
	asked []bool                             // by class ID: some subscriber waits on it
}

func newRTA(h *hierarchy.Hierarchy) *rtaOracle {
	n := len(h.Classes())
	return &rtaOracle{h: h, inst: make([]bool, n), subs: map[int32][]func(*hierarchy.Class){}, asked: make([]bool, n)}
}

func (o *rtaOracle) Types(_ *hierarchy.Method, t *hierarchy.Class, fn func(*hierarchy.Class)) {
	o.subs[t.ID] = append(o.subs[t.ID], fn)
	o.asked[t.ID] = true
	o.h.AllSubtypes(t, func(c *hierarchy.Class) bool {
		if o.inst[c.ID] {
			fn(c)
		}
		return true
	})
}

func (o *rtaOracle) Instantiated(_ *hierarchy.Method, c *hierarchy.Class) {
	if !concrete(c) || o.inst[c.ID] {
		return
	}
	o.inst[c.ID] = true
	o.h.Supertypes(c, func(s *hierarchy.Class) bool {
		if o.asked[s.ID] {
			// Subscribers may subscribe more while we call them: index, don't range.
			for i := 0; i < len(o.subs[s.ID]); i++ {
				o.subs[s.ID][i](c)
			}
		}
		return true
	})
}
