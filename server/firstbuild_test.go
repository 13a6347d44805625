package server

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// TestRequestsWaitForFirstBuild sends requests through the JSON-RPC connection while
// the first build still runs: a hover on a resolved Class.forName, a call hierarchy of
// Worker.run (started by main through Thread.start) and the quick fixes of nothing in
// particular. Each must answer as the finished snapshot does, not with the empty
// answer that would tell the user there is nothing there. A request cancelled with
// $/cancelRequest while it waits answers RequestCancelled; one that waits longer than
// its bound answers an error the client shows.
func TestRequestsWaitForFirstBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	factory, worker := src("app/Factory.java"), src("app/Worker.java")

	t.Run("Answers", func(t *testing.T) {
		e := newEnv(t, workspace(t, "plugins"), envOptions{config: map[string]any{"level": "correct-string"}})
		if n := e.numStatuses(); n != 0 {
			t.Fatalf("the first build ended (%d statuses) before the test asked: nothing would wait", n)
		}
		// Without the wait it answers at once with nothing (null).
		h := e.hover(factory, e.pos(factory, `Class\.(forName)\("app`))
		if !strings.Contains(h, "**resolved**") || !strings.Contains(h, "app.plugins.Bye") {
			t.Errorf("hover on known's forName during the first build:\n%s", h)
		}
		items := e.prepare(worker, e.pos(worker, `void (run)\(`))
		if len(items) != 1 {
			t.Fatalf("prepare on Worker.run: %v", items)
		}
		var callers []string
		for _, c := range e.incoming(items[0]) {
			callers = append(callers, c.From.Name)
		}
		if !strings.Contains(strings.Join(callers, " "), "main") {
			t.Errorf("incoming calls of Worker.run: %v, want main among them", callers)
		}
	})

	t.Run("Cancelled", func(t *testing.T) {
		e := newEnv(t, workspace(t, "plugins"), envOptions{config: map[string]any{"level": "correct-string"}})
		for len(e.spy.sent) > 0 {
			<-e.spy.sent
		}
		errc := make(chan error, 1)
		p := e.pos(factory, `Class\.(forName)\("app`)
		go func() {
			errc <- e.tryCall(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(factory)}, Position: p}}, nil)
		}()
		var sent sentCall
		for sent.method != protocol.MethodTextDocumentHover {
			sent = <-e.spy.sent
		}
		if e.numStatuses() != 0 {
			t.Skip("the first build ended before the cancellation could be sent")
		}
		e.notify(protocol.MethodCancelRequest, map[string]any{"id": sent.id})
		if err := <-errc; rpcCode(err) != protocol.CodeRequestCancelled {
			t.Errorf("a hover cancelled while it waited: %v (code %d), want RequestCancelled", err, rpcCode(err))
		}
		if e.numStatuses() != 0 {
			t.Errorf("the cancelled hover answered only after the first build")
		}
	})

	t.Run("Bound", func(t *testing.T) {
		e := newEnv(t, workspace(t, "plugins"), envOptions{config: map[string]any{"level": "correct-string"}, firstBuildWait: time.Millisecond})
		err := e.tryCall(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(factory)}, Position: e.pos(factory, `Class\.(forName)\("app`)}}, nil)
		if e.numStatuses() != 0 {
			t.Skip("the first build ended within the wait's bound")
		}
		if rpcCode(err) != codeRequestFailed || !strings.Contains(err.Error(), "still analysing") {
			t.Errorf("a hover that waited past its bound: %v (code %d), want RequestFailed saying the analysis still runs", err, rpcCode(err))
		}
	})
}

// TestAnswersRightAfterFirstDiagnostics: the user sees the first squiggle, published
// while the first build still runs, and acts on it at once. A hover on it, its quick
// fixes, and the call hierarchy of Main.record (called from a lambda's body, which only
// Registry.fire's Consumer.accept reaches) and of Worker.run (Thread.start) must answer
// byte for byte as the same requests do once the build has ended. The server has no
// graph cache here, so the first build analyses.
func TestAnswersRightAfterFirstDiagnostics(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	factory, main, worker := src("app/Factory.java"), src("app/Main.java"), src("app/Worker.java")
	e := newEnv(t, workspace(t, "plugins"), envOptions{config: map[string]any{"level": "correct-string"}})
	site := e.pos(factory, `Class\.(forName)\(name\)`)
	var diag protocol.Diagnostic
	e.waitFor("the forName site's diagnostic", func() bool {
		d := diagAt(e.diags[e.uri(factory)], site)
		if d != nil {
			diag = *d
		}
		return d != nil
	})
	during := e.numStatuses() == 0
	raw := func(method string, params any) string {
		var r json.RawMessage
		e.call(method, params, &r)
		return string(r)
	}
	ask := func() []string {
		out := []string{
			raw(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(factory)}, Position: site}}),
			raw(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(factory)}, Range: diag.Range,
				Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{diag}}}),
		}
		for _, p := range []struct{ rel, re string }{{main, `static void (record)\(String s\)`}, {worker, `void (run)\(`}} {
			items := e.prepare(p.rel, e.pos(p.rel, p.re))
			if len(items) != 1 {
				t.Fatalf("prepare at %s in %s: %d items", p.re, p.rel, len(items))
			}
			out = append(out, string(mustJSON(items)),
				raw(protocol.MethodCallHierarchyIncomingCalls, &protocol.CallHierarchyIncomingCallsParams{Item: items[0]}),
				raw(protocol.MethodCallHierarchyOutgoingCalls, &protocol.CallHierarchyOutgoingCallsParams{Item: items[0]}))
		}
		return out
	}
	early := ask()
	if !during {
		t.Log("the first build ended before the requests were sent: comparing answers only")
	}
	e.waitReady(0)
	final := ask()
	names := []string{"hover", "codeAction", "prepare record", "incoming record", "outgoing record", "prepare run", "incoming run", "outgoing run"}
	for i := range final {
		if early[i] != final[i] {
			t.Errorf("%s right after the first diagnostic:\n%s\nafter the build:\n%s", names[i], early[i], final[i])
		}
	}
	if !strings.Contains(final[3], "lambda$main$") || !strings.Contains(final[6], `"main`) {
		t.Errorf("incoming calls of record lack the lambda's body, or those of run lack main:\n%s\n%s", final[3], final[6])
	}
	if !strings.Contains(final[1], "Add specification") {
		t.Errorf("no quick fix for the forName site: %s", final[1])
	}
}
