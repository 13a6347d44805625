package leveltable

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestWrite: the first table counts every site, the second only those of own code,
// with the resolvable count; times are shown when known.
func TestWrite(t *testing.T) {
	g := &callgraph.Graph{Level: callgraph.CorrectString, NumNodes: 3, Native: 2, Reachable: callgraph.NewBitset(3), Sites: []callgraph.Site{
		{Caller: 0, Feature: callgraph.FeatLoading, Status: callgraph.Resolved},
		{Caller: 0, Feature: callgraph.FeatLoading, Status: callgraph.Unresolved, Points: []callgraph.SpecPoint{{Kind: "loop"}}},
		{Caller: 0, Feature: callgraph.FeatLoading, Status: callgraph.Unresolved, Points: []callgraph.SpecPoint{{Kind: "public parameter 0", Beyond: true}}},
		{Caller: 1, Feature: callgraph.FeatLoading, Status: callgraph.Unresolved}, // the JDK's
	}}
	g.Reachable.Add(0)
	g.Reachable.Add(1)
	var b bytes.Buffer
	if err := Write(&b, []Row{{Graph: g, Time: 1500 * time.Millisecond}}, func(n callgraph.NodeID) bool { return n == 0 }); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	row := func(after string) string {
		for i, l := range lines {
			if strings.Contains(l, after) && i+2 < len(lines) {
				return lines[i+2]
			}
		}
		t.Fatalf("no table after %q:\n%s", after, b.String())
		return ""
	}
	if all := lines[1]; !strings.Contains(all, "Correct-String") || !strings.Contains(all, " 4/1/3 ") || !strings.HasSuffix(strings.TrimSpace(all), "1.5s") {
		t.Errorf("first table's row: %q", all)
	}
	if own := row("Dynamic sites in application and library code:"); !strings.Contains(own, " 3/1/2/2 ") {
		t.Errorf("own code's row: %q, want loading 3/1/2/2", own)
	}
}
