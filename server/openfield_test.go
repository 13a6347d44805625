package server

import (
	"strings"
	"testing"
)

// TestOpenFieldHover checks, through the JSON-RPC connection, the hover's note on a
// call whose receiver is a public field (testdata/lsp/openfield). Under TFA,
// shared.size() reaches the size() of every List the program creates, since code
// the analysis does not follow may store any of them in the public field: the
// hover says so and names the field. own is private, so own.size() reaches
// ArrayList.size only, with no note. Under RTA both calls reach every List's
// size(), and the note, which is about TFA's values, is not given.
func TestOpenFieldHover(t *testing.T) {
	dir := workspace(t, "openfield")
	main := src("open/Main.java")
	const note = "The receiver is read from `open.Main.shared`, which is public"
	for _, algo := range []string{"tfa", "rta"} {
		t.Run(algo, func(t *testing.T) {
			e := newEnv(t, dir, envOptions{config: map[string]any{"algorithm": algo, "mainClasses": []string{"open.Main"}}})
			defer e.close()
			e.waitReady(0)
			shared := e.hover(main, e.pos(main, `println\(shared\.(size)\(\)\)`))
			if got := strings.Contains(shared, note); got != (algo == "tfa") || !strings.Contains(shared, "java.util.ArrayList.size()") {
				t.Errorf("%s: hover on shared.size() (note %v):\n%s", algo, got, shared)
			}
			own := e.hover(main, e.pos(main, `println\(own\.(size)\(\)\)`))
			if strings.Contains(own, "The receiver is read from") {
				t.Errorf("%s: hover on own.size() has a note:\n%s", algo, own)
			}
			if single := strings.Contains(own, "call: 1 target"); single != (algo == "tfa") {
				t.Errorf("%s: hover on own.size(), want one target under TFA only:\n%s", algo, own)
			}
		})
	}
}
