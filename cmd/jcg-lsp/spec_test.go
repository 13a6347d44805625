package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// forNameLine is the line of res.Main.castOnly's Class.forName in
// testdata/java/cg/resolution/src/res/Main.java, read from the source so that an edit
// of the program moves the test's entries with it.
func forNameLine(t *testing.T) int {
	t.Helper()
	src := filepath.Join(javatest.Program(t, "cg/resolution"), "res", "Main.java")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "Class<?> c = Class.forName(name);") {
			return i + 1
		}
	}
	t.Fatalf("%s: no Class.forName in castOnly", src)
	return 0
}

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSpecFlag: analyze and callgraph apply --spec files as the server applies its
// specFile (the entry's site is Specified with the entry's targets at every level),
// and print each bad or stale entry once, with its own file's line, on stderr, also
// when several files are given.
func TestSpecFlag(t *testing.T) {
	if testing.Short() {
		t.Skip("full-JDK analysis")
	}
	classes := javatest.Compile(t, javatest.Program(t, "cg/resolution"), javatest.Release(17))
	line := forNameLine(t)
	dir := t.TempDir()
	a := writeFile(t, dir, "a.txt", fmt.Sprintf("# reviewed\nres.Main.castOnly @ %d => res.Square\nres.Main.castOnly @ 999 => res.Square\n", line))
	b := writeFile(t, dir, "b.txt", "res.Main.main @ 1 => res.Missing\nres.Main.main @ x => res.Square\n")
	wantProblems := []string{
		b + ":2:17: bad line number \"x\"", // the parser's column
		a + ":3:1: no call at line 999 of res.Main.castOnly",
		b + ":1:1: unknown target class res.Missing",
	}

	code, stdout, stderr, err := runCmd("callgraph", "--level", "1", "--format", "json", "--app-only", "--out", "-", "--spec", a, "--spec", b, classes)
	if code != 0 {
		t.Fatalf("callgraph: exit %d, %v\n%s", code, err, stderr)
	}
	found := false
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Site *struct {
				Caller, Status, Evidence, Feature string
				Line                              int
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Site == nil {
			continue
		}
		if s := rec.Site; strings.Contains(s.Caller, "castOnly") && s.Line == line && s.Feature == "loading" {
			found = true
			// One file's positions in the evidence are its own; with two, the
			// concatenation's (a.txt is 3 lines, so its line 2 is line 2).
			if s.Status != "specified" || !strings.Contains(s.Evidence, "a.txt+"+b+":2") {
				t.Errorf("castOnly's forName: status %q, evidence %q; want specified by a.txt line 2", s.Status, s.Evidence)
			}
		}
	}
	if !found {
		t.Errorf("callgraph: no loading site at line %d of castOnly in:\n%.2000s", line, stdout)
	}
	checkSpecProblems(t, "callgraph", stderr, wantProblems)

	code, _, stderr, err = runCmd("analyze", "--levels", "1,4", "--spec", a, "--spec", b, classes)
	if code != 0 {
		t.Fatalf("analyze: exit %d, %v\n%s", code, err, stderr)
	}
	checkSpecProblems(t, "analyze", stderr, wantProblems)

	// A file named on the command line must exist: a typo must not analyse without it.
	code, _, _, err = runCmd("analyze", "--spec", filepath.Join(dir, "typo.txt"), classes)
	if code != 1 || err == nil || !strings.Contains(err.Error(), "typo.txt") {
		t.Errorf("missing --spec file: exit %d, %v; want 1 naming the file", code, err)
	}
	code, _, _, err = runCmd("analyze", "--spec", dir, classes)
	if code != 1 || err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("--spec DIR: exit %d, %v; want 1", code, err)
	}
}

// checkSpecProblems checks that stderr lists exactly the problems want (each a
// prefix of a line), once each, under a count.
func checkSpecProblems(t *testing.T, cmd, stderr string, want []string) {
	t.Helper()
	if !strings.Contains(stderr, fmt.Sprintf("jcg-lsp: %d specification problems:\n", len(want))) {
		t.Errorf("%s: stderr lacks the count of %d specification problems:\n%s", cmd, len(want), stderr)
	}
	for _, w := range want {
		if n := strings.Count(stderr, "  "+w); n != 1 {
			t.Errorf("%s: stderr has %q %d times, want once:\n%s", cmd, w, n, stderr)
		}
	}
}

