// Package graphcheck holds the checks of call graphs that tests share: naming
// methods as expectations write them, the subgraph relation between the graphs of
// coarser and finer runs (levels, algorithms), and reachability queries by name.
package graphcheck

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// NativeNode stands for the synthetic NativeMethod node in resolved targets.
const NativeNode = int32(-1)

// ResolveMethods returns the IDs of the methods a name denotes:
// "pkg.Class.name", "pkg.Class.name(desc)" or "<native>".
func ResolveMethods(h *hierarchy.Hierarchy, s string) ([]int32, error) {
	if s == "<native>" {
		return []int32{NativeNode}, nil
	}
	name, desc := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 {
		name, desc = s[:i], s[i:]
	}
	dot := strings.LastIndexByte(name, '.')
	if dot <= 0 {
		return nil, fmt.Errorf("method %q: want pkg.Class.name or pkg.Class.name(descriptor)", s)
	}
	cname := strings.ReplaceAll(name[:dot], ".", "/")
	c := h.Class(cname)
	if c == nil || c.Phantom {
		return nil, fmt.Errorf("method %q: no class %s", s, cname)
	}
	var ids []int32
	for _, m := range c.Methods {
		if m.Name == name[dot+1:] && (desc == "" || m.Desc == desc) {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("method %q: %s declares no such method", s, cname)
	}
	return ids, nil
}

// MethodName renders a node as expectations write it: the descriptor only when the
// class declares several methods of that name.
func MethodName(h *hierarchy.Hierarchy, g *callgraph.Graph, id int32) string {
	if id == g.Native {
		return "<native>"
	}
	m := h.Methods()[id]
	cls := strings.ReplaceAll(m.Class.Name, "/", ".")
	n := 0
	for _, o := range m.Class.Methods {
		if o.Name == m.Name {
			n++
		}
	}
	if n > 1 {
		return cls + "." + m.Name + m.Desc
	}
	return cls + "." + m.Name
}

// CheckSubgraph checks that each graph of gs is a subgraph of the one before it:
// its reachable nodes are reachable there, its entry points are the same, and every
// edge of a caller is an edge there too. Nodes are named with h (IDs when h is nil).
// Between a level below Correct-JDK and Correct-JDK, what the JVM alone does beyond
// level 2's native rule is logged, not an error (SubgraphProblems).
func CheckSubgraph(t *testing.T, gs []*callgraph.Graph, h *hierarchy.Hierarchy) {
	t.Helper()
	for i := 1; i < len(gs); i++ {
		lo, hi := gs[i-1], gs[i]
		problems, jvmOnly := SubgraphProblems(lo, hi, h)
		for _, p := range problems {
			t.Errorf("%s/%d ⊆ %s/%d: %s", hi.Algorithm, hi.Level, lo.Algorithm, lo.Level, p)
		}
		if len(jvmOnly) > 0 {
			t.Logf("%s/%d ⊆ %s/%d except what the JVM calls beyond level 2's native rule: %s", hi.Algorithm, hi.Level, lo.Algorithm, lo.Level, strings.Join(jvmOnly, "; "))
		}
	}
}

// SubgraphProblems lists how hi fails to be a subgraph of lo (nil when it is one).
//
// At Correct-JDK a native method of the JDK calls its callbacks itself, where lower
// levels route every callback through the NativeMethod node: an edge from a native
// (or from that node) in hi is within lo when lo's NativeMethod node has it. Level
// 2's native rule lets native code call public methods only, but the JVM calls some
// non-public ones (Thread.exit, MethodHandleNatives.linkCallSite): such edges of hi,
// and what only they make reachable, are returned as jvmOnly instead of problems,
// so the levels below can be told what they miss.
func SubgraphProblems(lo, hi *callgraph.Graph, h *hierarchy.Hierarchy) (problems, jvmOnly []string) {
	name := func(id int32) string {
		if h == nil || id == hi.Native {
			return fmt.Sprint(id)
		}
		return MethodName(h, hi, id)
	}
	if lo.NumNodes != hi.NumNodes {
		return []string{fmt.Sprintf("graphs of different programs (%d and %d nodes)", lo.NumNodes, hi.NumNodes)}, nil
	}
	var viaNative, exempt func(int32) bool
	if !lo.Level.ModelsJDK() && hi.Level.ModelsJDK() && h != nil {
		ms := h.Methods()
		viaNative = func(id int32) bool { return id == hi.Native || ms[id].IsNative() }
		exempt = func(id int32) bool { return id != hi.Native && !ms[id].IsPublic() && ms[id].Name != "<clinit>" }
	}
	var out []string
	bad, extraRoots := edgeSubset(lo, hi, name, viaNative, exempt)
	for _, id := range extraRoots {
		jvmOnly = append(jvmOnly, name(id))
	}
	if !hi.Reachable.SubsetOf(lo.Reachable) {
		allowed := reachableFrom(hi, extraRoots, lo.Reachable)
		var extra []string
		hi.Reachable.ForEach(func(id int32) {
			if !lo.Reachable.Has(id) && !allowed.Has(id) && len(extra) < 10 {
				extra = append(extra, name(id))
			}
		})
		if len(extra) > 0 {
			out = append(out, fmt.Sprintf("nodes reachable only in the finer graph, e.g. %v", extra))
		}
	}
	loEntries, hiEntries := slices.Sorted(slices.Values(lo.Entries)), slices.Sorted(slices.Values(hi.Entries))
	if !slices.Equal(slices.Compact(loEntries), slices.Compact(hiEntries)) {
		out = append(out, fmt.Sprintf("entry points differ: %d and %d", len(loEntries), len(hiEntries)))
	}
	if len(bad) > 0 {
		out = append(out, "edges only in the finer graph:\n"+strings.Join(bad, "\n"))
	}
	return out, jvmOnly
}

// reachableFrom returns the nodes of g reachable from roots through nodes not in
// known (known nodes are not expanded: they are explained already).
func reachableFrom(g *callgraph.Graph, roots []int32, known callgraph.Bitset) callgraph.Bitset {
	seen := callgraph.NewBitset(g.NumNodes)
	work := slices.Clone(roots)
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		if known.Has(id) || !seen.Add(id) {
			continue
		}
		for _, b := range g.Callees(id) {
			work = append(work, g.Sets[b.Set]...)
		}
	}
	return seen
}

