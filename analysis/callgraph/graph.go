package callgraph

import (
	"slices"
	"sort"
	"sync"
)

// NodeID names a node: a method ID of the program's hierarchy, or the synthetic
// NativeMethod node (Graph.Native).
type NodeID = int32

// Kind says which mechanism makes an edge exist.
type Kind uint8

// Edge kinds.
const (
	KindStatic        Kind = iota // invokestatic
	KindSpecial                   // invokespecial: constructors, private and super calls
	KindVirtual                   // invokevirtual
	KindInterface                 // invokeinterface
	KindInit                      // class initialisation (JVMS 5.5)
	KindLambda                    // invokedynamic through LambdaMetafactory
	KindIndy                      // other invokedynamic bootstraps
	KindThread                    // Thread.start -> run
	KindPrivileged                // AccessController.doPrivileged -> run
	KindFinalizer                 // Object.finalize of allocated classes
	KindSerialization             // serialization hooks
	KindProxy                     // dynamic proxies -> InvocationHandler.invoke
	KindReflection                // reflective loading, instantiation, invocation
	KindMethodHandle              // method handles
	KindNative                    // calls into and out of native code
	KindCallback                  // other calls the JVM makes on the program's behalf
)

var kindNames = [...]string{"static", "special", "virtual", "interface", "init", "lambda",
	"invokedynamic", "thread", "privileged", "finalizer", "serialization", "proxy",
	"reflection", "method handle", "native", "callback"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Dynamic reports whether edges of this kind exist only through a dynamic feature or a
// JVM call-back rather than a call instruction naming the callee.
func (k Kind) Dynamic() bool { return k > KindInterface }

// Reason says why an edge exists: the mechanism, the resolver that added it, the
// evidence it rests on, and the level whose conservative fallback it comes from (0 when
// it is not a fallback).
type Reason struct {
	Kind     Kind
	Resolver string
	Evidence string
	Fallback Level
}

// A Bundle is a set of edges from one call site (or other instruction) to a set of
// callees, all for one reason. Sets are shared between bundles, so a virtual call to
// Object.toString costs one bundle, not one edge per override.
type Bundle struct {
	Caller NodeID
	PC     int32 // bytecode offset; -1 when no instruction is involved
	Line   int32 // source line; -1 when unknown
	Call   int32 // index of the call in the caller's facts; -1 when not a call instruction
	Set    int32 // index into Graph.Sets
	Reason int32 // index into Graph.Reasons
}

// Graph is an immutable call graph at one assumption level.
type Graph struct {
	Level     Level
	Algorithm Algorithm
	NumNodes  int    // methods of the hierarchy plus the synthetic NativeMethod node
	Native    NodeID // the synthetic NativeMethod node

	Reachable Bitset
	Entries   []NodeID
	Bundles   []Bundle  // sorted by (Caller, PC)
	Sets      [][]int32 // sorted, duplicate-free callee sets
	Reasons   []Reason
	Sites     []Site   // dynamic sites of reachable methods, sorted by (Caller, PC)
	Problems  []string // bad specification entries, each with file:line:col

	// The callers index, built on first use: the bundles of each set, and the sets
	// each node is a member of (setsOf[setStart[n]:setStart[n+1]]). Not an edge list:
	// a set shared by thousands of bundles (Object.toString) would make it millions.
	callersOnce sync.Once
	bySet       []int32 // by set: the bundles using it, bySet[bundleStart[s]:bundleStart[s+1]]
	bundleStart []int32
	setStart    []int32
	setsOf      []int32
}

// Callees returns the bundles whose caller is n.
func (g *Graph) Callees(n NodeID) []Bundle {
	i, j := g.CalleeRange(n)
	return g.Bundles[i:j]
}

// CalleeRange returns the indexes [i, j) of n's bundles in g.Bundles.
func (g *Graph) CalleeRange(n NodeID) (i, j int) {
	i = g.firstBundle(n)
	j = i
	for j < len(g.Bundles) && g.Bundles[j].Caller == n {
		j++
	}
	return i, j
}

// Callers returns the indices of the bundles that have n among their callees, in
// increasing order. The result may be shared: do not modify it.
func (g *Graph) Callers(n NodeID) []int32 {
	sets := g.containing(n)
	switch len(sets) {
	case 0:
		return nil
	case 1:
		return g.bundlesOf(sets[0])
	}
	var out []int32
	for _, s := range sets {
		out = append(out, g.bundlesOf(s)...)
	}
	slices.Sort(out) // a bundle has one set: no duplicates
	return out
}

// NumCallers returns len(g.Callers(n)) without building the list.
func (g *Graph) NumCallers(n NodeID) int {
	total := 0
	for _, s := range g.containing(n) {
		total += int(g.bundleStart[s+1] - g.bundleStart[s])
	}
	return total
}

// containing returns the sets that contain n and are used by some bundle.
func (g *Graph) containing(n NodeID) []int32 {
	g.callersOnce.Do(g.buildCallers)
	if int(n) < 0 || int(n) >= g.NumNodes {
		return nil
	}
	return g.setsOf[g.setStart[n]:g.setStart[n+1]]
}

// bundlesOf returns the indices of the bundles whose callees are set s.
func (g *Graph) bundlesOf(s int32) []int32 {
	from, to := g.bundleStart[s], g.bundleStart[s+1]
	return g.bySet[from:to:to]
}

// buildCallers indexes the bundles by set and the sets by member, each with a
// counting sort into one array: an index of a graph's million bundles built by
// appending to a slice per set left as many small allocations behind, which a
// server keeps for each graph.
func (g *Graph) buildCallers() {
	g.bundleStart = make([]int32, len(g.Sets)+1)
	for _, b := range g.Bundles {
		g.bundleStart[b.Set+1]++
	}
	for s := 1; s <= len(g.Sets); s++ {
		g.bundleStart[s] += g.bundleStart[s-1]
	}
	g.bySet = make([]int32, len(g.Bundles))
	next := slices.Clone(g.bundleStart[:len(g.Sets)])
	for i, b := range g.Bundles {
		g.bySet[next[b.Set]] = int32(i)
		next[b.Set]++
	}
	used := func(s int) bool { return g.bundleStart[s+1] > g.bundleStart[s] }
	// A counting sort of (member, set) pairs by member.
	g.setStart = make([]int32, g.NumNodes+1)
	for s, ids := range g.Sets {
		if used(s) {
			for _, id := range ids {
				g.setStart[id+1]++
			}
		}
	}
	for i := 1; i <= g.NumNodes; i++ {
		g.setStart[i] += g.setStart[i-1]
	}
	g.setsOf = make([]int32, g.setStart[g.NumNodes])
	next = slices.Clone(g.setStart[:g.NumNodes])
	for s, ids := range g.Sets {
		if used(s) {
			for _, id := range ids {
				g.setsOf[next[id]] = int32(s)
				next[id]++
			}
		}
	}
}

// NumReachable returns the number of reachable nodes.
func (g *Graph) NumReachable() int { return g.Reachable.Count() }

// NumEdges counts distinct (caller, callee) pairs.
func (g *Graph) NumEdges() int {
	mark := make([]int32, g.NumNodes) // caller+1 that last counted this callee
	n := 0
	for i := 0; i < len(g.Bundles); {
		caller := g.Bundles[i].Caller
		for ; i < len(g.Bundles) && g.Bundles[i].Caller == caller; i++ {
			for _, c := range g.Sets[g.Bundles[i].Set] {
				if mark[c] != caller+1 {
					mark[c] = caller + 1
					n++
				}
			}
		}
	}
	return n
}

// HasEdge reports whether caller may call callee.
func (g *Graph) HasEdge(caller, callee NodeID) bool {
	for _, b := range g.Callees(caller) {
		if _, ok := slices.BinarySearch(g.Sets[b.Set], callee); ok {
			return true
		}
	}
	return false
}

// SitesOf returns the dynamic sites in method n.
func (g *Graph) SitesOf(n NodeID) []Site {
	i := sort.Search(len(g.Sites), func(i int) bool { return g.Sites[i].Caller >= n })
	j := i
	for j < len(g.Sites) && g.Sites[j].Caller == n {
		j++
	}
	return g.Sites[i:j]
}
