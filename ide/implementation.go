package ide

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Implementations answers "Go to Implementations" from the snapshot's graph, where
// IDEs answer from the sources' class hierarchy:
//   - at a call, the methods the graph has as its targets, over every kind of edge
//     (virtual dispatch at the level's and algorithm's precision, reflection, method
//     handles, lambdas, the JVM's callbacks);
//   - at a method's declaration, the methods that override it and that the graph
//     reaches;
//   - at a type's name (declared or written as a type), its subtypes of which the
//     graph reaches some method.
//
// Locations are in source order (files, then class listings, each by position);
// methods and classes without source are in their listings. Beyond the configured
// maximum (Settings.MaxCallItems) application and library code is kept first.
func (s *Session) Implementations(ctx context.Context, snap *Snapshot, doc Doc, pos Position) []Location {
	g := snap.Graph
	if g == nil {
		return nil
	}
	t := s.resolve(snap, doc, pos)
	var nodes []int32
	switch {
	case t.call >= 0:
		if !reachableNode(g, t.caller.ID) {
			return nil // no edges: the graph does not reach the call
		}
		seen := map[int32]bool{}
		for _, b := range bundlesAt(g, t.caller.ID, int32(t.call)) {
			for _, n := range g.Sets[b.Set] {
				if !seen[n] && snap.Method(n) != nil {
					seen[n] = true
					nodes = append(nodes, n)
				}
			}
		}
		slices.Sort(nodes)
	case t.decl:
		nodes = overriders(snap, t.methods)
	default:
		c := s.typeAt(snap, doc, pos)
		if c == nil {
			return nil
		}
		return s.subclassLocations(ctx, snap, c)
	}
	nodes = pickTargets(snap, nodes, s.limit())
	out := make([]Location, 0, len(nodes))
	for i, n := range nodes {
		if i%256 == 0 && ctx.Err() != nil {
			return nil
		}
		loc := s.methodLocation(snap, snap.Method(n))
		out = append(out, Location{Doc: loc.doc, Range: loc.sel})
	}
	sortLocations(out)
	return out
}

// limit is the most items an answer lists.
func (s *Session) limit() int {
	if n := s.Settings().MaxCallItems; n > 0 {
		return n
	}
	return 1 << 30
}

// overriders returns the reachable methods that override one of ms (instance methods
// other than constructors), in ID order.
func overriders(snap *Snapshot, ms []*hierarchy.Method) []int32 {
	g := snap.Graph
	h := snap.Hierarchy()
	seen := map[int32]bool{}
	var out []int32
	for _, m := range ms {
		if m.IsStatic() || m.IsPrivate() || strings.HasPrefix(m.Name, "<") {
			continue
		}
		h.SelectSubtypes(m.Class, m, func(_ *hierarchy.Class, sel *hierarchy.Method) bool {
			if sel != nil && sel != m && !seen[sel.ID] && g.Reachable.Has(sel.ID) {
				seen[sel.ID] = true
				out = append(out, sel.ID)
			}
			return true
		})
	}
	slices.Sort(out)
	return out
}

// subclassLocations returns where the subtypes of c (transitively) that the graph
// reaches are declared.
func (s *Session) subclassLocations(ctx context.Context, snap *Snapshot, c *hierarchy.Class) []Location {
	cr := classReachOf(snap)
	var subs []*hierarchy.Class
	snap.Hierarchy().AllSubtypes(c, func(sc *hierarchy.Class) bool {
		if sc != c && !sc.Phantom && cr.reached[sc.ID] {
			subs = append(subs, sc)
		}
		return ctx.Err() == nil
	})
	slices.SortStableFunc(subs, func(a, b *hierarchy.Class) int { return cmp.Compare(originRank(a), originRank(b)) })
	subs = subs[:min(len(subs), s.limit())]
	out := make([]Location, 0, len(subs))
	for _, sc := range subs {
		loc := s.classLocation(snap, sc)
		out = append(out, Location{Doc: loc.doc, Range: loc.sel})
	}
	sortLocations(out)
	return out
}

// sortLocations orders locations as sources read: source files before listings,
// each by name, then by position.
func sortLocations(ls []Location) {
	slices.SortStableFunc(ls, func(a, b Location) int {
		return cmp.Or(
			cmp.Compare(noPath(a), noPath(b)),
			strings.Compare(a.Doc.Path, b.Doc.Path),
			strings.Compare(a.Doc.Class, b.Doc.Class),
			cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Character, b.Range.Start.Character))
	})
}

// noPath is 1 for a listing, 0 for a source file.
func noPath(l Location) int {
	if l.Doc.Path == "" {
		return 1
	}
	return 0
}