// edgeSubset returns (up to 10) edges of hi that lo lacks, described, and the targets
// of the edges that exempt excuses. It is linear in the bundles' set sizes: one mark
// array is reused for every caller (marked with the caller's callees in lo on first
// need), and a set that hi shares with one of the caller's bundles in lo (fallback
// sets are shared between runs) is skipped. When viaNative(caller), lo's edges of the
// NativeMethod node count as the caller's too.
func edgeSubset(lo, hi *callgraph.Graph, name func(int32) string, viaNative, exempt func(int32) bool) (bad []string, exempted []int32) {
	mark := make([]int32, lo.NumNodes) // caller+1 whose callees are marked
	seenExempt := map[int32]bool{}
	n := 0
	for i := 0; i < len(hi.Bundles); {
		caller := hi.Bundles[i].Caller
		j := i
		for j < len(hi.Bundles) && hi.Bundles[j].Caller == caller {
			j++
		}
		loB := lo.Callees(caller)
		native := viaNative != nil && viaNative(caller)
		if native && caller != lo.Native {
			loB = append(slices.Clone(loB), lo.Callees(lo.Native)...)
		}
		marked := false
		for _, b := range hi.Bundles[i:j] {
			set := hi.Sets[b.Set]
			if len(set) == 0 || (len(loB) <= 8 && sharedSet(lo, loB, set)) {
				continue
			}
			if !marked {
				for _, lb := range loB {
					for _, c := range lo.Sets[lb.Set] {
						mark[c] = caller + 1
					}
				}
				marked = true
			}
			for _, c := range set {
				if mark[c] == caller+1 {
					continue
				}
				if native && exempt(c) {
					if !seenExempt[c] {
						seenExempt[c] = true
						exempted = append(exempted, c)
					}
					continue
				}
				n++
				if len(bad) < 10 {
					r := hi.Reasons[b.Reason]
					bad = append(bad, fmt.Sprintf("  %s -> %s (line %d, %s by %s)", name(caller), name(c), b.Line, r.Kind, r.Resolver))
				}
			}
		}
		i = j
	}
	if n > len(bad) {
		bad = append(bad, fmt.Sprintf("  ... %d in all", n))
	}
	slices.Sort(exempted)
	return bad, exempted
}

// sharedSet reports whether set is (the same slice as) a set of one of lo's bundles.
func sharedSet(lo *callgraph.Graph, loB []callgraph.Bundle, set []int32) bool {
	for _, b := range loB {
		s := lo.Sets[b.Set]
		if len(s) == len(set) && &s[0] == &set[0] {
			return true
		}
	}
	return false
}

// AnyReachable reports whether any of the nodes ids is reachable in g.
func AnyReachable(g *callgraph.Graph, ids []int32) bool {
	for _, id := range ids {
		if g.Reachable.Has(id) {
			return true
		}
	}
	return false
}

// AnyEdge reports whether g has an edge from any of from to any of to.
func AnyEdge(g *callgraph.Graph, from, to []int32) bool {
	for _, f := range from {
		for _, c := range to {
			if g.HasEdge(f, c) {
				return true
			}
		}
	}
	return false
}
