package incremental

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/cputime"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"go.uber.org/zap"
)

const javaccJar = "/usr/share/java/javacc.jar"

const appV1 = `package app;
public class App { public static void main(String[] a) throws Exception { org.javacc.parser.Main.main(a); } }
`
const appV2 = `package app;
public class App { public static void main(String[] a) throws Exception { org.javacc.parser.Main.main(a); System.out.println(a.length); } }
`

// appV3 declares one more method: a header change, which is analysed anew.
const appV3 = `package app;
public class App { public static void main(String[] a) throws Exception { org.javacc.parser.Main.main(a); } static void more() {} }
`

// appReflect runs javacc's main through reflection, with the class named by a
// constant (resolved at every level from Correct-String on); appReflectProp names it
// by a system property (unresolved without an environment: the fallback).
const appReflect = `package app;
public class App { public static void main(String[] a) throws Exception {
  Class.forName("org.javacc.parser.Main").getMethod("main", String[].class).invoke(null, (Object) a); } }
`
const appReflectProp = `package app;
public class App { public static void main(String[] a) throws Exception {
  Class.forName(System.getProperty("jcg.main")).getMethod("main", String[].class).invoke(null, (Object) a); } }
`

// BenchmarkOneChangedClass: javacc and the full JDK; each iteration rewrites one
// application class, alternating between two versions, and waits for the new
// snapshot (Correct-Env graph computed). The debounce is not included: Update is
// called directly. "body" adds and removes a call of a reachable method (updated in
// place); "header" adds and removes a method (analysed anew; run it with a small
// -benchtime); "reflective" switches a Class.forName between a constant and a system
// property, which resolves and unresolves the site (updated in place: the site's
// method is visited again).
func BenchmarkOneChangedClass(b *testing.B) {
	b.Run("body", func(b *testing.B) { benchOneChanged(b, appV1, appV2) })
	b.Run("header", func(b *testing.B) { benchOneChanged(b, appV1, appV3) })
	b.Run("reflective", func(b *testing.B) { benchOneChanged(b, appReflect, appReflectProp) })
}

func benchOneChanged(b *testing.B, appV1, appV2 string) {
	if _, err := os.Stat(javaccJar); err != nil {
		b.Skip("no javacc jar (apt-get install javacc)")
	}
	out := b.TempDir()
	v1, v2 := b.TempDir(), b.TempDir()
	javacCP(b, map[string]string{"app/App.java": appV1}, v1, javaccJar)
	javacCP(b, map[string]string{"app/App.java": appV2}, v2, javaccJar)
	d1, _ := os.ReadFile(filepath.Join(v1, "app/App.class"))
	d2, _ := os.ReadFile(filepath.Join(v2, "app/App.class"))
	target := filepath.Join(out, "app/App.class")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, d1, 0o644)
	st := Settings{
		Config: index.Config{JDKHome: javatest.JDKHome(b), Sources: []classpath.Source{
			{Path: out, Origin: classpath.Application}, {Path: javaccJar, Origin: classpath.Library}}},
		Options: analysis.Options{Level: callgraph.CorrectEnv, Algorithm: callgraph.CHA, Mains: []string{"app.App"}},
	}
	t0 := time.Now()
	m := newTestHost(b, st)
	b.Logf("cold first snapshot: %v", time.Since(t0))
	s, release := m.acquire()
	g := s.Graph
	b.Logf("reachable %d edges %d; index timings %+v", g.NumReachable(), g.NumEdges(), s.Index().Timings)
	release()
	var took []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		data := d2
		if i%2 == 1 {
			data = d1
		}
		os.WriteFile(target, data, 0o644)
		t0 := time.Now()
		ev, err := m.update(context.Background(), ChangeSet{Paths: []string{target}})
		took = append(took, time.Since(t0))
		if err != nil || !ev.Published() {
			b.Fatalf("%+v %v", ev, err)
		}
	}
	reportPercentiles(b, took)
	b.ReportMetric(float64(m.inPlace.Load()), "in-place")
}

// reportPercentiles reports the median and the 95th percentile of durations, in ms.
func reportPercentiles(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	b.Logf("durations: %v", took)
	slices.Sort(took)
	at := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))]) / 1e6 }
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
}

// BenchmarkWarmRestart: first snapshot of javacc + JDK (Correct-Env, CHA) after a
// restart, with the on-disk caches filled by an earlier run (whose cold time is logged
// once): "facts" caches extracted facts only, "graphs" also the analysed graphs.
func BenchmarkWarmRestart(b *testing.B) {
	if _, err := os.Stat(javaccJar); err != nil {
		b.Skip("no javacc jar")
	}
	st := Settings{
		Config:  index.Config{JDKHome: javatest.JDKHome(b), Sources: []classpath.Source{{Path: javaccJar, Origin: classpath.Application}}},
		Options: analysis.Options{Level: callgraph.CorrectEnv, Algorithm: callgraph.CHA, Mains: []string{"javacc"}},
	}
	for _, withGraphs := range []bool{false, true} {
		name := "facts"
		if withGraphs {
			name = "graphs"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			first := func() time.Duration {
				dc, err := OpenDiskCache(filepath.Join(dir, "facts"), nil)
				if err != nil {
					b.Fatal(err)
				}
				opts := HostOptions{Facts: index.NewFactsCacheWithStore(dc), Logger: zap.NewNop()}
				if withGraphs {
					if opts.Graphs, err = OpenGraphCache(filepath.Join(dir, "graphs"), nil); err != nil {
						b.Fatal(err)
					}
				}
				t0 := time.Now()
				h := NewHost(context.Background(), opts)
				if _, err := h.Build(context.Background(), Request{Reason: ReasonInitial, Options: st.Options, Projects: []*Project{st.project()}}); err != nil {
					b.Fatal(err)
				}
				d := time.Since(t0)
				h.Close()
				dc.Close()
				if opts.Graphs != nil {
					opts.Graphs.Close()
				}
				return d
			}
			b.Logf("cold (empty caches, writes included): %v", first())
			b.ResetTimer()
			for b.Loop() {
				first()
			}
		})
	}
}

