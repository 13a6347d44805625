package incremental

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/fsnotify/fsnotify"
	"go.uber.org/zap/zaptest"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

func startWatcher(t *testing.T, m *testHost, opts WatchOptions) *Watcher {
	t.Helper()
	if opts.Quiet == 0 {
		opts.Quiet = 100 * time.Millisecond
	}
	opts.Logger = zaptest.NewLogger(t)
	w, err := Watch(m.st.Config, []string{m.st.SpecPath}, m.apply, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// awaitEvent waits for a published event satisfying ok.
func awaitEvent(t *testing.T, ch <-chan Event, what string, ok func(Event) bool) Event {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case ev := <-ch:
			if ev.Published() && ok(ev) {
				return ev
			}
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// awaitScratch waits until the current snapshot equals a from-scratch analysis.
func awaitScratch(t *testing.T, m *testHost, ch <-chan Event, st Settings, what string) {
	t.Helper()
	want := scratchText(t, st, callgraph.CorrectEnv)
	check := func() bool {
		s, release := m.acquire()
		defer release()
		return snapshotText(t, s, callgraph.CorrectEnv) == want
	}
	if check() {
		return
	}
	awaitEvent(t, ch, what, func(Event) bool { return check() })
}

// awaitDisk waits until the classes of the current snapshot from dir are exactly
// the class files in dir, byte for byte.
func awaitDisk(t *testing.T, m *testHost, ch <-chan Event, dir, what string) {
	t.Helper()
	check := func() bool {
		want := map[string]uint64{}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".class") {
				b, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				want[strings.TrimSuffix(filepath.ToSlash(rel), ".class")] = xxhash.Sum64(b)
			}
			return nil
		})
		s, release := m.acquire()
		defer release()
		return maps.Equal(classHashes(s, dir), want)
	}
	if check() {
		return
	}
	awaitEvent(t, ch, what, func(Event) bool { return check() })
}

const bRun2 = `package p;
public class B { public void run() { helper(); } void helper() {} }
`

func TestWatcherRealJavac(t *testing.T) {
	out := filepath.Join(t.TempDir(), "classes")
	os.MkdirAll(out, 0o755)
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, filepath.Join(t.TempDir(), "spec.txt"))
	m := newTestHost(t, st)
	ch := m.subscribe()
	startWatcher(t, m, WatchOptions{})

	// javac rewrites the classes in place.
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, out)
	ev := awaitEvent(t, ch, "recompiled B", func(ev Event) bool { return slices.Contains(ev.Changed, "p/B") })
	if slices.Contains(ev.Changed, "p/A") {
		t.Errorf("A recompiled with identical bytes reported as changed: %+v", ev)
	}
	awaitScratch(t, m, ch, st, "recompile")

	// A new package directory created after the watch started.
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2, "q/sub/C.java": "package q.sub; public class C { public void c() {} }"}, out)
	awaitEvent(t, ch, "new package", func(ev Event) bool { return slices.Contains(ev.Added, "q/sub/C") })

	// Delete and recreate the output folder.
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(out, 0o755)
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	awaitDisk(t, m, ch, out, "recreated output folder")
	awaitScratch(t, m, ch, st, "recreated output folder")
	s, release := m.acquire()
	if s.Hierarchy().Class("q/sub/C") != nil {
		t.Errorf("q/sub/C survived the deletion of the output folder")
	}
	if s.Hierarchy().Class("p/B") == nil {
		t.Errorf("p/B missing after recreation")
	}
	release()

	// Temp file + rename onto the class.
	tmp := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, tmp)
	data, _ := os.ReadFile(filepath.Join(tmp, "p/B.class"))
	tmpFile := filepath.Join(out, "p", ".B.class.tmp")
	if err := os.WriteFile(tmpFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmpFile, filepath.Join(out, "p/B.class")); err != nil {
		t.Fatal(err)
	}
	awaitEvent(t, ch, "renamed B", func(ev Event) bool { return slices.Contains(ev.Changed, "p/B") })
	awaitScratch(t, m, ch, st, "rename")

	// The specification file.
	if err := os.WriteFile(st.SpecPath, []byte("p.A.main @ 3 => p.B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	awaitEvent(t, ch, "spec edit", func(ev Event) bool { return ev.SpecChanged })
	awaitScratch(t, m, ch, st, "spec")
}

func TestWatcherHalfWrittenClass(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	m := newTestHost(t, st)
	ch := m.subscribe()
	startWatcher(t, m, WatchOptions{Quiet: 50 * time.Millisecond})

	tmp := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, tmp)
	data, _ := os.ReadFile(filepath.Join(tmp, "p/B.class"))
	p := filepath.Join(out, "p/B.class")
	if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	// The truncated class defers the update; the watcher retries after the burst.
	select {
	case ev := <-ch:
		if !slices.Equal(ev.Deferred, []string{p}) {
			t.Fatalf("want a deferred update, got %+v", ev)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no deferred event")
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	awaitEvent(t, ch, "completed B", func(ev Event) bool { return slices.Contains(ev.Changed, "p/B") })
	awaitScratch(t, m, ch, st, "completed")
}

func TestWatcherPollingFallback(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	m := newTestHost(t, st)
	ch := m.subscribe()
	startWatcher(t, m, WatchOptions{PollInterval: 100 * time.Millisecond,
		addWatch: func(dir string) error {
			if strings.HasPrefix(dir, out) {
				return fmt.Errorf("inotify_add_watch %s: %w", dir, syscall.ENOSPC)
			}
			return nil
		}})
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2, "p/q/D.java": "package p.q; public class D {}"}, out)
	awaitEvent(t, ch, "polled change", func(ev Event) bool { return slices.Contains(ev.Changed, "p/B") || slices.Contains(ev.Added, "p/q/D") })
	awaitScratch(t, m, ch, st, "polled")
}

