package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

func (s *Server) prepareCallHierarchy(ctx context.Context, p *protocol.CallHierarchyPrepareParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	items := prepareItems(s, snap, s.resolve(snap, p.TextDocument.URI, p.Position))
	if len(items) == 0 {
		return nil, nil
	}
	return items, nil
}

func (s *Server) incomingCalls(ctx context.Context, p *protocol.CallHierarchyIncomingCallsParams) (any, error) {
	return s.withItem(ctx, &p.Item, func(snap *Snapshot, n int32) any { return incoming(ctx, s, snap, n) })
}

func (s *Server) outgoingCalls(ctx context.Context, p *protocol.CallHierarchyOutgoingCallsParams) (any, error) {
	return s.withItem(ctx, &p.Item, func(snap *Snapshot, n int32) any { return outgoing(ctx, s, snap, n) })
}

// withItem answers a call-hierarchy request about item from the current snapshot
// (waiting for the first, see snapshotFor): nil when the project has no graph or
// the item names nothing in it.
func (s *Server) withItem(ctx context.Context, item *protocol.CallHierarchyItem, answer func(*Snapshot, int32) any) (any, error) {
	snap, release, err := s.snapshotFor(ctx, item.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	if snap.Graph == nil {
		return nil, nil
	}
	n, ok := s.itemNode(snap, item)
	if !ok {
		return nil, nil
	}
	return answer(snap, n), nil
}

// prepareItems returns the items for a position: the callee of a call (the method the
// instruction names, the implementation of a lambda), else the methods declared or
// running there.
func prepareItems(s *Server, snap *Snapshot, t target) []protocol.CallHierarchyItem {
	ms := t.methods
	if t.call >= 0 {
		ms = calledMethods(snap, t.caller, t.call)
	}
	items := make([]protocol.CallHierarchyItem, 0, len(ms))
	for _, m := range ms {
		items = append(items, s.item(snap, m.ID))
	}
	return items
}

// calledMethods returns what a call instruction names: the resolved method, or for a
// lambda or method reference its implementation method.
func calledMethods(snap *Snapshot, m *hierarchy.Method, k int) []*hierarchy.Method {
	f := snap.w.ix.Facts(m)
	if f == nil || k >= len(f.Calls) {
		return nil
	}
	h := snap.w.h
	c := &f.Calls[k]
	if c.Op == bytecode.Invokedynamic {
		if impl := lambdaImpl(h, c); impl != nil {
			return []*hierarchy.Method{impl}
		}
		return nil
	}
	owner := h.Class(c.Ref.Class)
	if strings.HasPrefix(c.Ref.Class, "[") {
		owner = h.Object()
	}
	if owner == nil {
		return nil
	}
	rm, err := h.ResolveMethod(owner, c.Ref.Name, c.Ref.Desc, c.Ref.Interface)
	if err != nil || rm == nil {
		return nil
	}
	return []*hierarchy.Method{rm}
}

// lambdaImpl returns the implementation method of a LambdaMetafactory call site.
func lambdaImpl(h *hierarchy.Hierarchy, c *facts.Call) *hierarchy.Method {
	in := c.Indy
	if in == nil || in.Bootstrap.Class != "java/lang/invoke/LambdaMetafactory" || len(in.Args) < 2 || in.Args[1].Kind != facts.ConstMethodHandle {
		return nil
	}
	ref := in.Args[1].Ref
	ic := h.Class(ref.Class)
	if ic == nil {
		return nil
	}
	m, err := h.ResolveMethod(ic, ref.Name, ref.Desc, ref.Interface)
	if err != nil {
		return nil
	}
	return m
}

// item returns the call-hierarchy item of a graph node.
func (s *Server) item(snap *Snapshot, n int32) protocol.CallHierarchyItem {
	m := snap.method(n)
	if m == nil {
		r := lineRange(0, 0, 0)
		detail := "synthetic node: native code may call back"
		return protocol.CallHierarchyItem{
			Name: "NativeMethod", Kind: protocol.SymbolKindFunction, Detail: &detail,
			URI: classURI(nativeNodeName), Range: r, SelectionRange: r,
			Data: mustJSON(methodRef{Native: true}),
		}
	}
	loc := s.methodLocation(snap, m)
	kind := protocol.SymbolKindMethod
	switch {
	case m.Name == "<init>":
		kind = protocol.SymbolKindConstructor
	case m.Name == "<clinit>" || strings.HasPrefix(m.Name, "lambda$"):
		kind = protocol.SymbolKindFunction
	}
	detail := javaName(m.Class.Name) + " · " + m.Desc
	return protocol.CallHierarchyItem{
		Name: shortSignature(m), Kind: kind, Detail: &detail,
		URI: loc.uri, Range: loc.rng, SelectionRange: loc.sel,
		Data: mustJSON(refOf(m)),
	}
}

// itemNode returns the graph node of an item: from its data, or (for clients that do
// not send data back) from its position.
func (s *Server) itemNode(snap *Snapshot, it *protocol.CallHierarchyItem) (int32, bool) {
	if len(it.Data) > 0 {
		var r methodRef
		if err := json.Unmarshal(it.Data, &r); err == nil {
			if n := r.node(snap); n >= 0 {
				return n, true
			}
		}
	}
	t := s.resolve(snap, it.URI, it.SelectionRange.Start)
	if len(t.methods) > 0 {
		return t.methods[0].ID, true
	}
	return -1, false
}

// edgeDetail says, briefly, what a dynamic edge rests on: "via Class.forName —
// level 2 fallback", "via Worker.start — Thread.start runs run() on a new thread".
// The hover of the call site has the whole evidence.
func edgeDetail(snap *Snapshot, caller *hierarchy.Method, b *callgraph.Bundle) string {
	r := snap.Graph.Reasons[b.Reason]
	if !r.Kind.Dynamic() {
		return ""
	}
	via := r.Kind.String()
	if caller != nil && b.Call >= 0 {
		if f := snap.w.ix.Facts(caller); f != nil && int(b.Call) < len(f.Calls) {
			c := &f.Calls[b.Call]
			if c.Op != bytecode.Invokedynamic {
				via = simpleName(c.Ref.Class) + "." + c.Ref.Name
			}
		}
	}
	switch {
	case r.Fallback != 0:
		return fmt.Sprintf("via %s — level %d fallback (%s)", via, r.Fallback, r.Fallback.Title())
	case r.Evidence != "":
		return "via " + via + " — " + shorten(r.Evidence, 80)
	}
	return "via " + via
}

// shorten cuts s to at most n runes, marking the cut.
func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}

