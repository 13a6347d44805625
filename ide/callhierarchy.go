package ide

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Prepare returns the call-hierarchy items of a position: the callee of a call (the
// method the instruction names, the implementation of a lambda), else the methods
// declared or running there.
func (s *Session) Prepare(snap *Snapshot, doc Doc, pos Position) []CallItem {
	return prepareItems(s, snap, s.resolve(snap, doc, pos))
}

// Incoming returns the incoming calls of an item sent back by the client; ok is
// false when the snapshot has no graph or the item names nothing in it.
func (s *Session) Incoming(ctx context.Context, snap *Snapshot, item CallItem) (calls []IncomingCall, ok bool) {
	if isNote(&item) {
		return []IncomingCall{}, true
	}
	n, ok := s.ItemNode(snap, item)
	if !ok {
		return nil, false
	}
	return incoming(ctx, s, snap, n, pageOf(&item, "incoming")), true
}

// Outgoing returns the outgoing calls of an item sent back by the client; ok is
// false when the snapshot has no graph or the item names nothing in it.
func (s *Session) Outgoing(ctx context.Context, snap *Snapshot, item CallItem) (calls []OutgoingCall, ok bool) {
	if isNote(&item) {
		return []OutgoingCall{}, true
	}
	n, ok := s.ItemNode(snap, item)
	if !ok {
		return nil, false
	}
	return outgoing(ctx, s, snap, n, pageOf(&item, "outgoing")), true
}

// prepareItems returns the items for a position: the callee of a call (the method the
// instruction names, the implementation of a lambda), else the methods declared or
// running there.
func prepareItems(s *Session, snap *Snapshot, t target) []CallItem {
	ms := t.methods
	if t.call >= 0 {
		ms = calledMethods(snap, t.caller, t.call)
		if it, ok := s.missingCallee(snap, t.caller, t.call); ok && len(ms) == 0 {
			return []CallItem{it}
		}
	}
	items := make([]CallItem, 0, len(ms))
	for _, m := range ms {
		items = append(items, s.Item(snap, m.ID))
	}
	return items
}

// calledMethods returns what a call instruction names: the resolved method, or for a
// lambda or method reference its implementation method.
func calledMethods(snap *Snapshot, m *hierarchy.Method, k int) []*hierarchy.Method {
	f := snap.Index().Facts(m)
	if f == nil || k >= len(f.Calls) {
		return nil
	}
	h := snap.Hierarchy()
	c := &f.Calls[k]
	if c.Op == bytecode.Invokedynamic {
		if impl := lambdaImpl(h, c); impl != nil {
			return []*hierarchy.Method{impl}
		}
		return nil
	}
	rm, _, ok := resolveCall(h, c)
	if !ok {
		return nil
	}
	return []*hierarchy.Method{rm}
}

// resolveCall returns the method an invoke instruction resolves to and the class it
// names (Object for a call on an array); ok is false when it does not resolve.
func resolveCall(h *hierarchy.Hierarchy, c *facts.Call) (rm *hierarchy.Method, owner *hierarchy.Class, ok bool) {
	owner = h.Class(c.Ref.Class)
	if strings.HasPrefix(c.Ref.Class, "[") {
		owner = h.Object()
	}
	if owner == nil {
		return nil, nil, false
	}
	rm, err := h.ResolveMethod(owner, c.Ref.Name, c.Ref.Desc, c.Ref.Interface)
	if err != nil || rm == nil {
		return nil, nil, false
	}
	return rm, owner, true
}

// lambdaImpl returns the implementation method of a LambdaMetafactory call site.
func lambdaImpl(h *hierarchy.Hierarchy, c *facts.Call) *hierarchy.Method {
	impl, ok := c.Indy.LambdaImpl()
	if !ok {
		return nil
	}
	ref := impl.Ref
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

// Item returns the call-hierarchy item of a graph node (a method, or the
// NativeMethod node).
func (s *Session) Item(snap *Snapshot, n int32) CallItem {
	m := snap.Method(n)
	if m == nil {
		r := lineRange(0, 0, 0)
		detail := "synthetic node: native code may call back"
		return CallItem{
			Name: "NativeMethod", Kind: KindFunction, Detail: detail,
			Doc: Doc{Class: NativeNodeClass}, Range: r, Selection: r,
			Data: mustJSON(methodRef{Native: true}),
		}
	}
	loc := s.methodLocation(snap, m)
	kind := KindMethod
	switch {
	case m.Name == "<init>":
		kind = KindConstructor
	case m.Name == "<clinit>" || strings.HasPrefix(m.Name, "lambda$"):
		kind = KindFunction
	}
	detail := javaName(m.Class.Name) + " · " + m.Desc
	return CallItem{
		Name: shortSignature(m), Kind: kind, Detail: detail,
		Doc: loc.doc, Range: loc.rng, Selection: loc.sel,
		Data: mustJSON(refOf(m)),
	}
}

// ItemNode returns the graph node an item names: from its data, or (for clients that do
// not send data back) from its position.
func (s *Session) ItemNode(snap *Snapshot, it CallItem) (int32, bool) {
	if snap.Graph == nil {
		return -1, false
	}
	if len(it.Data) > 0 {
		var r methodRef
		if err := json.Unmarshal(it.Data, &r); err == nil {
			if n := r.node(snap); n >= 0 {
				return n, true
			}
		}
	}
	t := s.resolve(snap, it.Doc, it.Selection.Start)
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
		if f := snap.Index().Facts(caller); f != nil && int(b.Call) < len(f.Calls) {
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
	node    int32
	ranges  []Range
	details []string
}

func (a *callAgg) addDetail(d string) {
	if d != "" && !slices.Contains(a.details, d) {
		a.details = append(a.details, d)
	}
}

func (a *callAgg) addRange(r Range) {
	if !slices.Contains(a.ranges, r) {
		a.ranges = append(a.ranges, r)
	}
}

// incoming returns the incoming calls of node n: one entry per caller, with the
// tokens of its call sites. A lambda's implementation also lists the method that
// creates the lambda, which is where it comes from in the source (the graph's edge
// comes from the functional-interface call that runs it). A JDK method, or a method
// reached through conservative fallbacks (an unresolved Method.invoke anywhere in the
// JDK), can have tens of thousands of callers: beyond the configured maximum the
// answer is one page of callers sorted by entryKey and a "more" item that continues
// it (hotcalls.go); page, from such an item, is where to continue. Answers within
// the maximum list the callers in graph order, as they always have.
func incoming(ctx context.Context, s *Session, snap *Snapshot, n int32, page *callPage) []IncomingCall {
	g := snap.Graph
	// One group per caller. Bundles are sorted by caller, so the callers' bundle
	// indices, in increasing order, come in one run per caller: no map is needed
	// for the thousands of callers of a hot method.
	type group struct {
		node     int32
		bundles  []int32 // this caller's bundles to n
		creators []creator
		fallback bool // reached only through conservative fallbacks
	}
	callers := g.Callers(n)
	distinct := 0
	for i, bi := range callers {
		if i == 0 || g.Bundles[bi].Caller != g.Bundles[callers[i-1]].Caller {
			distinct++
		}
	}
	groups := make([]group, 0, distinct)
	for i := 0; i < len(callers); {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil
		}
		c := g.Bundles[callers[i]].Caller
		gr := group{node: c, fallback: true}
		j := i
		for ; j < len(callers) && g.Bundles[callers[j]].Caller == c; j++ {
			gr.fallback = gr.fallback && g.Reasons[g.Bundles[callers[j]].Reason].Fallback != 0
		}
		gr.bundles = callers[i:j]
		groups = append(groups, gr)
		i = j
	}
	if m := snap.Method(n); m != nil {
		ncallers := len(groups)
		for _, cr := range lambdaCreators(snap, m) {
			k, found := slices.BinarySearchFunc(groups[:ncallers], cr.method.ID, func(gr group, id int32) int { return cmp.Compare(gr.node, id) })
			if !found {
				k = slices.IndexFunc(groups[ncallers:], func(gr group) bool { return gr.node == cr.method.ID })
				if k < 0 {
					groups = append(groups, group{node: cr.method.ID})
					k = len(groups) - 1
				} else {
					k += ncallers
				}
			}
			groups[k].creators = append(groups[k].creators, cr)
			groups[k].fallback = false
		}
	}

	limit := s.Settings().MaxCallItems
	listed := make([]int, len(groups))
	for i := range listed {
		listed[i] = i
	}
	var more *IncomingCall
	if page != nil || limit > 0 && len(groups) > limit {
		k := len(groups)
		if limit > 0 {
			k = max(limit-1, 1) // the "more" item is the last of limit entries
		}
		key := func(i int) entryKey { return nodeKey(snap, groups[i].node, groups[i].fallback) }
		var after *entryKey
		if page != nil {
			after = &page.After
		}
		var byRank [numRanks]int
		listed, byRank = firstAfter(len(groups), key, after, k)
		keys := make([]entryKey, len(listed))
		for j, i := range listed {
			keys[j] = key(i)
		}
		if rest, total := leftOut(byRank, keys); total > 0 {
			next := &callPage{Dir: "incoming", After: keys[len(keys)-1]}
			it := s.moreItem(snap, n, fmt.Sprintf("… %d more callers", total), moreCallersDetail(rest, min(k, total)), next)
			more = &IncomingCall{From: it, FromRanges: []Range{it.Selection}}
		}
	}

	out := make([]IncomingCall, 0, len(listed)+1)
	for _, i := range listed {
		if ctx.Err() != nil {
			return nil
		}
		gr := &groups[i]
		a := callAgg{node: gr.node}
		caller := snap.Method(gr.node)
		for _, bi := range gr.bundles {
			b := &g.Bundles[bi]
			if caller != nil {
				a.addRange(s.bundleRange(snap, caller, b))
			}
			a.addDetail(edgeDetail(snap, caller, b))
		}
		for _, cr := range gr.creators {
			a.addRange(s.siteRange(snap, cr.method, cr.call, cr.line))
			a.addDetail("creates this lambda here (LambdaMetafactory); it runs when its functional interface method is called")
		}
		it := s.Item(snap, gr.node)
		if len(a.details) > 0 {
			d := it.Detail + " — " + strings.Join(a.details, " | ")
			it.Detail = d
		}
		ranges := a.ranges
		if ranges == nil {
			ranges = []Range{it.Selection}
		}
		out = append(out, IncomingCall{From: it, FromRanges: ranges})
	}
	if more != nil {
		out = append(out, *more)
	}
	if page == nil {
		if note := s.chaCallersItem(ctx, snap, n); note != nil {
			out = append(out, *note)
		}
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
	h := snap.Hierarchy()
	for _, cm := range m.Class.Methods {
		f := snap.Index().Facts(cm)
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
// share what is left of the configured maximum, each listing its first targets by
// entryKey and a "more" item that continues it (hotcalls.go). page, from such an
// item, is the call and the place to continue at.
func outgoing(ctx context.Context, s *Session, snap *Snapshot, n int32, page *callPage) []OutgoingCall {
	g := snap.Graph
	caller := snap.Method(n)
	limit := s.Settings().MaxCallItems
	if limit <= 0 {
		limit = 1 << 30
	}
	const small = 8 // targets of an ordinary call: always listed
	type entry struct {
		agg  *callAgg
		more *OutgoingCall
	}
	var order []entry
	aggs := map[int32]*callAgg{}
	bundles := g.Callees(n)
	// The first targets of a set, by entryKey, for the largest count asked so far:
	// several calls of one method often share a huge set (every MethodHandle.invoke
	// of a method), and a prefix of a sorted selection is the smaller selection.
	type picked struct {
		idx    []int
		byRank [numRanks]int
	}
	picks := map[int32]picked{}
	pick := func(set []int32, si int32, k int, after *entryKey) ([]int, [numRanks]int) {
		key := func(i int) entryKey { return nodeKey(snap, set[i], false) }
		if after != nil {
			return firstAfter(len(set), key, after, k)
		}
		if p, ok := picks[si]; ok && len(p.idx) >= min(k, len(set)) {
			return p.idx[:min(k, len(p.idx))], p.byRank
		}
		idx, byRank := firstAfter(len(set), key, nil, k)
		picks[si] = picked{idx, byRank}
		return idx, byRank
	}
	only := -1 // the bundle a "more" item continues
	if page != nil && page.Bundle < len(bundles) && bundles[page.Bundle].PC == page.PC {
		only = page.Bundle
	}
	for pass := 0; pass < 2; pass++ {
		for i := range bundles {
			if ctx.Err() != nil {
				return nil
			}
			if only >= 0 && i != only {
				continue
			}
			b := &bundles[i]
			set := g.Sets[b.Set]
			if (len(set) <= small && only < 0) != (pass == 0) {
				continue
			}
			targets := set
			var rest [numRanks]int
			restTotal := 0
			var last entryKey
			unlisted := false // none of this call's targets listed: the answer is full
			if pass == 1 {
				budget := limit - len(order)
				var after *entryKey
				if only >= 0 {
					after = &page.After
				}
				switch {
				case budget < small && after == nil:
					// Choosing a few targets among 100,000 costs a pass over them all,
					// and a method may make a hundred such calls (MethodHandle.invoke
					// under a fallback): once the answer is full, a huge call is its
					// "more" item alone, and expanding it lists its first targets.
					targets, restTotal, unlisted = nil, len(set), true
				case len(set) > budget || after != nil:
					k := max(budget-1, 1)
					idx, byRank := pick(set, b.Set, k, after)
					targets = make([]int32, len(idx))
					keys := make([]entryKey, len(idx))
					for j, x := range idx {
						targets[j] = set[x]
						keys[j] = nodeKey(snap, set[x], false)
					}
					rest, restTotal = leftOut(byRank, keys)
					if len(keys) > 0 {
						last = keys[len(keys)-1]
					}
				}
			}
			var r Range
			if caller != nil {
				r = s.bundleRange(snap, caller, b)
			}
			detail := edgeDetail(snap, caller, b)
			cha := chaExtraDetail(snap, caller, b)
			for _, t := range targets {
				a := aggs[t]
				if a == nil {
					a = &callAgg{node: t}
					aggs[t] = a
					order = append(order, entry{agg: a})
				}
				if caller != nil {
					a.addRange(r)
				}
				a.addDetail(detail)
				a.addDetail(cha)
			}
			if restTotal > 0 {
				next := &callPage{Dir: "outgoing", After: last, Bundle: i, PC: b.PC}
				name := fmt.Sprintf("… %d more targets of %s", restTotal, bundleName(snap, caller, b))
				detail := moreTargetsDetail(&rest, min(max(limit-1, 1), restTotal))
				if unlisted {
					name = fmt.Sprintf("… %d targets of %s", restTotal, bundleName(snap, caller, b))
					detail = moreTargetsDetail(nil, min(max(limit-1, 1), restTotal))
				}
				it := s.moreItem(snap, n, name, detail, next)
				ranges := []Range{it.Selection}
				if caller != nil {
					ranges = []Range{r}
				}
				order = append(order, entry{more: &OutgoingCall{To: it, FromRanges: ranges}})
			}
		}
	}
	out := make([]OutgoingCall, 0, len(order))
	for _, e := range order {
		if e.more != nil {
			out = append(out, *e.more)
			continue
		}
		a := e.agg
		it := s.Item(snap, a.node)
		if len(a.details) > 0 {
			d := it.Detail + " — " + strings.Join(a.details, " | ")
			it.Detail = d
		}
		ranges := a.ranges
		if ranges == nil {
			ranges = []Range{}
		}
		out = append(out, OutgoingCall{To: it, FromRanges: ranges})
	}
	if page == nil {
		out = append(out, s.missingCallItems(snap, n)...)
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
			m := snap.Method(t)
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
