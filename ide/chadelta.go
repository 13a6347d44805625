package ide

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// What CHA would add. Under a finer algorithm (RTA, XTA, TFA) the call hierarchy
// says, at a virtual call, how many more targets CHA's answer has, and for a method,
// how many more call sites would call it under CHA: what the finer graph leaves
// out rests on the algorithm's reasoning, and a user deciding whether to trust it
// needs its size.

// finer reports whether the snapshot's graph is of an algorithm finer than CHA.
func finer(snap *Snapshot) bool {
	a := snap.Graph.Algorithm
	return a.Valid() && !a.DispatchesByHierarchy()
}

// virtualCall returns the method a virtual or interface call resolves to and the
// declared type of its receiver; ok is false for any other call.
func virtualCall(h *hierarchy.Hierarchy, c *facts.Call) (rm *hierarchy.Method, owner *hierarchy.Class, ok bool) {
	if c.Op != bytecode.Invokevirtual && c.Op != bytecode.Invokeinterface {
		return nil, nil, false
	}
	return resolveCall(h, c)
}

// chaExtraTargets returns how many targets CHA gives the call of bundle b beyond
// those in b's set; ok is false where the question does not apply (CHA's own graph,
// a call that is not a virtual dispatch).
func chaExtraTargets(snap *Snapshot, caller *hierarchy.Method, b *callgraph.Bundle) (n int, ok bool) {
	g := snap.Graph
	if !finer(snap) || caller == nil || b.Call < 0 {
		return 0, false
	}
	if k := g.Reasons[b.Reason].Kind; k != callgraph.KindVirtual && k != callgraph.KindInterface {
		return 0, false
	}
	f := snap.Index().Facts(caller)
	if f == nil || int(b.Call) >= len(f.Calls) {
		return 0, false
	}
	rm, owner, ok := virtualCall(snap.Hierarchy(), &f.Calls[b.Call])
	if !ok {
		return 0, false
	}
	set := g.Sets[b.Set]
	for _, id := range snap.Analyzer().CHATargets(rm, owner) {
		if _, in := slices.BinarySearch(set, id); !in {
			n++
		}
	}
	return n, true
}

// chaExtraDetail is the detail outgoing calls add to the targets of bundle b.
func chaExtraDetail(snap *Snapshot, caller *hierarchy.Method, b *callgraph.Bundle) string {
	n, ok := chaExtraTargets(snap, caller, b)
	if !ok || n == 0 {
		return ""
	}
	return fmt.Sprintf("%s; CHA would add %d more target%s at this call", snap.Graph.Algorithm.String(), n, plural(n))
}

// chaExtraCallers counts the virtual and interface calls in reachable methods that
// CHA would resolve to m and the graph does not: calls of m's name and descriptor
// whose CHA targets hold m, without an edge to m from their instruction.
func chaExtraCallers(ctx context.Context, snap *Snapshot, m *hierarchy.Method) (n int, ok bool) {
	if !finer(snap) || m.IsStatic() || m.IsPrivate() || m.Name == "<init>" {
		return 0, false
	}
	g, h := snap.Graph, snap.Hierarchy()
	for id, cm := range h.Methods() {
		if id%4096 == 0 && ctx.Err() != nil {
			return 0, false
		}
		if !g.Reachable.Has(int32(id)) {
			continue
		}
		f := snap.Index().Facts(cm)
		if f == nil {
			continue
		}
		for k := range f.Calls {
			c := &f.Calls[k]
			if c.Ref.Name != m.Name || c.Ref.Desc != m.Desc {
				continue
			}
			rm, owner, ok := virtualCall(h, c)
			if !ok || !slices.Contains(snap.Analyzer().CHATargets(rm, owner), m.ID) || callsAt(g, int32(id), int32(k), m.ID) {
				continue
			}
			n++
		}
	}
	return n, true
}

// callsAt reports whether the call instruction k of caller has an edge to callee.
func callsAt(g *callgraph.Graph, caller, k, callee int32) bool {
	for _, b := range g.Callees(caller) {
		if b.Call == k {
			if _, ok := slices.BinarySearch(g.Sets[b.Set], callee); ok {
				return true
			}
		}
	}
	return false
}

// chaCallersItem is the last item of incoming calls under a finer algorithm when
// CHA would add callers: a note (expanding it lists nothing) naming how many.
func (s *Session) chaCallersItem(ctx context.Context, snap *Snapshot, n int32) *IncomingCall {
	m := snap.Method(n)
	if m == nil {
		return nil
	}
	extra, ok := chaExtraCallers(ctx, snap, m)
	if !ok || extra == 0 {
		return nil
	}
	name := fmt.Sprintf("… CHA would add %d caller%s", extra, plural(extra))
	detail := fmt.Sprintf("virtual and interface calls that may reach this method by the class hierarchy alone, which the %s graph rules out; choose the CHA algorithm to see them", snap.Graph.Algorithm.String())
	it := s.Item(snap, n)
	it.Name, it.Detail = name, detail
	it.Data = mustJSON(moreData{methodRef: refOf(m), Note: true})
	return &IncomingCall{From: it, FromRanges: []Range{it.Selection}}
}

// isNote reports whether an item sent back by the client is a note, which has no
// calls of its own.
func isNote(it *CallItem) bool {
	var d moreData
	return len(it.Data) > 0 && json.Unmarshal(it.Data, &d) == nil && d.Note
}
