package analysis

import (
	"maps"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// A Trace is what a run leaves beside its graph so that Update can later prove an
// in-place update equal to a new run. The graph alone does not say which of its
// edges exist only because some other method was reached: a call on an interface
// reaches a lambda's body only if the method creating the lambda is reachable too.
// Those edges all go to conditional sets (the targets of dispatches through lambdas,
// the method-handle targets), whose members the trace justifies one by one.
//
// A Trace is immutable once its run has returned.
type Trace struct {
	// cond maps each conditional set of the graph to its members and, for each,
	// the method whose reachability justified it (a lambda's creator, a lookup's
	// caller).
	cond map[int32]map[int32]int32
	// parent and condOf give every reachable node a derivation: the method whose
	// visit reached it first (-1 for entry points) and, when that was as a member of a
	// conditional set, the method justifying the membership (else -1). Both were
	// reached before the node.
	parent, condOf []int32
	// handleSet is the set of method-handle targets, or -1.
	handleSet int32
	// ifaceLambda is, for every dispatch on an interface, the graph's set of its
	// targets through lambdas, or -1 when it has none.
	ifaceLambda map[dispatchKey]int32
	reads       *valueReads
	// specResolved says whether the run resolved the specification (and so set the
	// graph's Problems).
	specResolved bool
	// appNative says whether, at level 6, a native outside the JDK model was
	// reachable, so the NativeMethod node has level 2's public fallback.
	appNative bool
}

// valueReads records what the value analyses of a run read (values.Observer).
type valueReads struct {
	facts   callgraph.Bitset
	callers map[callKey]bool // methods whose callers were looked up, by name and descriptor
}

// callKey is a method's name and descriptor: looking up the callers of a method
// depends on every call instruction naming them.
type callKey struct{ name, desc string }

func newValueReads(n int) *valueReads {
	return &valueReads{facts: callgraph.NewBitset(n), callers: map[callKey]bool{}}
}

func (r *valueReads) ReadFacts(m *hierarchy.Method)   { r.facts.Add(m.ID) }
func (r *valueReads) ReadCallers(m *hierarchy.Method) { r.callers[callKey{m.Name, m.Desc}] = true }

// union returns the reads of r and o together, sharing r when o adds nothing.
func (r *valueReads) union(o *valueReads) *valueReads {
	adds := false
	o.facts.ForEach(func(id int32) { adds = adds || !r.facts.Has(id) })
	for k := range o.callers {
		adds = adds || !r.callers[k]
	}
	if !adds {
		return r
	}
	u := &valueReads{facts: append(callgraph.Bitset(nil), r.facts...), callers: maps.Clone(r.callers)}
	o.facts.ForEach(func(id int32) { u.facts.Add(id) })
	maps.Copy(u.callers, o.callers)
	return u
}

// growCond adds a member to a conditional set, justified by the method from.
func (s *solver) growCond(set, id, from int32) {
	m := s.cond[set]
	if m == nil {
		m = map[int32]int32{}
		s.cond[set] = m
	}
	if _, ok := m[id]; !ok {
		m[id] = from
	}
	s.condFrom = from
	s.grow(set, id)
	s.condFrom = -1
}

// trace returns what Update needs of the finished run.
func (s *solver) trace() *Trace {
	t := &Trace{cond: s.cond, parent: s.parent, condOf: s.condOf, handleSet: -1, ifaceLambda: map[dispatchKey]int32{}, reads: s.reads,
		specResolved: s.api.spec != nil, appNative: s.appNative}
	if s.api.handles != nil {
		t.handleSet = s.api.handles.set
	}
	for _, g := range s.plain {
		if g.declared.IsInterface() {
			t.ifaceLambda[g.key] = g.lambdaSet
		}
	}
	for _, g := range s.groups {
		if g.declared.IsInterface() {
			t.ifaceLambda[g.key] = g.lambdaSet
		}
	}
	return t
}

// inheritLambdaSet gives a dispatch group of a probe the lambda targets the group had
// in the run being updated, whose lambdas the update leaves as they were.
func (s *solver) inheritLambdaSet(g *group) {
	old, ok := s.inherit.Trace.ifaceLambda[g.key]
	switch {
	case !ok:
		s.unsupported = "a new dispatch on " + g.declared.Name + "." + g.rm.Name
	case old >= 0:
		g.lambdaSet = s.addSet(append([]int32(nil), s.inherit.Graph.Sets[old]...))
		s.live[g.lambdaSet] = true
		s.cond[g.lambdaSet] = map[int32]int32{}
		s.inherited[g.lambdaSet] = old
	}
}
