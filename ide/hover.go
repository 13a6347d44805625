package ide

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Hover describes what a position designates: a call instruction (its dynamic sites
// or targets; rng is the call's token) or a method's declaration (its reachability
// and a path from an entry point). md is Markdown; "" when there is nothing to say.
func (s *Session) Hover(snap *Snapshot, doc Doc, pos Position) (md string, rng *Range) {
	t := s.resolve(snap, doc, pos)
	switch {
	case t.call >= 0:
		return callHover(s, snap, t.caller, t.call), &t.tok
	case t.decl && len(t.methods) > 0:
		return methodHover(s, snap, t.methods[0]), nil
	}
	return "", nil
}

// graphLine names the graph a hover describes, and says when it is sound only for
// the configured environment.
func graphLine(snap *Snapshot) string {
	st := snap.Options
	s := fmt.Sprintf("_%s (level %d), %s call graph_", st.Level.Title(), st.Level.Number(), st.Algorithm)
	if st.Level.UsesAnalysedEnvironment() {
		s += "\n\n_" + st.Level.Title() + ": sound only for the environment configured in `jcg.env`._"
	}
	if st.Level.ModelsJDK() {
		s += "\n\n_Correct-JDK: the JDK's native methods do only what jcg-lsp's model of them (analysis/jdkmodel/jdk.model) says._"
	}
	return s
}

// callHover describes a call instruction: its dynamic sites (status, targets,
// evidence, fallback, specification points) or, for an ordinary call, its targets.
func callHover(s *Session, snap *Snapshot, m *hierarchy.Method, k int) string {
	var b strings.Builder
	f := snap.Index().Facts(m)
	if f == nil || k >= len(f.Calls) {
		return ""
	}
	c := &f.Calls[k]
	fmt.Fprintf(&b, "`%s` in `%s`", callName(c), QualifiedName(m))
	if c.Line > 0 {
		fmt.Fprintf(&b, ", line %d", c.Line)
	}
	b.WriteString("\n\n")
	g := snap.Graph
	if g == nil {
		fmt.Fprintf(&b, "No call graph: %v\n", snap.Err)
		return b.String()
	}
	if !g.Reachable.Has(m.ID) {
		fmt.Fprintf(&b, "`%s` is **not reachable** at %s: this call is not part of the graph.\n\n%s", QualifiedName(m), snap.Options.Level.Title(), graphLine(snap))
		return b.String()
	}
	limit := max(s.Settings().HoverTargets, 1)
	var sites []*callgraph.Site
	for i, st := range g.SitesOf(m.ID) {
		if int(st.Call) == k {
			sites = append(sites, &g.SitesOf(m.ID)[i])
		}
	}
	bundles := bundlesAt(g, m.ID, int32(k))
	for _, site := range sites {
		siteHover(&b, snap, site, limit)
	}
	if len(sites) == 0 {
		b.WriteString(edgesHover(snap, m, bundles, limit))
		if _, n := explainableCall(g, m, k); n > 0 {
			fmt.Fprintf(&b, "_Why this call has %d targets_, its code action, traces how the receiver came to hold each object that selects one (`jcg-lsp why --site %s:%d` on the command line).\n", n, javaName(m.Class.Name), c.Line)
		}
	}
	b.WriteString("\n")
	b.WriteString(graphLine(snap))
	return b.String()
}

// callName renders the declared target of a call for humans:
// "java.lang.Class.forName(String)".
func callName(c *facts.Call) string {
	if c.Op == bytecode.Invokedynamic {
		if c.Indy == nil {
			return "invokedynamic"
		}
		return "invokedynamic " + c.Indy.Name + " (" + simpleName(c.Indy.Bootstrap.Class) + "." + c.Indy.Bootstrap.Name + ")"
	}
	name := c.Ref.Name
	if name == "<init>" {
		name = "new " + simpleName(c.Ref.Class)
	}
	params, _, err := parseParams(c.Ref.Desc)
	if err != nil {
		return javaName(c.Ref.Class) + "." + name + c.Ref.Desc
	}
	return javaName(c.Ref.Class) + "." + name + "(" + strings.Join(params, ", ") + ")"
}

// bundlesAt returns the bundles of call k of node n.
func bundlesAt(g *callgraph.Graph, n, k int32) []callgraph.Bundle {
	var out []callgraph.Bundle
	for _, b := range g.Callees(n) {
		if b.Call == k {
			out = append(out, b)
		}
	}
	return out
}

func siteHover(b *strings.Builder, snap *Snapshot, site *callgraph.Site, limit int) {
	g := snap.Graph
	fmt.Fprintf(b, "**%s** (%s): **%s**", site.API, site.Feature, site.Status)
	if site.Fallback != 0 {
		fmt.Fprintf(b, ", falls back to the level %d (%s) set", site.Fallback, site.Fallback.Title())
	}
	b.WriteString("\n\n")
	if site.Evidence != "" {
		fmt.Fprintf(b, "Evidence: %s\n\n", site.Evidence)
	}
	known, fallback := siteSets(g, site)
	sets := append(known, fallback...)
	total := countTargets(g, sets)
	if total > 0 {
		shown := setMembers(snap, sets, limit)
		fmt.Fprintf(b, "Targets: %d", total)
		if len(shown) < total {
			fmt.Fprintf(b, " (first %d, application code first)", len(shown))
		}
		b.WriteString("\n")
		for _, t := range shown {
			fmt.Fprintf(b, "- `%s`\n", nodeName(snap, t))
		}
		b.WriteString("\n")
	}
	if len(site.Points) > 0 {
		b.WriteString("Specification points (where a value from outside reaches this site):\n")
		for _, p := range site.Points {
			where := "?"
			if pm := snap.Method(p.Method); pm != nil {
				where = QualifiedName(pm)
			}
			if p.Line > 0 {
				where += fmt.Sprintf(", line %d", p.Line)
			}
			why := "a source the level licenses: the analysis stopped here"
			switch {
			case envDecided(p.Kind):
				why = "a value in jcg.env decides it"
			case p.Beyond:
				why = "a source " + snap.Options.Level.Title() + " does not license"
			}
			fmt.Fprintf(b, "- %s: `%s` (%s)\n", p.Kind, where, why)
		}
		b.WriteString("\n")
	}
	if site.Status == callgraph.Unresolved || site.Status == callgraph.Partial {
		if site.Feature != callgraph.FeatNative {
			b.WriteString("A specification entry would resolve it: use the quick fix on its diagnostic.\n\n")
		}
	}
}

// edgesHover lists the targets of an ordinary call in caller, by reason, and under
// an algorithm finer than CHA how many more a virtual call would have under CHA.
func edgesHover(snap *Snapshot, caller *hierarchy.Method, bundles []callgraph.Bundle, limit int) string {
	g := snap.Graph
	var b strings.Builder
	for _, bd := range bundles {
		r := g.Reasons[bd.Reason]
		set := g.Sets[bd.Set]
		fmt.Fprintf(&b, "**%s** call: %d target%s", r.Kind, len(set), plural(len(set)))
		if r.Evidence != "" {
			fmt.Fprintf(&b, " (%s)", r.Evidence)
		}
		if r.Fallback != 0 {
			fmt.Fprintf(&b, ", level %d (%s) fallback", r.Fallback, r.Fallback.Title())
		}
		b.WriteString("\n")
		for _, t := range pickTargets(snap, set, limit) {
			fmt.Fprintf(&b, "- `%s`\n", nodeName(snap, t))
		}
		if len(set) > limit {
			fmt.Fprintf(&b, "- … %d more\n", len(set)-limit)
		}
		if note := openFieldNote(snap, caller, &bd); note != "" {
			b.WriteString("\n" + note + "\n")
		}
		if n, ok := chaExtraTargets(snap, caller, &bd); ok && n > 0 {
			fmt.Fprintf(&b, "\nCHA would add %d more target%s: the class hierarchy allows them, %s's reasoning about the receiver rules them out.\n", n, plural(n), snap.Graph.Algorithm.String())
		}
		b.WriteString("\n")
	}
	if len(bundles) == 0 {
		b.WriteString("No targets in the call graph (the callee cannot be resolved on the class path).\n")
	}
	return b.String()
}

// openFieldNote says why a dispatch under TFA has several targets when its receiver
// is read from fields that code the analysis does not follow may write: a public
// field of the program (any field at Behaved-CLs) holds, besides what the program
// stores, any object of its type that reflection or native code may store, every
// one the program creates. It is the first cause of many-target calls in programs
// that keep collections in public fields, and the user can act on it.
func openFieldNote(snap *Snapshot, caller *hierarchy.Method, bd *callgraph.Bundle) string {
	g := snap.Graph
	if g.Algorithm != callgraph.TFA || len(g.Sets[bd.Set]) < 2 || bd.PC < 0 {
		return ""
	}
	switch g.Reasons[bd.Reason].Kind {
	case callgraph.KindVirtual, callgraph.KindInterface:
	default:
		return ""
	}
	fs := receiverFields(snap, caller, bd.PC)
	if len(fs) == 0 {
		return ""
	}
	encap := snap.Options.Level.RespectsEncapsulation()
	var names []string
	for _, f := range fs {
		if f.Class.Origin == hierarchy.JDK || encap && f.Access&classfile.AccPublic == 0 {
			return ""
		}
		names = append(names, "`"+javaName(f.Class.Name)+"."+f.Name+"`")
	}
	it, is := "it", "is"
	if len(names) > 1 {
		it, is = "them", "are"
	}
	why := is + " public, so code the analysis does not follow (reflection, native code) may store in " + it
	if !encap {
		why = "at Behaved-CLs reflection and native code may write any field: they may store in " + it
	}
	return fmt.Sprintf("The receiver is read from %s, which %s any object of its type the program creates: the call may reach each one's method. "+
		"TFA follows what the program stores in a field that is not public, unless the program opens fields by name (setAccessible, Unsafe, field updaters).",
		strings.Join(names, ", "), why)
}

// receiverFields returns the fields whose reads alone define the receiver of the
// call at pc in m (through casts), or nil when something else may.
func receiverFields(snap *Snapshot, m *hierarchy.Method, pc int32) []*hierarchy.Field {
	f := snap.Index().Facts(m)
	fl, err := snap.Index().Flow(m)
	if f == nil || err != nil {
		return nil
	}
	reads := map[int32]*classfile.Ref{}
	for i := range f.Fields {
		if fa := &f.Fields[i]; !fa.Write {
			reads[fa.PC] = fa.Ref
		}
	}
	casts := map[int32]bool{}
	for i := range f.TypeChecks {
		if !f.TypeChecks[i].Instanceof {
			casts[f.TypeChecks[i].PC] = true
		}
	}
	h := snap.Hierarchy()
	var out []*hierarchy.Field
	var walk func(pc int32, depth int) bool
	walk = func(pc int32, depth int) bool {
		ops := fl.Operands(int(pc))
		if len(ops) == 0 || len(ops[0]) == 0 || depth > 4 {
			return false
		}
		for _, d := range ops[0] {
			if d.Kind != facts.DefInstr {
				return false
			}
			p := int32(d.N)
			if casts[p] {
				if !walk(p, depth+1) {
					return false
				}
				continue
			}
			ref, ok := reads[p]
			if !ok {
				return false
			}
			c := h.Class(ref.Class)
			if c == nil {
				return false
			}
			fd, err := h.ResolveField(c, ref.Name, ref.Desc)
			if err != nil {
				return false
			}
			if !slices.Contains(out, fd) {
				out = append(out, fd)
			}
		}
		return true
	}
	if !walk(pc, 0) {
		return nil
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// nodeName renders a graph node for a hover.
func nodeName(snap *Snapshot, n int32) string {
	m := snap.Method(n)
	if m == nil {
		return "NativeMethod (synthetic)"
	}
	if m.Name == "<clinit>" {
		return javaName(m.Class.Name) + ".<clinit>"
	}
	return javaName(m.Class.Name) + "." + shortSignature(m)
}

// methodHover describes a method declaration: whether it is reachable at the current
// level and, if so, one shortest path to it from an entry point.
func methodHover(s *Session, snap *Snapshot, m *hierarchy.Method) string {
	var b strings.Builder
	sig, _ := methodSignature(m)
	fmt.Fprintf(&b, "```java\n%s\n```\n`%s` · `%s`\n\n", sig, javaName(m.Class.Name), m.Desc)
	if src := snap.Index().Source(m.Class); src != nil {
		// Which jar, nested archive or directory the analysed class file came from.
		fmt.Fprintf(&b, "From `%s` (%s)\n\n", src.Location(), src.Origin)
	}
	g := snap.Graph
	if g == nil {
		fmt.Fprintf(&b, "No call graph: %v\n", snap.Err)
		return b.String()
	}
	if !g.Reachable.Has(m.ID) {
		fmt.Fprintf(&b, "**Not reachable** at %s from the %d entry point%s.\n\n%s", snap.Options.Level.Title(), len(g.Entries), plural(len(g.Entries)), graphLine(snap))
		return b.String()
	}
	fmt.Fprintf(&b, "**Reachable** at %s", snap.Options.Level.Title())
	path := pathTo(snap, m.ID)
	if len(path) == 1 {
		b.WriteString(": it is an entry point.\n\n")
	} else {
		b.WriteString(". A shortest path from an entry point:\n\n")
		for i, st := range path {
			fmt.Fprintf(&b, "%d. `%s`", i+1, nodeName(snap, st.node))
			switch {
			case i == 0:
				b.WriteString(" (entry point)")
			case st.via != "":
				fmt.Fprintf(&b, " — %s", st.via)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	callers, sites := g.NumCallers(m.ID), g.SitesOf(m.ID)
	unresolved := 0
	for _, st := range sites {
		if st.Status == callgraph.Unresolved || st.Status == callgraph.Partial {
			unresolved++
		}
	}
	fmt.Fprintf(&b, "Incoming edges: %d. Dynamic sites in this method: %d (%d unresolved or partially resolved).\n\n", callers, len(sites), unresolved)
	b.WriteString(graphLine(snap))
	return b.String()
}

type pathStep struct {
	node int32
	via  string // how the previous step reaches this one
}

// pathTo returns a shortest path from an entry point to n, from the snapshot's BFS
// tree (at most 50 steps are shown).
func pathTo(snap *Snapshot, n int32) []pathStep {
	tree := snap.PathTree()
	g := snap.Graph
	var rev []pathStep
	for cur := n; len(rev) < 50; {
		if cur < 0 || int(cur) >= len(tree) {
			break
		}
		bi := tree[cur]
		if bi < 0 {
			rev = append(rev, pathStep{node: cur})
			break
		}
		b := &g.Bundles[bi]
		caller := snap.Method(b.Caller)
		via := g.Reasons[b.Reason].Kind.String() + " call"
		if d := edgeDetail(snap, caller, b); d != "" {
			via = d
		}
		if b.Line > 0 {
			via += fmt.Sprintf(" (line %d)", b.Line)
		}
		rev = append(rev, pathStep{node: cur, via: via})
		cur = b.Caller
	}
	slices.Reverse(rev)
	return rev
}
