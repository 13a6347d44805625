package javatest

import (
	"archive/zip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// isolateCache points the cache at a fresh directory for this test.
func isolateCache(t *testing.T) string {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", dir)
	t.Setenv("HOME", dir) // os.UserCacheDir on macOS
	return filepath.Join(dir, "jcg-lsp", "javac")
}

// writeProgram writes a small two-class program into a fresh directory.
func writeProgram(t *testing.T, greeting string) string {
	t.Helper()
	src := t.TempDir()
	files := map[string]string{
		"hello/Main.java": `package hello;
public class Main {
    public static void main(String[] args) {
        System.out.println(new util.Greeter().greet("` + greeting + `"));
    }
}
`,
		"util/Greeter.java": `package util;
public class Greeter {
    public String greet(String name) {
        int unused = 1;
        return "hello " + name;
    }
}
`,
	}
	for name, text := range files {
		path := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return src
}

func TestCompileAndCache(t *testing.T) {
	root := isolateCache(t)
	src := writeProgram(t, "world")

	before := compiles.Load()
	classes := Compile(t, src, Release(17))
	if got := compiles.Load() - before; got != 1 {
		t.Fatalf("first Compile ran javac %d times, want 1", got)
	}
	if !strings.HasPrefix(classes, root+string(filepath.Separator)) {
		t.Errorf("class dir %s is not under the cache root %s", classes, root)
	}
	for _, class := range []string{"hello/Main.class", "util/Greeter.class"} {
		if _, err := os.Stat(filepath.Join(classes, class)); err != nil {
			t.Errorf("missing %s: %v", class, err)
		}
	}

	// Same sources, same options: served from the cache without javac.
	again := Compile(t, src, Release(17))
	if again != classes {
		t.Errorf("second Compile returned %s, want %s", again, classes)
	}
	if got := compiles.Load() - before; got != 1 {
		t.Errorf("second Compile ran javac again (%d runs in all)", got)
	}

	// The same program in another directory shares the entry: only relative
	// paths and contents are hashed.
	if other := Compile(t, writeProgram(t, "world"), Release(17)); other != classes {
		t.Errorf("identical copy compiled to %s, want the cached %s", other, classes)
	}
	// Other options or other sources make new entries.
	if other := Compile(t, src); other == classes {
		t.Errorf("Compile without --release reused the --release 17 entry")
	}
	// (given as a relative path, which javac, run elsewhere, must still find)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, writeProgram(t, "moon"))
	if err != nil {
		t.Fatal(err)
	}
	if other := Compile(t, rel, Release(17)); other == classes {
		t.Errorf("changed sources reused the old entry")
	} else if _, err := os.Stat(filepath.Join(other, "hello", "Main.class")); err != nil {
		t.Error(err)
	}
	if got := compiles.Load() - before; got != 3 {
		t.Errorf("javac ran %d times, want 3", got)
	}
	// No temporary directories are left behind.
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("leftover temporary directory %s", e.Name())
		}
	}
}

func TestCompileDebugInfo(t *testing.T) {
	isolateCache(t)
	classes := Compile(t, writeProgram(t, "debug"), Release(17))
	javap := filepath.Join(JDKHome(t), "bin", "javap")
	out, err := exec.Command(javap, "-l", "-v", "-cp", classes, "util.Greeter").CombinedOutput()
	if err != nil {
		t.Fatalf("javap: %v\n%s", err, out)
	}
	for _, want := range []string{"LineNumberTable", "LocalVariableTable", "MethodParameters", "unused", "major version: 61"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("javap output lacks %q (compiled without -g -parameters --release 17?)", want)
		}
	}
}

func TestCompileConcurrentGoroutines(t *testing.T) {
	isolateCache(t)
	src := writeProgram(t, "goroutines")
	before := compiles.Load()
	var wg sync.WaitGroup
	dirs := make([]string, 4)
	for i := range dirs {
		wg.Go(func() { dirs[i] = Compile(t, src, Release(17)) })
	}
	wg.Wait()
	for _, d := range dirs[1:] {
		if d != dirs[0] {
			t.Errorf("concurrent Compile calls returned %s and %s", dirs[0], d)
		}
	}
	if got := compiles.Load() - before; got != 1 {
		t.Errorf("javac ran %d times for one program, want 1", got)
	}
}

