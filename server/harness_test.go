package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

func TestMain(m *testing.M) {
	panicOnBugs = true
	os.Exit(m.Run())
}

// waitTimeout bounds every wait for the server: whole-JDK analyses take seconds per
// level, more on a loaded machine.
const waitTimeout = 3 * time.Minute

// workspace lays out a Maven-style workspace in a temporary directory: the sources of
// testdata/lsp/<program> under src/main/java and their class files, compiled with
// javac, under target/classes.
func workspace(t testing.TB, program string) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "testdata", "lsp", program, "src", "main", "java"))
	if err != nil {
		t.Fatal(err)
	}
	classes := javatest.Compile(t, src, javatest.Release(17))
	dir := t.TempDir()
	javatest.CopyTree(t, src, filepath.Join(dir, "src", "main", "java"))
	javatest.CopyTree(t, classes, filepath.Join(dir, "target", "classes"))
	return dir
}

// env is an LSP client session with a server over a real jsonrpc2 connection on a
// net.Pipe. It records what the server sends and lets tests wait for it.
type env struct {
	t    testing.TB
	dir  string
	conn jsonrpc2.Conn
	spy  *spyConn
	raw  net.Conn // the client's end of the pipe, for malformed frames
	srv  *Server
	done chan error // Serve's result

	closeOnce sync.Once

	mu       sync.Mutex
	cond     *sync.Cond
	config   json.RawMessage // what workspace/configuration answers
	diags    map[uri.URI][]protocol.Diagnostic
	pubs     []publishRecord // every publishDiagnostics, in order
	statuses []statusParams
	progress []json.RawMessage
	messages []string
	shown    []string
}

// publishRecord is one textDocument/publishDiagnostics the server sent.
type publishRecord struct {
	uri      uri.URI
	diags    []protocol.Diagnostic
	progress int // $/progress notifications received before it
	statuses int // jcg/status notifications received before it
}

type envOptions struct {
	initOptions any // initializationOptions
	config      any // the "jcg" section workspace/configuration returns
	logger      *zap.Logger
	graphs      *incremental.GraphCache
	folders     []string // more workspace folders after dir
	// firstBuildWait bounds how long requests wait for the first snapshot; zero
	// for the server's default.
	firstBuildWait time.Duration
	buildTools     *buildtool.Resolver // nil for the server's default
}

// newEnv starts a server for the workspace dir and initializes it.
func newEnv(t testing.TB, dir string, o envOptions) *env {
	t.Helper()
	e := &env{t: t, dir: dir, diags: map[uri.URI][]protocol.Diagnostic{}, done: make(chan error, 1)}
	e.cond = sync.NewCond(&e.mu)
	if o.config != nil {
		e.config = mustJSON(o.config)
	} else {
		e.config = json.RawMessage("null")
	}
	log := o.logger
	if log == nil {
		log = zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel))
	}
	a, b := net.Pipe()
	e.raw = b
	e.srv = New(Options{Logger: log, Version: "test", Graphs: o.graphs, FirstBuildWait: o.firstBuildWait, BuildTools: o.buildTools})
	go func() { e.done <- e.srv.Serve(context.Background(), a) }()
	e.spy = &spyConn{Conn: b, sent: make(chan sentCall, 100)}
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(e.spy), jsonrpc2.WithCodec(lspCodec{}))
	e.conn.Go(context.Background(), e.handle)
	t.Cleanup(func() { e.close() })

	yes := true
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          uri.File(dir),
		"workspaceFolders": folderList(append([]string{dir}, o.folders...)),
		"capabilities": map[string]any{
			"window": map[string]any{"workDoneProgress": yes, "showDocument": map[string]any{"support": true}},
			"workspace": map[string]any{
				"configuration": true,
				"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create"}},
			},
		},
		"clientInfo": map[string]any{"name": "jcg-lsp test client"},
	}
	if o.initOptions != nil {
		params["initializationOptions"] = o.initOptions
	}
	var res protocol.InitializeResult
	e.call(protocol.MethodInitialize, params, &res)
	if res.ServerInfo.Name != "jcg-lsp" {
		t.Fatalf("initialize: server info %+v", res.ServerInfo)
	}
	e.notify(protocol.MethodInitialized, map[string]any{})
	return e
}

func folderList(dirs []string) []map[string]any {
	var out []map[string]any
	for _, d := range dirs {
		out = append(out, map[string]any{"uri": uri.File(d), "name": filepath.Base(d)})
	}
	return out
}

func (e *env) close() { e.closeOnce.Do(e.stop) }

func (e *env) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = e.conn.Call(ctx, protocol.MethodShutdown, nil, nil)
	_ = e.conn.Notify(ctx, protocol.MethodExit, nil)
	select {
	case <-e.done:
	case <-ctx.Done():
		e.t.Errorf("server did not stop after exit")
	}
	e.conn.Close()
}

