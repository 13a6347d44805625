package ide

import (
	"context"
	"fmt"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// "Why these targets": a call with several targets says nothing of itself; how its
// receiver came to hold each object that selects one does (`jcg-lsp why --site`
// on the command line). It takes a run of the analysis that traces those objects,
// seconds on a large program, so it is a command the user asks for on a call, not
// part of the hover.

// maxExplainObjects is how many of the receiver's objects an explanation traces
// (the first that came).
const maxExplainObjects = 10

// explainable returns the bundles of the call at the position when they may be
// explained: a dispatch that XTA or TFA resolved (not a fallback), with more than
// one target. The call's method and the number of those targets come back with
// them. It is asked on every code action request, so it reads the call's
// bundles only.
func (s *Session) explainable(snap *Snapshot, doc Doc, pos Position) (*hierarchy.Method, []int32, int) {
	g := snap.Graph
	if g == nil || g.Algorithm != callgraph.XTA && g.Algorithm != callgraph.TFA {
		return nil, nil, 0
	}
	t := s.resolve(snap, doc, pos)
	if t.call < 0 {
		return nil, nil, 0
	}
	idx, n := explainableCall(g, t.caller, t.call)
	if n == 0 {
		return nil, nil, 0
	}
	return t.caller, idx, n
}

// explainableCall returns the bundles of call k of m and its number of dispatch
// targets when there are several, else 0.
func explainableCall(g *callgraph.Graph, m *hierarchy.Method, k int) ([]int32, int) {
	if g.Algorithm != callgraph.XTA && g.Algorithm != callgraph.TFA || !g.Reachable.Has(m.ID) {
		return nil, 0
	}
	var idx []int32
	targets := map[int32]bool{}
	first, end := g.CalleeRange(m.ID)
	for i := first; i < end; i++ {
		b := g.Bundles[i]
		if b.Call != int32(k) {
			continue
		}
		idx = append(idx, int32(i))
		r := g.Reasons[b.Reason]
		switch {
		case r.Fallback.Valid():
		case r.Kind == callgraph.KindVirtual, r.Kind == callgraph.KindInterface, r.Kind == callgraph.KindLambda,
			r.Kind == callgraph.KindPrivileged, r.Kind == callgraph.KindThread:
			for _, m := range g.Sets[b.Set] {
				targets[m] = true
			}
		}
	}
	if len(targets) < 2 {
		return nil, 0
	}
	return idx, len(targets)
}

// ExplainOffer returns the title of the "why these targets" action for the call
// at the position, or "" when there is none to offer.
func (s *Session) ExplainOffer(snap *Snapshot, doc Doc, pos Position) string {
	if _, _, n := s.explainable(snap, doc, pos); n > 0 {
		return fmt.Sprintf("Why this call has %d targets", n)
	}
	return ""
}

// ExplainCall runs the analysis again, tracing the objects that select the
// targets of the call at the position, and says in Markdown how its receiver came
// to hold each: the values it flowed through, back to its creation or to a value
// that holds any object of its type, and why.
func (s *Session) ExplainCall(ctx context.Context, snap *Snapshot, doc Doc, pos Position) (string, error) {
	m, idx, n := s.explainable(snap, doc, pos)
	if m == nil {
		return "", fmt.Errorf("no call with several targets that %s resolved at this position", snap.Options.Algorithm)
	}
	g := snap.Graph
	ex := analysis.DispatchExplain(g, snap.Hierarchy(), idx, nil)
	if ex == nil {
		return "", fmt.Errorf("the targets of the call at this position are static methods")
	}
	opts := snap.RunOptions()
	opts.Explain = ex
	if _, err := snap.Analyzer().Run(ctx, opts); err != nil {
		return "", fmt.Errorf("the run that traces the receiver: %w", err)
	}
	b0 := g.Bundles[idx[0]]
	var b strings.Builder
	fmt.Fprintf(&b, "# Why this call has %d targets\n\n", n)
	fmt.Fprintf(&b, "The call at line %d of `%s`, in the %s graph at %s.\n\n", b0.Line, QualifiedName(m), g.Algorithm, g.Level.Title())
	if ex.Receiver == nil {
		b.WriteString("The run did not trace the receiver.\n")
		return b.String(), nil
	}
	groups := analysis.GroupChains(ex.Receiver(m, b0.PC, maxExplainObjects))
	switch {
	case len(groups) == 0:
		fmt.Fprintf(&b, "The receiver holds none of the %s.\n", ex.Traced())
		return b.String(), nil
	case len(groups[0].Objects) == 0:
		b.WriteString("The receiver may be any object of its type. How it came to, that value first:\n\n")
		writeExplainSteps(&b, groups[0].Steps)
		return b.String(), nil
	}
	fmt.Fprintf(&b, "How the receiver came to hold the %s, that value first (the first %d objects that came):\n\n", ex.Traced(), maxExplainObjects)
	for _, gr := range groups {
		fmt.Fprintf(&b, "## %s\n\n", strings.Join(gr.Objects, "; "))
		writeExplainSteps(&b, gr.Steps)
		b.WriteString("\n")
	}
	return b.String(), nil
}

func writeExplainSteps(b *strings.Builder, steps []string) {
	for i, s := range steps {
		fmt.Fprintf(b, "%d. %s\n", i+1, s)
	}
}
