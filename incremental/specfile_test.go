package incremental

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
)

// TestSpecMeaning: the edits that keep what a specification file means (comments,
// spacing) and those that change it (an entry, its line, a problem).
func TestSpecMeaning(t *testing.T) {
	const base = "# plugins\na.B.m @ 3 => a.C\n"
	m := func(text string) uint64 { return meaning(spec.Parse("jcg-spec.txt", []byte(text))) }
	for _, text := range []string{"", "\n\n", "# only a comment\n"} {
		if got := m(text); got != 1 {
			t.Errorf("%q means %x, want 1 (no file)", text, got)
		}
	}
	for _, text := range []string{
		"# plugins, reviewed\na.B.m @ 3 => a.C\n",
		"# plugins\na.B.m  @ 3  =>  a.C   # why: see the loader\n",
		"# plugins\r\na.B.m @ 3 => a.C",
	} {
		if m(text) != m(base) {
			t.Errorf("%q does not mean what %q means", text, base)
		}
	}
	for _, text := range []string{
		"# plugins\na.B.m @ 3 => a.D\n",               // another target
		"# plugins\na.B.m @ 4 => a.C\n",               // another site
		"\n# plugins\na.B.m @ 3 => a.C\n",             // the entry on another line of the file
		"# plugins\na.B.m @ 3 => a.C\nnot an entry\n", // a problem
	} {
		if got := m(text); got == m(base) || got < 2 {
			t.Errorf("%q means %x, as %q does or as no file", text, got, base)
		}
	}
}
