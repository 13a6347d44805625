package analysis

import (
	"cmp"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// The site report (Options.Sites) hands out dynamic sites while a run goes on, so
// that an editor can show them long before the fixed point.
//
// A site's record is final when it is appended: s.sites only grows, and resolveSite
// decides a site's status once, when its method is visited. What a site's edges
// reach may still grow, though: a dispatch group gains receivers under RTA, the
// method-handle set gains the targets of every later lookup, a resolved site's
// target set grows with the oracle's answers. So a site is reported only when it is
// settled: its target set and the sets of the edges resolved at its instruction are
// fixed sets (made by addSet: conservative fallback sets, singletons, initialisation
// chains, lists of resolved methods), which never grow. The others are in the final
// graph only.

// siteReport is a run's state of the site report.
type siteReport struct {
	fn       func(*callgraph.Graph)
	isFixed  []bool         // by set index: made by addSet
	own      map[int][2]int // by index in s.sites: the bundles its resolution added
	reported int            // sites in s.sites looked at already
	native   [2]int         // NativeMethod's bundles, once visited
	// nativeState is 0 before NativeMethod is visited, 1 until its edges are
	// reported, 2 after.
	nativeState uint8
	app         bool // an application method was visited since the last report
}

func newSiteReport(fn func(*callgraph.Graph)) *siteReport {
	return &siteReport{fn: fn, own: map[int][2]int{}}
}

// fixed notes that a set never grows.
func (r *siteReport) fixed(set int32) {
	for int(set) >= len(r.isFixed) {
		r.isFixed = append(r.isFixed, false)
	}
	r.isFixed[set] = true
}

// edges notes the bundles [first, end) that resolving site i added.
func (r *siteReport) edges(i, first, end int) {
	if end > first {
		r.own[i] = [2]int{first, end}
	}
}

// nativeVisited notes NativeMethod's bundles [first, end): fixed sets, all added at
// its one visit.
func (r *siteReport) nativeVisited(first, end int) {
	r.native, r.nativeState = [2]int{first, end}, 1
}

// step is called before each visit of node id, early when it comes from the
// solver's early stack (solver.next). It reports every 1024 steps, and as soon as
// the application methods queued so far are visited: the moment their sites are
// known.
func (r *siteReport) step(s *solver, id int32, early bool) {
	if s.steps&1023 == 0 || r.app && !early {
		r.report(s)
		r.app = false
	}
	r.app = r.app || early && id != s.native && s.methods[id].Class.Origin == hierarchy.Application
}

// report calls fn with the settled sites recorded since the last report.
func (r *siteReport) report(s *solver) {
	// Sites at one instruction are reported together or not at all: a reader of the
	// partial graph sees every edge resolved there, as in the final graph.
	type at struct{ caller, call int32 }
	unsettled := map[at]bool{}
	for i := r.reported; i < len(s.sites); i++ {
		if !r.settled(s, i) {
			unsettled[at{s.sites[i].Caller, s.sites[i].Call}] = true
		}
	}
	var sites []int
	for i := r.reported; i < len(s.sites); i++ {
		if !unsettled[at{s.sites[i].Caller, s.sites[i].Call}] {
			sites = append(sites, i)
		}
	}
	first := r.reported
	r.reported = len(s.sites)
	withNative := r.nativeState == 1
	if len(sites) == 0 && !withNative {
		for i := first; i < len(s.sites); i++ {
			delete(r.own, i)
		}
		return
	}
	g := &callgraph.Graph{
		Level: s.opts.Level, Algorithm: s.opts.Algorithm, NumNodes: len(s.methods) + 1, Native: s.native,
		// Reasons are only appended: the capped slice never sees a later write.
		Reasons: s.reasons[:len(s.reasons):len(s.reasons)],
	}
	renum := map[int32]int32{}
	set := func(i int32) int32 {
		if i < 0 {
			return i
		}
		if j, ok := renum[i]; ok {
			return j
		}
		j := int32(len(g.Sets))
		g.Sets = append(g.Sets, frozenSet(s.sets[i]))
		renum[i] = j
		return j
	}
	addBundles := func(span [2]int) {
		for _, b := range s.bundles[span[0]:span[1]] {
			b.Set = set(b.Set)
			g.Bundles = append(g.Bundles, b)
		}
	}
	for _, i := range sites {
		st := s.sites[i]
		st.Targets = set(st.Targets)
		g.Sites = append(g.Sites, st)
		addBundles(r.own[i])
	}
	for i := first; i < len(s.sites); i++ {
		delete(r.own, i)
	}
	if withNative {
		addBundles(r.native)
		r.nativeState = 2
	}
	// The final graph's orders: sites by caller and instruction (stable), bundles by
	// caller, then the other fields, without duplicates.
	slices.SortStableFunc(g.Sites, func(a, b callgraph.Site) int {
		return cmp.Or(cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.PC, b.PC))
	})
	slices.SortFunc(g.Bundles, func(a, b callgraph.Bundle) int {
		return cmp.Or(cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.PC, b.PC), cmp.Compare(a.Call, b.Call), cmp.Compare(a.Set, b.Set), cmp.Compare(a.Reason, b.Reason))
	})
	g.Bundles = slices.Compact(g.Bundles)
	r.fn(g)
}

// settled reports whether site i's target set and the sets of the edges its
// resolution added are fixed.
func (r *siteReport) settled(s *solver, i int) bool {
	if e := s.env; e != nil && (e.gone[i] || e.sites[i] != nil) {
		return false // resolved again if a key it took as unset is written
	}
	fixed := func(set int32) bool { return int(set) < len(r.isFixed) && r.isFixed[set] }
	if t := s.sites[i].Targets; t >= 0 && !fixed(t) {
		return false
	}
	span := r.own[i]
	for _, b := range s.bundles[span[0]:span[1]] {
		if !fixed(b.Set) {
			return false
		}
	}
	return true
}
