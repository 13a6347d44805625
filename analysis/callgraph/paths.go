package callgraph

import (
	"slices"
	"sort"
)

// PathTree returns, for every node, the index of the bundle through which a
// breadth-first search from the entry points first reached it (-1 for entry
// points and the other roots (Roots), -2 for unreached nodes). Walking it back from a node (Bundles[i].Caller)
// gives a shortest path from an entry point: what answers "why is this reachable".
func (g *Graph) PathTree() []int32 {
	parent, _ := g.pathTree(nil)
	return parent
}

// Depths returns, for every node, the number of edges on a shortest path to it from
// a root (Roots), or -1 for unreached nodes.
func (g *Graph) Depths() []int32 {
	parent, order := g.pathTree(nil)
	depth := make([]int32, g.NumNodes)
	for i := range depth {
		depth[i] = -1
	}
	for _, n := range order { // every node comes after its parent's caller
		if p := parent[n]; p >= 0 {
			depth[n] = depth[g.Bundles[p].Caller] + 1
		} else {
			depth[n] = 0
		}
	}
	return depth
}

// pathTree is PathTree along the bundles skip does not reject (nil: every
// bundle), also returning the reached nodes in the order the search reached them
// (every node after its parent).
func (g *Graph) pathTree(skip func(bundle int32) bool) (parent []int32, order []NodeID) {
	var s search
	s.run(g, skip)
	return s.parent, s.queue
}

// search holds a breadth-first search's buffers, which a Reacher reuses.
type search struct {
	parent   []int32
	queue    []NodeID
	expanded []bool
}

// run searches g from its roots along the bundles skip does not reject.
func (s *search) run(g *Graph, skip func(bundle int32) bool) {
	s.parent = slices.Grow(s.parent[:0], g.NumNodes)[:g.NumNodes]
	for i := range s.parent {
		s.parent[i] = -2
	}
	s.queue = s.queue[:0]
	for _, e := range g.Roots() {
		if s.parent[e] == -2 {
			s.parent[e] = -1
			s.queue = append(s.queue, e)
		}
	}
	// A set shared by many bundles adds nothing after its first expansion.
	s.expanded = slices.Grow(s.expanded[:0], len(g.Sets))[:len(g.Sets)]
	clear(s.expanded)
	for head := 0; head < len(s.queue); head++ {
		n := s.queue[head]
		for i := g.firstBundle(n); i < len(g.Bundles) && g.Bundles[i].Caller == n; i++ {
			b := &g.Bundles[i]
			if s.expanded[b.Set] || skip != nil && skip(int32(i)) {
				continue
			}
			s.expanded[b.Set] = true
			for _, t := range g.Sets[b.Set] {
				if s.parent[t] == -2 {
					s.parent[t] = int32(i)
					s.queue = append(s.queue, t)
				}
			}
		}
	}
}

// Roots returns where reachability starts: the entry points and, at Correct-JDK,
// the NativeMethod node, which stands for the JVM and is reachable from the start.
func (g *Graph) Roots() []NodeID {
	if g.Level.ModelsJDK() && g.Reachable.Has(g.Native) {
		return append(slices.Clip(g.Entries), g.Native)
	}
	return g.Entries
}

// firstBundle returns the index of the first bundle of caller n (bundles are sorted
// by caller).
func (g *Graph) firstBundle(n NodeID) int {
	return sort.Search(len(g.Bundles), func(i int) bool { return g.Bundles[i].Caller >= n })
}
