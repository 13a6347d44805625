package ide

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/ide/javasrc"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Unreachable code: the methods of application code that the snapshot's graph does
// not reach get a diagnostic (severity Settings.Unreachable, tagged unnecessary, so
// that editors grey them out). Reachability is the graph's own, entry points and the
// JVM's and frameworks' calls included as the analysis models them: nothing here
// guesses. Each graph is a subgraph of the graph of the level below it (the
// levels' invariant), so a method the graph does not reach may be reached at a
// lower level; the message then names the highest such level and the edge through
// which that level's graph first enters code the snapshot's graph does not reach.
// Those graphs are the server's to compute (Snapshot.GraphAtLevel, in the
// background); what each says is learnt here (LearnLevel), and the diagnostics
// say what has been learnt so far.

// UnreachableMethods returns the methods of application code with a body (or
// native) that g does not reach, in ID order: what the diagnostics mark, with or
// without a source file to show them in.
func UnreachableMethods(ms []*hierarchy.Method, g *callgraph.Graph) []*hierarchy.Method {
	var out []*hierarchy.Method
	for _, m := range ms {
		if m.Class.Origin == hierarchy.Application && !m.Class.Phantom && !m.IsAbstract() && !g.Reachable.Has(m.ID) {
			out = append(out, m)
		}
	}
	return out
}

// unreachable is what a snapshot's graph and the lower levels learnt so far say of
// the unreachable methods of application code that have a source file.
type unreachable struct {
	byFile map[string][]*hierarchy.Method // source path -> its unreachable methods, in ID order
	ids    []int32                        // all of them, in ID order

	mu    sync.Mutex
	known map[callgraph.Level]map[int32]entry // a learnt level -> how it reaches the methods it reaches
}

// entry is where a lower level's graph enters code the snapshot's graph does not
// reach, on a shortest path (its PathTree) to one of the methods: the edge from a
// method both graphs reach (Caller) to First, from which the method is Steps calls
// away. Caller -1: First is a root of the lower graph.
type entry struct {
	Caller int32
	Call   int32
	Line   int32
	Reason callgraph.Reason
	First  int32
	Steps  int
}

type unreachableKey struct{}

// unreachableOf returns what the snapshot's graph does not reach, computed once per
// graph.
func unreachableOf(snap *Snapshot) *unreachable {
	return snap.GraphDerived(unreachableKey{}, func() any { return newUnreachable(snap) }).(*unreachable)
}

func newUnreachable(snap *Snapshot) *unreachable {
	u := &unreachable{byFile: map[string][]*hierarchy.Method{}, known: map[callgraph.Level]map[int32]entry{}}
	if snap.Graph == nil {
		return u
	}
	pathOf := sourcesOf(snap).pathOf
	for _, m := range UnreachableMethods(snap.Hierarchy().Methods(), snap.Graph) {
		if p, ok := pathOf[m.Class.ID]; ok {
			u.byFile[p] = append(u.byFile[p], m)
			u.ids = append(u.ids, m.ID)
		}
	}
	return u
}

// UnreachableDiagnostics returns the diagnostics of the unreachable methods of every
// source file that has some (none when Settings.Unreachable is 0).
func (s *Session) UnreachableDiagnostics(st *Settings, snap *Snapshot) map[string][]Diagnostic {
	out := map[string][]Diagnostic{}
	if st.Unreachable == 0 || snap.Graph == nil {
		return out
	}
	for path := range unreachableOf(snap).byFile {
		if ds := s.FileUnreachable(st, snap, path); len(ds) > 0 {
			out[path] = ds
		}
	}
	return out
}

// FileUnreachable returns the diagnostics of the unreachable methods declared in one
// source file: each over its declaration, from its name to the end of its body; a
// lambda's over its body when the code around it is reachable. A declaration inside
// a marked one (a method of a local class in an unreachable method) is not marked
// again.
func (s *Session) FileUnreachable(st *Settings, snap *Snapshot, path string) []Diagnostic {
	if st.Unreachable == 0 || snap.Graph == nil {
		return nil
	}
	return s.fileUnreachable(st, snap, unreachableOf(snap), path)
}