// manyClasses returns n small classes calling each other in a chain; variant changes
// every method body.
func manyClasses(n, variant int) map[string]string {
	srcs := map[string]string{}
	for i := range n {
		next := ""
		if i+1 < n {
			next = fmt.Sprintf("new C%d().m();", i+1)
		}
		srcs[fmt.Sprintf("p/C%d.java", i)] = fmt.Sprintf("package p;\npublic class C%d { public void m() { int x = %d; %s } }\n", i, variant, next)
	}
	return srcs
}

func TestWatcherBurst(t *testing.T) {
	const n = 300
	out := t.TempDir()
	javac(t, manyClasses(n, 0), out)
	st := testSettings(t, out, "")
	m := newTestHost(t, st)
	ch := m.subscribe()
	startWatcher(t, m, WatchOptions{})
	before := m.builds.Load()
	javac(t, manyClasses(n, 1), out)
	awaitDisk(t, m, ch, out, "burst")
	time.Sleep(500 * time.Millisecond) // let a late second update show up in the count
	if got := m.builds.Load() - before; got > 2 {
		t.Errorf("a burst of %d rewritten classes took %d builds, want at most 2", n, got)
	}
	t.Logf("burst of %d classes: %d builds", n, m.builds.Load()-before)
}

func TestWatcherJarSwap(t *testing.T) {
	libDir := t.TempDir()
	l1, l2 := filepath.Join(libDir, "v1"), filepath.Join(libDir, "v2")
	javac(t, map[string]string{"lib/L.java": "package lib; public class L { public void l() {} }"}, l1)
	javac(t, map[string]string{"lib/L.java": "package lib; public class L { public void l() { m(); } void m() {} }"}, l2)
	jar := filepath.Join(t.TempDir(), "jars", "lib.jar")
	javatest.Jar(t, l1, jar)
	out := t.TempDir()
	javacCP(t, map[string]string{"p/A.java": "package p; public class A { public static void main(String[] a) { new lib.L().l(); } }"}, out, l1)
	st := testSettings(t, out, "")
	st.Config.Sources = append(st.Config.Sources, classpath.Source{Path: jar, Origin: classpath.Library})
	m := newTestHost(t, st)
	ch := m.subscribe()
	startWatcher(t, m, WatchOptions{})

	// Rewritten in place.
	javatest.Jar(t, l2, jar)
	awaitEvent(t, ch, "jar rewritten", func(ev Event) bool { return slices.Contains(ev.Changed, "lib/L") })
	awaitScratch(t, m, ch, st, "jar rewritten")
	// Removed, then created again.
	os.Remove(jar)
	javatest.Jar(t, l1, jar)
	awaitEvent(t, ch, "jar replaced", func(ev Event) bool {
		s, release := m.acquire()
		defer release()
		return s.Hierarchy().Class("lib/L") != nil && slices.Contains(ev.Changed, "lib/L") || slices.Contains(ev.Added, "lib/L")
	})
	awaitScratch(t, m, ch, st, "jar replaced")
}

