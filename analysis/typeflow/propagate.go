package typeflow

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Propagation: edges, adding classes to nodes, widening to top, and the drain
// loop that carries queued classes along edges and gives answers.

// link adds an edge and sends along it what its source has propagated already.
func (o *oracle) link(from, to, f int32) {
	if from == to {
		return
	}
	if o.nodes[to].top {
		// Nothing goes into a top node, but an array or a container that would
		// has escaped.
		if o.flow != nil && to != o.sink && !o.nodes[from].top {
			if o.tr != nil {
				o.tr.sinkVia(from, to)
			}
			o.link(from, o.sink, f)
		}
		return
	}
	if o.nodes[from].top {
		o.topEdge(from, to, f)
		return
	}
	n := &o.nodes[from]
	e := edge{to: to, filter: f}
	var seen map[edge]struct{}
	if n.ext != 0 {
		seen = o.exts[n.ext-1].outSeen
	}
	switch {
	case seen != nil:
		if _, dup := seen[e]; dup {
			return
		}
		seen[e] = struct{}{}
	case len(n.out) < smallSet:
		if slices.Contains(n.out, e) {
			return
		}
	default:
		if slices.Contains(n.out, e) {
			return
		}
		seen = make(map[edge]struct{}, 2*len(n.out))
		for _, x := range n.out {
			seen[x] = struct{}{}
		}
		seen[e] = struct{}{}
		o.ext(from).outSeen = seen
		n = &o.nodes[from]
	}
	n.out = append(n.out, e)
	if !n.queued && n.done < int32(len(n.order)) {
		// A node is queued only while it has edges: what came before this first
		// edge has not gone anywhere yet.
		n.queued = true
		o.queue = append(o.queue, from)
	}
	for _, c := range n.order[:n.done] {
		if o.accepts(f, c) {
			o.addFrom(from, to, c)
		}
	}
}

// add puts class c into node id, queueing it for the node's questions (tell) and
// for its edges (drain).
func (o *oracle) add(id, c int32) {
	if o.nodes[id].top || id == o.sink && o.flow != nil {
		if c >= o.nc {
			o.escaped(c, id)
		}
		o.created(c)
		return
	}
	if !o.insert(id, c) {
		return
	}
	if o.tr != nil {
		o.tr.arrived(o, id, c)
	}
	o.created(c)
	if e := o.nodes[id].ext; e != 0 && !o.global[c] {
		for _, qi := range o.exts[e-1].subs {
			if o.isSub(c, o.subs[qi].t) {
				o.tell(qi, c)
			}
		}
	}
	if n := &o.nodes[id]; n.top {
		return
	} else if len(n.order) > o.topSize {
		o.makeTop(id, topCause{kind: topWidened})
	} else if !n.queued && len(n.out) > 0 {
		n.queued = true
		o.queue = append(o.queue, id)
	}
}

// makeTop widens node id to every class created anywhere, for the reason why:
// its questions are answered as questions about any object, and its edges carry
// every class.
func (o *oracle) makeTop(id int32, why topCause) {
	n := &o.nodes[id]
	if n.top {
		return
	}
	if o.tr != nil {
		o.tr.widened(id, why)
	}
	old := *n
	var oldExt nodeExt
	if n.ext != 0 {
		oldExt = o.exts[n.ext-1]
		o.exts[n.ext-1] = nodeExt{}
	}
	n.top = true
	n.order, n.out = nil, nil
	for _, c := range old.order {
		if c >= o.nc {
			o.escaped(c, id)
		}
	}
	for _, qi := range oldExt.subs {
		q := &o.subs[qi]
		if q.top {
			continue // answered as one about any object already (answerAny)
		}
		q.top = true
		if q.onTop != nil {
			o.told = append(o.told, answer{qi, -1})
			continue
		}
		o.aSubs[q.t.ID] = append(o.aSubs[q.t.ID], qi)
		o.eachCreatedFor(qi, func(c int32) {
			if !o.global[c] && !contains(old.order, oldExt.sorted, c) {
				o.tell(qi, c)
			}
		})
	}
	for _, e := range old.out {
		o.topEdge(id, e.to, e.filter)
	}
}

// topEdge feeds node to from top node from through filter f. The sink stays as
// it is: what a node held when it became top escaped then (makeTop), and what
// would flow into it later goes to the sink itself (link).
func (o *oracle) topEdge(from, to, f int32) {
	if o.nodes[to].top || to == o.sink && o.flow != nil {
		return
	}
	if f == noFilter {
		o.makeTop(to, topCause{kind: topFed, from: from})
		return
	}
	if o.topSeen[[2]int32{f, to}] {
		return
	}
	o.topSeen[[2]int32{f, to}] = true
	i, ok := o.topIdx[f]
	if !ok {
		i = len(o.topFilters)
		o.topIdx[f] = i
		o.topFilters = append(o.topFilters, f)
		o.topTo = append(o.topTo, nil)
		o.topClasses = append(o.topClasses, o.createdPassing(f))
		for _, t := range o.filterTypes[f] {
			o.topByType[t.ID] = append(o.topByType[t.ID], int32(i))
		}
	}
	o.topTo[i] = append(o.topTo[i], to)
	if o.tr != nil {
		o.tr.fedByTop(from, to)
	}
	for j := 0; j < len(o.topClasses[i]) && !o.nodes[to].top; j++ {
		o.addFrom(fromTop, to, o.topClasses[i][j])
	}
}

