package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/classgen"
)

// smallApp writes a jar holding a 3-deep chain with a main class and a class
// java/lang/Object of its own, so that commands run with --no-jdk in milliseconds.
func smallApp(t *testing.T) string {
	t.Helper()
	object := classgen.Class{Access: classgen.Public | classgen.Super, Name: "java/lang/Object", Methods: []classgen.Method{
		{Access: classgen.Public, Name: "<init>", Desc: "()V", Code: (&classgen.Code{MaxLocals: 1}).Op(classgen.Return)},
		{Access: classgen.Public, Name: "hashCode", Desc: "()I", Code: (&classgen.Code{MaxStack: 1, MaxLocals: 1}).Op(0x03).Op(classgen.Ireturn)},
		{Access: classgen.Public, Name: "toString", Desc: "()Ljava/lang/String;", Code: (&classgen.Code{MaxStack: 1, MaxLocals: 1}).Op(0x01).Op(classgen.Areturn)},
	}}
	path := filepath.Join(t.TempDir(), "app.jar")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := classgen.WriteJar(f, append(classgen.Chain(3), object)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// runCmd runs the command line as main does and returns its exit status and output.
func runCmd(args ...string) (code int, stdout, stderr string, err error) {
	var so, se bytes.Buffer
	err = run(context.Background(), args, &so, &se)
	return exitCode(err), so.String(), se.String(), err
}

// TestHelp checks that every command describes itself on -h, on standard output,
// and that asking for help succeeds (exit 0).
func TestHelp(t *testing.T) {
	for _, args := range [][]string{
		{"help"}, {"-h"}, {"analyze", "-h"}, {"callgraph", "--help"}, {"why", "-h"}, {"index", "-h"},
		{"spec", "-h"}, {"spec", "import-tamiflex", "-h"},
	} {
		code, stdout, _, err := runCmd(args...)
		if code != 0 {
			t.Errorf("%v: exit %d (%v), want 0", args, code, err)
		}
		// The synopsis line, a blank line, then a description.
		lines := strings.Split(stdout, "\n")
		if len(lines) < 3 || !strings.HasPrefix(lines[0], "usage: jcg-lsp") || lines[1] != "" || len(lines[2]) < 20 {
			t.Errorf("%v: help lacks a synopsis and a description:\n%s", args, stdout)
		}
	}
	// serve writes its help to standard error: its standard output is the LSP stream.
	var so, se bytes.Buffer
	if err := run(context.Background(), []string{"serve", "-h"}, &so, &se); !errors.Is(err, flag.ErrHelp) || so.Len() != 0 || !strings.Contains(se.String(), "language server") {
		t.Errorf("serve -h: %v\nstdout: %s\nstderr: %s", err, so.String(), se.String())
	}
}

// TestUsageErrors checks that mistakes in the command line exit 2 with one line,
// without the flag package's dump of every flag.
func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"frobnicate"}, {"analyze", "--bogus"}, {"analyze"}, {"callgraph", "--levels", "1,2", "--out", "-", "x.jar"},
		{"analyze", "--levels", "9", "x.jar"}, {"callgraph", "--format", "svg", "--out", "-", "x.jar"},
		{"callgraph", "x.jar"}, {"analyze", "--algo", "vta", "x.jar"}, {"analyze", ""}, {"spec"}, {"spec", "import-tamiflex"},
		{"index", "--nope"}, {"serve", "extra"},
	} {
		code, _, stderr, err := runCmd(args...)
		if code != 2 || err == nil || strings.Contains(err.Error(), "\n") || stderr != "" {
			t.Errorf("%v: exit %d, error %q, stderr %q; want exit 2 and one line", args, code, err, stderr)
		}
	}
}

// TestLevelFlags checks that --level and --levels mean the same on both commands
// that take levels.
func TestLevelFlags(t *testing.T) {
	app := smallApp(t)
	for _, flagName := range []string{"--level", "--levels"} {
		code, stdout, stderr, err := runCmd("analyze", "--no-jdk", flagName, "1,encap-respect", app)
		if code != 0 || !strings.Contains(stdout, "Behaved-CLs") || !strings.Contains(stdout, "Encap-Respect") || strings.Contains(stdout, "Correct-Cast") {
			t.Errorf("analyze %s: exit %d, %v\n%s%s", flagName, code, err, stdout, stderr)
		}
		code, stdout, stderr, err = runCmd("callgraph", "--no-jdk", flagName, "2", "--format", "json", "--out", "-", app)
		if code != 0 || !strings.Contains(stdout, "deep/Main") {
			t.Errorf("callgraph %s: exit %d, %v\n%s%s", flagName, code, err, stdout, stderr)
		}
	}
}