// TestWatcherOverflow: after an event overflow (events lost) the watcher rescans.
func TestWatcherOverflow(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	m := newTestHost(t, st)
	ch := m.subscribe()
	errs := make(chan error, 1)
	startWatcher(t, m, WatchOptions{errs: errs, addWatch: func(string) error { return nil }}) // sees no events
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, out)
	errs <- fsnotify.ErrEventOverflow
	awaitEvent(t, ch, "rescan", func(ev Event) bool { return slices.Contains(ev.Changed, "p/B") })
	awaitScratch(t, m, ch, st, "rescan")
}

// TestWatcherCleanBuild: the folder above the class directory is deleted and created
// again (mvn clean compile: target/ of target/classes).
func TestWatcherCleanBuild(t *testing.T) {
	build := filepath.Join(t.TempDir(), "target")
	out := filepath.Join(build, "classes")
	os.MkdirAll(out, 0o755)
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	m := newTestHost(t, st)
	ch := m.subscribe()
	startWatcher(t, m, WatchOptions{})
	if err := os.RemoveAll(build); err != nil {
		t.Fatal(err)
	}
	awaitEvent(t, ch, "classes gone", func(ev Event) bool { return slices.Contains(ev.Removed, "p/B") })
	os.MkdirAll(out, 0o755)
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": bRun2}, out)
	awaitDisk(t, m, ch, out, "clean build")
	awaitScratch(t, m, ch, st, "clean build")
	// And the re-created folders are watched again.
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	awaitEvent(t, ch, "rebuilt", func(ev Event) bool { return slices.Contains(ev.Changed, "p/B") })
}

// TestWatcherConfigFiles: a services file written into a class directory's existing
// META-INF/services, with no class changed, reaches the next snapshot's class-path
// configuration (which ServiceLoader's sites resolve from) as a class file would
// reach its classes; rewriting the file takes the provider away again.
func TestWatcherConfigFiles(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	services := filepath.Join(out, "META-INF", "services")
	if err := os.MkdirAll(services, 0o755); err != nil {
		t.Fatal(err)
	}
	st := testSettings(t, out, "")
	m := newTestHost(t, st)
	ch := m.subscribe()
	startWatcher(t, m, WatchOptions{})
	providers := func() []string {
		s, release := m.acquire()
		defer release()
		var names []string
		for _, p := range s.w.ix.Config().Providers("java/lang/Runnable") {
			names = append(names, p.Class)
		}
		return names
	}
	if got := providers(); len(got) != 0 {
		t.Fatalf("providers of Runnable before the services file: %v", got)
	}
	file := filepath.Join(services, "java.lang.Runnable")
	if err := os.WriteFile(file, []byte("p.B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	awaitEvent(t, ch, "a new services file", func(Event) bool { return slices.Equal(providers(), []string{"p/B"}) })
	if err := os.WriteFile(file, []byte("# none\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	awaitEvent(t, ch, "a rewritten services file", func(Event) bool { return len(providers()) == 0 })
}