func (s *Session) fileUnreachable(st *Settings, snap *Snapshot, u *unreachable, path string) []Diagnostic {
	ms := u.byFile[path]
	if len(ms) == 0 {
		return nil
	}
	fm := s.fileMap(snap, path)
	if fm == nil {
		return nil
	}
	g := snap.Graph
	type mark struct {
		m    *hierarchy.Method
		code *javasrc.Code
	}
	var marks []mark
	for _, m := range ms {
		code := fm.methodCode[m.ID]
		if code == nil {
			continue // no declaration of its own (an implicit constructor, a bridge)
		}
		switch code.Kind {
		case javasrc.Initializer, javasrc.FieldInit:
			continue // its code is spread over the class: no one range to grey
		case javasrc.Lambda:
			root := code
			for root.Parent != nil {
				root = root.Parent
			}
			if !slices.ContainsFunc(fm.codeMethods[root], func(r *hierarchy.Method) bool { return g.Reachable.Has(r.ID) }) {
				continue
			}
		}
		marks = append(marks, mark{m, code})
	}
	sort.SliceStable(marks, func(i, j int) bool { return marks[i].code.Start < marks[j].code.Start })
	var ds []Diagnostic
	end := int32(-1) // the end of the last mark kept
	for _, mk := range marks {
		if mk.code.Start < end && mk.code.End <= end {
			continue
		}
		end = mk.code.End
		d := Diagnostic{
			Range:       fm.offRange(mk.code.Start, mk.code.End),
			Severity:    st.Unreachable,
			Code:        "unreachable",
			Unnecessary: true,
			Data:        mustJSON(map[string]methodRef{"unreachable": refOf(mk.m)}),
		}
		var e *entry
		d.Message, e = u.message(snap, mk.m)
		if e != nil && e.Caller >= 0 {
			if cm := snap.Method(e.Caller); cm != nil {
				loc := location{}
				if fm2 := s.sourceOf(snap, cm.Class); fm2 != nil {
					loc.doc, loc.rng = Doc{Path: fm2.path}, s.siteRange(snap, cm, int(e.Call), e.Line)
				} else {
					loc = s.methodLocation(snap, cm)
				}
				d.Related = append(d.Related, Related{Location: Location{Doc: loc.doc, Range: loc.rng}, Message: "the lower level's edge into unreachable code"})
			}
		}
		ds = append(ds, d)
	}
	return ds
}

// message says at which level and algorithm m is unreachable and, as far as the
// lower levels are learnt, the highest one that reaches it and how.
func (u *unreachable) message(snap *Snapshot, m *hierarchy.Method) (string, *entry) {
	g := snap.Graph
	msg := fmt.Sprintf("%s is unreachable at %s (%s call graph)", shortSignature(m), g.Level.Title(), g.Algorithm)
	l, e, known := u.explain(g.Level, m.ID)
	switch {
	case e != nil:
		return msg + fmt.Sprintf("; %s (level %d) reaches it: %s", l.Title(), l, e.describe(snap, m.ID)), e
	case known && g.Level.Weaker() != 0:
		return msg + "; no lower level reaches it either", nil
	}
	return msg, nil
}

// explain returns the highest level below top that reaches method n and how (nil
// when none does); known is false while a level above that one is not learnt.
func (u *unreachable) explain(top callgraph.Level, n int32) (callgraph.Level, *entry, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for l := top.Weaker(); l != 0; l = l.Weaker() {
		reach, ok := u.known[l]
		if !ok {
			return 0, nil, false
		}
		if e, ok := reach[n]; ok {
			return l, &e, true
		}
	}
	return 0, nil, true
}

