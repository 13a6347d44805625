package typeflow

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Set storage and type filters: a node's members, sorted once it grows, and the
// interned filters edges pass classes through.

// noFilter lets every class along an edge.
const noFilter = -1

// node is kept small (TFA makes millions): what few nodes need is in a nodeExt.
type node struct {
	order  []int32 // members, in the order they came
	out    []edge
	done   int32 // order[:done] went along every edge in out
	ext    int32 // 1 + the index of its nodeExt; 0 for none
	queued bool
	field  bool // a field's node: escaped values join it
	// top: the node holds every class created anywhere (RTA's answer). A node
	// becomes top when its set outgrows Config.TopSize or a top node feeds it unfiltered,
	// which keeps the cost of the sets that would hold most of the program at
	// RTA's instead of one copy per method.
	top bool
}

// nodeExt holds the parts of a node that only large or questioned nodes have.
type nodeExt struct {
	sorted  []int32           // members, sorted, once there are more than smallSet
	outSeen map[edge]struct{} // the edges of out, once there are many
	subs    []int32           // the questions asked about it
}

// edge passes the classes its filter accepts.
type edge struct {
	to     int32
	filter int32 // index into filterBits, or noFilter
}

type filterKey string

// smallSet is the size past which a set keeps a sorted copy for look-ups.
const smallSet = 16

// ext returns node id's nodeExt, making it on first use.
func (o *oracle) ext(id int32) *nodeExt {
	n := &o.nodes[id]
	if n.ext == 0 {
		o.exts = append(o.exts, nodeExt{})
		n.ext = int32(len(o.exts))
	}
	return &o.exts[n.ext-1]
}

// sorted returns node id's sorted members, nil while it has few.
func (o *oracle) sorted(id int32) []int32 {
	if e := o.nodes[id].ext; e != 0 {
		return o.exts[e-1].sorted
	}
	return nil
}

func (o *oracle) has(id, c int32) bool { return contains(o.nodes[id].order, o.sorted(id), c) }

// contains reports whether c is among members given in order and, for large sets,
// sorted.
func contains(order, sorted []int32, c int32) bool {
	if sorted != nil {
		_, ok := slices.BinarySearch(sorted, c)
		return ok
	}
	return slices.Contains(order, c)
}

// insert adds c, reporting whether it is new. Sets stay small (Config.TopSize), so a
// sorted list is enough.
func (o *oracle) insert(id, c int32) bool {
	if o.has(id, c) {
		return false
	}
	n := &o.nodes[id]
	n.order = append(n.order, c)
	switch {
	case n.ext != 0 && o.exts[n.ext-1].sorted != nil:
		e := &o.exts[n.ext-1]
		i, _ := slices.BinarySearch(e.sorted, c)
		e.sorted = slices.Insert(e.sorted, i, c)
	case len(n.order) > smallSet:
		o.ext(id).sorted = slices.Sorted(slices.Values(o.nodes[id].order))
	}
	return true
}

// isSub reports whether c is t or a subtype of t. Below a class only classes
// descend, and the hierarchy tells a subclass at once; a bitset per class would
// cost the square of a deep chain's depth (100,000 classes: 40 s).
func (o *oracle) isSub(c int32, t *hierarchy.Class) bool {
	if c >= o.nc {
		if o.isArray(c) {
			return o.arraySuper(t)
		}
		if o.openClass(c) {
			return true // its class is not known: every cast may succeed
		}
		c = o.extra[c-o.nc].cls.ID
	}
	switch {
	case t == o.h.Object():
		return true
	case !t.IsInterface():
		return o.h.IsSubclass(o.h.Classes()[c], t)
	}
	return o.subtypes(t)[c/64]&(1<<(c%64)) != 0
}

// subtypes returns the membership bits of t and its subtypes.
func (o *oracle) subtypes(t *hierarchy.Class) []uint64 {
	b := o.subBits[t.ID]
	if b == nil {
		b = make([]uint64, (len(o.h.Classes())+63)/64)
		o.h.AllSubtypes(t, func(x *hierarchy.Class) bool {
			b[x.ID/64] |= 1 << (x.ID % 64)
			return true
		})
		o.subBits[t.ID] = b
	}
	return b
}

