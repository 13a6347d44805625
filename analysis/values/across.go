package values

import (
	"slices"

	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// IDMap maps the class and method IDs of a previous hierarchy to those of a new
// one after an edit of members: -1 for a class or method that is gone.
type IDMap struct {
	Classes, Methods []int32
}

// NewIndexAcross is NewIndexAfter for an edit that added or removed classes or
// members (a new hierarchy: hierarchy.New), whose IDs ids maps; changed holds the
// new IDs of the classes whose files changed or came, and gone the previous IDs of
// those that went. What prev looked up is kept, in the new IDs, for the names and
// descriptors that the changed classes neither name in their code nor declare,
// before or after the edit: the callers of such a method are the same calls. It
// keeps nothing when a changed class has other supertypes than before (the
// dispatch of every name it inherits may differ), and nothing of the CHA dispatch.
func NewIndexAcross(prog Program, prev *Index, changed, gone []int32, ids IDMap) *Index {
	ix := &Index{prog: prog}
	if prev == nil || len(ids.Classes) != len(prev.prog.Hierarchy().Classes()) || len(ids.Methods) < len(prev.prog.Hierarchy().Methods()) {
		return ix
	}
	oh, nh := prev.prog.Hierarchy(), prog.Hierarchy()
	// The changed classes in the previous hierarchy, and whether any changed its
	// supertypes.
	isChanged := make([]bool, len(nh.Classes()))
	for _, id := range changed {
		isChanged[id] = true
	}
	oldChanged := slices.Clone(gone)
	for old, id := range ids.Classes {
		if id >= 0 && isChanged[id] {
			oldChanged = append(oldChanged, int32(old))
			if !hierarchy.SameSupertypes(oh.Classes()[old], nh.Classes()[id]) {
				return ix
			}
		}
	}
	// What the changed classes' code names, before and after, and the keys their
	// members declare, before and after: the callers of a method of such a key may
	// differ.
	named := codeDeltas{}
	declared := map[refKey]bool{}
	declare := func(c *hierarchy.Class) {
		for _, m := range c.Methods {
			declared[refKey{m.Name, m.Desc}] = true
		}
	}
	for _, old := range oldChanged {
		named.before(prev.prog, oh.Classes()[old])
		declare(oh.Classes()[old])
	}
	for _, id := range changed {
		named.after(prog, nh.Classes()[id])
		declare(nh.Classes()[id])
	}
	nms := nh.Methods()
	// remapRefs returns refs in the new IDs, without the changed classes' calls.
	remapRefs := func(refs []CallRef) []CallRef {
		out := make([]CallRef, 0, len(refs))
		for _, cr := range refs {
			if id := ids.Methods[cr.Caller.ID]; id >= 0 && !isChanged[nms[id].Class.ID] {
				out = append(out, CallRef{nms[id], cr.Call})
			}
		}
		return out
	}

	if refs := prev.built.Load(); refs != nil {
		r, fresh := refs.remap(ids.Classes, len(nh.Classes()))
		ix.refs = r
		ix.built.Store(r)
		ix.refsOnce.Do(func() {}) // r is complete
		// The changed classes, the new ones and those prev treated so, in new IDs.
		extra := append(slices.Clone(changed), fresh...)
		for _, old := range prev.extra {
			if id := ids.Classes[old]; id >= 0 {
				extra = append(extra, id)
			}
		}
		ix.extra = slices.Compact(slices.Sorted(slices.Values(extra)))
	}
	prev.refsMu.Lock()
	if prev.named != nil {
		ix.named, ix.partial = map[refKey]*namedRefs{}, map[refKey]*namedRefs{}
		ix.indexed = make([]bool, len(nh.Classes()))
		for k, n := range prev.named {
			if d := named[k]; d != nil {
				ix.named[k] = d.apply(remapRefs(n.calls), n.handles)
				continue
			}
			nn := &namedRefs{calls: remapRefs(n.calls), handles: n.handles}
			slices.SortFunc(nn.calls, byCall)
			ix.named[k] = nn
		}
	}
	prev.refsMu.Unlock()
	prev.callerMu.Lock()
	if prev.callerCache != nil {
		oms := oh.Methods()
		ix.callerCache = map[int32][]CallRef{}
		for old, refs := range prev.callerCache {
			m := oms[old]
			k := refKey{m.Name, m.Desc}
			id := ids.Methods[old]
			if id < 0 || named[k] != nil || declared[k] || isChanged[nms[id].Class.ID] {
				continue
			}
			out := remapRefs(refs)
			if len(out) != len(refs) {
				continue // a caller in a changed class: found again
			}
			slices.SortFunc(out, byCall)
			ix.callerCache[id] = out
		}
	}
	prev.callerMu.Unlock()
	return ix
}

// remap returns r with its classes in the IDs classes maps them to (n classes in
// all), and the classes that no previous class maps to: r knows nothing of their
// code.
func (r *refIndex) remap(classes []int32, n int) (_ *refIndex, fresh []int32) {
	out := &refIndex{seed: r.seed, mask: r.mask, start: make([]int32, len(r.start)), classes: make([]int32, 0, len(r.classes))}
	for b := range len(r.start) - 1 {
		first := len(out.classes)
		for _, old := range r.classes[r.start[b]:r.start[b+1]] {
			if id := classes[old]; id >= 0 {
				out.classes = append(out.classes, id)
			}
		}
		slices.Sort(out.classes[first:])
		out.start[b+1] = int32(len(out.classes))
	}
	known := make([]bool, n)
	for _, id := range classes {
		if id >= 0 {
			known[id] = true
		}
	}
	for id, k := range known {
		if !k {
			fresh = append(fresh, int32(id))
		}
	}
	return out, fresh
}
