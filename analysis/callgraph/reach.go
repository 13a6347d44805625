package callgraph

import (
	"cmp"
	"slices"
)

// Where a graph's reach comes from. A whole-program graph that reaches most of the
// JDK is only as useful as the means of asking which call sites brought that in:
// ProGuard's -whyareyoukeeping for one class, this for the whole graph.

// SiteReach is one call site's share of the graph's reach: the instruction at PC
// in Caller (PC -1 gathers the edges of Caller that no instruction makes: a
// native's model effects, the JVM's upcalls from the NativeMethod node).
type SiteReach struct {
	Caller NodeID
	PC     int32
	Line   int32
	// Bundles are the indices of the site's bundles in Graph.Bundles.
	Bundles []int32
	// Subtree counts the methods below the site in the shortest-path tree
	// (PathTree): its targets that it reaches first, and all they reach first.
	Subtree int
	// Targets counts the site's distinct targets over its bundles.
	Targets int
}

// TopSites returns the n call sites with the largest subtrees in the shortest-path
// tree (PathTree), largest first; ties by caller and pc. A site's subtree is what a
// breadth-first search from the entry points reaches first through it, so the
// subtrees of all sites partition the reachable methods that are not entry points.
func (g *Graph) TopSites(n int) []SiteReach {
	parent, order := g.pathTree(nil)
	size := make([]int, g.NumNodes)
	type key struct {
		caller NodeID
		pc     int32
	}
	share := map[key]int{}
	for i := len(order) - 1; i >= 0; i-- {
		v := order[i]
		size[v]++
		if p := parent[v]; p >= 0 {
			b := &g.Bundles[p]
			size[b.Caller] += size[v]
			share[key{b.Caller, b.PC}] += size[v]
		}
	}
	keys := make([]key, 0, len(share))
	for k := range share {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(share[b], share[a]), cmp.Compare(a.caller, b.caller), cmp.Compare(a.pc, b.pc))
	})
	if len(keys) > n {
		keys = keys[:n]
	}
	out := make([]SiteReach, 0, len(keys))
	for _, k := range keys {
		sr := SiteReach{Caller: k.caller, PC: k.pc, Line: -1, Subtree: share[k]}
		seen := map[int32]bool{}
		for i := g.firstBundle(k.caller); i < len(g.Bundles) && g.Bundles[i].Caller == k.caller; i++ {
			b := &g.Bundles[i]
			if b.PC != k.pc {
				continue
			}
			sr.Bundles = append(sr.Bundles, int32(i))
			if b.Line > 0 {
				sr.Line = b.Line
			}
			for _, t := range g.Sets[b.Set] {
				if !seen[t] {
					seen[t] = true
					sr.Targets++
				}
			}
		}
		out = append(out, sr)
	}
	return out
}

// ReachWithout counts the nodes reachable from the entry points along the bundles
// that skip does not reject: what the graph would reach without those edges.
func (g *Graph) ReachWithout(skip func(bundle int32) bool) int {
	return g.Reacher().Without(skip)
}

// Reacher answers ReachWithout again and again for one graph, reusing one
// search's memory: why --top asks it dozens of times of a graph of millions of
// edges. It is not safe for concurrent use.
type Reacher struct {
	g *Graph
	s search
}

// Reacher returns a Reacher of g.
func (g *Graph) Reacher() *Reacher { return &Reacher{g: g} }

// Without is Graph.ReachWithout.
func (r *Reacher) Without(skip func(bundle int32) bool) int {
	r.s.run(r.g, skip)
	return len(r.s.queue)
}
