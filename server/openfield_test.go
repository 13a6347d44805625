package server

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestOpenFieldHover checks, through the JSON-RPC connection, the hover's note on a
// call whose receiver is a public field (testdata/lsp/openfield), and under TFA the
// code action and command that explain the call's targets (explainCall). Under TFA,
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
			if got := strings.Contains(shared, "_Why this call has "); got != (algo == "tfa") {
				t.Errorf("%s: hover on shared.size() names the code action: %v, want it under TFA only:\n%s", algo, got, shared)
			}
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
			if algo == "tfa" {
				explainCall(t, e, main)
			}
		})
	}
}

// explainCall checks the "why this call has N targets" code action on the call on
// the public field, and the explanation the server's jcg.explainCall returns: the
// receiver is read from the public field, into which what native code may store
// goes. The call on the private field has one target: no action.
func explainCall(t *testing.T, e *env, main string) {
	actions := func(re string) (protocol.Position, []protocol.CodeAction) {
		pos := e.pos(main, re)
		var out []protocol.CodeAction
		e.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(main)},
			Range:        protocol.Range{Start: pos, End: pos},
		}, &out)
		return pos, out
	}
	pos, shared := actions(`println\(shared\.(size)\(\)\)`)
	var explain *protocol.CodeAction
	for i := range shared {
		if shared[i].Command.Command == CommandExplainCallAt {
			explain = &shared[i]
		}
	}
	if explain == nil || !strings.HasPrefix(explain.Title, "Why this call has ") || len(explain.Command.Arguments) != 2 {
		t.Fatalf("code actions on shared.size(): %+v, want one that explains its targets", shared)
	}
	var md string
	if err := e.command(cmdExplainCall, &md, e.uri(main), pos); err != nil {
		t.Fatalf("%s: %v", cmdExplainCall, err)
	}
	for _, want := range []string{"# Why this call has ", "1. field open.Main.shared (code the analysis does not follow may write it: it is public)",
		"2. what native code may store into fields and arrays: any object of its type"} {
		if !strings.Contains(md, want) {
			t.Errorf("%s: want %q in\n%s", cmdExplainCall, want, md)
		}
	}
	if _, own := actions(`println\(own\.(size)\(\)\)`); len(own) != 0 {
		t.Errorf("code actions on own.size(), a call with one target: %+v", own)
	}
	// A malformed request is an error that names the command; the server goes on.
	if err := e.command(cmdExplainCall, &md, "not a position"); err == nil || !strings.Contains(err.Error(), cmdExplainCall) {
		t.Errorf("%s with bad arguments: %v, want an error naming the command", cmdExplainCall, err)
	}
	if err := e.command(cmdExplainCall, &md, e.uri(main), e.pos(main, `println\(own\.(size)\(\)\)`)); err == nil {
		t.Errorf("%s on a call with one target: no error", cmdExplainCall)
	}
}