// TestSpecCheck: spec check passes a specification whose entries all apply, with a
// one-line summary, and fails (exit 1) on one that names a line without a call, a
// method or class the program lacks, or a malformed line, printing each with
// file:line:col.
func TestSpecCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("full-JDK analysis")
	}
	classes := javatest.Compile(t, javatest.Program(t, "cg/resolution"), javatest.Release(17))
	line := forNameLine(t)
	dir := t.TempDir()
	good := writeFile(t, dir, "good.txt", fmt.Sprintf("%sres.Main.castOnly @ %d => res.Square\n", "# reviewed\n", line))
	code, stdout, stderr, err := runCmd("spec", "check", "--spec", good, classes)
	if code != 0 || err != nil {
		t.Fatalf("good specification: exit %d, %v\n%s", code, err, stderr)
	}
	if want := good + ": no problems in 1 entry at Correct-String (1 reachable site specified)\n"; stdout != want || strings.Contains(stderr, "specification") {
		t.Errorf("good specification: stdout %q, want %q; stderr:\n%s", stdout, want, stderr)
	}

	stale := writeFile(t, dir, "stale.txt", fmt.Sprintf(strings.Join([]string{
		"res.Main.castOnly @ %d => res.Square",
		"res.Main.castOnly @ %d => res.Square", // the call moved away
		"res.Main.gone @ %d => res.Square",     // the method was removed
		"res.Gone.m @ 1 => res.Square",         // the class was removed
		"res.Main.castOnly @ %d => res.Square.nope()V",
		"res.Main.castOnly @ => res.Square",
	}, "\n"), line, line+1000, line, line))
	for _, level := range []string{"", "1"} {
		args := []string{"spec", "check", "--spec", stale, classes}
		if level != "" {
			args = []string{"spec", "check", "--level", level, "--spec", stale, classes}
		}
		code, stdout, stderr, err = runCmd(args...)
		if code != 1 || err == nil || !strings.Contains(err.Error(), "5 problems in "+stale) || stdout != "" {
			t.Errorf("%v: exit %d, %v, stdout %q; want exit 1 and 5 problems", args, code, err, stdout)
		}
		checkSpecProblems(t, "spec check", stderr, []string{
			stale + ":6:20: missing line number",
			fmt.Sprintf("%s:2:1: no call at line %d of res.Main.castOnly", stale, line+1000),
			fmt.Sprintf("%s:3:1: no call at line %d of res.Main.gone", stale, line),
			stale + ":4:1: unknown class res.Gone",
			stale + ":5:1: no method nope()V in res.Square",
		})
	}
}

// TestSpecCheckNoReflection: a run that meets no reflective call (--no-jdk and an
// application without reflection) still matches every entry against the classes, so
// an entry that names nothing fails the check instead of passing unchecked.
func TestSpecCheckNoReflection(t *testing.T) {
	app := smallApp(t)
	s := writeFile(t, t.TempDir(), "s.txt", "gone.Class.m @ 3 => x.Y\n")
	code, stdout, stderr, err := runCmd("spec", "check", "--no-jdk", "--spec", s, app)
	if code != 1 || err == nil || !strings.Contains(stderr, s+":1:") || stdout != "" {
		t.Errorf("exit %d, %v, stdout %q, stderr %q; want exit 1 and the entry's problem at %s:1", code, err, stdout, stderr, s)
	}
	// A specification of comments only has nothing to check.
	empty := writeFile(t, t.TempDir(), "empty.txt", "# nothing yet\n")
	if code, stdout, _, err := runCmd("spec", "check", "--no-jdk", "--spec", empty, app); code != 0 || !strings.Contains(stdout, "no problems in 0 entries") {
		t.Errorf("empty specification: exit %d, %v, stdout %q; want 0", code, err, stdout)
	}
}

