package classfile

import "testing"

// TestSortLines merges two unsorted line tables as Code does for bodies javac did not
// write: sorted by start_pc, stably, and searchable by LineAt.
func TestSortLines(t *testing.T) {
	raw := []byte{
		0, 8, 0, 30, // pc 8: line 30
		0, 0, 0, 10, // pc 0: line 10
		0, 4, 0, 20, // pc 4: line 20
		0, 4, 0, 21, // a second table: pc 4 again, line 21
	}
	c := &Code{lines: sortLines(raw)}
	var got []LineNumber
	for i := range c.NumLines() {
		got = append(got, c.Line(i))
	}
	want := []LineNumber{{0, 10}, {4, 20}, {4, 21}, {8, 30}}
	if len(got) != len(want) {
		t.Fatalf("lines = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("lines = %v, want %v", got, want)
		}
	}
	for pc, line := range map[int]int{0: 10, 3: 10, 4: 21, 7: 21, 8: 30, 100: 30} {
		if l := c.LineAt(pc); l != line {
			t.Errorf("LineAt(%d) = %d, want %d", pc, l, line)
		}
	}
	if l := (&Code{}).LineAt(0); l != -1 {
		t.Errorf("LineAt without a table = %d, want -1", l)
	}
}
