package analysis

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestJDKOverrides: the JDK's own setAccessible calls (testdata jdkaccess-jdk,
// indexed as the JDK's code) open the Methods of their nest's sites at every level
// from Encap-Respect on, and no others, and only the members they may be. The expectations are the EXPECT comments of
// jfake/ch/Channels.java and Invoker.java: Channels' two sites call the
// package-private Base.hidden of another package; Invoker's site, whose Method is
// a parameter no override of its nest reaches, keeps Encap-Respect.
func TestJDKOverrides(t *testing.T) {
	ix := jdkSideIndex(t, "jdkaccess-jdk", "jdkaccess")
	h := ix.Hierarchy()
	a := New(ix)

	// Which overrides stay in their nest: Channels' (a lambda's, an anonymous
	// class's on a private helper's Method), not Leaks' (a public result, a public
	// field).
	where := func(os []*override) []string {
		var out []string
		for _, o := range os {
			if strings.HasPrefix(o.caller.Class.Name, "jfake/") {
				out = append(out, o.caller.Class.Name+"."+o.caller.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	if got, want := where(a.jdkOverrides()), []string{"jfake/ch/Channels$1.run", "jfake/ch/Channels$Opened.lambda$static$0"}; !slices.Equal(got, want) {
		t.Errorf("overrides confined to their nest: %v, want %v", got, want)
	}
	if got, want := where(a.overrides.jdkUnmodelled), []string{"jfake/ch/Leaks.opened", "jfake/ch/Leaks.share"}; !slices.Equal(got, want) {
		t.Errorf("overrides whose object leaves the nest: %v, want %v", got, want)
	}

	hidden, other := methodID(t, h, "jfake/spi/Base.hidden()V"), methodID(t, h, "jfake/spi/Base.other()V")
	callsOf := func(g *callgraph.Graph, caller string, callee int32) bool {
		t.Helper()
		m := methodID(t, h, caller)
		if !g.Reachable.Has(m) {
			t.Fatalf("%s is unreachable", caller)
		}
		for _, b := range g.Callees(m) {
			if slices.Contains(g.Sets[b.Set], callee) {
				return true
			}
		}
		return false
	}
	calls := func(g *callgraph.Graph, caller string) bool { return callsOf(g, caller, hidden) }
	for _, alg := range []callgraph.Algorithm{callgraph.CHA, callgraph.TFA} {
		for _, lv := range callgraph.Levels {
			g, err := a.Run(context.Background(), Options{Level: lv, Algorithm: alg, Mains: []string{"access.Main"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, caller := range []string{
				"jfake/ch/Channels$Opened.call(Ljfake/spi/Base;)Ljava/lang/Object;",
				"jfake/ch/Channels.viaAnonymous(Ljfake/spi/Base;)Ljava/lang/Object;",
			} {
				if !calls(g, caller) {
					t.Errorf("%v %v: %s does not call Base.hidden", alg, lv.Title(), caller)
				}
				// The overrides open Base.hidden alone: Encap-Respect holds for
				// the rest.
				if got, want := callsOf(g, caller, other), !lv.RespectsEncapsulation(); got != want {
					t.Errorf("%v %v: %s calls Base.other: %v, want %v", alg, lv.Title(), caller, got, want)
				}
			}
			const invoker = "jfake/ch/Invoker.call(Ljava/lang/reflect/Method;Ljava/lang/Object;)Ljava/lang/Object;"
			if got, want := calls(g, invoker), !lv.RespectsEncapsulation(); got != want {
				t.Errorf("%v %v: Invoker.call calls Base.hidden: %v, want %v", alg, lv.Title(), got, want)
			}
		}
	}
}
