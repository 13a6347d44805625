package callgraph

// FeatureStats counts the dynamic sites of one feature.
type FeatureStats struct {
	Total, Resolved, Partial, Unresolved, Specified int
	// Resolvable counts the sites the level's assumptions let an analysis resolve:
	// those resolved, and from Correct-String on, the loading, instantiation and
	// invocation sites (those the value analyses answer) unresolved with no unknown
	// value from a source the level does not license (SpecPoint.Beyond). Only such
	// evidence excludes a site: one without points counts as resolvable, a failure
	// of the analysis rather than of the level.
	Resolvable int
}

// SiteStats counts the dynamic sites of g by feature. Resolved includes specified
// sites; Unresolved includes partially resolved ones (they still use a fallback).
func SiteStats(g *Graph) map[Feature]*FeatureStats {
	return SiteStatsWhere(g, func(*Site) bool { return true })
}

// SiteStatsWhere is SiteStats over the sites keep accepts.
func SiteStatsWhere(g *Graph, keep func(*Site) bool) map[Feature]*FeatureStats {
	out := map[Feature]*FeatureStats{}
	for _, f := range Features {
		out[f] = &FeatureStats{}
	}
	for i := range g.Sites {
		s := &g.Sites[i]
		if !keep(s) {
			continue
		}
		st := out[s.Feature]
		st.Total++
		switch s.Status {
		case Resolved:
			st.Resolved++
		case Specified:
			st.Resolved++
			st.Specified++
		case Partial:
			st.Partial++
			st.Unresolved++
		default:
			st.Unresolved++
		}
		if s.Resolvable(g.Level) {
			st.Resolvable++
		}
	}
	return out
}

// Resolvable reports whether the assumptions of level let an analysis resolve s
// (FeatureStats.Resolvable).
func (s *Site) Resolvable(level Level) bool {
	valued := s.Feature == FeatLoading || s.Feature == FeatInstantiation || s.Feature == FeatInvocation
	return s.Status == Resolved || s.Status == Specified || (level.TrustsStrings() && valued && !s.BeyondLevel())
}

// BeyondLevel reports whether some unknown value of s comes from a source the level
// does not license (SpecPoint.Beyond).
func (s *Site) BeyondLevel() bool {
	for _, p := range s.Points {
		if p.Beyond {
			return true
		}
	}
	return false
}

// DispatchStats counts the virtual and interface call sites of the callers keep
// selects (by node), and those of them with at most one target: the share of
// calls an algorithm resolves to a single method (or finds dead), its precision
// where users read call hierarchies. A site's targets are those of its dispatch
// and of the lambdas it may call.
func DispatchStats(g *Graph, keep func(caller NodeID) bool) (sites, single int) {
	type at struct{ caller, pc int32 }
	type site struct {
		dispatch bool // the site has a virtual or interface dispatch (not only lambdas)
		targets  map[int32]bool
	}
	bySite := map[at]*site{}
	for _, b := range g.Bundles {
		if b.Caller == g.Native || !keep(b.Caller) {
			continue
		}
		kind := g.Reasons[b.Reason].Kind
		if kind != KindVirtual && kind != KindInterface && kind != KindLambda {
			continue
		}
		k := at{b.Caller, b.PC}
		st := bySite[k]
		if st == nil {
			st = &site{targets: map[int32]bool{}}
			bySite[k] = st
		}
		st.dispatch = st.dispatch || kind != KindLambda
		for _, t := range g.Sets[b.Set] {
			if len(st.targets) > 1 {
				break // two are enough to know
			}
			st.targets[t] = true
		}
	}
	for _, st := range bySite {
		if st.dispatch {
			sites++
			if len(st.targets) <= 1 {
				single++
			}
		}
	}
	return sites, single
}
