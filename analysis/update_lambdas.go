package analysis

import (
	"maps"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// An update's probe meets the lambdas of the methods it visits: those of the
// changed methods and of the methods only the new code reaches. A lambda reaches,
// through every interface dispatch it matches, its implementation methods
// (lambdaSite), and through the dispatches on its interface's superinterfaces the
// default methods it inherits (matchDefault). The dispatches of the methods the
// probe visits are its own groups; those of the others are the updated run's, whose
// lambda targets are the sets of Trace.ifaceLambda. A lambda new to them grows those
// sets in place (growOld), its targets justified by its creator, and makes the
// targets reachable; a dispatch that had no lambda set has all its callers visited
// again, and the probe makes the set (freshLambdaSet). The other way, the run's
// lambdas (Trace.lambdas) give a dispatch the probe makes anew its targets
// (newLambdaDispatch), and a target whose justifying creator no longer creates it
// another justification (otherCreator), else it leaves the set (lambdasDropped,
// unjustified), as in a new run.

// oldLambdaGroup is a dispatch on an interface of the updated run, as lambdaMatches
// needs it.
type oldLambdaGroup struct {
	g   group // key, rm, declared and keep
	set int32 // its lambda set in the updated graph, or -1
}

// probeLambdas is what a probe knows of the updated run's lambda dispatches.
type probeLambdas struct {
	byName map[string][]oldLambdaGroup
	// grown holds, by set of the updated graph, the members a lambda the probe
	// met adds to it, each with the method that created the lambda; again, the
	// members it had that such a lambda adds again.
	grown, again map[int32]map[int32]int32
	defaults     map[int32]bool // interfaces whose inherited default methods were matched (matchDefault)
	// fresh are the dispatches that had no lambda set and meet a lambda now: the
	// probe visits all their callers again, and makes the set (ensureLambdaSet).
	fresh map[dispatchKey]bool
	// dispatchSets gives the updated graph's target sets of each dispatch.
	dispatchSets map[dispatchKey][]int32
	// recsByName and recsByIface index the updated run's lambdas (Trace.lambdas),
	// whose interfaces are ifaces, in the order of their first lambda.
	recsByName  map[string][]int
	recsByIface map[int32][]int
	ifaces      []int32
}

// oldLambdas indexes the updated run's interface dispatches by method name, once per
// probe.
func (s *solver) oldLambdas() *probeLambdas {
	if s.lambdaProbe != nil {
		return s.lambdaProbe
	}
	t := s.inherit.Trace
	pl := &probeLambdas{byName: map[string][]oldLambdaGroup{}, grown: map[int32]map[int32]int32{}, again: map[int32]map[int32]int32{}, defaults: map[int32]bool{},
		fresh: map[dispatchKey]bool{}, dispatchSets: map[dispatchKey][]int32{}}
	for set, k := range t.groups {
		pl.dispatchSets[k] = append(pl.dispatchSets[k], set)
	}
	pl.recsByName, pl.recsByIface = map[string][]int{}, map[int32][]int{}
	for i, r := range t.lambdas {
		pl.recsByName[r.name] = append(pl.recsByName[r.name], i)
		if pl.recsByIface[r.iface] == nil {
			pl.ifaces = append(pl.ifaces, r.iface)
		}
		pl.recsByIface[r.iface] = append(pl.recsByIface[r.iface], i)
	}
	for k, set := range t.ifaceLambda {
		g := s.keyGroup(k)
		g.lambdaSet = set
		pl.byName[g.rm.Name] = append(pl.byName[g.rm.Name], oldLambdaGroup{g: *g, set: set})
	}
	s.lambdaProbe = pl
	return pl
}

// probeLambda matches lambda l, met by a probe, against the updated run's dispatches.
func (s *solver) probeLambda(l *lambda) {
	pl := s.oldLambdas()
	old := s.inherit.Graph.Sets
	if !pl.defaults[l.iface.ID] {
		// The default methods a lambda of the interface inherits are members of the
		// lambda sets of the dispatches that select them (matchDefault): the updated
		// run's when it had lambdas of the interface, else added now.
		pl.defaults[l.iface.ID] = true
		for _, ogs := range pl.byName {
			for i := range ogs {
				og := &ogs[i]
				m := s.inheritedDefault(&og.g, l.iface)
				if m == nil {
					continue
				}
				if og.set < 0 {
					s.freshLambdaSet(og)
					continue
				}
				if _, in := slices.BinarySearch(old[og.set], m.ID); in {
					addTo(pl.again, og.set, m.ID, l.creator)
					continue
				}
				s.growOld(og.set, m.ID, l.creator)
			}
		}
	}
	for i := range pl.byName[l.name] {
		og := &pl.byName[l.name][i]
		if !s.lambdaMatches(&og.g, l) {
			continue
		}
		if og.set < 0 {
			s.freshLambdaSet(og)
			continue
		}
		for _, id := range l.targets {
			if og.g.keep != nil && !og.g.keep(s.methods[id]) {
				continue
			}
			if _, in := slices.BinarySearch(old[og.set], id); in {
				addTo(pl.again, og.set, id, l.creator)
				continue
			}
			s.growOld(og.set, id, l.creator)
		}
	}
}

// newLambdaDispatch matches a dispatch on an interface that the updated run did not
// make, or made without a lambda set, against that run's lambdas (Trace.lambdas),
// but those whose creators the probe visits again: it meets those itself. (A
// lambda the run or an update met after the dispatch's callers had all gone did not
// give the dispatch a set.) The probe makes the dispatch's lambda set, visiting all
// its callers (ensureLambdaSet), with the members justified by the lambdas'
// creators.
func (s *solver) newLambdaDispatch(g *group) {
	pl, recs := s.oldLambdas(), s.inherit.Trace.lambdas
	for _, i := range pl.recsByName[g.rm.Name] {
		if r := &recs[i]; !s.changed.Has(r.creator) {
			s.matchLambda(g, r.lambda(s.h))
		}
	}
	for _, iface := range pl.ifaces {
		for _, i := range pl.recsByIface[iface] {
			r := &recs[i]
			if s.changed.Has(r.creator) {
				continue
			}
			// Any creator of a lambda of the interface justifies its default methods.
			if m := s.inheritedDefault(g, s.h.Classes()[iface]); m != nil {
				s.ensureLambdaSet(g)
				s.growCond(g.lambdaSet, m.ID, r.creator)
			}
			break
		}
	}
}

// growOld adds member id, justified by creator, to set of the updated graph, and
// makes it reachable.
func (s *solver) growOld(set, id, creator int32) {
	pl := s.lambdaProbe
	if _, ok := pl.grown[set][id]; ok {
		return
	}
	addTo(pl.grown, set, id, creator)
	s.condFrom = creator
	s.reachable(id)
	s.condFrom = -1
}

// freshLambdaSet has the probe visit again every caller of og, a dispatch of the
// updated run that had no lambda set and meets one of the probe's lambdas now: the
// callers' dispatches are then the probe's, whose lambda set it makes.
func (s *solver) freshLambdaSet(og *oldLambdaGroup) {
	pl := s.lambdaProbe
	if pl.fresh[og.g.key] {
		return
	}
	pl.fresh[og.g.key] = true
	sets := pl.dispatchSets[og.g.key]
	for _, b := range s.inherit.Graph.Bundles {
		if slices.Contains(sets, b.Set) && b.Caller != s.native && s.changed.Add(b.Caller) {
			s.early = append(s.early, b.Caller)
		}
	}
}

// freshLambdaSets records in t the lambda sets the probe made (freshLambdaSet,
// newLambdaDispatch), at their numbers in the updated graph (setMap), and the
// interface dispatches it made that the updated run had not (with -1 when they have
// no lambda set), and reports whether it made any set.
func (s *solver) freshLambdaSets(t *Trace, setMap map[int32]int32) bool {
	made := false
	cloned := false
	record := func(g *group) {
		_, known := t.ifaceLambda[g.key]
		fresh := g.lambdaSet >= 0 && s.lambdaProbe != nil && s.lambdaProbe.fresh[g.key]
		if known && !fresh || !g.declared.IsInterface() {
			return
		}
		if !cloned {
			t.ifaceLambda, t.cond, cloned = maps.Clone(t.ifaceLambda), maps.Clone(t.cond), true
		}
		t.ifaceLambda[g.key] = -1
		if j, ok := setMap[g.lambdaSet]; ok && g.lambdaSet >= 0 {
			t.ifaceLambda[g.key] = j
			t.cond[j] = maps.Clone(s.cond[g.lambdaSet])
			made = true
		}
	}
	for _, g := range s.plain {
		record(g)
	}
	for _, g := range s.groups {
		record(g)
	}
	return made || s.lambdaProbe != nil && len(s.lambdaProbe.fresh) > 0
}

// grownSets returns the updated graph's sets with what the probe added to them, and
// its conditional sets likewise (both copied when they change); grew says whether
// any did, and why, when not "", the probe took members away. The probe adds to the
// lambda sets of dispatches it did not visit (probeLambda) and to the sets it
// inherited (inheritLambdaSet, handles), which it may only grow: their new members,
// which it reached, are justified as it justified them (by the lambda's creator, by
// the method that made the handle).
func (s *solver) grownSets(g, pg *callgraph.Graph, cond map[int32]map[int32]int32, visited callgraph.Bitset) (sets [][]int32, outCond map[int32]map[int32]int32, grew bool, why string) {
	add := map[int32]map[int32]int32{}
	if s.lambdaProbe != nil {
		for set, members := range s.lambdaProbe.grown {
			add[set] = maps.Clone(members)
		}
	}
	drop, rejust := s.lambdasDropped(cond, visited)
	for ps, os := range s.inherited {
		if len(drop[os]) > 0 {
			pg.Sets[ps] = slices.DeleteFunc(slices.Clone(pg.Sets[ps]), func(id int32) bool { return drop[os][id] })
		}
		probe, old := pg.Sets[ps], g.Sets[os]
		for _, id := range old {
			if _, in := slices.BinarySearch(probe, id); !in && !drop[os][id] {
				return nil, nil, false, "the lambda or method-handle targets of a changed method changed"
			}
		}
		for _, id := range probe {
			if _, in := slices.BinarySearch(old, id); in {
				continue
			}
			if add[os] == nil {
				add[os] = map[int32]int32{}
			}
			if _, ok := add[os][id]; !ok {
				from, ok := s.cond[ps][id]
				if !ok {
					from = -1
				}
				add[os][id] = from
			}
		}
	}
	if len(add) == 0 && len(drop) == 0 && len(rejust) == 0 {
		return g.Sets, cond, false, ""
	}
	sets, outCond = slices.Clone(g.Sets), maps.Clone(cond)
	touched := setsOf(add, drop)
	for set := range rejust {
		touched[set] = true
	}
	for _, set := range slices.Sorted(maps.Keys(touched)) {
		grown := slices.DeleteFunc(slices.Clone(g.Sets[set]), func(id int32) bool { return drop[set][id] })
		c := maps.Clone(cond[set])
		if c == nil {
			c = map[int32]int32{}
		}
		for id := range drop[set] {
			delete(c, id)
		}
		maps.Copy(c, rejust[set])
		for id, from := range add[set] {
			grown = append(grown, id)
			if _, ok := c[id]; !ok && from >= 0 {
				c[id] = from
			}
		}
		slices.Sort(grown)
		sets[set], outCond[set] = grown, c
	}
	return sets, outCond, true, ""
}

// lambdasDropped returns, by set of the updated graph, the lambda targets the
// probe takes away, and those it justifies otherwise (rejust: member -> method).
// A member whose justification is a method the probe visited again, or one a member
// edit removed (condGone), keeps its place when a lambda the probe met adds it again
// or when another creator of the updated run that the probe did not visit creates a
// lambda that gives it (otherCreator); it goes otherwise, as in a new run.
func (s *solver) lambdasDropped(cond map[int32]map[int32]int32, visited callgraph.Bitset) (drop map[int32]map[int32]bool, rejust map[int32]map[int32]int32) {
	t := s.inherit.Trace
	again := func(set, id int32) (int32, bool) {
		if s.lambdaProbe != nil {
			if from, ok := s.lambdaProbe.again[set][id]; ok {
				return from, true
			}
		}
		for ps, os := range s.inherited {
			if from, ok := s.cond[ps][id]; ok && os == set {
				return from, true
			}
		}
		return -1, false
	}
	notVisited := func(creator int32) bool { return !visited.Has(creator) }
	drop, rejust = map[int32]map[int32]bool{}, map[int32]map[int32]int32{}
	for k, set := range t.ifaceLambda {
		if set < 0 {
			continue
		}
		for id, from := range cond[set] {
			if from != condGone && (from < 0 || !visited.Has(from)) {
				continue
			}
			by, ok := again(set, id)
			if !ok {
				by = s.otherCreator(t.lambdas, k, id, notVisited)
				ok = by >= 0
			}
			switch {
			case !ok:
				if drop[set] == nil {
					drop[set] = map[int32]bool{}
				}
				drop[set][id] = true
			case by != from:
				if rejust[set] == nil {
					rejust[set] = map[int32]int32{}
				}
				rejust[set][id] = by
			}
		}
	}
	return drop, rejust
}

// emptyLambdaSets takes from g, which the update owns, the bundles of the lambda sets
// that lost every member, and has t record their dispatches as without a lambda
// set: a new run makes a dispatch's lambda set only when a lambda matches it.
func emptyLambdaSets(g *callgraph.Graph, t *Trace) {
	var empty map[int32]bool
	for k, set := range t.ifaceLambda {
		if set < 0 || len(g.Sets[set]) > 0 {
			continue
		}
		if empty == nil {
			empty, t.ifaceLambda = map[int32]bool{}, maps.Clone(t.ifaceLambda)
		}
		empty[set] = true
		t.ifaceLambda[k] = -1
	}
	if empty != nil {
		g.Bundles = slices.DeleteFunc(slices.Clone(g.Bundles), func(b callgraph.Bundle) bool { return empty[b.Set] })
	}
}

// condGone is the justification of a lambda target whose justifying method a member
// edit removed (idMap.trace): lambdasDropped finds it another or takes it away.
const condGone = -2

// otherCreator returns the creator of a lambda of recs, accepted by ok, through
// which the dispatch of key k reaches method id: as the lambda's implementation or
// as a default method the lambda inherits. -1 when there is none.
func (s *solver) otherCreator(recs []lambdaRec, k dispatchKey, id int32, ok func(creator int32) bool) int32 {
	g := s.keyGroup(k)
	if g.keep != nil && !g.keep(s.methods[id]) {
		return -1
	}
	for i := range recs {
		r := &recs[i]
		if !ok(r.creator) {
			continue
		}
		l := r.lambda(s.h)
		if r.name == g.rm.Name && s.lambdaMatches(g, l) && slices.Contains(r.targets, id) {
			return r.creator
		}
		if m := s.inheritedDefault(g, l.iface); m != nil && m.ID == id {
			return r.creator
		}
	}
	return -1
}

// rejustify gives the lambda targets of t whose justifying methods reached lacks
// another justification, by a lambda of t whose creator it has, and reports whether
// it gave any (t.cond is copied where it changes).
func (s *solver) rejustify(t *Trace, reached callgraph.Bitset) bool {
	changed := false
	for k, set := range t.ifaceLambda {
		if set < 0 {
			continue
		}
		for id, from := range t.cond[set] {
			if from < 0 || reached.Has(from) {
				continue
			}
			if by := s.otherCreator(t.lambdas, k, id, reached.Has); by >= 0 {
				if !changed {
					t.cond = maps.Clone(t.cond)
				}
				changed = true
				c := maps.Clone(t.cond[set])
				c[id] = by
				t.cond[set] = c
			}
		}
	}
	return changed
}

// unjustified takes from g, which the update owns, the lambda targets whose
// justifying methods reached lacks (rejustify found no other), as a new run, whose
// lambdas are those of the reached methods, makes the sets; t.cond loses them too.
func unjustified(g *callgraph.Graph, t *Trace, reached callgraph.Bitset) {
	cloned := false
	for _, set := range t.ifaceLambda {
		if set < 0 {
			continue
		}
		gone := func(id int32) bool { from, ok := t.cond[set][id]; return ok && from >= 0 && !reached.Has(from) }
		if !slices.ContainsFunc(g.Sets[set], gone) {
			continue
		}
		if !cloned {
			g.Sets, t.cond, cloned = slices.Clone(g.Sets), maps.Clone(t.cond), true
		}
		g.Sets[set] = slices.DeleteFunc(slices.Clone(g.Sets[set]), gone)
		c := maps.Clone(t.cond[set])
		maps.DeleteFunc(c, func(id, _ int32) bool { return gone(id) })
		t.cond[set] = c
	}
}

// setsOf returns the keys of both maps.
func setsOf[V any, W any](a map[int32]V, b map[int32]W) map[int32]bool {
	out := make(map[int32]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// addTo records member id of set, justified by from, in m.
func addTo(m map[int32]map[int32]int32, set, id, from int32) {
	if m[set] == nil {
		m[set] = map[int32]int32{}
	}
	if _, ok := m[set][id]; !ok {
		m[set][id] = from
	}
}