// spyConn reports the ID of every call the client writes, so that a test can cancel
// a request it is still waiting for (jsonrpc2.Conn.Call returns the ID only at the
// end). Each frame is written by one Write.
type spyConn struct {
	net.Conn
	sent chan sentCall
}

type sentCall struct {
	id     int64
	method string
}

var (
	idRE     = regexp.MustCompile(`"id":(\d+)`)
	methodRE = regexp.MustCompile(`"method":"([^"]+)"`)
)

func (s *spyConn) Write(p []byte) (int, error) {
	n, err := s.Conn.Write(p)
	if id, m := idRE.FindSubmatch(p), methodRE.FindSubmatch(p); err == nil && id != nil && m != nil {
		v, _ := strconv.ParseInt(string(id[1]), 10, 64)
		select {
		case s.sent <- sentCall{v, string(m[1])}:
		default:
		}
	}
	return n, err
}

// handle answers the server's requests and records its notifications. Notifications
// run in order on the read loop, like the server's.
func (e *env) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	raw := append([]byte(nil), req.Params()...)
	e.mu.Lock()
	defer e.mu.Unlock()
	defer e.cond.Broadcast()
	switch req.Method() {
	case protocol.MethodWorkspaceConfiguration:
		return []json.RawMessage{e.config}, nil
	case protocol.MethodWindowWorkDoneProgressCreate, "client/registerCapability":
		return nil, nil
	case protocol.MethodWindowShowDocument:
		var p protocol.ShowDocumentParams
		_ = protocol.Unmarshal(raw, &p)
		e.shown = append(e.shown, string(p.URI))
		return map[string]bool{"success": true}, nil
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(raw, &p); err != nil {
			e.t.Errorf("publishDiagnostics: %v", err)
			return nil, nil
		}
		e.diags[p.URI] = p.Diagnostics
		e.pubs = append(e.pubs, publishRecord{uri: p.URI, diags: p.Diagnostics, progress: len(e.progress), statuses: len(e.statuses)})
	case MethodStatus:
		var p statusParams
		if err := json.Unmarshal(raw, &p); err != nil {
			e.t.Errorf("jcg/status: %v", err)
		}
		e.statuses = append(e.statuses, p)
	case protocol.MethodProgress:
		e.progress = append(e.progress, raw)
	case protocol.MethodWindowShowMessage, protocol.MethodWindowLogMessage:
		e.messages = append(e.messages, string(raw))
	default:
		if req.IsCall() {
			return nil, jsonrpc2.ErrMethodNotFound
		}
	}
	return nil, nil
}

// waitFor waits until cond (called with e.mu held) holds.
func (e *env) waitFor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	// The client's notifications wake the wait, but a condition on the server's
	// own state (a trace computed in the background) changes without one: look
	// again every few milliseconds, and at the deadline.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				e.mu.Lock()
				e.cond.Broadcast()
				e.mu.Unlock()
			}
		}
	}()
	e.mu.Lock()
	defer e.mu.Unlock()
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", what)
		}
		e.cond.Wait()
	}
}

// waitReady waits for a jcg/status "ready" after the first n statuses and returns it.
func (e *env) waitReady(n int) statusParams {
	e.t.Helper()
	got, _ := e.waitStatus(n, "ready")
	return got
}

// waitStatus waits for a jcg/status of the state after the first n and returns it
// with its index among all statuses.
func (e *env) waitStatus(n int, state string) (statusParams, int) {
	e.t.Helper()
	var got statusParams
	at := -1
	e.waitFor(fmt.Sprintf("status %q after #%d", state, n), func() bool {
		for i, s := range e.statuses[min(n, len(e.statuses)):] {
			if s.State == state {
				got, at = s, n+i
				return true
			}
			if s.State == "failed" {
				e.t.Fatalf("build failed: %s", s.Message)
			}
		}
		return false
	})
	return got, at
}

// diagnosticsBefore returns the diagnostics of a file as published before the
// status at index n (waitStatus) arrived.
func (e *env) diagnosticsBefore(rel string, n int) []protocol.Diagnostic {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []protocol.Diagnostic
	for _, p := range e.pubs {
		if p.uri == e.uri(rel) && p.statuses <= n {
			out = p.diags
		}
	}
	return out
}

func (e *env) numStatuses() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.statuses)
}

func (e *env) diagnostics(rel string) []protocol.Diagnostic {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.diags[e.uri(rel)]
}

