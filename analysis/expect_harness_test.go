package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/internal/graphcheck"
)

// Tests of the test machinery itself: the directive parser and the subgraph checker
// (an invariant checker that never fires would go unnoticed).

func TestParseDirective(t *testing.T) {
	for _, tc := range []struct {
		in, text, rest string
		neg            bool
		name           string
		quals          []expQual
		args           []string
	}{
		{in: "@calls(p.B.m, p.C.m) more", text: "@calls(p.B.m, p.C.m)", rest: " more", name: "calls", args: []string{"p.B.m", "p.C.m"}},
		{in: "@!calls[rta,level>=2](p.D.m(ILjava/lang/String;)V)", text: "@!calls[rta,level>=2](p.D.m(ILjava/lang/String;)V)", neg: true, name: "calls",
			quals: []expQual{{algo: callgraph.RTA}, {op: ">=", level: 2}}, args: []string{"p.D.m(ILjava/lang/String;)V"}},
		{in: "@reachable", text: "@reachable", name: "reachable"},
		{in: "@!reachable[level=1] @reachable", text: "@!reachable[level=1]", rest: " @reachable", neg: true, name: "reachable", quals: []expQual{{op: "=", level: 1}}},
		{in: "@edge(<native>, p.A.<init>)", text: "@edge(<native>, p.A.<init>)", name: "edge", args: []string{"<native>", "p.A.<init>"}},
		{in: "@site(resolved, loading)", text: "@site(resolved, loading)", name: "site", args: []string{"resolved", "loading"}},
	} {
		d, rest, err := parseDirective(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if d.text != tc.text || rest != tc.rest || d.neg != tc.neg || d.name != tc.name || !slices.Equal(d.quals, tc.quals) || !slices.Equal(d.args, tc.args) {
			t.Errorf("%q: got text %q rest %q neg %v name %q quals %v args %q", tc.in, d.text, rest, d.neg, d.name, d.quals, d.args)
		}
	}
	for _, bad := range []string{"@calls(p.A.m", "@calls[cga](p.A.m)", "@calls[level>=9](p.A.m)", "@calls(p.A.m)x", "@calls(p.A.m,)", "@"} {
		if _, _, err := parseDirective(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestAddDirectiveErrors(t *testing.T) {
	for _, bad := range []string{"@frobnicate", "@edge(p.A.m)", "@site(fine)", "@site(resolved, nope)", "@!callees(p.A.m)", "@levels(7)", "@algos(vta)", "@library(x)", "@calls"} {
		d, _, err := parseDirective(bad)
		if err != nil {
			continue
		}
		p := &expProgram{}
		if err := p.addDirective(d, 1); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
	p := &expProgram{}
	for _, s := range []string{"@levels(1-3)", "@algos(rta)"} {
		d, _, _ := parseDirective(s)
		if err := p.addDirective(d, 0); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(p.levels, []callgraph.Level{1, 2, 3}) || !slices.Equal(p.algos, []callgraph.Algorithm{callgraph.RTA}) {
		t.Errorf("levels %v algos %v", p.levels, p.algos)
	}
}

func TestJavaComments(t *testing.T) {
	src := strings.Split(`/* header
 * // @calls(not.A.directive)
 */
x = "// @calls(in.a.String)"; // @calls(real.One.m)
// @reachable
char c = '"'; s = """
   // @calls(in.a.TextBlock)
   """; // @calls(real.Two.m)
`, "\n")
	comments, code := javaComments(src)
	var got []string
	for i, c := range comments {
		if c != "" {
			got = append(got, strings.TrimSpace(c)+map[bool]string{true: " (code)", false: ""}[code[i]])
		}
	}
	want := []string{"@calls(real.One.m) (code)", "@reachable", "@calls(real.Two.m) (code)"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestSubgraphProblems(t *testing.T) {
	bits := func(n int, ids ...int32) callgraph.Bitset {
		b := callgraph.NewBitset(n)
		for _, id := range ids {
			b.Add(id)
		}
		return b
	}
	shared := []int32{1, 2}
	lo := &callgraph.Graph{NumNodes: 5, Native: 4, Reachable: bits(5, 0, 1, 2), Entries: []int32{0},
		Bundles: []callgraph.Bundle{{Caller: 0, Set: 0}, {Caller: 1, Set: 1}},
		Sets:    [][]int32{shared, {2}}, Reasons: []callgraph.Reason{{}}}
	same := &callgraph.Graph{NumNodes: 5, Native: 4, Reachable: bits(5, 0, 1, 2), Entries: []int32{0},
		Bundles: []callgraph.Bundle{{Caller: 0, Set: 0}, {Caller: 0, Set: 1}, {Caller: 1, Set: 1}},
		Sets:    [][]int32{shared, {2}}, Reasons: []callgraph.Reason{{}}}
	if p, _ := graphcheck.SubgraphProblems(lo, same, nil); len(p) > 0 {
		t.Errorf("subgraph reported as not one: %q", p)
	}
	bigger := &callgraph.Graph{NumNodes: 5, Native: 4, Reachable: bits(5, 0, 1, 2, 3), Entries: []int32{0, 3},
		Bundles: []callgraph.Bundle{{Caller: 0, Set: 0}, {Caller: 1, Set: 1}},
		Sets:    [][]int32{shared, {0, 2}}, Reasons: []callgraph.Reason{{}}}
	p, _ := graphcheck.SubgraphProblems(lo, bigger, nil)
	if len(p) != 3 || !strings.Contains(p[0], "reachable only") || !strings.Contains(p[1], "entry points") || !strings.Contains(p[2], "1 -> 0") {
		t.Errorf("got %q", p)
	}
}
