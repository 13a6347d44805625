package analysis

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestSummarisedLocals: TFA summarises the JDK's code, whose values are any object
// of their types, save an argument of a static call that the method creates
// itself. testdata/java/jdklocals-jdk (indexed as the JDK's) hands
// AccessController.doPrivileged actions made in several ways; its comments say
// which run methods each call runs. XTA and RTA, which follow no value of the
// JDK's code, run every action created anywhere at each of them.
func TestSummarisedLocals(t *testing.T) {
	ix := jdkSideIndex(t, "jdklocals-jdk", "jdklocals")
	h := ix.Hierarchy()
	a := New(ix)
	const (
		runA   = "jfake.Privileged$A.run"
		runB   = "jfake.Privileged$B.run"
		runC   = "jfake.Privileged$C.run"
		lambda = "jfake.Privileged.lambda$lambda$0"
	)
	all := []string{runA, runB, runC, lambda}
	want := map[string][]string{
		"created()Ljava/lang/Object;":                               {runA},
		"factory()Ljava/lang/Object;":                               {runC},
		"lambda()Ljava/lang/Object;":                                {lambda},
		"either(Z)Ljava/lang/Object;":                               {runA, runC},
		"given(Ljava/security/PrivilegedAction;)Ljava/lang/Object;": all,
	}
	for _, alg := range []callgraph.Algorithm{callgraph.TFA, callgraph.XTA} {
		for _, lv := range []callgraph.Level{callgraph.BehavedCLs, callgraph.CorrectJDK} {
			g, err := a.Run(context.Background(), Options{Level: lv, Algorithm: alg, Mains: []string{"locals.Main"}})
			if err != nil {
				t.Fatal(err)
			}
			for caller, runs := range want {
				m := methodID(t, h, "jfake/Privileged."+caller)
				if !g.Reachable.Has(m) {
					t.Fatalf("%v %v: jfake.Privileged.%s is unreachable", alg, lv, caller)
				}
				var got []string
				for _, b := range g.Callees(m) {
					for _, id := range g.Sets[b.Set] {
						callee := h.Methods()[id]
						name := strings.ReplaceAll(callee.Class.Name, "/", ".") + "." + callee.Name
						if slices.Contains(all, name) && !slices.Contains(got, name) {
							got = append(got, name)
						}
					}
				}
				slices.Sort(got)
				if alg != callgraph.TFA {
					runs = all // the JDK's values: every action created anywhere
				}
				if !slices.Equal(got, runs) {
					t.Errorf("%v %v: %s's doPrivileged runs %v, want %v", alg, lv, caller, got, runs)
				}
			}
		}
	}
}
