package analysis

import (
	"context"
	"slices"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// TestWithoutJDKFallbacks runs testdata/java/whatif, whose JDK side
// (testdata/java/whatif-jdk) is indexed as the JDK's, with and without the JDK's
// fallbacks (Options.WithoutJDKFallbacks); the Java sources say what to expect.
func TestWithoutJDKFallbacks(t *testing.T) {
	ix := jdkSideIndex(t, "whatif-jdk", "whatif")
	a := New(ix)
	h := ix.Hierarchy()
	boot := methodID(t, h, "jfake/Registry.boot([Ljava/lang/String;)Ljava/lang/Object;")
	plugin := methodID(t, h, "jfake/Plugin.<init>()V")
	late := methodID(t, h, "jfake/Late.load(Ljava/lang/String;)Ljava/lang/Object;")
	own := methodID(t, h, "wi/Own.main([Ljava/lang/String;)V")

	type site struct {
		caller callgraph.NodeID
		pc     int32
	}
	run := func(lv callgraph.Level, main string, whatIf bool) (*callgraph.Graph, []site) {
		t.Helper()
		var skipped []site
		opts := Options{Level: lv, Algorithm: callgraph.TFA, Mains: []string{main}}
		if whatIf {
			opts.WithoutJDKFallbacks = func(caller callgraph.NodeID, pc int32) {
				if s := (site{caller, pc}); !slices.Contains(skipped, s) {
					skipped = append(skipped, s)
				}
			}
		}
		g, err := a.Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		return g, skipped
	}
	// fallbackAt reports whether g has fallback edges at a site of caller.
	fallbackAt := func(g *callgraph.Graph, caller callgraph.NodeID) bool {
		for _, b := range g.Callees(caller) {
			if g.Reasons[b.Reason].Fallback != 0 {
				return true
			}
		}
		return false
	}
	callers := func(sites []site) []callgraph.NodeID {
		var out []callgraph.NodeID
		for _, s := range sites {
			out = append(out, s.caller)
		}
		return out
	}

	// Below Correct-JDK the NativeMethod node stands for the JDK's natives with a
	// conservative set (any public method or constructor), which the what-if keeps:
	// it reaches Plugin's constructor. Only boot's own fallback goes.
	w, _ := run(callgraph.EncapRespect, "wi.Main", true)
	if !fallbackAt(w, w.Native) || !w.Reachable.Has(plugin) || fallbackAt(w, boot) {
		t.Errorf("Encap-Respect, wi.Main without the JDK's fallbacks: the NativeMethod node's fallback %v, Plugin.<init> reachable %v, fallback at boot %v; want the first two only",
			fallbackAt(w, w.Native), w.Reachable.Has(plugin), fallbackAt(w, boot))
	}
	{
		lv := callgraph.CorrectJDK
		g, skipped := run(lv, "wi.Main", false)
		if skipped != nil {
			t.Errorf("%v: a sound run told of skipped sites %v", lv, skipped)
		}
		if !g.Reachable.Has(plugin) || !g.Reachable.Has(late) || !fallbackAt(g, boot) || !fallbackAt(g, late) {
			t.Fatalf("%v, wi.Main: Plugin.<init> reachable %v, Late.load %v, fallbacks at boot %v and at load %v; want all",
				lv, g.Reachable.Has(plugin), g.Reachable.Has(late), fallbackAt(g, boot), fallbackAt(g, late))
		}
		w, skipped := run(lv, "wi.Main", true)
		// Without boot's fallbacks nothing names Plugin's constructor, so Late.load is
		// unreachable too: only boot's two sites (forName, newInstance) are told.
		if w.Reachable.Has(plugin) || w.Reachable.Has(late) || fallbackAt(w, boot) {
			t.Errorf("%v, wi.Main without the JDK's fallbacks: Plugin.<init> reachable %v, Late.load %v, fallbacks at boot %v; want none",
				lv, w.Reachable.Has(plugin), w.Reachable.Has(late), fallbackAt(w, boot))
		}
		if got := callers(skipped); len(got) != 2 || got[0] != boot || got[1] != boot || skipped[0].pc == skipped[1].pc {
			t.Errorf("%v, wi.Main: skipped sites %v, want boot's two (method %d)", lv, skipped, boot)
		}
		if w.NumReachable() >= g.NumReachable() {
			t.Errorf("%v, wi.Main: %d reachable without the JDK's fallbacks, %d with them: want fewer", lv, w.NumReachable(), g.NumReachable())
		}
		// The application's own fallback stays and reaches Plugin's constructor, so
		// Late.load is reached, and its sites are told as skipped.
		w, skipped = run(lv, "wi.Own", true)
		if !fallbackAt(w, own) || !w.Reachable.Has(plugin) || !w.Reachable.Has(late) || fallbackAt(w, late) {
			t.Errorf("%v, wi.Own without the JDK's fallbacks: fallback at main %v, Plugin.<init> reachable %v, Late.load %v, fallback at load %v; want the first three only",
				lv, fallbackAt(w, own), w.Reachable.Has(plugin), w.Reachable.Has(late), fallbackAt(w, late))
		}
		if got := callers(skipped); !slices.Contains(got, late) || slices.ContainsFunc(got, func(c callgraph.NodeID) bool {
			return h.Methods()[c].Class.Origin != hierarchy.JDK
		}) {
			t.Errorf("%v, wi.Own: skipped sites in %v, want Late.load's (%d) among them and JDK methods only", lv, got, late)
		}
	}
}
