package graphtext

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

func TestDigest(t *testing.T) {
	reach := callgraph.NewBitset(4)
	reach.Add(0)
	reach.Add(2)
	r := []callgraph.Reason{{Kind: callgraph.KindStatic, Resolver: "invoke"}, {Kind: callgraph.KindVirtual, Resolver: "invoke"}}
	g := &callgraph.Graph{NumNodes: 4, Native: 3, Reachable: reach, Entries: []int32{0},
		Bundles: []callgraph.Bundle{{Caller: 0, PC: 1, Set: 0, Reason: 0}, {Caller: 0, PC: 5, Set: 1, Reason: 1}},
		Sets:    [][]int32{{2}, {1, 2}}, Reasons: r}
	// The same graph with its sets and reasons numbered the other way round.
	renumbered := &callgraph.Graph{NumNodes: 4, Native: 3, Reachable: reach, Entries: []int32{0},
		Bundles: []callgraph.Bundle{{Caller: 0, PC: 1, Set: 1, Reason: 1}, {Caller: 0, PC: 5, Set: 0, Reason: 0}},
		Sets:    [][]int32{{1, 2}, {2}}, Reasons: []callgraph.Reason{r[1], r[0]}}
	if Digest(g) != Digest(renumbered) {
		t.Error("renumbering sets and reasons changed the digest")
	}
	other := &callgraph.Graph{NumNodes: 4, Native: 3, Reachable: reach, Entries: []int32{0},
		Bundles: renumbered.Bundles, Sets: [][]int32{{1, 2}, {1}}, Reasons: renumbered.Reasons}
	if Digest(g) == Digest(other) {
		t.Error("a different target did not change the digest")
	}
}
