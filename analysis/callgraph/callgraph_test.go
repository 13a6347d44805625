package callgraph

import (
	"slices"
	"strings"
	"testing"
)

func TestParseLevel(t *testing.T) {
	for in, want := range map[string]Level{"behaved-cls": BehavedCLs, "encap-respect": EncapRespect, "Correct-Cast": CorrectCast, " correct-string ": CorrectString, "CORRECT-ENV": CorrectEnv, "correct-jdk": CorrectJDK, "Correct-JDK": CorrectJDK} {
		if got, err := ParseLevel(in); err != nil || got != want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", in, got, err, want)
		}
		if got, err := ParseLevelOrNumber(in); err != nil || got != want {
			t.Errorf("ParseLevelOrNumber(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	// Settings and files name levels: a number is refused, and the error says why.
	for _, in := range []string{"1", "4", "6"} {
		if _, err := ParseLevel(in); err == nil || !strings.Contains(err.Error(), "not its number") {
			t.Errorf("ParseLevel(%q): %v", in, err)
		}
	}
	for in, want := range map[string]Level{"1": BehavedCLs, "5": CorrectEnv, " 6": CorrectJDK} {
		if got, err := ParseLevelOrNumber(in); err != nil || got != want {
			t.Errorf("ParseLevelOrNumber(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "7", "257", "-1", "", "correct"} {
		if _, err := ParseLevel(in); err == nil {
			t.Errorf("ParseLevel(%q) accepted", in)
		}
		if _, err := ParseLevelOrNumber(in); err == nil {
			t.Errorf("ParseLevelOrNumber(%q) accepted", in)
		}
	}
}

// TestLevelQuestions pins the level from which each question is answered yes (the
// specification's, docs/assumption-levels.md) and that a yes stays a yes at every
// level above: each level adds assumptions, which keeps its graph a subgraph of the
// previous level's.
func TestLevelQuestions(t *testing.T) {
	questions := []struct {
		name  string
		ask   func(Level) bool
		first Level
	}{
		{"RespectsEncapsulation", Level.RespectsEncapsulation, EncapRespect},
		{"TrustsCasts", Level.TrustsCasts, CorrectCast},
		{"TrustsPrivateState", Level.TrustsPrivateState, CorrectString},
		{"TrustsStrings", Level.TrustsStrings, CorrectString},
		{"UsesAnalysedEnvironment", Level.UsesAnalysedEnvironment, CorrectEnv},
		{"ModelsJDK", Level.ModelsJDK, CorrectJDK},
		{"ModelsContainers", Level.ModelsContainers, CorrectJDK},
	}
	for _, q := range questions {
		var got []Level
		for _, l := range Levels {
			if q.ask(l) {
				got = append(got, l)
			}
		}
		if want := Levels[slices.Index(Levels, q.first):]; !slices.Equal(got, want) {
			t.Errorf("%s answers yes at %v, want %v", q.name, got, want)
		}
	}
	for _, l := range Levels {
		fb := l.FallbackLevel()
		if want := min(l, EncapRespect); fb != want || fb.RespectsEncapsulation() != l.RespectsEncapsulation() {
			t.Errorf("%v.FallbackLevel() = %v, want %v with the same access rules", l, fb, want)
		}
		if back, err := ParseLevel(l.String()); err != nil || back != l {
			t.Errorf("ParseLevel(%v.String()) = %v, %v", l, back, err)
		}
	}
}

func TestParseAlgorithm(t *testing.T) {
	for in, want := range map[string]Algorithm{"cha": CHA, "RTA": RTA, " Xta ": XTA, "tfa": TFA, "TFA": TFA} {
		if got, err := ParseAlgorithm(in); err != nil || got != want {
			t.Errorf("ParseAlgorithm(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "all", "cha2"} {
		if _, err := ParseAlgorithm(in); err == nil {
			t.Errorf("ParseAlgorithm(%q) accepted", in)
		}
	}
	for _, a := range Algorithms {
		if a.String() != strings.ToUpper(a.String()) || a.Companion() != CHA && !a.UpdatesInPlace() {
			t.Errorf("%v: spelt %q, companion %v", a, a.String(), a.Companion())
		}
		if a.Companion() != a && a.UpdatesInPlace() {
			t.Errorf("%v updates in place but has companion %v", a, a.Companion())
		}
	}
}

func TestBitset(t *testing.T) {
	s := NewBitset(200)
	for _, id := range []int32{0, 63, 64, 199} {
		if !s.Add(id) || s.Add(id) {
			t.Errorf("Add(%d) not new exactly once", id)
		}
	}
	if s.Count() != 4 || !s.Has(64) || s.Has(65) || s.Has(-1) || s.Has(1000) {
		t.Errorf("bitset state wrong: count %d", s.Count())
	}
	var got []int32
	s.ForEach(func(id int32) { got = append(got, id) })
	if len(got) != 4 || got[0] != 0 || got[3] != 199 {
		t.Errorf("ForEach = %v", got)
	}
	t2 := NewBitset(200)
	t2.Add(0)
	if !t2.SubsetOf(s) || s.SubsetOf(t2) {
		t.Error("SubsetOf wrong")
	}
}

// TestGraphQueries builds a tiny graph by hand: node 0 calls 1 and 2 through two
// bundles that share node 2; node 1 calls 2.
func TestGraphQueries(t *testing.T) {
	g := &Graph{NumNodes: 4, Native: 3,
		Sets:    [][]int32{{1, 2}, {2}},
		Bundles: []Bundle{{Caller: 0, PC: 1, Set: 0}, {Caller: 0, PC: 5, Set: 1}, {Caller: 1, PC: 0, Set: 1}},
		Reasons: []Reason{{Kind: KindStatic}}}
	if n := g.NumEdges(); n != 3 {
		t.Errorf("NumEdges = %d, want 3 distinct (caller, callee) pairs", n)
	}
	if !g.HasEdge(0, 2) || g.HasEdge(2, 0) || !g.HasEdge(1, 2) {
		t.Error("HasEdge wrong")
	}
	if cs := g.Callees(0); len(cs) != 2 {
		t.Errorf("Callees(0) = %v", cs)
	}
	if callers := g.Callers(2); !slices.Equal(callers, []int32{0, 1, 2}) || g.NumCallers(2) != 3 {
		t.Errorf("Callers(2) = %v (%d), want the three bundles in order", callers, g.NumCallers(2))
	}
	if callers := g.Callers(1); !slices.Equal(callers, []int32{0}) || g.NumCallers(1) != 1 {
		t.Errorf("Callers(1) = %v", callers)
	}
	if g.Callers(-1) != nil || g.Callers(4) != nil {
		t.Error("Callers of a node out of range")
	}
	if callers := g.Callers(0); len(callers) != 0 {
		t.Errorf("Callers(0) = %v", callers)
	}
}

func TestSiteStats(t *testing.T) {
	g := &Graph{Sites: []Site{{Feature: FeatLoading, Status: Resolved}, {Feature: FeatLoading, Status: Partial},
		{Feature: FeatLoading, Status: Specified}, {Feature: FeatInvocation, Status: Unresolved}}}
	st := SiteStats(g)
	if l := st[FeatLoading]; l.Total != 3 || l.Resolved != 2 || l.Unresolved != 1 || l.Specified != 1 || l.Partial != 1 {
		t.Errorf("loading stats = %+v", *l)
	}
	if i := st[FeatInvocation]; i.Total != 1 || i.Unresolved != 1 {
		t.Errorf("invoke stats = %+v", *i)
	}
	// Below Correct-String only resolved sites are resolvable.
	if l := st[FeatLoading]; l.Resolvable != 2 {
		t.Errorf("loading resolvable = %d, want its 2 resolved sites", l.Resolvable)
	}
}

// TestSiteStatsResolvable: at Correct-String an unresolved site is resolvable unless
// some unknown value comes from a source the level does not license.
func TestSiteStatsResolvable(t *testing.T) {
	limit, outside := SpecPoint{Kind: "value computed in a loop"}, SpecPoint{Kind: "public parameter 0", Beyond: true}
	g := &Graph{Level: CorrectString, Sites: []Site{
		{Feature: FeatLoading, Status: Resolved},
		{Feature: FeatLoading, Status: Unresolved, Points: []SpecPoint{limit}},          // resolvable
		{Feature: FeatLoading, Status: Unresolved},                                      // no evidence: resolvable
		{Feature: FeatLoading, Status: Unresolved, Points: []SpecPoint{limit, outside}}, // beyond the level
		{Feature: FeatLoading, Status: Partial, Points: []SpecPoint{outside}},           // beyond the level
		{Feature: FeatInvocation, Status: Specified, Points: []SpecPoint{outside}},      // resolved all the same
		{Feature: FeatNative, Status: Unresolved},                                       // no value analysis: not resolvable
	}}
	st := SiteStats(g)
	if l := st[FeatLoading]; l.Total != 5 || l.Resolved != 1 || l.Resolvable != 3 {
		t.Errorf("loading stats = %+v, want 5 sites, 1 resolved, 3 resolvable", *l)
	}
	if i := st[FeatInvocation]; i.Resolvable != 1 {
		t.Errorf("invoke stats = %+v, want the specified site resolvable", *i)
	}
	if n := st[FeatNative]; n.Resolvable != 0 {
		t.Errorf("native stats = %+v, want nothing resolvable", *n)
	}
}

// TestDispatchStats: of the kept callers' virtual and interface sites, those with at
// most one target (over their dispatch and lambda bundles); static calls, other
// callers and lambda-only sites do not count.
func TestDispatchStats(t *testing.T) {
	reasons := []Reason{{Kind: KindVirtual}, {Kind: KindInterface}, {Kind: KindLambda}, {Kind: KindStatic}}
	sets := [][]int32{{5}, {5, 6}, {}, {7}}
	g := &Graph{NumNodes: 9, Native: 8, Reasons: reasons, Sets: sets, Bundles: []Bundle{
		{Caller: 0, PC: 1, Set: 0, Reason: 0}, // one target: counted, single
		{Caller: 0, PC: 2, Set: 1, Reason: 1}, // two targets
		{Caller: 0, PC: 3, Set: 0, Reason: 1}, // one by dispatch, one more by a lambda: two
		{Caller: 0, PC: 3, Set: 3, Reason: 2},
		{Caller: 0, PC: 4, Set: 2, Reason: 0}, // no target (dead): single
		{Caller: 0, PC: 5, Set: 1, Reason: 3}, // static: not a dispatch
		{Caller: 0, PC: 6, Set: 1, Reason: 2}, // lambda only: not counted
		{Caller: 1, PC: 1, Set: 1, Reason: 0}, // a caller not kept
		{Caller: 8, PC: 1, Set: 1, Reason: 0}, // the native node
	}}
	sites, single := DispatchStats(g, func(n NodeID) bool { return n != 1 })
	if sites != 4 || single != 2 {
		t.Errorf("DispatchStats = %d sites, %d single; want 4, 2", sites, single)
	}
}

// TestReacher: a Reacher asked again and again answers as a new search each time,
// though it reuses one search's memory. Node 0 is the entry; 0 calls 1 and 2 (the
// shared set {3}, through two bundles), 3 calls 4. Counted by hand.
func TestReacher(t *testing.T) {
	sets := [][]int32{{1}, {2}, {3}, {4}}
	g := &Graph{NumNodes: 6, Native: 5, Entries: []NodeID{0}, Sets: sets, Reasons: []Reason{{Kind: KindStatic}}, Bundles: []Bundle{
		{Caller: 0, PC: 1, Set: 0}, {Caller: 0, PC: 2, Set: 1},
		{Caller: 1, PC: 1, Set: 2}, {Caller: 2, PC: 1, Set: 2},
		{Caller: 3, PC: 1, Set: 3},
	}}
	r := g.Reacher()
	for _, c := range []struct {
		skip []int32
		want int
	}{
		{nil, 5},
		{[]int32{2}, 5},    // 3 through 2's bundle still
		{[]int32{2, 3}, 3}, // 0, 1, 2
		{[]int32{4}, 4},    // no 4
		{[]int32{0, 1}, 1}, // the entry alone
		{nil, 5},           // again the whole graph: nothing left of the searches before
	} {
		skip := func(b int32) bool { return slices.Contains(c.skip, b) }
		if got := r.Without(skip); got != c.want {
			t.Errorf("without bundles %v: the Reacher counts %d, want %d", c.skip, got, c.want)
		}
		if got := g.ReachWithout(skip); got != c.want {
			t.Errorf("without bundles %v: ReachWithout counts %d, want %d", c.skip, got, c.want)
		}
	}
}
