package analysis

import (
	"slices"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestBundlesInOrder: idMap.graph keeps a remapped graph's bundles unsorted only
// when they are exactly as sortBundles would leave them.
func TestBundlesInOrder(t *testing.T) {
	bs := []callgraph.Bundle{
		{Caller: 2, PC: 4, Set: 1}, {Caller: 0, PC: 9, Set: 3}, {Caller: 0, PC: 9, Set: 2},
		{Caller: 1, PC: 0, Set: 7, Reason: 1}, {Caller: 1, PC: 0, Set: 7},
	}
	sorted := sortBundles(slices.Clone(bs), 3)
	if !bundlesInOrder(sorted) {
		t.Errorf("sortBundles' output %v: not in order", sorted)
	}
	if bundlesInOrder(bs) {
		t.Errorf("%v: in order", bs)
	}
	dup := append(slices.Clone(sorted[:2]), sorted[1:]...)
	if bundlesInOrder(dup) {
		t.Errorf("%v, with a duplicate: in order", dup)
	}
	swapped := slices.Clone(sorted)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	if bundlesInOrder(swapped) {
		t.Errorf("%v: in order", swapped)
	}
}
