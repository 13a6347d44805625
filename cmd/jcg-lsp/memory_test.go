package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/server"
)

// BenchmarkServeIdleMemory measures the memory of a real `jcg-lsp serve` process at
// the defaults (TFA at Correct-JDK) on a five-class workspace (testdata/lsp/plugins,
// compiled, with the full JDK): its resident set once idle after the first build
// and the idle release that follows (server.DefaultReleaseIdle), and its peak resident set
// (VmHWM), read from /proc. The server is this test binary run as the command, over
// standard input and output, as an editor runs it.
func BenchmarkServeIdleMemory(b *testing.B) {
	benchServeMemory(b, 0)
}

// BenchmarkServeEditMemory is BenchmarkServeIdleMemory after 60 edits: Worker.class
// changes back and forth between two versions of its body (the second records the
// greeting twice), and each edit's build is waited for before the next. The
// resident set once idle must not grow with the edits.
func BenchmarkServeEditMemory(b *testing.B) {
	benchServeMemory(b, 60)
}

func benchServeMemory(b *testing.B, edits int) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skipf("no /proc to read a process's memory from: %v", err)
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "lsp", "plugins", "src", "main", "java"))
	if err != nil {
		b.Fatal(err)
	}
	classes := javatest.Compile(b, src, javatest.Release(17))
	// The edited version: a copy of the sources whose Worker.run records twice.
	edited := b.TempDir()
	javatest.CopyTree(b, src, edited)
	worker := filepath.Join(edited, "app", "Worker.java")
	text, err := os.ReadFile(worker)
	if err != nil {
		b.Fatal(err)
	}
	body := "Main.record(plugin.greet());"
	if !strings.Contains(string(text), body) {
		b.Fatalf("%s no longer has %q to edit", worker, body)
	}
	if err := os.WriteFile(worker, []byte(strings.Replace(string(text), body, body+" "+body, 1)), 0o644); err != nil {
		b.Fatal(err)
	}
	versions := [2][]byte{}
	for i, dir := range []string{classes, javatest.Compile(b, edited, javatest.Release(17))} {
		if versions[i], err = os.ReadFile(filepath.Join(dir, "app", "Worker.class")); err != nil {
			b.Fatal(err)
		}
	}
	var idle, peak []float64
	for i := 0; i < b.N; i++ {
		ws := b.TempDir()
		javatest.CopyTree(b, classes, filepath.Join(ws, "target", "classes"))
		p := startServer(b, ws)
		p.waitReady(b)
		for e := 1; e <= edits; e++ {
			if err := os.WriteFile(filepath.Join(ws, "target", "classes", "app", "Worker.class"), versions[e%2], 0o644); err != nil {
				b.Fatal(err)
			}
			p.waitReady(b)
		}
		rss, hwm := p.idleMemory(b)
		idle, peak = append(idle, rss), append(peak, hwm)
		b.Logf("run %d: idle resident %.0f MiB after %d edits, peak %.0f MiB", i+1, rss, edits, hwm)
	}
	b.ReportMetric(maxOf(idle), "idle-resident-max-MiB")
	b.ReportMetric(maxOf(peak), "peak-resident-max-MiB")
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}

// serverProcess is a `jcg-lsp serve` process and the LSP stream to it.
type serverProcess struct {
	cmd *exec.Cmd
	st  jsonrpc2.Stream
	ctx context.Context
}

// startServer starts a server on workspace ws and initializes it; it is killed
// when the benchmark ends.
func startServer(b *testing.B, ws string) *serverProcess {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	b.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), "JCG_LSP_RUN_MAIN=1", "JCG_LSP_ARGS=serve --graph-cache off")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	p := &serverProcess{cmd: cmd, st: jsonrpc2.NewStream(rwc{out, in}), ctx: ctx}
	root := "file://" + ws
	p.write(b, jsonrpc2.NewCall(jsonrpc2.NewNumberID(1), "initialize", raw(b, map[string]any{"processId": nil, "rootUri": root,
		"workspaceFolders": []map[string]string{{"uri": root, "name": "ws"}}, "capabilities": map[string]any{}})))
	p.write(b, jsonrpc2.NewNotification("initialized", raw(b, map[string]any{})))
	return p
}

func raw(b *testing.B, v any) jsonrpc2.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func (p *serverProcess) write(b *testing.B, m jsonrpc2.Message) {
	if _, err := p.st.Write(p.ctx, m); err != nil {
		b.Fatal(err)
	}
}

// waitReady reads the server's messages until its next ready status, answering
// its requests as an editor does.
func (p *serverProcess) waitReady(b *testing.B) {
	for {
		m, _, err := p.st.Read(p.ctx)
		if err != nil {
			b.Fatalf("waiting for a ready status: %v", err)
		}
		switch m := m.(type) {
		case *jsonrpc2.Call:
			// The server's own requests (configuration, progress, registrations): an
			// editor answers each; null stands for "nothing configured".
			p.write(b, jsonrpc2.NewResponse(m.ID(), jsonrpc2.RawMessage("null"), nil))
		case *jsonrpc2.Notification:
			if m.Method() == "jcg/status" {
				var s struct{ State string }
				if err := json.Unmarshal(m.Params(), &s); err != nil {
					b.Fatal(err)
				}
				if s.State == "failed" {
					b.Fatalf("a build failed: %s", m.Params())
				}
				if s.State == "ready" {
					return
				}
			}
		}
	}
}

// idleMemory waits for the idle release after the last build and returns the
// resident and peak resident sets in MiB.
func (p *serverProcess) idleMemory(b *testing.B) (rss, hwm float64) {
	go func() { // keep reading, so that the server never blocks on its output
		for {
			if _, _, err := p.st.Read(p.ctx); err != nil {
				return
			}
		}
	}()
	time.Sleep(server.DefaultReleaseIdle + 3*time.Second)
	return procStatusMiB(b, p.cmd.Process.Pid, "VmRSS"), procStatusMiB(b, p.cmd.Process.Pid, "VmHWM")
}

// procStatusMiB returns a memory field of /proc/PID/status in MiB.
func procStatusMiB(b *testing.B, pid int, field string) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			var kib float64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%f kB", &kib); err != nil {
				b.Fatalf("/proc/%d/status: %q: %v", pid, line, err)
			}
			return kib / 1024
		}
	}
	b.Fatalf("/proc/%d/status has no %s", pid, field)
	return 0
}
