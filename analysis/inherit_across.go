package analysis

import (
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// inheritAcross is Inherit after an edit that added or removed classes or members
// of the application or its libraries: the IDs of everything after them moved
// (newIDMap), so what a keeps of prev is remapped. The JDK's code names no class of
// the application (outsideJDK), so the plans of the JDK's methods and the
// resolvers of its API methods are the same; the value index keeps its look-ups
// of the names the change does not touch (values.NewIndexAcross), the JDK model
// its evidence strings, and the conservative sets that depend on each method alone
// are kept with the changed classes' members replaced (inheritFallbacks). The CHA
// dispatch and the initialisation chains follow every class's members: they are
// made again.
func (a *Analyzer) inheritAcross(prev *Analyzer, changed []string) {
	idm := newIDMap(prev.h, a.h)
	var changedNew, goneOld []int32
	for _, n := range changed {
		if c := a.h.Class(n); c != nil {
			changedNew = append(changedNew, c.ID)
		} else if old := prev.h.Class(n); old != nil {
			goneOld = append(goneOld, old.ID)
		}
	}
	a.inheritValuesAcross(prev, changedNew, goneOld, idm)
	a.inheritModel(prev, idm)
	a.inheritFallbacks(prev, idm, changedNew)
	if !outsideJDK(slices.Values(changed), a.h, prev.h) {
		return
	}
	oms := prev.h.Methods()
	jdkMethod := func(old int32) bool { return oms[old].Class.Origin == hierarchy.JDK }
	// The JDK's IDs do not move when its classes come first on the class path, as
	// they do for the language server and the commands: its plans and API
	// resolvers are then shared as they are.
	fixed := idm.fixedFor(prev.h, hierarchy.JDK)
	prev.mu.Lock()
	var apiCache map[int32]int32
	apiLists := append([][]CallResolver(nil), prev.apiLists...)
	if fixed {
		apiCache = maps.Clone(prev.apiCache)
		for _, c := range prev.h.Classes() {
			if c.Origin != hierarchy.JDK {
				for _, m := range c.Methods {
					delete(apiCache, m.ID)
				}
			}
		}
	} else {
		apiCache = make(map[int32]int32, len(prev.apiCache))
		for old, idx := range prev.apiCache {
			if id := idm.id(old); id >= 0 && jdkMethod(old) {
				apiCache[id] = idx
			}
		}
	}
	prev.mu.Unlock()
	a.mu.Lock()
	a.apiCache, a.apiLists = apiCache, apiLists
	a.mu.Unlock()
	for old := range prev.plans {
		p := prev.plans[old].Load()
		if p == nil || !jdkMethod(int32(old)) {
			continue
		}
		id := idm.id(int32(old))
		if id < 0 {
			continue
		}
		if !fixed {
			if p = p.remap(idm); p == nil {
				continue
			}
		}
		a.plans[id].CompareAndSwap(nil, p)
	}
}

// fixedFor reports whether m maps every class and method of origin o in h, the
// previous hierarchy, to its own ID.
func (m *idMap) fixedFor(h *hierarchy.Hierarchy, o hierarchy.Origin) bool {
	for _, c := range h.Classes() {
		if c.Origin != o {
			continue
		}
		if m.class[c.ID] != c.ID {
			return false
		}
		for _, x := range c.Methods {
			if m.method[x.ID] != x.ID {
				return false
			}
		}
	}
	return true
}

// outsideJDK reports whether the JDK's code cannot name any of the classes names:
// none is in a package that has a class of the JDK in one of hs, or defined more
// than once on the class path (an application's class may then stand in for one of
// the JDK's). The JDK's code names its own classes only.
func outsideJDK(names iter.Seq[string], hs ...*hierarchy.Hierarchy) bool {
	for n := range names {
		pkg := ""
		if i := strings.LastIndexByte(n, '/'); i >= 0 {
			pkg = n[:i]
		}
		for _, h := range hs {
			if slices.ContainsFunc(h.PackageClasses(pkg), func(c *hierarchy.Class) bool { return c.Origin == hierarchy.JDK }) {
				return false
			}
			for _, p := range h.Problems() {
				if p.Kind == hierarchy.Duplicate && p.Class == n {
					return false
				}
			}
		}
	}
	return true
}

// inheritFallbacks gives a prev's conservative sets after a member edit, in the new
// IDs: each is prev's without the methods of the changed classes (changed: new
// IDs) and with those of their methods that belong to it now. Only the sets that
// depend on each method alone are kept: not those of a calling class (safeSet) or
// of a receiver's class (callShape.recv), and none when a changed class has other
// supertypes than before (a shape's argument classes may take other methods).
func (a *Analyzer) inheritFallbacks(prev *Analyzer, idm *idMap, changed []int32) {
	isChanged := make([]bool, len(a.h.Classes()))
	for _, id := range changed {
		isChanged[id] = true
	}
	for old, id := range idm.class {
		if id >= 0 && isChanged[id] && !hierarchy.SameSupertypes(prev.h.Classes()[old], a.h.Classes()[id]) {
			return
		}
	}
	prev.mu.Lock()
	sets := maps.Clone(prev.fallbacks)
	prev.mu.Unlock()
	ms := a.h.Methods()
	out := make(map[fallbackKey][]int32, len(sets))
	for k, ids := range sets {
		keep := k.kind.members()
		if keep == nil || k.ctx != 0 || k.shape.recv != 0 {
			continue
		}
		nk, ok := k, true
		for i, c := range k.shape.argClass {
			if c != 0 {
				if nk.shape.argClass[i] = idm.class[c-1] + 1; nk.shape.argClass[i] == 0 {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		nids := make([]int32, 0, len(ids))
		for _, old := range ids {
			if id := idm.id(old); id >= 0 && !isChanged[ms[id].Class.ID] {
				nids = append(nids, id)
			}
		}
		for _, c := range changed {
			for _, m := range a.h.Classes()[c].Methods {
				if keep(m) && (nk.shape == (callShape{}) || nk.shape.accepts(a.h, m)) {
					nids = append(nids, m.ID)
				}
			}
		}
		slices.Sort(nids)
		out[nk] = nids
	}
	a.mu.Lock()
	for k, ids := range out {
		if _, ok := a.fallbacks[k]; !ok {
			a.fallbacks[k] = ids
		}
	}
	a.mu.Unlock()
}

// remap returns p in the IDs of m, or nil when a class or method it names is gone.
func (p *methodPlan) remap(m *idMap) *methodPlan {
	np := &methodPlan{calls: make([]callPlan, len(p.calls)), classes: make([]int32, len(p.classes)), nAllocs: p.nAllocs}
	ok := true
	// id1 maps 1 + an ID; 0 stays 0.
	id1 := func(ids []int32, x int32) int32 {
		if x == 0 {
			return 0
		}
		if y := ids[x-1]; y >= 0 {
			return y + 1
		}
		ok = false
		return 0
	}
	for i, c := range p.calls {
		c.owner = id1(m.class, c.owner)
		c.resolved = id1(m.method, c.resolved)
		c.special = id1(m.method, c.special)
		np.calls[i] = c
	}
	for i, c := range p.classes {
		np.classes[i] = id1(m.class, c)
	}
	if !ok {
		return nil
	}
	return np
}

// inheritValuesAcross is inheritValuesIndex after a member edit.
func (a *Analyzer) inheritValuesAcross(prev *Analyzer, changed, gone []int32, idm *idMap) {
	a.valuesOnce.Do(func() {
		a.vindex = values.NewIndexAcross(a.prog, prev.valuesIndex(), changed, gone, values.IDMap{Classes: idm.class, Methods: idm.method})
	})
}
