package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestEarlyDiagnostics checks, through the JSON-RPC connection, that the first build
// publishes the diagnostics of the program's sites while the analysis still runs, that
// each file's publishes only add diagnostics, each exactly as the final snapshot
// publishes it, and that a rebuild publishes nothing before its end.
func TestEarlyDiagnostics(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	e := newEnv(t, workspace(t, "plugins"), envOptions{config: map[string]any{"level": "correct-string"}})
	e.waitReady(0)
	factory, main := e.uri(src("app/Factory.java")), e.uri(src("app/Main.java"))

	e.mu.Lock()
	pubs := slices.Clone(e.pubs)
	final := map[uri.URI][]protocol.Diagnostic{}
	for u, ds := range e.diags {
		final[u] = ds
	}
	// The progress report the build sends once the analysis has ended.
	analysed := slices.IndexFunc(e.progress, func(raw json.RawMessage) bool {
		return strings.Contains(string(raw), "publishing diagnostics")
	})
	e.mu.Unlock()
	if analysed < 0 {
		t.Fatal("no progress report of the final publish")
	}

	text := func(ds []protocol.Diagnostic) []string {
		var out []string
		for _, d := range ds {
			raw, err := protocol.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(raw))
		}
		return out
	}
	for _, u := range []uri.URI{factory, main} {
		if len(final[u]) == 0 {
			t.Fatalf("no final diagnostics for %s", u)
		}
		var seq [][]string
		for _, p := range pubs {
			if p.uri == u {
				if len(seq) == 0 && p.progress > analysed {
					t.Errorf("%s: the first diagnostics came after the analysis", u)
				}
				seq = append(seq, text(sitesOnly(p.diags)))
			}
		}
		// The program's sites with fixed target sets (Class.forName's fallback of
		// every initialiser, native calls) are settled early; those whose targets
		// grow with the run (an unresolved Method.invoke, whose fallback holds the
		// instance methods of created classes only) come with the final graph.
		// Either way each publish only adds diagnostics, each as the final
		// snapshot publishes it. What the graph does not reach comes with the
		// final graph only (unreachable code: a partial graph reaches little).
		want := text(sitesOnly(final[u]))
		var prev []string
		for i, p := range seq {
			if !isSubset(prev, p) || !isSubset(p, want) {
				t.Errorf("%s: publish %d %q is not the previous one plus diagnostics of the final %q", u, i, p, want)
			}
			prev = p
		}
		if len(seq) == 0 || !slices.Equal(seq[len(seq)-1], want) {
			t.Errorf("%s: publishes %q, final %q", u, seq, want)
		}
		if len(seq) > 2 {
			t.Errorf("%s: %d publishes before the end of the first build", u, len(seq))
		}
	}
	// Factory's invoke(...) falls back to instance methods of created classes: its
	// diagnostic is in the final publish, not the first.
	var first []string
	for _, p := range pubs {
		if p.uri == factory {
			first = text(sitesOnly(p.diags))
			break
		}
	}
	invokeDiag := func(ds []string) bool {
		return slices.ContainsFunc(ds, func(d string) bool { return strings.Contains(d, "Method.invoke: unresolved") })
	}
	if invokeDiag(first) || !invokeDiag(text(final[factory])) {
		t.Errorf("Factory.java: the Method.invoke diagnostic in the first publish %v (want not) or missing from the final %q", invokeDiag(first), text(final[factory]))
	}

	// A rebuild starts with the first build's diagnostics on screen: it publishes
	// only at its end, and then nothing for unchanged files.
	n, statuses := len(pubs), e.numStatuses()
	if err := e.command(cmdReanalyze, nil); err != nil {
		t.Fatal(err)
	}
	e.waitReady(statuses)
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range e.pubs[n:] {
		t.Errorf("the rebuild published %d diagnostics for %s", len(p.diags), p.uri)
	}
}

// sitesOnly leaves out the diagnostics of unreachable code.
func sitesOnly(ds []protocol.Diagnostic) []protocol.Diagnostic {
	return slices.DeleteFunc(slices.Clone(ds), func(d protocol.Diagnostic) bool { return d.Code == protocol.String("unreachable") })
}

// isSubset reports whether every string of a is in b.
func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
