package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestNeovim runs a real editor against the jcg-lsp binary: headless neovim opens
// Worker.java of the plugins test program, waits for the first analysis, asks for a
// hover and for the incoming calls of Worker.run, and the test checks the answers
// (testdata/lsp/nvim/init.lua). It needs nvim on PATH (CI's .ci/run installs Debian's
// neovim) and skips, saying so, without it.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not found on PATH: install neovim (Debian: apt-get install neovim) to run the editor end-to-end test")
	}
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	bin := filepath.Join(t.TempDir(), "jcg-lsp")
	build := exec.Command("go", "build", "-o", bin, "./cmd/jcg-lsp")
	build.Dir = ".."
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building jcg-lsp: %v\n%s", err, b)
	}
	dir := workspace(t, "plugins")
	file := filepath.Join(dir, "src", "main", "java", "app", "Worker.java")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := posIn(t, string(text), `void (run)\(`)
	init, err := filepath.Abs(filepath.Join("..", "testdata", "lsp", "nvim", "init.lua"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	logFile := filepath.Join(t.TempDir(), "server.log")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-i", "NONE", "-u", init, file)
	cmd.Dir = dir
	home := t.TempDir() // keep the user's configuration, state and shada out of it
	cmd.Env = append(os.Environ(),
		"JCG_LSP="+bin, "JCG_OUT="+out, "JCG_LOG="+logFile, "JCG_ROOT="+dir,
		"JCG_LINE="+strconv.Itoa(int(p.Line)), "JCG_CHAR="+strconv.Itoa(int(p.Character)),
		"HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home, "XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home)
	start := time.Now()
	b, err := cmd.CombinedOutput()
	res, _ := os.ReadFile(out)
	if err != nil || !strings.Contains(string(res), "DONE") {
		serverLog, _ := os.ReadFile(logFile)
		t.Fatalf("nvim: %v\noutput: %s\nresults:\n%s\nserver log:\n%s", err, b, res, serverLog)
	}
	t.Logf("nvim round trip in %v:\n%s", time.Since(start), res)
	got := string(res)
	for _, want := range []string{
		"HOVER ```java public void run()",
		"**Reachable** at Correct-String",
		"ITEM run() | app.Worker",
		"INCOMING main(String[]) | app.Main",
		"via Worker.start — Thread.start runs run() on a new thread",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("results lack %q", want)
		}
	}
}
