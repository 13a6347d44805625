package callgraph

import "sort"

// PathTree returns, for every node, the index of the bundle through which a
// breadth-first search from the entry points first reached it (-1 for entry
// points, -2 for unreached nodes). Walking it back from a node (Bundles[i].Caller)
// gives a shortest path from an entry point: what answers "why is this reachable".
func (g *Graph) PathTree() []int32 {
	parent := make([]int32, g.NumNodes)
	for i := range parent {
		parent[i] = -2
	}
	queue := make([]int32, 0, 1024)
	for _, e := range g.Entries {
		if parent[e] == -2 {
			parent[e] = -1
			queue = append(queue, e)
		}
	}
	// A set shared by many bundles adds nothing after its first expansion.
	expanded := make([]bool, len(g.Sets))
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for i := g.firstBundle(n); i < len(g.Bundles) && g.Bundles[i].Caller == n; i++ {
			b := &g.Bundles[i]
			if expanded[b.Set] {
				continue
			}
			expanded[b.Set] = true
			for _, t := range g.Sets[b.Set] {
				if parent[t] == -2 {
					parent[t] = int32(i)
					queue = append(queue, t)
				}
			}
		}
	}
	return parent
}

// firstBundle returns the index of the first bundle of caller n (bundles are sorted
// by caller).
func (g *Graph) firstBundle(n NodeID) int {
	return sort.Search(len(g.Bundles), func(i int) bool { return g.Bundles[i].Caller >= n })
}
