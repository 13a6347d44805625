package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// The serve tests run this test binary as the jcg-lsp command (main), so that the
// standard-output guard works on a real process's file descriptors.
func TestMain(m *testing.M) {
	if os.Getenv("JCG_LSP_RUN_MAIN") == "1" {
		os.Args = append([]string{"jcg-lsp"}, strings.Fields(os.Getenv("JCG_LSP_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestServeStdio starts `jcg-lsp`, `jcg-lsp serve` and `jcg-lsp --stdio` and runs the
// LSP lifecycle over standard input and output: standard output must carry nothing
// but LSP frames (the log goes to standard error), and the process must exit 0 after
// shutdown and exit.
func TestServeStdio(t *testing.T) {
	for _, args := range []string{"", "serve", "--stdio", "serve --stdio --log-level debug"} {
		t.Run(strings.ReplaceAll(args, " ", "_"), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0])
			cmd.Env = append(os.Environ(), "JCG_LSP_RUN_MAIN=1", "JCG_LSP_ARGS="+args)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			st := jsonrpc2.NewStream(rwc{out, in})
			send := func(body string) {
				t.Helper()
				if _, err := fmt.Fprintf(in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
					t.Fatal(err)
				}
			}
			read := func() *jsonrpc2.Response {
				t.Helper()
				for {
					m, _, err := st.Read(ctx)
					if err != nil {
						t.Fatalf("reading the server's stdout: %v\nstderr:\n%s", err, stderr.String())
					}
					if r, ok := m.(*jsonrpc2.Response); ok {
						return r
					}
				}
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
			if r := read(); r.Err() != nil || !strings.Contains(string(r.Result()), `"callHierarchyProvider":true`) {
				t.Fatalf("initialize: %v %s", r.Err(), r.Result())
			}
			send(`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
			if r := read(); r.Err() != nil {
				t.Fatalf("shutdown: %v", r.Err())
			}
			send(`{"jsonrpc":"2.0","method":"exit"}`)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("exit: %v\nstderr:\n%s", err, stderr.String())
			}
			if rest, _ := io.ReadAll(out); len(rest) > 0 {
				t.Errorf("stdout after the last response: %q", rest)
			}
			if !strings.Contains(stderr.String(), "jcg-lsp serving over stdio") {
				t.Errorf("no log on stderr:\n%s", stderr.String())
			}
		})
	}
}

type rwc struct {
	io.Reader
	io.WriteCloser
}

// TestServeDebug serves the profiles on a free loopback port and reads the heap
// profile's index from it; an address other than loopback is refused.
func TestServeDebug(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:6060", ":6060", "example.com:6060", "localhost"} {
		if _, _, err := serveDebug(addr, zap.NewNop()); err == nil {
			t.Errorf("serveDebug(%q) accepted an address that is not loopback", addr)
		}
	}
	url, stop, err := serveDebug("127.0.0.1:0", zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	resp, err := http.Get(url + "heap?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("heap profile")) {
		t.Errorf("GET %sheap?debug=1: %s\n%.200s", url, resp.Status, body)
	}
}