// TestCompileConcurrentProcesses races several test processes (this binary,
// re-executed) compiling the same program into an empty cache.
func TestCompileConcurrentProcesses(t *testing.T) {
	if src := os.Getenv("JAVATEST_HELPER_SRC"); src != "" {
		fmt.Printf("CLASSES=%s\n", Compile(t, src, Release(17)))
		return
	}
	cache := t.TempDir()
	src := writeProgram(t, "processes")
	const n = 3
	outs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCompileConcurrentProcesses$", "-test.count=1")
			cmd.Env = append(os.Environ(), "JAVATEST_HELPER_SRC="+src, "XDG_CACHE_HOME="+cache, "HOME="+cache)
			out, err := cmd.CombinedOutput()
			outs[i], errs[i] = string(out), err
		})
	}
	wg.Wait()
	var dirs []string
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("helper process %d: %v\n%s", i, errs[i], outs[i])
		}
		for line := range strings.Lines(outs[i]) {
			if dir, ok := strings.CutPrefix(strings.TrimSpace(line), "CLASSES="); ok {
				dirs = append(dirs, dir)
			}
		}
	}
	if len(dirs) != n {
		t.Fatalf("got %d class dirs from %d processes: %q", len(dirs), n, outs)
	}
	for _, d := range dirs {
		if d != dirs[0] {
			t.Errorf("processes disagree on the class dir: %q", dirs)
		}
		if _, err := os.Stat(filepath.Join(d, "hello", "Main.class")); err != nil {
			t.Error(err)
		}
	}
}

// fatalRecorder is a testing.TB whose Fatal* record the message and end the
// calling goroutine, like the real ones.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func expectFatal(t *testing.T, fn func(tb testing.TB)) string {
	t.Helper()
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(rec)
	}()
	<-done
	if rec.msg == "" {
		t.Fatal("expected a fatal error, got none")
	}
	return rec.msg
}

func TestCompileErrorShowsJavacOutput(t *testing.T) {
	isolateCache(t)
	src := t.TempDir()
	bad := "package p;\nclass Broken { void m() { int x = \"not an int\"; } }\n"
	if err := os.WriteFile(filepath.Join(src, "Broken.java"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := expectFatal(t, func(tb testing.TB) { Compile(tb, src, Release(17)) })
	for _, want := range []string{"Broken.java:2", "incompatible types"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure message lacks %q:\n%s", want, msg)
		}
	}
	// A failed compilation leaves nothing in the cache.
	entries, _ := os.ReadDir(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "jcg-lsp", "javac"))
	if len(entries) != 0 {
		t.Errorf("cache not empty after a failed compilation: %v", entries)
	}

	msg = expectFatal(t, func(tb testing.TB) { Compile(tb, t.TempDir()) })
	if !strings.Contains(msg, "no .java files") {
		t.Errorf("empty source dir: got %q", msg)
	}
}

func TestJavacNotFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	msg := expectFatal(t, func(tb testing.TB) { Javac(tb) })
	if !strings.Contains(msg, "no javac found") {
		t.Errorf("got %q", msg)
	}
}

func TestJavacFromJavaHome(t *testing.T) {
	home := JDKHome(t)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", home)
	if got, want := Javac(t), filepath.Join(home, "bin", "javac"); got != want {
		t.Errorf("Javac = %s, want %s", got, want)
	}
}

func TestJDKHome(t *testing.T) {
	home := JDKHome(t)
	for _, tool := range []string{"bin/javac", "bin/java"} {
		if _, err := os.Stat(filepath.Join(home, tool)); err != nil {
			t.Errorf("JDKHome %s: %v", home, err)
		}
	}
}

func TestJar(t *testing.T) {
	isolateCache(t)
	classes := Compile(t, writeProgram(t, "jar"), Release(17))
	jar := filepath.Join(t.TempDir(), "lib", "hello.jar")
	Jar(t, classes, jar)

	zr, err := zip.OpenReader(jar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	want := []string{"META-INF/", "META-INF/MANIFEST.MF", "hello/", "hello/Main.class", "util/", "util/Greeter.class"}
	if !slices.Equal(names, want) {
		t.Errorf("jar entries = %q, want %q", names, want)
	}

	// The JVM accepts it.
	java := filepath.Join(JDKHome(t), "bin", "java")
	out, err := exec.Command(java, "-cp", jar, "hello.Main").CombinedOutput()
	if err != nil {
		t.Fatalf("java -cp %s: %v\n%s", jar, err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "hello jar" {
		t.Errorf("program printed %q", got)
	}

	// Reproducible.
	jar2 := filepath.Join(t.TempDir(), "again.jar")
	Jar(t, classes, jar2)
	a, _ := os.ReadFile(jar)
	b, _ := os.ReadFile(jar2)
	if !slices.Equal(a, b) {
		t.Error("two jars of the same classes differ")
	}
}

func TestStaleTemporariesRemoved(t *testing.T) {
	root := isolateCache(t)
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * staleAge)
	stale := filepath.Join(root, ".tmp-abc-123")
	trash := filepath.Join(root, "abc.trash-1-2")
	fresh := filepath.Join(root, ".tmp-def-456")
	for _, d := range []string{stale, trash, fresh} {
		if err := os.MkdirAll(filepath.Join(d, "classes"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{stale, trash} {
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
	if got := cacheRoot(); got != root {
		t.Fatalf("cacheRoot = %s, want %s", got, root)
	}
	for _, d := range []string{stale, trash} {
		if _, err := os.Stat(d); !os.IsNotExist(err) {
			t.Errorf("%s not removed (err=%v)", d, err)
		}
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a recent temporary directory (maybe in use) was removed: %v", err)
	}
}