func (o *oracle) accepts(f int32, c int32) bool {
	if f == noFilter {
		return true
	}
	if c >= o.nc {
		for _, t := range o.filterTypes[f] {
			if o.isSub(c, t) {
				return true
			}
		}
		return false
	}
	if b := o.filterBits[f]; b != nil {
		return b[c/64]&(1<<(c%64)) != 0
	}
	return o.isSub(c, o.filterTypes[f][0]) // one class (see filter)
}

// filter interns the filter of the given types: noFilter when one of them is
// Object (or unknown), ok false when there are none (nothing passes).
func (o *oracle) filter(ts []*hierarchy.Class) (f int32, ok bool) {
	if len(ts) == 0 {
		return 0, false
	}
	if len(ts) == 1 && ts[0] != nil {
		// The common case, without building a key.
		if v := o.single[ts[0].ID]; v != 0 {
			return v - 2, true
		}
		defer func() { o.single[ts[0].ID] = f + 2 }()
	}
	key := make([]byte, 0, 4*len(ts))
	for _, t := range ts {
		if t == nil || t.Phantom || t == o.h.Object() {
			return noFilter, true
		}
		key = append(key, byte(t.ID), byte(t.ID>>8), byte(t.ID>>16), byte(t.ID>>24))
	}
	k := filterKey(key)
	if f, ok := o.filters[k]; ok {
		return f, true
	}
	f = int32(len(o.filterBits))
	var b []uint64
	switch {
	case len(ts) == 1 && !ts[0].IsInterface():
		// nil: accepts asks isSub, without a bitset.
	case len(ts) == 1:
		b = o.subtypes(ts[0]) // shared, never written
	default:
		b = make([]uint64, (len(o.h.Classes())+63)/64)
		for _, t := range ts {
			for i, w := range o.subtypes(t) {
				b[i] |= w
			}
		}
	}
	o.filterBits = append(o.filterBits, b)
	o.filterTypes = append(o.filterTypes, slices.Clone(ts))
	o.filters[k] = f
	return f, true
}

// typeOf is the class of a field or return descriptor that may hold objects the
// sets track: nil and false for primitives, void and (under XTA) arrays, whose
// elements are in the elems node; Object's class for an array of references under
// TFA, which follows the program's arrays (objects.go), and for a missing class.
func (o *oracle) typeOf(desc string) (*hierarchy.Class, bool) {
	if o.flow != nil && refArray(desc) {
		return o.h.Object(), true // TFA follows the program's arrays (objects.go)
	}
	if len(desc) < 3 || desc[0] != 'L' {
		return nil, false
	}
	c := o.h.Class(desc[1 : len(desc)-1])
	if c == nil || c.Phantom {
		return o.h.Object(), true
	}
	return c, true
}

// paramFilter is what a method's parameters (this included) accept.
func (o *oracle) paramFilter(m *hierarchy.Method) (int32, bool) {
	return cachedFilter(&o.paramF[m.ID], func() (int32, bool) { return o.makeParamFilter(m) })
}

// returnFilter is what a method's result accepts.
func (o *oracle) returnFilter(m *hierarchy.Method) (int32, bool) {
	return cachedFilter(&o.returnF[m.ID], func() (int32, bool) { return o.makeReturnFilter(m) })
}

// cachedFilter returns the filter cached in *v (0: not yet; 1: nothing passes;
// else 3 + the filter, noFilter being -1), making it on first use.
func cachedFilter(v *int32, build func() (int32, bool)) (int32, bool) {
	switch *v {
	case 0:
		f, ok := build()
		if !ok {
			*v = 1
			return 0, false
		}
		*v = f + 3
		return f, true
	case 1:
		return 0, false
	}
	return *v - 3, true
}

func (o *oracle) makeParamFilter(m *hierarchy.Method) (int32, bool) {
	var ts []*hierarchy.Class
	if !m.IsStatic() {
		ts = append(ts, m.Class)
	}
	forEachParam(m.Desc, func(d string) {
		if c, ok := o.typeOf(d); ok {
			ts = append(ts, c)
		}
	})
	return o.filter(ts)
}

func (o *oracle) makeReturnFilter(m *hierarchy.Method) (int32, bool) {
	c, ok := o.typeOf(returnDesc(m.Desc))
	if !ok {
		return 0, false
	}
	return o.filter([]*hierarchy.Class{c})
}

// newNode appends a node and returns its ID.
func (o *oracle) newNode() int32 {
	o.nodes = append(o.nodes, node{})
	return int32(len(o.nodes) - 1)
}