// BenchmarkBurst1000: the watcher sees 1000 class files rewritten with new bytes
// (JDK + 1000 classes); reports the analyses per burst.
func BenchmarkBurst1000(b *testing.B) {
	const n = 1000
	v0, v1, out := b.TempDir(), b.TempDir(), b.TempDir()
	javac(b, manyClasses(n, 0), v0)
	javac(b, manyClasses(n, 1), v1)
	javatest.CopyTree(b, v0, out)
	st := Settings{
		Config:  index.Config{JDKHome: javatest.JDKHome(b), Sources: []classpath.Source{{Path: out, Origin: classpath.Application}}},
		Options: analysis.Options{Level: callgraph.CorrectEnv, Algorithm: callgraph.CHA, Entries: []string{"p.C0.m"}},
	}
	m := newTestHostOpts(b, st, HostOptions{Logger: zap.NewNop()})
	ch := m.subscribe()
	w, err := Watch(st.Config, nil, m.apply, WatchOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	before := m.builds.Load()
	bursts := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		src := v1
		if i%2 == 1 {
			src = v0
		}
		javatest.CopyTree(b, src, out)
		want, _ := os.ReadFile(filepath.Join(src, "p/C999.class"))
		wantHash := hashOf(want)
		for {
			s, release := m.acquire()
			hashes := classHashes(s, out)
			release()
			h0, h := hashes["p/C0"], hashes["p/C999"]
			want0, _ := os.ReadFile(filepath.Join(src, "p/C0.class"))
			if h == wantHash && h0 == hashOf(want0) {
				break
			}
			select {
			case <-ch:
			case <-time.After(time.Minute):
				b.Fatal("timeout")
			}
		}
		bursts++
	}
	b.ReportMetric(float64(m.builds.Load()-before)/float64(bursts), "builds/burst")
}

// BenchmarkExtractAllWarm: index + facts of every class of javacc and the JDK, with
// the facts loaded from a filled disk cache (the cold time is logged once): the part
// of a restart the disk cache saves.
func BenchmarkExtractAllWarm(b *testing.B) {
	if _, err := os.Stat(javaccJar); err != nil {
		b.Skip("no javacc jar")
	}
	dir := b.TempDir()
	cfg := index.Config{JDKHome: javatest.JDKHome(b), Sources: []classpath.Source{{Path: javaccJar, Origin: classpath.Application}}}
	once := func() time.Duration {
		dc, err := OpenDiskCache(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		ix, err := index.Build(context.Background(), cfg, index.NewFactsCacheWithStore(dc))
		if err != nil {
			b.Fatal(err)
		}
		ix.ExtractAll(context.Background())
		d := time.Since(t0)
		ix.Close()
		dc.Close()
		return d
	}
	b.Logf("cold (empty disk cache; background writes waited for after timing): %v", once())
	b.ResetTimer()
	for b.Loop() {
		once()
	}
}

// BenchmarkWatcherIdle: the CPU the watcher uses while nothing changes, over 1000
// class files in 10 packages, with inotify watches ("inotify") and with every
// directory polled as when the watch limit is hit ("polling"). Reported as CPU
// milliseconds per second of wall time; each iteration idles for 2 s.
func BenchmarkWatcherIdle(b *testing.B) {
	out := b.TempDir()
	for p := range 10 {
		dir := filepath.Join(out, "p"+strconv.Itoa(p))
		os.MkdirAll(dir, 0o755)
		for c := range 100 {
			os.WriteFile(filepath.Join(dir, "C"+strconv.Itoa(c)+".class"), []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 0}, 0o644)
		}
	}
	cfg := index.Config{NoJDK: true, Sources: []classpath.Source{{Path: out, Origin: classpath.Application}}}
	for _, polling := range []bool{false, true} {
		name := "inotify"
		opts := WatchOptions{}
		if polling {
			name = "polling"
			opts.addWatch = func(dir string) error { return fmt.Errorf("inotify_add_watch %s: %w", dir, syscall.ENOSPC) }
		}
		b.Run(name, func(b *testing.B) {
			w, err := Watch(cfg, nil, func(context.Context, ChangeSet) ([]string, error) { return nil, nil }, opts)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			time.Sleep(100 * time.Millisecond) // let the initial scan finish
			var cpu time.Duration
			var wall time.Duration
			for b.Loop() {
				c0, t0 := processCPU(b), time.Now()
				time.Sleep(2 * time.Second)
				cpu += processCPU(b) - c0
				wall += time.Since(t0)
			}
			b.ReportMetric(float64(cpu.Milliseconds())/wall.Seconds(), "cpu-ms/s")
		})
	}
}

func processCPU(b *testing.B) time.Duration {
	d, err := cputime.Process()
	if err != nil {
		b.Skip(err)
	}
	return d
}
