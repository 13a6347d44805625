// Package rta is rapid type analysis (Bacon and Sweeney, OOPSLA'96): a value may have
// every concrete subtype of its declared type that reachable code instantiates. The
// instantiated set grows as the solver discovers allocations, so questions stay
// subscribed: a class instantiated later is answered to every question it fits.
package rta

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// New returns an RTA oracle over h for one run.
func New(h *hierarchy.Hierarchy) algo.Oracle {
	n := len(h.Classes())
	return &oracle{h: h, inst: make([]bool, n), subs: map[int32][]func(*hierarchy.Class){}, asked: make([]bool, n)}
}

type oracle struct {
	h     *hierarchy.Hierarchy
	inst  []bool                             // by class ID
	subs  map[int32][]func(*hierarchy.Class) // declared type ID -> subscribers
	asked []bool                             // by class ID: some subscriber waits on it
}

func (o *oracle) Types(v algo.Value, fn func(*hierarchy.Class)) {
	t := v.Type
	o.subs[t.ID] = append(o.subs[t.ID], fn)
	o.asked[t.ID] = true
	o.h.AllSubtypes(t, func(c *hierarchy.Class) bool {
		if o.inst[c.ID] {
			fn(c)
		}
		return true
	})
}

// Created records c as instantiated, wherever it appears.
func (o *oracle) Created(_ algo.Value, c *hierarchy.Class) {
	if !algo.Concrete(c) || o.inst[c.ID] {
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

// Scope is the declared type: the answer depends on nothing else.
func (*oracle) Scope(v algo.Value) algo.Value { return algo.Any(v.Type) }

func (*oracle) Fixed() bool { return false }
