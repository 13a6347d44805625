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
		// The program's sites in source files are all settled early (unresolved
		// reflection with fixed fallback sets, native calls): the first publish has
		// the final ones, and later ones change none of them. What the graph does
		// not reach comes with the final graph only (unreachable code: a partial
		// graph reaches little).
		if len(seq) == 0 || slices.ContainsFunc(seq, func(s []string) bool { return !slices.Equal(s, text(sitesOnly(final[u]))) }) {
			t.Errorf("%s: publishes %q, final %q", u, seq, text(final[u]))
		}
		if len(seq) > 2 {
			t.Errorf("%s: %d publishes before the end of the first build", u, len(seq))
		}
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