// createdPassing returns the objects created so far that filter f lets pass, in
// the order they were created: the classes, then the lambdas, arrays and
// containers. The classes come from the subtypes of the filter's types, not from
// testing every created class: at scale (90 jars and the JDK) a run makes
// thousands of filters and creates tens of thousands of classes.
func (o *oracle) createdPassing(f int32) []int32 {
	var cs []int32
	pass := func(c int32) {
		if o.all[c] {
			cs = append(cs, c)
		}
	}
	if b := o.filterBits[f]; b != nil {
		for i, w := range b {
			for ; w != 0; w &= w - 1 {
				pass(int32(i*64 + bits.TrailingZeros64(w)))
			}
		}
	} else {
		o.h.AllSubtypes(o.filterTypes[f][0], func(x *hierarchy.Class) bool {
			pass(x.ID)
			return true
		})
	}
	slices.SortFunc(cs, func(a, b int32) int { return cmp.Compare(o.createdAt[a], o.createdAt[b]) })
	n := len(cs)
	for _, t := range o.filterTypes[f] {
		o.eachExtraOf(t, func(c int32) { cs = append(cs, c) })
	}
	// In the order they were created, once each: an object may pass through more
	// than one of the types.
	extras := cs[n:]
	slices.SortFunc(extras, func(a, b int32) int { return cmp.Compare(o.extraAt[a-o.nc], o.extraAt[b-o.nc]) })
	return append(cs[:n], slices.Compact(extras)...)
}

// created records c as created somewhere, telling the questions about any object.
func (o *oracle) created(c int32) {
	if c >= o.nc {
		if x := o.extra[c-o.nc]; x.kind == objContainer || x.kind == objView {
			// Questions about any object see its class; the object itself is
			// in top nodes only once it escaped, where its contents are top. A
			// view of an open class is of a class its JDK method created.
			if x.cls == nil {
				return
			}
			c = x.cls.ID
		}
	}
	if o.all[c] {
		return
	}
	o.all[c] = true
	if c < o.nc {
		o.createdAt[c] = int32(len(o.allOrder))
		o.allOrder = append(o.allOrder, c)
	} else {
		o.createdExtra(c)
	}
	cls := o.classOf(c)
	if cls == nil {
		return // an array, with no java.lang.Object on the class path (no JDK)
	}
	if len(o.topFilters) > 0 {
		// The top filters c passes are those naming one of its supertypes.
		var fs []int32
		o.h.Supertypes(cls, func(s *hierarchy.Class) bool {
			for _, i := range o.topByType[s.ID] {
				if n := len(o.topClasses[i]); n == 0 || o.topClasses[i][n-1] != c {
					o.topClasses[i] = append(o.topClasses[i], c)
					fs = append(fs, i)
				}
			}
			return true
		})
		for _, i := range fs {
			for j := 0; j < len(o.topTo[i]); j++ {
				o.addFrom(fromTop, o.topTo[i][j], c)
			}
		}
	}
	o.h.Supertypes(cls, func(s *hierarchy.Class) bool {
		qs := o.aSubs[s.ID]
		for i := 0; i < len(qs); i++ {
			o.tell(qs[i], c)
			qs = o.aSubs[s.ID]
		}
		return true
	})
}

// addGlobal makes c seen by every question.
func (o *oracle) addGlobal(c int32) {
	if o.global[c] {
		return
	}
	o.global[c] = true
	o.globalOrder = append(o.globalOrder, c)
	// Tell first: created may put c into nodes (through top edges), after which
	// their questions would take it for told.
	o.h.Supertypes(o.classOf(c), func(s *hierarchy.Class) bool {
		for _, qi := range o.gSubs[s.ID] {
			if q := &o.subs[qi]; !q.top && !o.has(q.n, c) {
				o.tell(qi, c)
			}
		}
		return true
	})
	o.created(c)
}

// drain propagates queued classes along edges until nothing is left. Questions'
// callbacks may call back into the oracle; only the outermost call drains.
func (o *oracle) drain() {
	if o.draining {
		return
	}
	o.draining = true
	// Both queues are read from a head index and reset once empty, so their
	// memory is reused rather than resliced away.
	toldHead, queueHead := 0, 0
	for queueHead < len(o.queue) || toldHead < len(o.told) {
		if toldHead < len(o.told) {
			a := o.told[toldHead]
			toldHead++
			if toldHead == len(o.told) {
				o.told, toldHead = o.told[:0], 0
			}
			switch q := &o.subs[a.q]; {
			case a.c < 0:
				q.onTop()
			case q.objs != nil:
				q.objs(a.c)
			default:
				q.fn(o.h.Classes()[a.c])
			}
			continue
		}
		id := o.queue[queueHead]
		queueHead++
		if queueHead == len(o.queue) {
			o.queue, queueHead = o.queue[:0], 0
		}
		n := &o.nodes[id]
		n.queued = false
		if o.tr != nil {
			o.tr.src = id // what this loop adds comes from id
		}
		for !n.top && n.done < int32(len(n.order)) {
			c := n.order[n.done]
			n.done++
			for i := 0; i < len(n.out); i++ {
				e := n.out[i]
				if o.accepts(e.filter, c) {
					o.add(e.to, c)
				}
				n = &o.nodes[id] // add may grow o.nodes
			}
		}
		if o.tr != nil {
			o.tr.src = createdHere
		}
	}
	o.draining = false
}
