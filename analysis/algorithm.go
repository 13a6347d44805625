package analysis

import (
	"fmt"

	"github.com/jcg-lsp/jcg-lsp/analysis/algo"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/cha"
	"github.com/jcg-lsp/jcg-lsp/analysis/rta"
	"github.com/jcg-lsp/jcg-lsp/analysis/tfa"
	"github.com/jcg-lsp/jcg-lsp/analysis/xta"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// DefaultLevel and DefaultAlgorithm are jcg-lsp's analysis when nothing says
// otherwise: the command line's (callgraph, why), the language server's, and a
// run's whose Options leave the level or the algorithm unset. vscode-extension/package.json and the README say the same
// (TestDefaultsAgree, cmd/jcg-lsp).
const (
	DefaultLevel     = callgraph.CorrectJDK
	DefaultAlgorithm = callgraph.TFA
)

// newOracle returns the oracle of a run of algorithm alg at level l; members gives
// the members of the run's target sets to the algorithms that follow values. The
// algorithm is the run's algo.Oracle: resolvers ask it about values and never look
// at which one runs.
func (a *Analyzer) newOracle(alg callgraph.Algorithm, l callgraph.Level, members func(set int32) []int32) (algo.Oracle, error) {
	switch alg {
	case callgraph.CHA:
		return cha.New(a.h), nil
	case callgraph.RTA:
		return rta.New(a.h), nil
	case callgraph.XTA:
		return xta.New(a.h, xta.Config{Encap: l.RespectsEncapsulation(), TopSize: a.xtaTopSize, Members: members, Summarised: inJDK}), nil
	case callgraph.TFA:
		return tfa.New(a.h, tfa.Config{Encap: l.RespectsEncapsulation(), TopSize: a.xtaTopSize, Flow: a.flowUncached, Members: members, Summarised: inJDK,
			Captures: a.capturedParams}), nil
	}
	return nil, fmt.Errorf("unknown algorithm %v (want one of %s)", alg, callgraph.AlgorithmChoices())
}

// inJDK says which methods XTA and TFA summarise instead of following their values:
// the JDK's, as the type flow analysis of Zhuo and Zhang treats library code.
func inJDK(m *hierarchy.Method) bool { return m.Class.Origin == hierarchy.JDK }

// flowUncached makes the def-use facts of m for TFA, which asks once for every
// reachable method: keeping them all (Program.Flow caches) would hold hundreds of
// megabytes for the JDK.
func (a *Analyzer) flowUncached(m *hierarchy.Method) (*facts.Flow, error) {
	f := a.h.File(m.Class)
	if f == nil || int(m.Index) >= len(f.Methods) {
		return nil, fmt.Errorf("%s: no class file", m)
	}
	return facts.Analyze(f, &f.Methods[m.Index])
}

// concrete reports whether instances of c can exist.
func concrete(c *hierarchy.Class) bool { return algo.Concrete(c) }