// TestNoJDKHeader checks that analyze --no-jdk says so instead of naming an empty
// JDK path.
func TestNoJDKHeader(t *testing.T) {
	code, stdout, _, err := runCmd("analyze", "--no-jdk", "--levels", "1", smallApp(t))
	if code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	header, _, _ := strings.Cut(stdout, "\n")
	if strings.Contains(header, "JDK )") || !strings.Contains(header, "(no JDK)") {
		t.Errorf("header: %s", header)
	}
}

// TestClassPathProblems checks that analyze and callgraph name what is wrong with the
// class path on stderr, once, with a count and the first few (all with --verbose),
// and that a run with no entry point says why once, not once per level, suggesting
// --library-mode only when it is off.
func TestClassPathProblems(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.jar")
	corrupt := filepath.Join(dir, "corrupt.jar")
	os.WriteFile(corrupt, []byte("PK\x03\x04 not a zip"), 0o644)
	classes := filepath.Join(dir, "classes")
	os.MkdirAll(filepath.Join(classes, "p"), 0o755)
	os.WriteFile(filepath.Join(classes, "p", "T.class"), []byte("\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x10\x07"), 0o644)

	for _, cmd := range [][]string{{"analyze"}, {"callgraph", "--out", "-"}, {"analyze", "--library-mode"}} {
		args := append(append([]string(nil), cmd...), "--no-jdk", missing, corrupt, classes)
		code, _, stderr, err := runCmd(args...)
		if code != 1 || err == nil {
			t.Fatalf("%v: exit %d, %v; want a failure", args, code, err)
		}
		for _, want := range []string{"3 class-path problems", missing + ": no such file or directory", corrupt + ": ", "p/T.class"} {
			if strings.Count(stderr, want) != 1 {
				t.Errorf("%v: stderr should say %q once:\n%s", args, want, stderr)
			}
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || strings.Contains(msg, "level") || !strings.Contains(msg, "no application class was read from "+missing) {
			t.Errorf("%v: error %q, want one line naming the class path", args, msg)
		}
	}

	// With application classes but no main method: the suggestion depends on the mode.
	noMain := filepath.Join(dir, "nomain")
	os.MkdirAll(filepath.Join(noMain, "q"), 0o755)
	b, err := (&classgen.Class{Access: classgen.Super, Name: "q/Hidden"}).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(noMain, "q", "Hidden.class"), b, 0o644)
	_, _, _, err = runCmd("analyze", "--no-jdk", noMain)
	if err == nil || !strings.Contains(err.Error(), "--library-mode") || strings.Contains(err.Error(), "level") {
		t.Errorf("analyze without main: %v; want one error suggesting --library-mode", err)
	}
	_, _, _, err = runCmd("analyze", "--no-jdk", "--library-mode", noMain)
	if err == nil || strings.Contains(err.Error(), "--library-mode") {
		t.Errorf("analyze --library-mode without public methods: %v; want no suggestion of --library-mode", err)
	}

	// Eight problems: five shown and a count, or all eight with --verbose.
	var many []string
	for i := range 8 {
		many = append(many, filepath.Join(dir, fmt.Sprintf("gone%d.jar", i)))
	}
	_, _, stderr, _ := runCmd(append([]string{"analyze", "--no-jdk"}, many...)...)
	if strings.Count(stderr, "no such file") != 5 || !strings.Contains(stderr, "and 3 more (--verbose lists all)") {
		t.Errorf("eight problems, stderr:\n%s", stderr)
	}
	_, _, stderr, _ = runCmd(append([]string{"analyze", "--no-jdk", "--verbose"}, many...)...)
	if strings.Count(stderr, "no such file") != 8 {
		t.Errorf("eight problems with --verbose, stderr:\n%s", stderr)
	}
}