type callAgg struct {
	node     int32
	ranges   []protocol.Range
	details  []string
	fallback bool // reached only through conservative fallbacks
}

func (a *callAgg) addDetail(d string) {
	if d != "" && !slices.Contains(a.details, d) {
		a.details = append(a.details, d)
	}
}

func (a *callAgg) addRange(r protocol.Range) {
	if !slices.Contains(a.ranges, r) {
		a.ranges = append(a.ranges, r)
	}
}

// incoming returns the incoming calls of node n: one entry per caller, with the
// tokens of its call sites. A lambda's implementation also lists the method that
// creates the lambda, which is where it comes from in the source (the graph's edge
// comes from the functional-interface call that runs it). A JDK method, or a method
// reached through conservative fallbacks (an unresolved Method.invoke anywhere in the
// JDK), can have thousands of callers: beyond the configured maximum, application and
// library callers and real call sites are listed first, and the last one listed says
// how many were left out.
func incoming(ctx context.Context, s *Server, snap *Snapshot, n int32) []protocol.CallHierarchyIncomingCall {
	g := snap.Graph
	var order []int32
	aggs := map[int32]*callAgg{}
	add := func(caller int32) *callAgg {
		a := aggs[caller]
		if a == nil {
			a = &callAgg{node: caller, fallback: true}
			aggs[caller] = a
			order = append(order, caller)
		}
		return a
	}
	callers := g.Callers(n)
	for _, bi := range callers {
		b := &g.Bundles[bi]
		a := add(b.Caller)
		a.fallback = a.fallback && g.Reasons[b.Reason].Fallback != 0
	}
	order = limitCallers(snap, order, aggs, snap.Settings.MaxCallItems)
	for _, bi := range callers {
		if ctx.Err() != nil {
			return nil
		}
		b := &g.Bundles[bi]
		a := aggs[b.Caller]
		if a == nil || a.node < 0 {
			continue // left out
		}
		caller := snap.method(b.Caller)
		if caller != nil {
			a.addRange(s.bundleRange(snap, caller, b))
		}
		a.addDetail(edgeDetail(snap, caller, b))
	}
	if m := snap.method(n); m != nil {
		for _, cr := range lambdaCreators(snap, m) {
			a := add(cr.method.ID)
			a.addRange(s.siteRange(snap, cr.method, cr.call, cr.line))
			a.addDetail("creates this lambda here (LambdaMetafactory); it runs when its functional interface method is called")
		}
	}
	out := make([]protocol.CallHierarchyIncomingCall, 0, len(order))
	for _, c := range order {
		a := aggs[c]
		it := s.item(snap, c)
		if len(a.details) > 0 {
			d := *it.Detail + " — " + strings.Join(a.details, " | ")
			it.Detail = &d
		}
		ranges := a.ranges
		if ranges == nil {
			ranges = []protocol.Range{it.SelectionRange}
		}
		out = append(out, protocol.CallHierarchyIncomingCall{From: it, FromRanges: ranges})
	}
	return out
}

