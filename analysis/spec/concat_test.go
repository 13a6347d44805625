package spec

import (
	"fmt"
	"testing"
)

// TestConcat: entries of several files keep their order, count their lines through
// the concatenation (which the analysis's problems name) and are located back in
// their own files; problems keep their own files' positions.
func TestConcat(t *testing.T) {
	a := Parse("a.txt", []byte("# first\na.B.m @ 3 => a.C\n"))           // 2 lines
	b := Parse("b.txt", []byte("\n\nbad line\nx.Y.z @ 7 => x.W\n# end")) // 5 lines, the last without a newline
	c := Concat(a, b)
	if c.Name != "a.txt+b.txt" || len(c.Entries) != 2 || len(c.Problems) != 1 {
		t.Fatalf("Concat = %q, %v, %v", c.Name, c.Entries, c.Problems)
	}
	if c.Entries[0].Line != 2 || c.Entries[1].Line != 6 {
		t.Errorf("entry lines %d, %d; want 2 and 6, as in `cat a.txt b.txt`", c.Entries[0].Line, c.Entries[1].Line)
	}
	if p := c.Problems[0]; p.File != "b.txt" || p.Line != 3 {
		t.Errorf("problem %v, want b.txt:3", p)
	}
	for i, want := range []string{"a.txt:2", "b.txt:4"} {
		name, line := c.Locate(c.Entries[i].Line)
		if got := fmt.Sprintf("%s:%d", name, line); got != want {
			t.Errorf("entry %d (concatenation line %d) located at %s, want %s", i, c.Entries[i].Line, got, want)
		}
	}
	msg := fmt.Sprintf("a.txt+b.txt:%d:1: unknown class x.Y", c.Entries[1].Line)
	if got := c.Relocate(msg); got != "b.txt:4:1: unknown class x.Y" {
		t.Errorf("Relocate(%q) = %q", msg, got)
	}
	if got := c.Relocate("other.txt:1:1: x"); got != "other.txt:1:1: x" {
		t.Errorf("Relocate of another file's message = %q", got)
	}
	if one := Concat(a); one != a || one.Relocate("a.txt:2:1: m") != "a.txt:2:1: m" {
		t.Error("Concat of one file should be that file, positions unchanged")
	}
}