// TestSpecCommandLine: spec check describes itself, and its usage errors exit 2
// with one line.
func TestSpecCommandLine(t *testing.T) {
	code, stdout, _, err := runCmd("spec", "check", "-h")
	if code != 0 || !strings.HasPrefix(stdout, "usage: jcg-lsp spec check") || !strings.Contains(stdout, "-spec") {
		t.Errorf("spec check -h: exit %d, %v\n%s", code, err, stdout)
	}
	for _, args := range [][]string{
		{"spec", "check", "x.jar"},                                  // no --spec
		{"spec", "check", "--spec", "s.txt"},                        // no class path
		{"spec", "check", "--spec", "s.txt", "--level", "1,2", "x"}, // one level
		{"spec", "check", "--spec", "", "x.jar"},                    // empty file name
		{"analyze", "--spec", "", "x.jar"},                          // likewise
		{"spec", "frobnicate"},
	} {
		code, _, stderr, err := runCmd(args...)
		if code != 2 || err == nil || strings.Contains(err.Error(), "\n") || stderr != "" {
			t.Errorf("%v: exit %d, error %q, stderr %q; want exit 2 and one line", args, code, err, stderr)
		}
	}
}

// TestSpecImportTamiFlexInputs: import-tamiflex reads lines of any length (a 2 MB
// line lost every later line), reports malformed targets with their line, and fails
// on a directory instead of importing nothing.
func TestSpecImportTamiFlexInputs(t *testing.T) {
	dir := t.TempDir()
	log := writeFile(t, dir, "refl.log", strings.Join([]string{
		"Class.forName;a.First;a.B.m;1;;",
		"Class.forName;a." + strings.Repeat("X", 2<<20) + ";a.B.m;2;;",
		"Method.invoke;not a signature;a.B.m;3;;",
		"Class.forName;a.Last;a.B.m;4;;",
	}, "\n"))
	code, stdout, stderr, err := runCmd("spec", "import-tamiflex", "--out", "-", log)
	if code != 0 {
		t.Fatalf("exit %d, %v\n%s", code, err, stderr)
	}
	for _, want := range []string{"a.B.m @ 1 => a.First\n", "a.B.m @ 4 => a.Last\n", "a.B.m @ 2 => a.XXXX"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%.500s", want, stdout)
		}
	}
	if want := log + ":3:15: malformed Method.invoke target"; !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line starting %q", stderr, want)
	}

	out := filepath.Join(dir, "jcg-spec.txt")
	code, _, _, err = runCmd("spec", "import-tamiflex", "--out", out, dir)
	if code != 1 || err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: exit %d, %v; want 1", code, err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a failed import wrote %s", out)
	}
}

// TestCallgraphJSONResolvable: the JSON export says of each site whether the level
// lets an analysis resolve it and marks the points beyond the level (program
// resolvable, Correct-String: fromParameter's name is a public parameter, fromLoop's
// comes from constants through a loop).
func TestCallgraphJSONResolvable(t *testing.T) {
	if testing.Short() {
		t.Skip("full-JDK analysis")
	}
	classes := javatest.Compile(t, javatest.Program(t, "resolvable"), javatest.Release(17))
	code, stdout, stderr, err := runCmd("callgraph", "--level", "correct-string", "--format", "json", "--app-only", "--out", "-", classes)
	if code != 0 {
		t.Fatalf("callgraph: exit %d, %v\n%s", code, err, stderr)
	}
	want := map[string]bool{"rvl/Main.fromParameter": false, "rvl/Main.fromLoop": true}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Site *struct {
				Caller, Feature string
				Points          []string `json:"specificationPoints"`
				Resolvable      bool
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Site == nil || rec.Site.Feature != "loading" {
			continue
		}
		s := rec.Site
		for caller, resolvable := range want {
			if !strings.HasPrefix(s.Caller, caller+"(") {
				continue
			}
			delete(want, caller)
			beyond := strings.Contains(strings.Join(s.Points, "\n"), "(beyond the level)")
			if s.Resolvable != resolvable || beyond == resolvable || len(s.Points) == 0 {
				t.Errorf("%s: resolvable %v, points %q; want resolvable %v", caller, s.Resolvable, s.Points, resolvable)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("no loading sites of %v in the export", want)
	}
}
