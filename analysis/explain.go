package analysis

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// DispatchExplain returns what a run must trace (Options.Explain) to say how the
// operand 0 of a call site came to hold the objects that select its targets: the
// classes that select a target of a dispatch that XTA or TFA resolved
// (doPrivileged's action and Thread.start's thread included), and the
// implementations of its lambda targets; of target only, when not nil. bundles
// are the site's, indexes into g.Bundles. It returns nil when the site has none
// of them: a graph of CHA or RTA, a static call, a fallback.
func DispatchExplain(g *callgraph.Graph, h *hierarchy.Hierarchy, bundles []int32, only *hierarchy.Method) *ValueExplain {
	if g.Algorithm != callgraph.XTA && g.Algorithm != callgraph.TFA {
		return nil
	}
	all := h.Methods()
	ex := &ValueExplain{}
	seen := map[*hierarchy.Class]bool{}
	for _, bi := range bundles {
		b := g.Bundles[bi]
		r := g.Reasons[b.Reason]
		if r.Fallback.Valid() {
			continue
		}
		for _, t := range g.Sets[b.Set] {
			if t == g.Native || only != nil && t != only.ID {
				continue
			}
			m := all[t]
			switch r.Kind {
			case callgraph.KindLambda:
				ex.Lambdas = append(ex.Lambdas, m)
			case callgraph.KindVirtual, callgraph.KindInterface, callgraph.KindPrivileged, callgraph.KindThread:
				if m.IsStatic() {
					continue
				}
				h.AllSubtypes(m.Class, func(c *hierarchy.Class) bool {
					if !seen[c] && algo.Concrete(c) && h.Select(c, m) == m {
						seen[c] = true
						ex.Classes = append(ex.Classes, c)
					}
					return true
				})
			}
		}
	}
	if len(ex.Classes) == 0 && len(ex.Lambdas) == 0 {
		return nil
	}
	return ex
}

// Traced says what a DispatchExplain traces, for a heading.
func (ex *ValueExplain) Traced() string {
	switch {
	case len(ex.Lambdas) > 0 && len(ex.Classes) > 0:
		return "objects of the classes that select a target, and lambdas and method references that implement one"
	case len(ex.Lambdas) > 0:
		return "lambdas and method references that implement a target"
	}
	return "objects of the classes that select a target"
}

// ChainGroup is how a value came to hold some objects: those whose chains are the
// same (a field open to what native code stores gives many classes one).
type ChainGroup struct {
	Objects []string `json:"objects,omitempty"` // none: the value may be any object
	Steps   []string `json:"steps"`
}

// GroupChains merges the chains with the same steps, in the order they came.
func GroupChains(chains []algo.Chain) []ChainGroup {
	var out []ChainGroup
	at := map[string]int{}
	for _, ch := range chains {
		k := strings.Join(ch.Steps, "\n")
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, ChainGroup{Steps: ch.Steps})
		}
		if ch.Object != "" {
			out[i].Objects = append(out[i].Objects, ch.Object)
		}
	}
	return out
}
