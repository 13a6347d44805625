package analysis

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestOptionsKey: options that change the graph change the key; the order in which
// the environment was built and the callbacks do not.
func TestOptionsKey(t *testing.T) {
	base := Options{Level: callgraph.CorrectEnv, Algorithm: callgraph.CHA, Mains: []string{"a.Main"}, Env: map[string]string{"x": "1", "y": "2"}}
	same := base
	same.Env = map[string]string{"y": "2", "x": "1"}
	same.Progress = func(int) {}
	if base.Key() != same.Key() {
		t.Errorf("equal options: keys %q and %q", base.Key(), same.Key())
	}
	variants := []func(o *Options){
		func(o *Options) { o.Level = callgraph.CorrectString },
		func(o *Options) { o.Algorithm = callgraph.RTA },
		func(o *Options) { o.Mains = []string{"b.Main"} },
		func(o *Options) { o.Mains = []string{"a.Main", ""} },
		func(o *Options) { o.Entries = []string{"a.Main.run"} },
		func(o *Options) { o.LibraryMode = true },
		func(o *Options) { o.Env = map[string]string{"x": "1"} },
		func(o *Options) { o.Env = map[string]string{"x": "1", "y": "3"} },
		func(o *Options) { o.Env = map[string]string{"x": "1;\"y\"=\"2"} },
	}
	// Unset level and algorithm are the defaults: the same graph, the same key.
	unset, explicit := base, base
	unset.Level, unset.Algorithm = 0, 0
	explicit.Level, explicit.Algorithm = DefaultLevel, DefaultAlgorithm
	if unset.Key() != explicit.Key() {
		t.Errorf("unset level and algorithm: key %q, the defaults' %q", unset.Key(), explicit.Key())
	}
	seen := map[string]int{base.Key(): -1}
	for i, v := range variants {
		o := base
		v(&o)
		if j, dup := seen[o.Key()]; dup {
			t.Errorf("variant %d has the key of %d: %q", i, j, o.Key())
		}
		seen[o.Key()] = i
	}
}
