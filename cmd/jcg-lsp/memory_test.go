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
	if _, err := os.Stat("/proc/self/status"); err != nil {
		b.Skipf("no /proc to read a process's memory from: %v", err)
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "lsp", "plugins", "src", "main", "java"))
	if err != nil {
		b.Fatal(err)
	}
	classes := javatest.Compile(b, src, javatest.Release(17))
	ws := b.TempDir()
	javatest.CopyTree(b, classes, filepath.Join(ws, "target", "classes"))
	var idle, peak []float64
	for i := 0; i < b.N; i++ {
		rss, hwm := serveIdle(b, ws)
		idle, peak = append(idle, rss), append(peak, hwm)
		b.Logf("run %d: idle resident %.0f MiB, peak %.0f MiB", i+1, rss, hwm)
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

// serveIdle starts a server on workspace ws, waits for its first ready status and
// the idle release after it, and returns its resident and peak resident sets in MiB.
func serveIdle(b *testing.B, ws string) (rss, hwm float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
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
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	st := jsonrpc2.NewStream(rwc{out, in})
	write := func(m jsonrpc2.Message) {
		if _, err := st.Write(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
	raw := func(v any) jsonrpc2.RawMessage {
		data, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	call := func(id int64, method string, params any) {
		write(jsonrpc2.NewCall(jsonrpc2.NewNumberID(id), method, raw(params)))
	}
	notify := func(method string, params any) {
		write(jsonrpc2.NewNotification(method, raw(params)))
	}
	root := "file://" + ws
	call(1, "initialize", map[string]any{"processId": nil, "rootUri": root,
		"workspaceFolders": []map[string]string{{"uri": root, "name": "ws"}}, "capabilities": map[string]any{}})
	notify("initialized", map[string]any{})
	for ready := false; !ready; {
		m, _, err := st.Read(ctx)
		if err != nil {
			b.Fatalf("waiting for the first ready status: %v", err)
		}
		switch m := m.(type) {
		case *jsonrpc2.Call:
			// The server's own requests (configuration, progress, registrations): an
			// editor answers each; null stands for "nothing configured".
			write(jsonrpc2.NewResponse(m.ID(), jsonrpc2.RawMessage("null"), nil))
		case *jsonrpc2.Notification:
			if m.Method() == "jcg/status" {
				var s struct{ State string }
				if err := json.Unmarshal(m.Params(), &s); err != nil {
					b.Fatal(err)
				}
				if s.State == "failed" {
					b.Fatalf("the first build failed: %s", m.Params())
				}
				ready = s.State == "ready"
			}
		}
	}
	go func() { // keep reading, so that the server never blocks on its output
		for {
			if _, _, err := st.Read(ctx); err != nil {
				return
			}
		}
	}()
	time.Sleep(server.DefaultReleaseIdle + 3*time.Second)
	return procStatusMiB(b, cmd.Process.Pid, "VmRSS"), procStatusMiB(b, cmd.Process.Pid, "VmHWM")
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
