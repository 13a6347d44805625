package analysis

import (
	"cmp"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// idMap maps the IDs of a previous program's hierarchy to those of the current one,
// matching classes by name and methods by class, name and descriptor: an edit that
// adds or removes a member or a class moves the IDs of everything after it.
type idMap struct {
	method []int32 // old method ID (and the old NativeMethod node, last) -> new; -1 when gone
	class  []int32 // old class ID -> new; -1 when gone
}

func newIDMap(oh, nh *hierarchy.Hierarchy) *idMap {
	classes, methods := nh.IDsAcross(oh)
	// The NativeMethod node comes after the methods.
	return &idMap{method: append(methods, int32(len(nh.Methods()))), class: classes}
}

// id maps a method ID (-1 stays -1).
func (m *idMap) id(id int32) int32 {
	if id < 0 {
		return id
	}
	return m.method[id]
}

// key maps a dispatch key; ok is false when its method or a class is gone.
func (m *idMap) key(k dispatchKey) (dispatchKey, bool) {
	out := dispatchKey{method: m.method[k.method], declared: m.class[k.declared]}
	if k.encap > 0 {
		if c := m.class[k.encap-1]; c >= 0 {
			out.encap = c + 1
		} else {
			return out, false
		}
	}
	return out, out.method >= 0 && out.declared >= 0
}

// bitset maps a set of method IDs.
func (m *idMap) bitset(b callgraph.Bitset, n int) callgraph.Bitset {
	out := callgraph.NewBitset(n)
	b.ForEach(func(id int32) {
		if int(id) < len(m.method) {
			if x := m.method[id]; x >= 0 {
				out.Add(x)
			}
		}
	})
	return out
}

// graph returns g in the new IDs (numNodes of them): the bundles and sites of
// methods that are gone are dropped, and so are the members of sets that are gone.
// lost marks the sets that lost a member.
func (m *idMap) graph(g *callgraph.Graph, numNodes int) (out *callgraph.Graph, lost callgraph.Bitset) {
	out = &callgraph.Graph{Level: g.Level, Algorithm: g.Algorithm, NumNodes: numNodes, Native: int32(numNodes - 1),
		Reachable: m.bitset(g.Reachable, numNodes), Reasons: g.Reasons, Problems: g.Problems}
	for _, e := range g.Entries {
		if x := m.method[e]; x >= 0 {
			out.Entries = append(out.Entries, x)
		}
	}
	// An edit keeps the order of the methods that stay (IDs are positions in the
	// hierarchy), so what was sorted by method ID usually stays sorted: checking
	// is cheaper than sorting the million bundles of a graph with the JDK again.
	lost = callgraph.NewBitset(len(g.Sets))
	out.Sets = make([][]int32, len(g.Sets))
	for i, set := range g.Sets {
		ns := make([]int32, 0, len(set))
		for _, id := range set {
			if x := m.method[id]; x >= 0 {
				ns = append(ns, x)
			} else {
				lost.Add(int32(i))
			}
		}
		if !slices.IsSorted(ns) {
			slices.Sort(ns)
		}
		out.Sets[i] = ns
	}
	bs := make([]callgraph.Bundle, 0, len(g.Bundles))
	for _, b := range g.Bundles {
		if b.Caller = m.method[b.Caller]; b.Caller >= 0 {
			bs = append(bs, b)
		}
	}
	if bundlesInOrder(bs) {
		out.Bundles = bs
	} else {
		out.Bundles = sortBundles(bs, numNodes)
	}
	for _, st := range g.Sites {
		if st.Caller = m.method[st.Caller]; st.Caller < 0 {
			continue
		}
		var ps []callgraph.SpecPoint
		for _, p := range st.Points {
			if p.Method = m.method[p.Method]; p.Method >= 0 {
				ps = append(ps, p)
			}
		}
		st.Points = ps
		out.Sites = append(out.Sites, st)
	}
	sortSites(out.Sites)
	return out, lost
}

// trace returns t in the new IDs (n nodes), or why it cannot be: a member of a
// conditional set whose justification is gone might have another one in a new run.
// The derivations are not kept: Update searches them again (grounded).
func (m *idMap) trace(t *Trace, n int) (*Trace, string) {
	out := *t
	out.parent, out.condOf = make([]int32, n), make([]int32, n)
	lambdaSets := map[int32]bool{}
	for _, set := range t.ifaceLambda {
		lambdaSets[set] = true
	}
	out.cond = make(map[int32]map[int32]int32, len(t.cond))
	for set, members := range t.cond {
		nm := make(map[int32]int32, len(members))
		for id, from := range members {
			x, f := m.method[id], m.id(from)
			switch {
			case x < 0:
			case from >= 0 && f < 0 && lambdaSets[set]:
				nm[x] = condGone // lambdasDropped justifies it otherwise or takes it away
			case from >= 0 && f < 0:
				return nil, "a method that justifies a method-handle target was removed"
			default:
				nm[x] = f
			}
		}
		out.cond[set] = nm
	}
	out.ifaceLambda = make(map[dispatchKey]int32, len(t.ifaceLambda))
	for k, set := range t.ifaceLambda {
		if nk, ok := m.key(k); ok {
			out.ifaceLambda[nk] = set
		}
	}
	out.lambdas = make([]lambdaRec, 0, len(t.lambdas))
	for _, r := range t.lambdas {
		if r.creator, r.iface = m.id(r.creator), m.class[r.iface]; r.creator < 0 || r.iface < 0 {
			continue // its creator is gone, or it is of an interface that is
		}
		targets := make([]int32, 0, len(r.targets))
		for _, id := range r.targets {
			if x := m.id(id); x >= 0 {
				targets = append(targets, x)
			}
		}
		r.targets = targets
		out.lambdas = append(out.lambdas, r)
	}
	out.groups = make(map[int32]dispatchKey, len(t.groups))
	for set, k := range t.groups {
		if nk, ok := m.key(k); ok {
			out.groups[set] = nk
		}
	}
	out.fallbacks = make(map[int32]fallbackKey, len(t.fallbacks))
	for set, k := range t.fallbacks {
		if k.kind == setInitChain || k.kind >= setSafeCtors {
			if k.ctx = m.class[k.ctx]; k.ctx < 0 {
				continue
			}
		}
		out.fallbacks[set] = k
	}
	out.reads = t.reads.remap(m)
	if t.env != nil {
		out.env = t.env.remap(m)
	}
	return &out, ""
}

// remap returns the reads in the new IDs, without those of or by methods that are
// gone.
func (r *valueReads) remap(m *idMap) *valueReads {
	out := newValueReads()
	for k := range r.seen {
		if k.reader >= 0 {
			if k.reader = m.method[k.reader]; k.reader < 0 {
				continue
			}
		}
		if k.id >= 0 {
			if k.id = m.method[k.id]; k.id < 0 {
				continue
			}
		}
		if out.first(k) {
			switch {
			case k.reuse:
				out.reusers[k.id] = append(out.reusers[k.id], k.reader)
			case k.id < 0:
				out.callers[k.call] = append(out.callers[k.call], k.reader)
			default:
				out.facts[k.id] = append(out.facts[k.id], k.reader)
			}
		}
	}
	return out
}

// sortSites orders sites as a run's graph has them.
func sortSites(sites []callgraph.Site) {
	slices.SortStableFunc(sites, func(a, b callgraph.Site) int {
		return cmp.Or(cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.PC, b.PC))
	})
}
