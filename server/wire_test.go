package server

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// TestMalformedFrames writes raw frames to a server: bad JSON and objects that are not
// messages get error responses with a null id, requests before initialize get
// ServerNotInitialized, and the server keeps serving throughout. No build runs: the
// server is never initialized.
func TestMalformedFrames(t *testing.T) {
	a, b := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- New(Options{}).Serve(context.Background(), a) }()
	st := jsonrpc2.NewStream(b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	frame := func(body string) {
		t.Helper()
		if _, err := fmt.Fprintf(b, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
			t.Fatal(err)
		}
	}
	reply := func() *jsonrpc2.Response {
		t.Helper()
		m, _, err := st.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := m.(*jsonrpc2.Response)
		if !ok {
			t.Fatalf("got %T, want a response", m)
		}
		return r
	}
	for _, tc := range []struct {
		body string
		code jsonrpc2.Code
		id   bool
	}{
		{`{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {`, jsonrpc2.ParseError, false},
		{`not json at all`, jsonrpc2.ParseError, false},
		{`{"jsonrpc": "2.0", "id": 2}`, jsonrpc2.InvalidRequest, false},
		{`{"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {}}`, jsonrpc2.ServerNotInitialized, true},
		{`{"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": {"processId": "nope"}}`, jsonrpc2.InvalidParams, true},
	} {
		frame(tc.body)
		r := reply()
		if rpcCode(r.Err()) != tc.code || r.ID().IsValid() != tc.id {
			t.Errorf("%s: got id %v error %v, want code %d", tc.body, r.ID(), r.Err(), tc.code)
		}
	}
	// Still serving: a real initialize succeeds.
	frame(`{"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {"processId": null, "rootUri": null, "capabilities": {}}}`)
	if r := reply(); r.Err() != nil {
		t.Fatalf("initialize after malformed frames: %v", r.Err())
	}
	frame(`{"jsonrpc": "2.0", "id": 6, "method": "shutdown"}`)
	if r := reply(); r.Err() != nil {
		t.Fatalf("shutdown: %v", r.Err())
	}
	frame(`{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": {}}`)
	if r := reply(); rpcCode(r.Err()) != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: %v", r.Err())
	}
	frame(`{"jsonrpc": "2.0", "method": "exit"}`)
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("server did not exit")
	}
}
