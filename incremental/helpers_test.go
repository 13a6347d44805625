package incremental

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/zap/zaptest"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// javac compiles the sources (relative path -> text) into out, with debug info.
func javac(t testing.TB, srcs map[string]string, out string) {
	t.Helper()
	javacCP(t, srcs, out, "")
}

// javacCP is javac with a class path.
func javacCP(t testing.TB, srcs map[string]string, out, cp string) {
	t.Helper()
	files := writeSources(t, srcs, t.TempDir())
	args := []string{"-g", "-proc:none", "-Xlint:none", "-encoding", "UTF-8", "-d", out}
	if cp != "" {
		args = append(args, "-cp", cp)
	}
	args = append(args, files...)
	cmd := exec.Command(javatest.Javac(t), args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
}

// writeSources writes the sources (relative path -> text) under dir and returns
// their paths, sorted.
func writeSources(t testing.TB, srcs map[string]string, dir string) []string {
	t.Helper()
	var files []string
	for rel, text := range srcs {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	sort.Strings(files)
	return files
}

// batchJavac compiles, in one JVM, each line of the file it is given: javac's
// arguments separated by tabs.
const batchJavac = `import java.nio.file.*;
import javax.tools.*;

public class BatchJavac {
    public static void main(String[] a) throws Exception {
        JavaCompiler c = ToolProvider.getSystemJavaCompiler();
        for (String line : Files.readAllLines(Path.of(a[0]))) {
            if (!line.isEmpty() && c.run(null, null, null, line.split("\t")) != 0) {
                System.err.println("failed: " + line);
                System.exit(1);
            }
        }
    }
}
`

// javacBatch compiles each version of a program (relative path -> text) with the
// class path cp, all in one JVM, and returns the directory of each version's
// classes: a javac process per version costs a JVM start each (most of a long
// random test's time).
func javacBatch(t testing.TB, versions []map[string]string, cp string) []string {
	t.Helper()
	root := t.TempDir()
	var list strings.Builder
	outs := make([]string, len(versions))
	for i, srcs := range versions {
		dir := filepath.Join(root, fmt.Sprintf("v%d", i))
		outs[i] = filepath.Join(dir, "classes")
		if err := os.MkdirAll(outs[i], 0o755); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-g", "-proc:none", "-Xlint:none", "-encoding", "UTF-8", "-d", outs[i], "-cp", cp},
			writeSources(t, srcs, filepath.Join(dir, "src"))...)
		list.WriteString(strings.Join(args, "\t") + "\n")
	}
	driver, listFile := filepath.Join(root, "BatchJavac.java"), filepath.Join(root, "list")
	if err := os.WriteFile(driver, []byte(batchJavac), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(listFile, []byte(list.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	java := filepath.Join(filepath.Dir(javatest.Javac(t)), "java")
	if b, err := exec.Command(java, driver, listFile).CombinedOutput(); err != nil {
		t.Fatalf("javac (batch of %d): %v\n%s", len(versions), err, b)
	}
	return outs
}

func TestMain(m *testing.M) { minijdk.Main(m) }

// Settings say what a test analyses: the test's stand-in for the server's settings.
type Settings struct {
	Config   index.Config
	SpecPath string // "" for none
	// Options are those of every build (Level included).
	Options analysis.Options
}

// testSettings analyses the class directory dir with a few JDK classes (fast under
// -race).
func testSettings(t testing.TB, dir, specPath string) Settings {
	return Settings{
		Config: index.Config{Sources: []classpath.Source{{Path: minijdk.Dir(t), Origin: classpath.JDK},
			{Path: dir, Origin: classpath.Application}}},
		SpecPath: specPath,
		Options:  analysis.Options{Level: callgraph.CorrectEnv, Algorithm: callgraph.CHA, LibraryMode: true},
	}
}

// project is the Project of the settings.
func (st Settings) project() *Project {
	p := &Project{JDKHome: st.Config.JDKHome, NoJDK: st.Config.NoJDK, Release: st.Config.Release, SpecFile: st.SpecPath}
	for _, src := range st.Config.Sources {
		p.ClassPath = append(p.ClassPath, ClassPathEntry{Path: src.Path, Origin: src.Origin})
	}
	return p
}

// Event is what one change set given to a testHost published.
type Event struct {
	Snapshot, Previous uint64
	// Added, Changed and Removed are the internal names of the classes outside the
	// JDK whose bytes or container differ between the snapshots, sorted.
	Added, Changed, Removed []string
	SpecChanged             bool
	InPlace                 bool
	Deferred                []string // the change set waits for these class files
}

// Published reports whether the change set published a snapshot.
func (e Event) Published() bool { return e.Snapshot != 0 }

// testHost drives a Host as the server does (server/watch.go): a change set is
// classified by Host.Changed, kept while class files are half-written, and built
// when it changes something; a cancelled build's changes carry over to the next.
type testHost struct {
	t  testing.TB
	h  *Host
	st Settings
	p  *Project

	mu      sync.Mutex // one change set at a time
	pending ChangeSet
	spec    atomic.Uint64 // meaning of the specification file last read
	subs    []chan Event
	builds  atomic.Int64
	inPlace atomic.Int64

	beforeBuild func(ctx context.Context) // test hook, called with mu held
	interim     func([]*Snapshot)         // Request.Interim of the builds; nil for none
}

func newTestHost(t testing.TB, st Settings) *testHost {
	t.Helper()
	return newTestHostOpts(t, st, HostOptions{})
}

func newTestHostOpts(t testing.TB, st Settings, opts HostOptions) *testHost {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = zaptest.NewLogger(t)
	}
	th := &testHost{t: t, h: NewHost(context.Background(), opts), st: st, p: st.project()}
	t.Cleanup(th.h.Close)
	if _, err := th.build(context.Background(), ReasonInitial); err != nil {
		t.Fatal(err)
	}
	return th
}

// build builds the project and reports what changed since the previous snapshot.
func (th *testHost) build(ctx context.Context, reason Reason) (Event, error) {
	old, release := th.h.Acquire(nil)
	defer release()
	th.builds.Add(1)
	snaps, err := th.h.Build(ctx, Request{Reason: reason, Options: th.st.Options, Projects: []*Project{th.p},
		SpecRead: func(sf *SpecFile) { th.spec.Store(sf.Meaning()) }, Interim: th.interim})
	if err != nil {
		return Event{}, err
	}
	s := snaps[0] // published even when its analysis failed (s.Err)
	ev := Event{Snapshot: s.ID, InPlace: s.InPlace}
	if s.InPlace {
		th.inPlace.Add(1)
	}
	if old != nil {
		ev.Previous = old.ID
		ev.Added, ev.Changed, ev.Removed = classDiff(old, s)
		ev.SpecChanged = old.Spec.Meaning() != s.Spec.Meaning()
	}
	return ev, nil
}

// update applies a change set as the server's watcher does.
func (th *testHost) update(ctx context.Context, cs ChangeSet) (Event, error) {
	th.mu.Lock()
	defer th.mu.Unlock()
	th.pending.Merge(cs)
	work := th.pending
	ch := th.h.Changed(work, func(string) uint64 { return th.spec.Load() })
	if len(ch.Deferred) > 0 {
		ev := Event{Deferred: ch.Deferred}
		th.emit(ev)
		return ev, nil
	}
	th.pending = ChangeSet{}
	if !ch.Classes && len(ch.Specs) == 0 {
		return Event{}, nil
	}
	reason := ReasonClassFiles
	if !ch.Classes {
		reason = ReasonSpec
	}
	if th.beforeBuild != nil {
		th.beforeBuild(ctx)
	}
	ev, err := th.build(ctx, reason)
	if err != nil {
		th.pending.Merge(work) // applied with the next change set
		return Event{}, err
	}
	th.emit(ev)
	return ev, nil
}

// apply is update for a Watcher.
func (th *testHost) apply(ctx context.Context, cs ChangeSet) ([]string, error) {
	ev, err := th.update(ctx, cs)
	return ev.Deferred, err
}

func (th *testHost) emit(ev Event) {
	for _, ch := range th.subs {
		select {
		case ch <- ev:
		default:
			th.t.Errorf("event dropped: %+v", ev)
		}
	}
}

// subscribe returns a channel receiving the event of every later change set that
// publishes a snapshot or is deferred. Call it before the change sets start.
func (th *testHost) subscribe() <-chan Event {
	ch := make(chan Event, 256)
	th.mu.Lock()
	th.subs = append(th.subs, ch)
	th.mu.Unlock()
	return ch
}

// acquire returns the current snapshot.
func (th *testHost) acquire() (*Snapshot, func()) { return th.h.Acquire(nil) }

// classDiff returns the classes outside the JDK added, changed (other bytes or
// container) and removed between two snapshots, sorted.
func classDiff(old, s *Snapshot) (added, changed, removed []string) {
	o, n := classSources(old), classSources(s)
	for name, src := range n {
		if osrc, ok := o[name]; !ok {
			added = append(added, name)
		} else if osrc != src {
			changed = append(changed, name)
		}
	}
	for name := range o {
		if _, ok := n[name]; !ok {
			removed = append(removed, name)
		}
	}
	sort.Strings(added)
	sort.Strings(changed)
	sort.Strings(removed)
	return added, changed, removed
}

// classSource is where a class's bytes came from, and their hash.
type classSource struct {
	container string
	hash      uint64
}

// classSources returns the sources of a snapshot's classes outside the JDK by
// internal name.
func classSources(s *Snapshot) map[string]classSource {
	m := map[string]classSource{}
	for _, c := range s.Hierarchy().Classes() {
		if src := s.Index().Source(c); src != nil && src.Origin != classpath.JDK {
			m[c.Name] = classSource{src.Container, src.Hash}
		}
	}
	return m
}

// classHashes returns the hashes of a snapshot's classes from container, by internal
// name.
func classHashes(s *Snapshot, container string) map[string]uint64 {
	m := map[string]uint64{}
	for name, src := range classSources(s) {
		if src.container == container {
			m[name] = src.hash
		}
	}
	return m
}

// graphText renders a graph by method names: reachable methods, per-method callee
// sets and site statuses, so graphs of different indexes compare as text.
func graphText(ms func(int32) string, g *callgraph.Graph) string {
	var b strings.Builder
	var reach []string
	g.Reachable.ForEach(func(id int32) { reach = append(reach, ms(id)) })
	sort.Strings(reach)
	fmt.Fprintf(&b, "reachable %d edges %d\n", len(reach), g.NumEdges())
	for _, r := range reach {
		fmt.Fprintf(&b, "R %s\n", r)
	}
	var edges []string
	for n := int32(0); n < int32(g.NumNodes); n++ {
		var callees []string
		for _, bd := range g.Callees(n) {
			for _, c := range g.Sets[bd.Set] {
				callees = append(callees, ms(c))
			}
		}
		if len(callees) == 0 {
			continue
		}
		sort.Strings(callees)
		callees = slices.Compact(callees)
		edges = append(edges, "E "+ms(n)+" -> "+strings.Join(callees, " "))
	}
	sort.Strings(edges)
	var sites []string
	for _, s := range g.Sites {
		sites = append(sites, fmt.Sprintf("S %s pc=%d %s %s %s", ms(s.Caller), s.PC, s.API, s.Status, s.Evidence))
	}
	sort.Strings(sites)
	b.WriteString(strings.Join(edges, "\n"))
	b.WriteString("\n")
	b.WriteString(strings.Join(sites, "\n"))
	return b.String()
}

// snapshotText renders the snapshot's graph at level l (computed when it is not the
// snapshot's own).
func snapshotText(t testing.TB, s *Snapshot, l callgraph.Level) string {
	t.Helper()
	opts := s.Options
	opts.Level = l
	g, err := s.GraphWith(context.Background(), opts)
	if err != nil {
		return "error: " + err.Error()
	}
	ms := s.Hierarchy().Methods()
	return graphText(func(id int32) string { return nodeName(ms, id) }, g)
}

func nodeName(ms []*hierarchy.Method, id int32) string {
	if int(id) < len(ms) && id >= 0 {
		m := ms[id]
		return m.Class.Name + "." + m.Name + m.Desc
	}
	return "<native>"
}

// scratchText analyses st from scratch, without any cache.
func scratchText(t testing.TB, st Settings, l callgraph.Level) string {
	t.Helper()
	ix, err := index.Build(context.Background(), st.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var data []byte
	if st.SpecPath != "" {
		data, _ = os.ReadFile(st.SpecPath)
	}
	opts := st.Options
	opts.Level = l
	opts.Spec = spec.Parse(st.SpecPath, data)
	g, err := analysis.New(ix).Run(context.Background(), opts)
	if err != nil {
		return "error: " + err.Error()
	}
	ms := ix.Hierarchy().Methods()
	return graphText(func(id int32) string { return nodeName(ms, id) }, g)
}
