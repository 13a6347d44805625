package callgraph

// FeatureStats counts the dynamic sites of one feature.
type FeatureStats struct {
	Total, Resolved, Partial, Unresolved, Specified int
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
	}
	return out
}