// describe says how a lower level reaches method n: "the level 2 (Encap-Respect)
// fallback of Class.forName in mk.Loader.load (line 12) reaches mk.Plugin.<init>,
// which calls it".
func (e *entry) describe(snap *Snapshot, n int32) string {
	var b strings.Builder
	caller := snap.Method(e.Caller)
	switch {
	case e.Caller < 0:
		fmt.Fprintf(&b, "%s is one of its entry points", nodeName(snap, e.First))
	case caller == nil:
		b.WriteString("native code calling back (the NativeMethod node")
		if f := e.Reason.Fallback; f != 0 {
			fmt.Fprintf(&b, ", the level %d (%s) fallback", f, f.Title())
		}
		b.WriteString(")")
		if e.First != n {
			fmt.Fprintf(&b, " reaches %s", nodeName(snap, e.First))
		}
	default:
		via := e.Reason.Kind.String()
		if f := snap.Index().Facts(caller); f != nil && e.Call >= 0 && int(e.Call) < len(f.Calls) && f.Calls[e.Call].Op != bytecode.Invokedynamic {
			c := &f.Calls[e.Call]
			via = simpleName(c.Ref.Class) + "." + c.Ref.Name
		}
		where := "in " + QualifiedName(caller)
		if e.Line > 0 {
			where += fmt.Sprintf(" (line %d)", e.Line)
		}
		r := e.Reason
		switch {
		case r.Fallback != 0:
			fmt.Fprintf(&b, "the level %d (%s) fallback of %s %s", r.Fallback, r.Fallback.Title(), via, where)
		case r.Kind.Dynamic():
			fmt.Fprintf(&b, "a %s edge of %s %s", r.Kind, via, where)
		default:
			fmt.Fprintf(&b, "a %s call of %s %s", r.Kind, via, where)
		}
		if e.First != n {
			fmt.Fprintf(&b, " reaches %s", nodeName(snap, e.First))
		}
	}
	switch {
	case e.First == n:
	case e.Steps == 1:
		b.WriteString(", which calls it")
	default:
		fmt.Fprintf(&b, ", %d calls away from it", e.Steps)
	}
	return b.String()
}

// NextLevel returns the lower level whose graph would tell most about the
// unreachable methods of the files open in the editor (each lower level is an
// analysis of the whole program: what the user looks at is worth one), or 0 when the
// levels learnt say all there is to say of them (or there is nothing to say). Reach
// only grows downwards, so for each method the levels that reach it are those up to
// some level: the one below the snapshot's comes first (what it adds reaches most of
// what is unreachable), then Behaved-CLs (what it does not reach, none does), then
// the middle of what is left open.
func (s *Session) NextLevel(snap *Snapshot) callgraph.Level {
	if snap.Graph == nil || snap.Graph.Level.Weaker() == 0 {
		return 0
	}
	top := snap.Graph.Level
	u := unreachableOf(snap)
	si := sourcesOf(snap)
	var ids []int32
	for _, p := range s.Docs.OpenPaths() {
		for _, m := range u.byFile[si.spellingOf(p)] {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, n := range ids {
		lo, hi := callgraph.Level(0), top // reached at lo (0: none known), not at hi
		for l, reach := range u.known {
			if _, ok := reach[n]; ok {
				if lo.AssumesLessThan(l) {
					lo = l
				}
			} else if l.AssumesLessThan(hi) {
				hi = l
			}
		}
		switch {
		case hi.Weaker() == lo:
			continue
		case hi == top:
			return top.Weaker()
		case lo == 0:
			return callgraph.BehavedCLs
		}
		return callgraph.Midway(lo, hi)
	}
	return 0
}

// LearnLevel records what the graph lower of the snapshot's index and settings at
// level l says of the snapshot's unreachable methods: which it reaches and where its
// shortest paths to them enter code the snapshot's graph does not reach.
func (s *Session) LearnLevel(snap *Snapshot, l callgraph.Level, lower *callgraph.Graph) {
	g := snap.Graph
	if g == nil || lower == nil || lower.NumNodes != g.NumNodes || !l.AssumesLessThan(g.Level) {
		return
	}
	u := unreachableOf(snap)
	reach := map[int32]entry{}
	var tree []int32
	for _, n := range u.ids {
		if !lower.Reachable.Has(n) {
			continue
		}
		if tree == nil {
			tree = lower.PathTree()
		}
		e := entry{Caller: -1, Call: -1, First: n}
		for cur, steps := n, 0; steps <= len(tree); steps++ {
			bi := tree[cur]
			if bi < 0 {
				e = entry{Caller: -1, Call: -1, First: cur, Steps: steps}
				break
			}
			b := &lower.Bundles[bi]
			if g.Reachable.Has(b.Caller) {
				e = entry{Caller: b.Caller, Call: b.Call, Line: b.Line, Reason: lower.Reasons[b.Reason], First: cur, Steps: steps}
				break
			}
			cur = b.Caller
		}
		reach[n] = e
	}
	u.mu.Lock()
	u.known[l] = reach
	u.mu.Unlock()
}

// UnreachableFiles returns the source files with unreachable methods: those whose
// diagnostics a level learnt may change.
func (s *Session) UnreachableFiles(snap *Snapshot) []string {
	u := unreachableOf(snap)
	out := make([]string, 0, len(u.byFile))
	for p := range u.byFile {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
