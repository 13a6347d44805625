package ide

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Type hierarchies come from the index's class hierarchy, over application, library
// and JDK classes alike; each item's detail says what the snapshot's graph does with
// the class (classReach).

// typeRef is the data of a type-hierarchy item: the class, and for a "more" item
// the subtypes of Class listed so far.
type typeRef struct {
	Class string `json:"class"`
	After int    `json:"after,omitempty"` // a "more" item: the subtypes after this many
}

// PrepareTypeHierarchy returns the type-hierarchy item of a position: the type its
// token names, else the type declared around it.
func (s *Session) PrepareTypeHierarchy(snap *Snapshot, doc Doc, pos Position) []TypeItem {
	c := s.typeAt(snap, doc, pos)
	if c == nil {
		c = s.enclosingType(snap, doc, pos)
	}
	if c == nil {
		return nil
	}
	return []TypeItem{s.typeItem(snap, c)}
}

// Supertypes returns the direct supertypes of an item's class: its superclass
// (java.lang.Object only for classes) and its interfaces. ok is false when the item
// names no class of the snapshot.
func (s *Session) Supertypes(snap *Snapshot, item TypeItem) (items []TypeItem, ok bool) {
	c, ref, ok := s.itemClass(snap, item)
	if !ok {
		return nil, false
	}
	out := []TypeItem{}
	if ref.After > 0 {
		return out, true // a "more" item
	}
	var supers []*hierarchy.Class
	if c.Super != nil && !c.IsInterface() {
		supers = append(supers, c.Super)
	}
	supers = append(supers, c.Interfaces...)
	for _, sc := range supers {
		if !sc.Phantom { // a missing supertype: nothing to show or open
			out = append(out, s.typeItem(snap, sc))
		}
	}
	return out, true
}

// Subtypes returns the direct subtypes of an item's class (interfaces are not listed
// under java.lang.Object), application code first, then libraries, then the JDK. Beyond the configured maximum the answer ends with a "more" item
// whose subtypes continue the list.
func (s *Session) Subtypes(ctx context.Context, snap *Snapshot, item TypeItem) (items []TypeItem, ok bool) {
	c, ref, ok := s.itemClass(snap, item)
	if !ok {
		return nil, false
	}
	// Application code first, then libraries, then the JDK, each in the hierarchy's
	// order (the class path's): one pass per origin picks the page, where sorting
	// java.lang.Object's thousands of subclasses by name, or copying them, would cost
	// milliseconds per page.
	object := snap.Hierarchy().Object()
	page := s.limit()
	var subs []*hierarchy.Class
	total := 0
	for r := range 3 {
		for _, sc := range c.Subtypes {
			if originRank(sc) != r || sc.Phantom || c == object && sc.IsInterface() {
				continue
			}
			if total >= ref.After && len(subs) < page {
				subs = append(subs, sc)
			}
			total++
		}
	}
	var rest int
	if left := total - ref.After; left > page {
		rest = left - (page - 1)
		subs = subs[:page-1]
	}
	out := make([]TypeItem, 0, len(subs)+1)
	for i, sc := range subs {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, true
		}
		out = append(out, s.typeItem(snap, sc))
	}
	if rest > 0 {
		it := s.typeItem(snap, c)
		it.Name = fmt.Sprintf("… %d more subtypes of %s", rest, simpleClassName(c))
		it.Detail = "expand for the next ones"
		it.Data = mustJSON(typeRef{Class: c.Name, After: ref.After + len(subs)})
		out = append(out, it)
	}
	return out, true
}

func originRank(c *hierarchy.Class) int {
	switch c.Origin {
	case hierarchy.Application:
		return 0
	case hierarchy.JDK:
		return 2
	}
	return 1
}

// itemClass returns the class a type-hierarchy item names: from its data, or (for
// clients that do not send data back) from its position.
func (s *Session) itemClass(snap *Snapshot, it TypeItem) (*hierarchy.Class, typeRef, bool) {
	var ref typeRef
	if len(it.Data) > 0 && json.Unmarshal(it.Data, &ref) == nil {
		if c := known(snap.Hierarchy(), ref.Class); c != nil {
			return c, ref, true
		}
	}
	if c := s.typeAt(snap, it.Doc, it.Selection.Start); c != nil {
		return c, typeRef{Class: c.Name}, true
	}
	return nil, ref, false
}

