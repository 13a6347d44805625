package analysis

import (
	"maps"

	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// inheritAcross is Inherit after an edit that added or removed classes or members
// of the application or its libraries: the IDs of everything after them moved
// (newIDMap), so what a keeps of prev is remapped. The JDK's code names no class of
// the application, so the plans of the JDK's methods and the resolvers of its API
// methods are the same (unless a changed class shadows one of the JDK's: then
// they are made again); the value index keeps its look-ups of the names the
// change does not touch (values.NewIndexAcross), and the JDK model its evidence
// strings. The CHA dispatch, the initialisation chains and the conservative sets
// follow every class's members: they are made again.
func (a *Analyzer) inheritAcross(prev *Analyzer, changed []string) {
	idm := newIDMap(prev.h, a.h)
	var changedNew, goneOld []int32
	jdk := false
	for _, n := range changed {
		c, old := a.h.Class(n), prev.h.Class(n)
		if c != nil {
			changedNew = append(changedNew, c.ID)
			jdk = jdk || c.Origin == hierarchy.JDK
		} else if old != nil {
			goneOld = append(goneOld, old.ID)
		}
		jdk = jdk || old != nil && old.Origin == hierarchy.JDK || shadows(a.h, n) || shadows(prev.h, n)
	}
	a.inheritValuesAcross(prev, changedNew, goneOld, idm)
	a.inheritModel(prev, idm)
	if jdk {
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

// shadows reports whether class name n is defined more than once on h's class
// path: a JDK class may then be the application's, and the JDK's code name it.
func shadows(h *hierarchy.Hierarchy, n string) bool {
	for _, p := range h.Problems() {
		if p.Kind == hierarchy.Duplicate && p.Class == n {
			return true
		}
	}
	return false
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