func (e *env) call(method string, params, result any) {
	e.t.Helper()
	if err := e.tryCall(method, params, result); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

func (e *env) tryCall(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	var raw json.RawMessage
	if _, err := e.conn.Call(ctx, method, params, (*jsonrpc2.RawMessage)(&raw)); err != nil {
		return err
	}
	if result != nil {
		if err := protocol.Unmarshal(raw, result); err != nil {
			return fmt.Errorf("decoding %s: %w", raw, err)
		}
	}
	return nil
}

func (e *env) notify(method string, params any) {
	e.t.Helper()
	if err := e.conn.Notify(context.Background(), method, params); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

func (e *env) path(rel string) string { return filepath.Join(e.dir, filepath.FromSlash(rel)) }

func (e *env) uri(rel string) uri.URI { return uri.File(e.path(rel)) }

// src returns the path of a source file of the workspace: "app/Main.java".
func src(rel string) string { return "src/main/java/" + rel }

// pos returns the position of the first submatch of re (or of the match when it has
// none) in a workspace file, in UTF-16 units.
func (e *env) pos(rel, re string) protocol.Position {
	e.t.Helper()
	b, err := os.ReadFile(e.path(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return posIn(e.t, string(b), re)
}

func posIn(t testing.TB, text, re string) protocol.Position {
	t.Helper()
	loc := regexp.MustCompile(re).FindStringSubmatchIndex(text)
	if loc == nil {
		t.Fatalf("no match for %q", re)
	}
	off := loc[0]
	if len(loc) > 2 {
		off = loc[2]
	}
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndex(text[:off], "\n") + 1
	return protocol.Position{Line: uint32(line), Character: uint32(len(utf16.Encode([]rune(text[start:off]))))}
}

// textAt returns the text of a single-line range of a workspace file.
func (e *env) textAt(rel string, r protocol.Range) string {
	e.t.Helper()
	b, err := os.ReadFile(e.path(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return rangeText(string(b), r)
}

func rangeText(text string, r protocol.Range) string {
	lines := strings.Split(text, "\n")
	if int(r.Start.Line) >= len(lines) || r.Start.Line != r.End.Line {
		return fmt.Sprintf("<multi-line or bad range %v>", r)
	}
	u := utf16.Encode([]rune(lines[r.Start.Line]))
	if int(r.End.Character) > len(u) || r.Start.Character > r.End.Character {
		return fmt.Sprintf("<bad range %v>", r)
	}
	return string(utf16.Decode(u[r.Start.Character:r.End.Character]))
}

func (e *env) hover(rel string, p protocol.Position) string {
	e.t.Helper()
	var h *protocol.Hover
	e.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(rel)}, Position: p}}, &h)
	if h == nil {
		return ""
	}
	mc, ok := h.Contents.(*protocol.MarkupContent)
	if !ok {
		e.t.Fatalf("hover contents %T", h.Contents)
	}
	return mc.Value
}

func (e *env) prepare(rel string, p protocol.Position) []protocol.CallHierarchyItem {
	e.t.Helper()
	var items []protocol.CallHierarchyItem
	e.call(protocol.MethodTextDocumentPrepareCallHierarchy, &protocol.CallHierarchyPrepareParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(rel)}, Position: p}}, &items)
	return items
}

func (e *env) incoming(it protocol.CallHierarchyItem) []protocol.CallHierarchyIncomingCall {
	e.t.Helper()
	var out []protocol.CallHierarchyIncomingCall
	e.call(protocol.MethodCallHierarchyIncomingCalls, &protocol.CallHierarchyIncomingCallsParams{Item: it}, &out)
	return out
}

func (e *env) outgoing(it protocol.CallHierarchyItem) []protocol.CallHierarchyOutgoingCall {
	e.t.Helper()
	var out []protocol.CallHierarchyOutgoingCall
	e.call(protocol.MethodCallHierarchyOutgoingCalls, &protocol.CallHierarchyOutgoingCallsParams{Item: it}, &out)
	return out
}

// incomingRaw and outgoingRaw ask for calls without decoding the answer; they return
// its size in bytes.
func (e *env) incomingRaw(it protocol.CallHierarchyItem) int {
	e.t.Helper()
	var raw json.RawMessage
	e.call(protocol.MethodCallHierarchyIncomingCalls, &protocol.CallHierarchyIncomingCallsParams{Item: it}, &raw)
	return len(raw)
}

func (e *env) outgoingRaw(it protocol.CallHierarchyItem) int {
	e.t.Helper()
	var raw json.RawMessage
	e.call(protocol.MethodCallHierarchyOutgoingCalls, &protocol.CallHierarchyOutgoingCallsParams{Item: it}, &raw)
	return len(raw)
}

// codeActions asks for the code actions of diagnostic d of file rel.
func (e *env) codeActions(rel string, d *protocol.Diagnostic) []protocol.CodeAction {
	var actions []protocol.CodeAction
	e.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(rel)},
		Range:        d.Range,
		Context:      protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*d}},
	}, &actions)
	return actions
}

// command runs workspace/executeCommand and decodes its result into result.
func (e *env) command(name string, result any, args ...any) error {
	var raws []json.RawMessage
	for _, a := range args {
		raws = append(raws, mustJSON(a))
	}
	return e.tryCall(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": name, "arguments": raws}, result)
}

// rpcCode returns the JSON-RPC error code of err, or 0.
func rpcCode(err error) jsonrpc2.Code {
	var re *jsonrpc2.Error
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

func detail(it protocol.CallHierarchyItem) string {
	if it.Detail == nil {
		return ""
	}
	return *it.Detail
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
