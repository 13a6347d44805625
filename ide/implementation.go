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
// other than constructors), in ID order: the methods of the same name and descriptor
// declared in a subtype that the JVM selects for their own class (JVMS 5.4.6, which
// has the rules of package-private methods), and default methods of subinterfaces.
// Asking the methods of that name, rather than selecting for every subtype, keeps
// Object.toString's overriders, among tens of thousands of classes, within a
// millisecond.
func overriders(snap *Snapshot, ms []*hierarchy.Method) []int32 {
	g := snap.Graph
	h := snap.Hierarchy()
	all := h.Methods()
	byName := methodsByName(snap)
	var out []int32
	for _, m := range ms {
		if m.IsStatic() || m.IsPrivate() || strings.HasPrefix(m.Name, "<") {
			continue
		}
		for _, id := range byName[m.Name] {
			x := all[id]
			if x == m || x.Desc != m.Desc || !g.Reachable.Has(id) || x.IsStatic() || x.IsPrivate() || !h.IsSubtype(x.Class, m.Class) {
				continue
			}
			// A public or protected method is overridden by every such declaration
			// of a class; a package-private one as selection says.
			overrides := m.IsPublic() || m.IsProtected()
			if x.Class.IsInterface() {
				overrides = !x.IsAbstract()
			} else if !overrides {
				overrides = h.Select(x.Class, m) == x
			}
			if overrides {
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

type methodsByNameKey struct{}

// methodsByName returns the IDs of the index's methods by name, built once per index.
func methodsByName(snap *Snapshot) map[string][]int32 {
	return snap.Derived(methodsByNameKey{}, func() any {
		out := map[string][]int32{}
		for _, m := range snap.Hierarchy().Methods() {
			if !strings.HasPrefix(m.Name, "<") {
				out[m.Name] = append(out[m.Name], m.ID)
			}
		}
		return out
	}).(map[string][]int32)
}

// subclassLocations returns where the subtypes of c (transitively) that the graph
// reaches are declared.
func (s *Session) subclassLocations(ctx context.Context, snap *Snapshot, c *hierarchy.Class) []Location {
	cr := classReachOf(snap)
	h := snap.Hierarchy()
	// The first of each origin (application, libraries, JDK) in the hierarchy's
	// order: no more are listed, and java.lang.Object has tens of thousands of
	// subtypes, which a request must not copy.
	limit := s.limit()
	var byRank [3][]*hierarchy.Class
	add := func(sc *hierarchy.Class) bool {
		if r := originRank(sc); len(byRank[r]) < limit && sc != c && !sc.Phantom && cr.reached[sc.ID] {
			byRank[r] = append(byRank[r], sc)
		}
		return true
	}
	if c == h.Object() {
		for _, sc := range h.Classes() { // every one: no need to walk the hierarchy
			add(sc)
		}
	} else {
		h.AllSubtypes(c, add)
	}
	if ctx.Err() != nil {
		return nil
	}
	subs := slices.Concat(byRank[:]...)
	subs = subs[:min(len(subs), limit)]
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

// Warm computes what the features keep per index and graph of a snapshot (methods
// by name, what the graph does with each class), so that the first requests after a
// build are as fast as the later ones.
func Warm(snap *Snapshot) {
	if snap.Graph == nil {
		return
	}
	methodsByName(snap)
	classReachOf(snap)
}
