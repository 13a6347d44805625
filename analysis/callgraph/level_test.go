package callgraph

import "testing"

// TestLevelOrder checks the ordering questions a bisection over the levels asks
// (ide's unreachable code): walking Weaker from the top visits every level once,
// from Correct-JDK down to Behaved-CLs, and Midway lands strictly inside.
func TestLevelOrder(t *testing.T) {
	var walk []Level
	for l := MaxLevel; l != 0; l = l.Weaker() {
		walk = append(walk, l)
		if len(walk) > len(Levels) {
			t.Fatalf("Weaker does not end: %v", walk)
		}
	}
	if len(walk) != len(Levels) || walk[0] != CorrectJDK || walk[len(walk)-1] != BehavedCLs {
		t.Errorf("walk down from the top = %v, want the %d levels from Correct-JDK to Behaved-CLs", walk, len(Levels))
	}
	for i := 1; i < len(walk); i++ {
		if !walk[i].AssumesLessThan(walk[i-1]) || walk[i-1].AssumesLessThan(walk[i]) {
			t.Errorf("%v should assume less than %v", walk[i], walk[i-1])
		}
	}
	if !Level(0).AssumesLessThan(BehavedCLs) {
		t.Errorf("no level should assume less than Behaved-CLs")
	}
	for _, c := range []struct{ lo, hi, want Level }{
		{0, CorrectJDK, CorrectCast},
		{0, EncapRespect, BehavedCLs},
		{BehavedCLs, CorrectCast, EncapRespect},
		{CorrectString, CorrectEnv, 0},
		{CorrectEnv, CorrectEnv, 0},
	} {
		if got := Midway(c.lo, c.hi); got != c.want {
			t.Errorf("Midway(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}
