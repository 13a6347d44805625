package callgraph

import (
	"slices"
	"testing"
)

// TestPathTree: entries 0 and 5; 0 calls {1, 2} (one set, two bundles sharing it),
// 1 calls {3}, 2 calls {3, 4}, 3 calls {0} (a cycle back to an entry); 6 calls {4}
// but nothing reaches 6. Breadth first: 1 and 2 through bundle 0 (the set's first
// bundle), 3 through 1's bundle (found before 2's), 4 through 2's.
func TestPathTree(t *testing.T) {
	g := &Graph{
		NumNodes: 7,
		Entries:  []NodeID{0, 5},
		Sets:     [][]int32{{1, 2}, {3}, {3, 4}, {0}, {4}},
		Bundles: []Bundle{
			{Caller: 0, PC: 1, Set: 0},
			{Caller: 0, PC: 2, Set: 0},
			{Caller: 1, PC: 1, Set: 1},
			{Caller: 2, PC: 1, Set: 2},
			{Caller: 3, PC: 1, Set: 3},
			{Caller: 6, PC: 1, Set: 4},
		},
	}
	want := []int32{-1, 0, 0, 2, 3, -1, -2}
	if got := g.PathTree(); !slices.Equal(got, want) {
		t.Errorf("PathTree = %v, want %v", got, want)
	}
	// Walking back from 4 gives a shortest path: 0 -> 2 -> 4.
	tree := g.PathTree()
	var path []NodeID
	for n := NodeID(4); n >= 0; {
		path = append(path, n)
		if tree[n] < 0 {
			break
		}
		n = g.Bundles[tree[n]].Caller
	}
	if !slices.Equal(path, []NodeID{4, 2, 0}) {
		t.Errorf("path to 4 = %v, want [4 2 0]", path)
	}
}
