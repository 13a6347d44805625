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
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

func (s *Server) prepareCallHierarchy(ctx context.Context, p *protocol.CallHierarchyPrepareParams) (any, error) {
	snap, release := s.current()
	defer release()
	if snap == nil {
		return nil, nil
	}
	items := prepareItems(s, snap, s.resolve(snap, p.TextDocument.URI, p.Position))
	if len(items) == 0 {
		return nil, nil
	}
	return items, nil
}

func (s *Server) incomingCalls(ctx context.Context, p *protocol.CallHierarchyIncomingCallsParams) (any, error) {
	snap, release := s.current()
	defer release()
	if snap == nil || snap.Graph == nil {
		return nil, nil
	}
	n, ok := s.itemNode(snap, &p.Item)
	if !ok {
		return nil, nil
	}
	return incoming(ctx, s, snap, n), nil
}

func (s *Server) outgoingCalls(ctx context.Context, p *protocol.CallHierarchyOutgoingCallsParams) (any, error) {
	snap, release := s.current()
	defer release()
	if snap == nil || snap.Graph == nil {
		return nil, nil
	}
	n, ok := s.itemNode(snap, &p.Item)
	if !ok {
		return nil, nil
	}
	return outgoing(ctx, s, snap, n), nil
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

// edgeDetail says what a dynamic edge rests on: "via Class.forName — level 2
// fallback", "via thread: Thread.start runs run() on a new thread".
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
	var why []string
	if r.Evidence != "" {
		why = append(why, r.Evidence)
	}
	if r.Fallback != 0 {
		why = append(why, fmt.Sprintf("level %d fallback (%s)", r.Fallback, r.Fallback.Title()))
	}
	if len(why) == 0 {
		return "via " + via
	}
	return "via " + via + " — " + strings.Join(why, "; ")
}

type callAgg struct {
	node    int32
	ranges  []protocol.Range
	details []string
}

func (a *callAgg) addDetail(d string) {
	if d != "" && !slices.Contains(a.details, d) {
		a.details = append(a.details, d)
	}
}

// incoming returns the incoming calls of node n: one entry per caller, with the
// tokens of its call sites. A lambda's implementation also lists the method that
// creates the lambda, which is where it comes from in the source (the graph's edge
// comes from the functional interface call that runs it).
func incoming(ctx context.Context, s *Server, snap *Snapshot, n int32) []protocol.CallHierarchyIncomingCall {
	g := snap.Graph
	var order []int32
	aggs := map[int32]*callAgg{}
	add := func(caller int32) *callAgg {
		a := aggs[caller]
		if a == nil {
			a = &callAgg{node: caller}
			aggs[caller] = a
			order = append(order, caller)
		}
		return a
	}
	for _, bi := range g.Callers(n) {
		if ctx.Err() != nil {
			return nil
		}
		b := &g.Bundles[bi]
		a := add(b.Caller)
		caller := snap.method(b.Caller)
		if caller != nil {
			r := s.bundleRange(snap, caller, b)
			if !slices.Contains(a.ranges, r) {
				a.ranges = append(a.ranges, r)
			}
		}
		a.addDetail(edgeDetail(snap, caller, b))
	}
	if m := snap.method(n); m != nil {
		for _, cr := range lambdaCreators(snap, m) {
			a := add(cr.method.ID)
			r := s.siteRange(snap, cr.method, cr.call, cr.line)
			if !slices.Contains(a.ranges, r) {
				a.ranges = append(a.ranges, r)
			}
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

// outgoing returns the outgoing calls of node n: one entry per callee, with the tokens
// of the call sites that reach it. A call with more targets than the configured
// maximum (a conservative fallback, a virtual call of Object.toString) lists that many,
// application and library methods first, and says how many it left out.
func outgoing(ctx context.Context, s *Server, snap *Snapshot, n int32) []protocol.CallHierarchyOutgoingCall {
	g := snap.Graph
	caller := snap.method(n)
	limit := snap.Settings.MaxOutgoing
	if limit <= 0 {
		limit = 100
	}
	var order []int32
	aggs := map[int32]*callAgg{}
	for _, b := range g.Callees(n) {
		if ctx.Err() != nil {
			return nil
		}
		var r protocol.Range
		hasRange := caller != nil
		if hasRange {
			r = s.bundleRange(snap, caller, &b)
		}
		detail := edgeDetail(snap, caller, &b)
		set := g.Sets[b.Set]
		targets := set
		more := 0
		if len(set) > limit {
			targets = pickTargets(snap, set, limit)
			more = len(set) - len(targets)
		}
		for i, t := range targets {
			a := aggs[t]
			if a == nil {
				a = &callAgg{node: t}
				aggs[t] = a
				order = append(order, t)
			}
			if hasRange && !slices.Contains(a.ranges, r) {
				a.ranges = append(a.ranges, r)
			}
			a.addDetail(detail)
			if more > 0 && i == len(targets)-1 {
				a.addDetail(fmt.Sprintf("and %d more targets of this call (hover it to see them counted)", more))
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

// methodFlags is used by hovers to describe a method's declaration.
func methodFlags(m *hierarchy.Method) string {
	var fs []string
	if m.Access&classfile.AccNative != 0 {
		fs = append(fs, "native")
	}
	if m.IsAbstract() {
		fs = append(fs, "abstract")
	}
	if m.Access&classfile.AccSynthetic != 0 {
		fs = append(fs, "synthetic")
	}
	return strings.Join(fs, ", ")
}