// limitCallers orders callers for listing (application and library code before the
// JDK, real call sites before conservative fallbacks) and keeps at most limit of
// them; the callers left out are marked with node -1 and the last one kept says how
// many there are.
func limitCallers(snap *Snapshot, order []int32, aggs map[int32]*callAgg, limit int) []int32 {
	if limit <= 0 || len(order) <= limit {
		return order
	}
	rank := func(c int32) int {
		r := 0
		if m := snap.method(c); m == nil || m.Class.Origin == hierarchy.JDK {
			r += 2
		}
		if aggs[c].fallback {
			r++
		}
		return r
	}
	sorted := slices.Clone(order)
	slices.SortStableFunc(sorted, func(a, b int32) int { return rank(a) - rank(b) })
	kept, left := sorted[:limit], sorted[limit:]
	fb := 0
	for _, c := range left {
		aggs[c].node = -1
		if aggs[c].fallback {
			fb++
		}
	}
	aggs[kept[len(kept)-1]].addDetail(fmt.Sprintf("and %d more callers (%d through conservative fallbacks), not listed", len(left), fb))
	return kept
}

type creator struct {
	method *hierarchy.Method
	call   int
	line   int32
}

// lambdaCreators finds the invokedynamic instructions that create lambdas implemented
// by m. javac puts a lambda's implementation in the class whose code creates it, so
// only that class is searched.
func lambdaCreators(snap *Snapshot, m *hierarchy.Method) []creator {
	if !strings.HasPrefix(m.Name, "lambda$") {
		return nil
	}
	var out []creator
	h := snap.w.h
	for _, cm := range m.Class.Methods {
		f := snap.w.ix.Facts(cm)
		if f == nil {
			continue
		}
		for k := range f.Calls {
			c := &f.Calls[k]
			if c.Op == bytecode.Invokedynamic && lambdaImpl(h, c) == m {
				out = append(out, creator{cm, k, c.Line})
			}
		}
	}
	return out
}

// outgoing returns the outgoing calls of node n: one entry per callee, with the
// tokens of the call sites that reach it. Calls with a few targets come first; calls
// with huge target sets (a conservative fallback, a virtual call of Object.toString)
// share what is left of the configured maximum, application and library methods
// first, and say how many targets they left out.
func outgoing(ctx context.Context, s *Server, snap *Snapshot, n int32) []protocol.CallHierarchyOutgoingCall {
	g := snap.Graph
	caller := snap.method(n)
	limit := snap.Settings.MaxCallItems
	if limit <= 0 {
		limit = 1 << 30
	}
	const small = 8 // targets of an ordinary call: always listed
	var order []int32
	aggs := map[int32]*callAgg{}
	bundles := g.Callees(n)
	for pass := 0; pass < 2; pass++ {
		for i := range bundles {
			if ctx.Err() != nil {
				return nil
			}
			b := &bundles[i]
			set := g.Sets[b.Set]
			if (len(set) <= small) != (pass == 0) {
				continue
			}
			targets := set
			if pass == 1 {
				budget := max(limit-len(order), small)
				if len(set) > budget {
					targets = pickTargets(snap, set, budget)
				}
			}
			var r protocol.Range
			if caller != nil {
				r = s.bundleRange(snap, caller, b)
			}
			detail := edgeDetail(snap, caller, b)
			for _, t := range targets {
				a := aggs[t]
				if a == nil {
					a = &callAgg{node: t}
					aggs[t] = a
					order = append(order, t)
				}
				if caller != nil {
					a.addRange(r)
				}
				a.addDetail(detail)
			}
			if more := len(set) - len(targets); more > 0 {
				aggs[targets[len(targets)-1]].addDetail(fmt.Sprintf("and %d more targets of this call, not listed (its hover counts them)", more))
			}
		}
	}
	out := make([]protocol.CallHierarchyOutgoingCall, 0, len(order))
	for _, t := range order {
		a := aggs[t]
		it := s.item(snap, t)
		if len(a.details) > 0 {
			d := *it.Detail + " — " + strings.Join(a.details, " | ")
			it.Detail = &d
		}
		ranges := a.ranges
		if ranges == nil {
			ranges = []protocol.Range{}
		}
		out = append(out, protocol.CallHierarchyOutgoingCall{To: it, FromRanges: ranges})
	}
	return out
}

// pickTargets returns up to limit members of a target set, application and library
// methods before JDK ones, each group in set order.
func pickTargets(snap *Snapshot, set []int32, limit int) []int32 {
	if len(set) <= limit {
		return set
	}
	out := make([]int32, 0, limit)
	for pass := 0; pass < 2 && len(out) < limit; pass++ {
		for _, t := range set {
			m := snap.method(t)
			jdk := m == nil || m.Class.Origin == hierarchy.JDK
			if jdk == (pass == 1) {
				out = append(out, t)
				if len(out) == limit {
					break
				}
			}
		}
	}
	return out
}