// typeItem returns the type-hierarchy item of a class.
func (s *Session) typeItem(snap *Snapshot, c *hierarchy.Class) TypeItem {
	loc := s.classLocation(snap, c)
	kind := KindClass
	switch {
	case c.IsInterface():
		kind = KindInterface
	case c.Access&classfile.AccEnum != 0:
		kind = KindEnum
	}
	return TypeItem{
		Name: simpleClassName(c), Kind: kind, Detail: typeDetail(snap, c),
		Doc: loc.doc, Range: loc.rng, Selection: loc.sel,
		Data: mustJSON(typeRef{Class: c.Name}),
	}
}

// simpleClassName names a class as its source does: "Map.Entry", "Main$1" for an
// anonymous class.
func simpleClassName(c *hierarchy.Class) string {
	name := c.Name[strings.LastIndexByte(c.Name, '/')+1:]
	if c.Nesting == hierarchy.Member {
		return strings.ReplaceAll(name, "$", ".")
	}
	return name
}

// typeDetail says where a class comes from and whether the graph instantiates it:
// "java.util · JDK · instantiated (a constructor is reachable at Correct-JDK, TFA)".
func typeDetail(snap *Snapshot, c *hierarchy.Class) string {
	pkg := javaName(c.Package())
	if pkg == "" {
		pkg = "(unnamed package)"
	}
	origin := c.Origin.String()
	if c.Origin == hierarchy.JDK {
		origin = "JDK"
	}
	d := pkg + " · " + origin
	g := snap.Graph
	if g == nil {
		return d
	}
	at := fmt.Sprintf("at %s, %s", g.Level.Title(), g.Algorithm)
	cr := classReachOf(snap)
	switch {
	case c.IsInterface():
		d += " · interface"
	case c.IsAbstract():
		d += " · abstract: not instantiated itself"
	case cr.constructed[c.ID]:
		d += " · instantiated (a constructor is reachable " + at + ")"
	default:
		d += " · not instantiated (no constructor reachable " + at + ")"
	}
	if !cr.reached[c.ID] {
		d += " · none of its methods reachable"
	}
	return d
}

// classLocation returns where a class is declared: its name in its source file, or
// the declaration line of its listing.
func (s *Session) classLocation(snap *Snapshot, c *hierarchy.Class) location {
	if fm := s.sourceOf(snap, c); fm != nil {
		if t := fm.classType[c.ID]; t != nil {
			sel := fm.tokRange(t.NameTok)
			rng := sel
			if t.BodyEnd >= t.NameTok.Off {
				rng = fm.offRange(t.NameTok.Off, t.BodyEnd+1)
			}
			return location{Doc{Path: fm.path}, rng, sel}
		}
	}
	line, col, end := classRange(snap, c)
	return location{Doc{Class: c.Name}, lineRange(line, 0, end), lineRange(line, col, end)}
}

// classReach is what a graph does with each class, by class ID.
type classReach struct {
	reached     []bool // one of its methods is reachable
	constructed []bool // one of its constructors is reachable
}

type classReachKey struct{}

// classReachOf returns what the snapshot's graph does with each class, computed
// once per graph.
func classReachOf(snap *Snapshot) *classReach {
	return snap.GraphDerived(classReachKey{}, func() any {
		n := len(snap.Hierarchy().Classes())
		cr := &classReach{reached: make([]bool, n), constructed: make([]bool, n)}
		g := snap.Graph
		for _, m := range snap.Hierarchy().Methods() {
			if g.Reachable.Has(m.ID) {
				cr.reached[m.Class.ID] = true
				if m.Name == "<init>" {
					cr.constructed[m.Class.ID] = true
				}
			}
		}
		return cr
	}).(*classReach)
}

// reachableNode reports whether the snapshot's graph reaches node n.
func reachableNode(g *callgraph.Graph, n int32) bool {
	return g != nil && n >= 0 && int(n) < g.NumNodes && g.Reachable.Has(n)
}
