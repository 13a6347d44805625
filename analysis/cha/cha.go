// Package cha is class hierarchy analysis (Dean, Grove and Chambers, ECOOP'95): a
// value may have every concrete subtype of its declared type. It needs no knowledge
// of the program beyond the hierarchy, so its answers never grow and are the same in
// every run; it is sound whatever reachable code creates, and the least precise.
package cha

import (
	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// New returns the CHA oracle of h.
func New(h *hierarchy.Hierarchy) algo.Oracle { return oracle{h} }

type oracle struct{ h *hierarchy.Hierarchy }

func (o oracle) Types(v algo.Value, fn func(*hierarchy.Class)) {
	o.h.AllSubtypes(v.Type, func(c *hierarchy.Class) bool {
		if algo.Concrete(c) {
			fn(c)
		}
		return true
	})
}

// SelectTypes is Types with each class's selection of rm, computed incrementally
// down the hierarchy (hierarchy.SelectSubtypes).
func (o oracle) SelectTypes(v algo.Value, rm *hierarchy.Method, fn func(*hierarchy.Class, *hierarchy.Method)) {
	o.h.SelectSubtypes(v.Type, rm, func(c *hierarchy.Class, m *hierarchy.Method) bool {
		if algo.Concrete(c) {
			fn(c, m)
		}
		return true
	})
}

func (oracle) Created(algo.Value, *hierarchy.Class) {}

// Scope is the declared type: the answer depends on nothing else.
func (oracle) Scope(v algo.Value) algo.Value { return algo.Any(v.Type) }

func (oracle) Fixed() bool { return true }
