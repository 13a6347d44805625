package analysis

import (
	"maps"
	"reflect"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// An update's probe meets the lambdas of the methods it visits: those of the
// changed methods (which create at least the lambdas they created before) and of the
// methods only the new code reaches. A lambda reaches, through every interface
// dispatch it matches, its implementation methods (lambdaSite). The dispatches of
// the methods the probe visits are its own groups; those of the others are the
// updated run's, whose lambda targets are the sets of Trace.ifaceLambda. A lambda
// new to them grows those sets in place (lambdaGrowth), its targets justified by its
// creator, and makes the targets reachable. What a probe cannot do so declines: a
// lambda of an interface the updated run created none of (its inherited default
// methods would match the dispatches on its superinterfaces), and a dispatch that
// had no lambda set (its sites would need a bundle to a new one).

// oldLambdaGroup is a dispatch on an interface of the updated run, as lambdaMatches
// needs it.
type oldLambdaGroup struct {
	g   group // key, rm, declared and keep
	set int32 // its lambda set in the updated graph, or -1
}

// probeLambdas is what a probe knows of the updated run's lambda dispatches.
type probeLambdas struct {
	byName map[string][]oldLambdaGroup
	ifaces map[int32]bool // the interfaces of the updated run's lambdas, by class ID
	// grown holds, by set of the updated graph, the members a lambda the probe
	// met adds to it, each with the method that created the lambda.
	grown map[int32]map[int32]int32
}

// oldLambdas indexes the updated run's interface dispatches by method name, once per
// probe.
func (s *solver) oldLambdas() *probeLambdas {
	if s.lambdaProbe != nil {
		return s.lambdaProbe
	}
	t := s.inherit.Trace
	pl := &probeLambdas{byName: map[string][]oldLambdaGroup{}, ifaces: t.lambdaIfaces, grown: map[int32]map[int32]int32{}}
	ms, cs := s.h.Methods(), s.h.Classes()
	for k, set := range t.ifaceLambda {
		rm, declared := ms[k.method], cs[k.declared]
		g := group{key: k, rm: rm, declared: declared, lambdaSet: set}
		if k.encap > 0 {
			from := cs[k.encap-1]
			g.keep = func(m *hierarchy.Method) bool { return m.IsPublic() || s.h.EncapsulationSafe(from, m) }
		}
		pl.byName[rm.Name] = append(pl.byName[rm.Name], oldLambdaGroup{g: g, set: set})
	}
	s.lambdaProbe = pl
	return pl
}

// probeLambda matches lambda l, met by a probe, against the updated run's dispatches,
// and reports whether the probe can go on (else s.unsupported says why).
func (s *solver) probeLambda(l *lambda) bool {
	pl := s.oldLambdas()
	if !pl.ifaces[l.iface.ID] {
		s.unsupported = "a lambda of " + l.iface.Name + ", of which the graph had none, is created"
		return false
	}
	old := s.inherit.Graph.Sets
	for i := range pl.byName[l.name] {
		og := &pl.byName[l.name][i]
		if !s.lambdaMatches(&og.g, l) {
			continue
		}
		if og.set < 0 {
			s.unsupported = "a dispatch on " + og.g.declared.Name + "." + og.g.rm.Name + " newly meets a lambda"
			return false
		}
		for _, id := range l.targets {
			if og.g.keep != nil && !og.g.keep(s.methods[id]) {
				continue
			}
			if _, in := slices.BinarySearch(old[og.set], id); in {
				continue
			}
			add := pl.grown[og.set]
			if add == nil {
				add = map[int32]int32{}
				pl.grown[og.set] = add
			}
			if _, ok := add[id]; ok {
				continue
			}
			add[id] = l.creator
			s.condFrom = l.creator
			s.reachable(id)
			s.condFrom = -1
		}
	}
	return true
}

// grownSets returns the updated graph's sets with what the probe added to them, and
// its conditional sets likewise (both copied when they change); grew says whether
// any did, and why, when not "", the probe took members away. The probe adds to the
// lambda sets of dispatches it did not visit (probeLambda) and to the sets it
// inherited (inheritLambdaSet, handles), which it may only grow: their new members,
// which it reached, are justified as it justified them (by the lambda's creator, by
// the method that made the handle).
func (s *solver) grownSets(g, pg *callgraph.Graph, cond map[int32]map[int32]int32) (sets [][]int32, outCond map[int32]map[int32]int32, grew bool, why string) {
	add := map[int32]map[int32]int32{}
	if s.lambdaProbe != nil {
		for set, members := range s.lambdaProbe.grown {
			add[set] = maps.Clone(members)
		}
	}
	for ps, os := range s.inherited {
		probe, old := pg.Sets[ps], g.Sets[os]
		for _, id := range old {
			if _, in := slices.BinarySearch(probe, id); !in {
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
	if len(add) == 0 {
		return g.Sets, cond, false, ""
	}
	sets, outCond = slices.Clone(g.Sets), maps.Clone(cond)
	for set, members := range add {
		grown := slices.Clone(g.Sets[set])
		c := maps.Clone(cond[set])
		if c == nil {
			c = map[int32]int32{}
		}
		for id, from := range members {
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

// lambdasKept reports whether a changed method creates at least the lambdas it
// created before (in values: the same bootstrap arguments): the old ones' members of
// lambda sets stay justified, and the probe adds the new ones (probeLambda).
func lambdasKept(before, after []facts.Indy) bool {
	left := slices.Clone(after)
	for _, b := range before {
		i := slices.IndexFunc(left, func(a facts.Indy) bool { return reflect.DeepEqual(a, b) })
		if i < 0 {
			return false
		}
		left = slices.Delete(left, i, i+1)
	}
	return true
}
