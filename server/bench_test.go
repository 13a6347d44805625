package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/ide"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// The benchmarks go through the JSON-RPC connection, like an editor's requests (the
// answers are read as raw JSON, as an editor's JSON.parse would; decoding them into
// Go structures by reflection costs the test client more than the server), on
// javacc (/usr/share/java/javacc.jar, no sources: positions are in class listings)
// with the full JDK, and on the plugins test program (sources) with the full JDK.
// Latencies are reported as p50 and p99 in milliseconds (budget: 5 ms p99).
//
//	go test ./server -run '^$' -bench . -benchtime 1x

const javaccJar = "/usr/share/java/javacc.jar"

// benchEnv starts a server on a workspace and waits for its first snapshot.
func benchEnv(b *testing.B, dir string, config map[string]any) (*env, time.Duration) {
	b.Helper()
	start := time.Now()
	e := newEnv(b, dir, envOptions{config: config, logger: zap.NewNop()})
	e.waitReady(0)
	return e, time.Since(start)
}

// docPos is a position in a document.
type docPos struct {
	u uri.URI
	p protocol.Position
}

func (d docPos) params() protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: d.u}, Position: d.p}
}

// listingPositions are the positions of the listings of some classes: their method
// declarations, call sites and class names.
type listingPositions struct{ decls, calls, types []docPos }

// listingPositionsOf returns the positions of the listings of the classes keep
// accepts, in name order.
func listingPositionsOf(snap *Snapshot, keep func(*hierarchy.Class) bool) listingPositions {
	var cs []*hierarchy.Class
	for _, c := range snap.Hierarchy().Classes() {
		if !c.Phantom && keep(c) {
			cs = append(cs, c)
		}
	}
	slices.SortFunc(cs, func(a, b *hierarchy.Class) int { return strings.Compare(a.Name, b.Name) })
	var lp listingPositions
	for _, c := range cs {
		u := classURI(c.Name)
		ds, calls := ide.ListingPositions(snap, c)
		for _, p := range ds {
			lp.decls = append(lp.decls, docPos{u, toPosition(p)})
		}
		for _, p := range calls {
			lp.calls = append(lp.calls, docPos{u, toPosition(p)})
		}
		lp.types = append(lp.types, docPos{u, toPosition(ide.ListingClassPosition(snap, c))})
	}
	return lp
}

// sample returns 200 of the positions (all when fewer), drawn at random.
func sample(rng *rand.Rand, ps []docPos) []docPos {
	rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	return ps[:min(200, len(ps))]
}

// latencies times fn over the inputs and reports p50 and p99.
func latencies[T any](b *testing.B, name string, inputs []T, fn func(T)) {
	b.Helper()
	if len(inputs) == 0 {
		b.Fatalf("%s: no inputs", name)
	}
	var ds []time.Duration
	for i := 0; i < b.N; i++ {
		for _, in := range inputs {
			t0 := time.Now()
			fn(in)
			ds = append(ds, time.Since(t0))
		}
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	p := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))]) / 1e6 }
	b.ReportMetric(p(0.5), name+"-p50-ms")
	b.ReportMetric(p(0.99), name+"-p99-ms")
	b.ReportMetric(float64(ds[len(ds)-1])/1e6, name+"-max-ms")
}

// BenchmarkJars measures hover and call-hierarchy requests on the class listings of
// a jar (javacc, jEdit: no sources, so positions are in listings) with the full JDK
// at Correct-String: 200 declarations and 200 call sites drawn at random (seeded) from
// all of the jar's methods. It also reports the largest call-hierarchy answer in
// bytes.
func BenchmarkJars(b *testing.B) {
	b.Run("javacc", func(b *testing.B) { benchJar(b, javaccJar, nil) })
	b.Run("jedit", func(b *testing.B) { benchJar(b, jeditJar, []string{"org.gjt.sp.jedit.jEdit"}) })
}

func benchJar(b *testing.B, jar string, mains []string) {
	if _, err := os.Stat(jar); err != nil {
		b.Skipf("%s not found: install its Debian package", jar)
	}
	dir := b.TempDir()
	config := map[string]any{"classPath": []string{jar}, "level": "correct-string"}
	if mains != nil {
		config["mainClasses"] = mains
	}
	e, ready := benchEnv(b, dir, config)
	b.ReportMetric(float64(ready)/1e6, "initialize-to-ready-ms")
	snap, release := e.srv.current()
	lp := listingPositionsOf(snap, func(c *hierarchy.Class) bool { return c.Origin == hierarchy.Application })
	release()
	b.Logf("%s: %d classes, %d declarations, %d call sites; ready after %v", filepath.Base(jar), len(lp.types), len(lp.decls), len(lp.calls), ready)
	rng := rand.New(rand.NewPCG(1, 2))
	decls, calls := sample(rng, lp.decls), sample(rng, lp.calls)
	type pos = docPos
	tdp := pos.params
	var items []protocol.CallHierarchyItem
	b.ResetTimer()
	latencies(b, "hover-call", calls, func(p pos) {
		e.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: tdp(p)}, nil)
	})
	latencies(b, "hover-decl", decls, func(p pos) {
		e.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: tdp(p)}, nil)
	})
	latencies(b, "prepare", decls, func(p pos) {
		e.call(protocol.MethodTextDocumentPrepareCallHierarchy, &protocol.CallHierarchyPrepareParams{TextDocumentPositionParams: tdp(p)}, nil)
	})
	for _, p := range append(decls, calls...) {
		var its []protocol.CallHierarchyItem
		e.call(protocol.MethodTextDocumentPrepareCallHierarchy, &protocol.CallHierarchyPrepareParams{TextDocumentPositionParams: tdp(p)}, &its)
		items = append(items, its...)
	}
	largest := 0
	latencies(b, "incoming", items, func(it protocol.CallHierarchyItem) { largest = max(largest, e.incomingRaw(it)) })
	latencies(b, "outgoing", items, func(it protocol.CallHierarchyItem) { largest = max(largest, e.outgoingRaw(it)) })
	b.ReportMetric(float64(largest), "largest-answer-bytes")
}

// BenchmarkPlugins measures requests on source positions of the plugins program.
func BenchmarkPlugins(b *testing.B) {
	dir := workspace(b, "plugins")
	e, ready := benchEnv(b, dir, map[string]any{"level": "correct-string"})
	b.ReportMetric(float64(ready)/1e6, "initialize-to-ready-ms")
	type pos struct {
		rel string
		p   protocol.Position
	}
	var ps []pos
	for _, rel := range []string{"app/Main.java", "app/Factory.java", "app/Worker.java", "app/Registry.java"} {
		text, err := os.ReadFile(filepath.Join(dir, src(rel)))
		if err != nil {
			b.Fatal(err)
		}
		// Every identifier start: declarations, calls and everything else.
		lines := strings.Split(string(text), "\n")
		for i, l := range lines {
			for j := 0; j < len(l); j++ {
				if isIdentByte(l[j]) && (j == 0 || !isIdentByte(l[j-1])) {
					ps = append(ps, pos{src(rel), protocol.Position{Line: uint32(i), Character: uint32(len(utf16.Encode([]rune(l[:j]))))}})
				}
			}
		}
	}
	tdp := func(p pos) protocol.TextDocumentPositionParams {
		return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(p.rel)}, Position: p.p}
	}
	var items []protocol.CallHierarchyItem
	for _, p := range ps {
		items = append(items, e.prepare(p.rel, p.p)...)
	}
	b.ResetTimer()
	latencies(b, "hover", ps, func(p pos) {
		e.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: tdp(p)}, nil)
	})
	latencies(b, "prepare", ps, func(p pos) {
		e.call(protocol.MethodTextDocumentPrepareCallHierarchy, &protocol.CallHierarchyPrepareParams{TextDocumentPositionParams: tdp(p)}, nil)
	})
	latencies(b, "incoming", items, func(it protocol.CallHierarchyItem) { e.incomingRaw(it) })
	latencies(b, "outgoing", items, func(it protocol.CallHierarchyItem) { e.outgoingRaw(it) })
}

// BenchmarkColdStart measures initialize to the first published diagnostics (and to
// the end of the first build) with a new server each time, on the plugins program
// with the full JDK, under the defaults (TFA at Correct-JDK) and under CHA at
// Correct-String (-cha): "cold" without a graph cache, "warm" with the graph cache an
// earlier server filled (a restart over an unchanged workspace).
func BenchmarkColdStart(b *testing.B) {
	dir := workspace(b, "plugins")
	for _, cfg := range []struct {
		suffix string
		config map[string]any
	}{{"", nil}, {"-cha", map[string]any{"level": "correct-string", "algorithm": "cha"}}} {
		for _, warm := range []bool{false, true} {
			name := "cold"
			if warm {
				name = "warm"
			}
			b.Run(name+cfg.suffix, func(b *testing.B) { coldStart(b, dir, cfg.config, warm) })
		}
	}
}

// coldStart is one sub-benchmark of BenchmarkColdStart.
func coldStart(b *testing.B, dir string, config map[string]any, warm bool) {
	var gc *incremental.GraphCache
	if warm {
		var err error
		if gc, err = incremental.OpenGraphCache(b.TempDir(), nil); err != nil {
			b.Fatal(err)
		}
		e := newEnv(b, dir, envOptions{config: config, logger: zap.NewNop(), graphs: gc})
		e.waitReady(0)
		e.close()
		gc.Close() // the graph is on disk
	}
	var toDiag, toReady []time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		e := newEnv(b, dir, envOptions{config: config, logger: zap.NewNop(), graphs: gc})
		e.waitFor("first diagnostics", func() bool { return len(e.diags) > 0 })
		toDiag = append(toDiag, time.Since(start))
		e.waitReady(0)
		toReady = append(toReady, time.Since(start))
		e.close()
		b.Logf("run %d: first diagnostics after %v, ready after %v", i+1, toDiag[i], toReady[i])
	}
	if warm && gc.Hits() < int64(b.N) {
		b.Fatalf("%d graph cache hits in %d restarts", gc.Hits(), b.N)
	}
	b.ReportMetric(float64(slices.Max(toDiag))/1e6, "initialize-to-diagnostics-max-ms")
	b.ReportMetric(float64(slices.Max(toReady))/1e6, "initialize-to-ready-max-ms")
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// BenchmarkClassChange measures what a developer waits for after recompiling one
// class: from the class file's rewrite on disk to the new snapshot's jcg/status
// (watcher debounce, re-index, analysis and republished diagnostics included), under
// CHA at Correct-String (updates in place) or, for the -tfa ones, the defaults (TFA
// at Correct-JDK: analysed anew, the diagnostics first from CHA's companion graph
// updated in place). Each iteration alternates between two versions of the class:
//   - javacc-body: an application class over javacc and the full JDK; one version
//     adds a call (the time until an outgoing-calls request reflects it is timed
//     too: change-to-calls);
//   - javacc-member: the same, and the version with the call also declares a private
//     helper that main calls (a member edit: method IDs move);
//   - javacc-reflective: the same class runs javacc's main through Class.forName of a
//     constant or of a system property (the site resolves and unresolves: its
//     diagnostics are timed too);
//   - plugins-reflective: the plugins program with the full JDK; Factory.create's
//     forName takes a constant or its parameter (the quick fix's edit, and back).
//
// The -first-edit and -edit-after-6s ones start a new server for each iteration and
// make one edit, right after its first ready status or 6 s later: the window in
// which the CHA companion is still being computed (benchFirstEdit).
//
// Figures are p50, p95 and max in milliseconds. The -unreachable-off ones leave out the diagnostics of unreachable code (plugins'
// Main has two unreachable methods): the difference is what they cost.
//
// The debounce (settings.go) is part of every figure.
func BenchmarkClassChange(b *testing.B) {
	cha := map[string]any{"level": "correct-string", "algorithm": "cha"}
	b.Run("javacc-body", func(b *testing.B) {
		benchJavaccChange(b, cha, "", "System.out.println(a.length);")
	})
	// TFA (the default, at Correct-JDK) analyses anew on every change; the
	// diagnostics come first from CHA's companion graph updated in place.
	b.Run("javacc-body-tfa", func(b *testing.B) {
		benchJavaccChange(b, nil, "", "System.out.println(a.length);")
	})
	// A member edit: the second version also declares a private helper, which
	// main calls (method IDs move).
	const member = "System.out.println(a.length); helper(); } private static void helper() { System.out.println();"
	b.Run("javacc-member", func(b *testing.B) {
		benchJavaccChange(b, cha, "", member)
	})
	b.Run("javacc-member-tfa", func(b *testing.B) {
		benchJavaccChange(b, nil, "", member)
	})
	// A lambda added (a member edit: javac adds its body as a synthetic method) and
	// removed again: the addition grows the lambda sets of Runnable.run's
	// dispatches in place, the removal takes the body away with its method.
	const lambda = "Runnable r = () -> System.out.print(a.length); r.run();"
	b.Run("javacc-lambda", func(b *testing.B) {
		benchJavaccChange(b, cha, "", lambda)
	})
	b.Run("javacc-lambda-tfa", func(b *testing.B) {
		benchJavaccChange(b, nil, "", lambda)
	})
	const call = `.getMethod("main", String[].class).invoke(null, (Object) a);`
	b.Run("javacc-reflective", func(b *testing.B) {
		benchJavaccChange(b, cha, `Class.forName("org.javacc.parser.Main")`+call, `Class.forName(System.getProperty("jcg.main"))`+call)
	})
	b.Run("javacc-reflective-tfa", func(b *testing.B) {
		benchJavaccChange(b, nil, `Class.forName("org.javacc.parser.Main")`+call, `Class.forName(System.getProperty("jcg.main"))`+call)
	})
	// Without the diagnostics of unreachable code: what they add to the figure above.
	b.Run("javacc-reflective-tfa-unreachable-off", func(b *testing.B) {
		benchJavaccChange(b, map[string]any{"unreachable": "off"}, `Class.forName("org.javacc.parser.Main")`+call, `Class.forName(System.getProperty("jcg.main"))`+call)
	})
	// The first edit of a new server under the defaults, right after its first
	// ready status and 6 s later.
	for _, w := range []struct {
		name string
		wait time.Duration
	}{{"first-edit", 0}, {"edit-after-6s", 6 * time.Second}} {
		b.Run("javacc-reflective-tfa-"+w.name, func(b *testing.B) {
			benchFirstEdit(b, javaccChange(b, `Class.forName("org.javacc.parser.Main")`+call, `Class.forName(System.getProperty("jcg.main"))`+call), w.wait)
		})
		b.Run("plugins-reflective-tfa-"+w.name, func(b *testing.B) { benchFirstEdit(b, pluginsChange(b), w.wait) })
	}
	b.Run("plugins-reflective", func(b *testing.B) { benchPluginsChange(b, cha) })
	b.Run("plugins-reflective-unreachable-off", func(b *testing.B) {
		benchPluginsChange(b, map[string]any{"level": "correct-string", "algorithm": "cha", "unreachable": "off"})
	})
}

// benchPluginsChange times changes of Factory.create's forName in the plugins
// program, under the settings config.
func benchPluginsChange(b *testing.B, config map[string]any) {
	c := pluginsChange(b)
	e, ready := benchEnv(b, c.dir, config)
	b.Logf("ready after %v", ready)
	benchChange(b, e, c)
}

// classChange is a workspace and an edit of one of its class files: two versions
// of it, the first on disk, its source document, the document whose diagnostics the
// edit changes ("" for none) and the method that only the second version's first
// method calls ("" for none; its name in a call hierarchy).
type classChange struct {
	dir      string
	settings map[string]any // the workspace's own settings (nil for none)
	target   string
	versions [2][]byte
	source   uri.URI
	diags    uri.URI
	calls    string
}

// pluginsChange is the plugins program with Factory.create's forName taking its
// parameter (on disk, unresolved: a diagnostic) or a constant.
func pluginsChange(b *testing.B) classChange {
	dir := workspace(b, "plugins")
	var versions [2][]byte
	for i, name := range []string{"name", `"app.plugins.Hello"`} {
		srcDir := b.TempDir()
		javatest.CopyTree(b, filepath.Join(dir, "src", "main", "java"), srcDir)
		file := filepath.Join(srcDir, "app", "Factory.java")
		text, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		os.WriteFile(file, []byte(strings.Replace(string(text), "Class.forName(name)", "Class.forName("+name+")", 1)), 0o644)
		versions[i] = classFile(b, javatest.Compile(b, srcDir, javatest.Release(17)), "app/Factory.class")
	}
	target := filepath.Join(dir, "target", "classes", "app", "Factory.class")
	doc := uri.File(filepath.Join(dir, src("app/Factory.java")))
	return classChange{dir: dir, target: target, versions: versions, source: doc, diags: doc}
}

// benchJavaccChange times changes of app.App, whose main runs one of two bodies, over
// javacc and the full JDK, under the settings config (nil: the defaults). When the
// bodies differ in their unresolved sites, it times their diagnostics too (App.java
// is in a source root).
func benchJavaccChange(b *testing.B, config map[string]any, body0, body1 string) {
	c := javaccChange(b, body0, body1)
	settings := maps.Clone(c.settings)
	maps.Copy(settings, config)
	e, ready := benchEnv(b, c.dir, settings)
	b.Logf("ready after %v", ready)
	if config["algorithm"] == nil {
		// The defaults' first edit waits for CHA's companion graph.
		waitCompanion(b, e)
	}
	benchChange(b, e, c)
}

// javaccChange is a workspace of app.App over javacc and the full JDK, whose main
// runs body0 (on disk) or body1; App.java is in a source root.
func javaccChange(b *testing.B, body0, body1 string) classChange {
	if _, err := os.Stat(javaccJar); err != nil {
		b.Skipf("%s not found: install javacc", javaccJar)
	}
	var versions [2][]byte
	source := func(body string) []byte {
		return []byte("package app;\npublic class App { public static void main(String[] a) throws Exception { " + body + " } }\n")
	}
	for i, body := range []string{body0, body1} {
		srcDir := b.TempDir()
		os.MkdirAll(filepath.Join(srcDir, "app"), 0o755)
		os.WriteFile(filepath.Join(srcDir, "app", "App.java"), source(body), 0o644)
		versions[i] = classFile(b, javatest.Compile(b, srcDir), "app/App.class")
	}
	dir := b.TempDir()
	classes := filepath.Join(dir, "target", "classes")
	target := filepath.Join(classes, "app", "App.class")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, versions[0], 0o644)
	srcRoot := filepath.Join(dir, "src")
	os.MkdirAll(filepath.Join(srcRoot, "app"), 0o755)
	os.WriteFile(filepath.Join(srcRoot, "app", "App.java"), source(body0), 0o644)
	settings := map[string]any{"classPath": []string{classes, javaccJar}, "sourceRoots": []string{srcRoot},
		"mainClasses": []string{"app.App", "javacc"}}
	c := classChange{dir: dir, settings: settings, target: target, versions: versions, source: uri.File(filepath.Join(srcRoot, "app", "App.java"))}
	if strings.Contains(body0, "forName") {
		c.diags = c.source
	}
	// (A lambda's body is no measure: CHA's outgoing calls of r.run() are every
	// Runnable.run, capped, and may not list it.)
	if strings.Contains(body1, "println(a.length)") && !strings.Contains(body0, "println") {
		c.calls = "println(int)"
	}
	return c
}

// benchFirstEdit times, under the defaults, the first edit of a new server (a new
// one each iteration): after wait from the first ready status, the class file
// changes to its second version, and the time to its republished diagnostics and to
// the next ready status is taken (p50, p95 and max: the figures after opening,
// where the CHA companion graph is still being computed or has just been). Right
// after the ready status, before the edit, it also times one outgoing-calls request
// of the edited document's first method: what the companion's computation beside
// the first requests costs them.
func benchFirstEdit(b *testing.B, c classChange, wait time.Duration) {
	var toDiag, toReady, firstReq []time.Duration
	for i := 0; i < b.N; i++ {
		os.WriteFile(c.target, c.versions[0], 0o644)
		e, _ := benchEnv(b, c.dir, c.settings)
		t0 := time.Now()
		var its []protocol.CallHierarchyItem
		e.call(protocol.MethodTextDocumentPrepareCallHierarchy, &protocol.CallHierarchyPrepareParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.source}, Position: firstMethod(b, c.source)}}, &its)
		for _, it := range its {
			e.outgoingRaw(it)
		}
		firstReq = append(firstReq, time.Since(t0))
		time.Sleep(wait - time.Since(t0))
		n := e.numStatuses()
		e.mu.Lock()
		np := len(e.pubs)
		e.mu.Unlock()
		t0 = time.Now()
		if err := os.WriteFile(c.target, c.versions[1], 0o644); err != nil {
			b.Fatal(err)
		}
		waitPublished(e, np, c.diags)
		toDiag = append(toDiag, time.Since(t0))
		waitRebuilt(b, e, n)
		toReady = append(toReady, time.Since(t0))
		e.close()
		b.Logf("run %d: first request %v; change to diagnostics %v, to ready %v", i+1, firstReq[i], toDiag[i], toReady[i])
	}
	reportQuantiles(b, "change-to-diagnostics", toDiag)
	reportQuantiles(b, "change-to-ready", toReady)
	reportQuantiles(b, "first-request", firstReq)
}

// firstMethod returns the position of the name of the first method declared in a
// source document.
func firstMethod(b *testing.B, doc uri.URI) protocol.Position {
	text, err := os.ReadFile(filePath(doc))
	if err != nil {
		b.Fatal(err)
	}
	return posIn(b, string(text), `(?:public|static|private) [\w\[\]<>, ]*? (\w+)\(`)
}

// reportQuantiles reports the p50, p95 and max of ds in milliseconds.
func reportQuantiles(b *testing.B, name string, ds []time.Duration) {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	q := func(f float64) float64 { return float64(ds[int(f*float64(len(ds)-1)+0.5)]) / 1e6 }
	b.ReportMetric(q(0.5), name+"-p50-ms")
	b.ReportMetric(q(0.95), name+"-p95-ms")
	b.ReportMetric(q(1), name+"-max-ms")
}

// waitCompanion waits for the CHA companion graph the server computes in the
// background under the defaults (a whole-program analysis, which requests timed
// meanwhile would share the cores with).
func waitCompanion(b *testing.B, e *env) {
	snap, release := e.srv.current()
	defer release()
	e.waitFor("the CHA companion graph", snap.Updatable)
}

func classFile(b *testing.B, classes, rel string) []byte {
	data, err := os.ReadFile(filepath.Join(classes, filepath.FromSlash(rel)))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// benchChange writes the two versions of a class file in turn and times each from
// the write to the server's next jcg/status ready; when c.diags names a document
// whose diagnostics each change alters, to their publication; and when c.calls names
// a method that only the second version calls, to the first outgoing-calls request
// of the edited document's first method (asked again and again from the write) that
// reflects the edit. It reports how many of the updates were in place.
func benchChange(b *testing.B, e *env, c classChange) {
	var ds, pubs, calls []time.Duration
	var item protocol.CallHierarchyItem
	if c.calls != "" {
		var its []protocol.CallHierarchyItem
		e.call(protocol.MethodTextDocumentPrepareCallHierarchy, &protocol.CallHierarchyPrepareParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: c.source}, Position: firstMethod(b, c.source)}}, &its)
		if len(its) != 1 {
			b.Fatalf("%d call hierarchy items at the first method of %s", len(its), c.source)
		}
		item = its[0]
	}
	inPlace := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := e.numStatuses()
		e.mu.Lock()
		np := len(e.pubs)
		e.mu.Unlock()
		t0 := time.Now()
		if err := os.WriteFile(c.target, c.versions[(i+1)%2], 0o644); err != nil {
			b.Fatal(err)
		}
		if c.calls != "" {
			want := (i+1)%2 == 1
			for listsCall(e, item, c.calls) != want {
				if time.Since(t0) > waitTimeout {
					b.Fatalf("the outgoing calls do not reflect the edit after %v", waitTimeout)
				}
				time.Sleep(2 * time.Millisecond)
			}
			calls = append(calls, time.Since(t0))
		}
		if c.diags != "" {
			waitPublished(e, np, c.diags)
			pubs = append(pubs, time.Since(t0))
		}
		waitRebuilt(b, e, n)
		ds = append(ds, time.Since(t0))
		snap, release := e.srv.current()
		if snap.InPlace {
			inPlace++
		}
		release()
	}
	reportQuantiles(b, "change-to-ready", ds)
	if len(pubs) > 0 {
		reportQuantiles(b, "change-to-diagnostics", pubs)
	}
	if len(calls) > 0 {
		reportQuantiles(b, "change-to-calls", calls)
	}
	b.ReportMetric(float64(inPlace)/float64(b.N), "in-place/op")
	// What the server keeps between edits (its graphs, a CHA companion's among them),
	// the process's live heap: the server runs in it.
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-heap-MiB")
}

// waitPublished waits for a publish of doc's diagnostics after the first np.
func waitPublished(e *env, np int, doc uri.URI) {
	e.waitFor("the changed diagnostics", func() bool {
		return slices.ContainsFunc(e.pubs[np:], func(p publishRecord) bool { return p.uri == doc })
	})
}

// waitRebuilt waits for the ready status of a class change after the first n.
func waitRebuilt(b *testing.B, e *env, n int) {
	if st := e.waitReady(n); st.Reason != string(incremental.ReasonClassFiles) {
		b.Fatalf("status %+v", st)
	}
}

// listsCall reports whether the outgoing calls of item list a method of the name
// (the call hierarchy's: "println(int)").
func listsCall(e *env, item protocol.CallHierarchyItem, name string) bool {
	var out []protocol.CallHierarchyOutgoingCall
	e.call(protocol.MethodCallHierarchyOutgoingCalls, &protocol.CallHierarchyOutgoingCallsParams{Item: item}, &out)
	return slices.ContainsFunc(out, func(c protocol.CallHierarchyOutgoingCall) bool { return c.To.Name == name })
}

const jeditJar = "/usr/share/jedit/jedit.jar"

// BenchmarkHotMethods measures incoming and outgoing calls of the methods with the
// most callers and of the methods with the most call targets, where answers are
// capped (settings.MaxCallItems), on the hot workspace plus jEdit's jar (when
// installed) with the full JDK at Correct-String: String.valueOf(Object) and
// Main.toString (thousands of callers), Main.describe (a call of Object.toString),
// and the five application and five JDK methods with the most calling bundles and
// the five with the largest target set of one call. Each is asked 20 times per
// iteration, so that p99 is not just the slowest single answer.
//
//	go test ./server -run '^$' -bench HotMethods -benchtime 1x
//
// Under RTA (the sub-benchmark rta) and the defaults (TFA at Correct-JDK: defaults)
// the first page of incoming calls also counts the callers CHA would add
// (chadelta.go), a pass over every reachable method's calls.
func BenchmarkHotMethods(b *testing.B) {
	for _, algo := range []string{"cha", "rta", "defaults"} {
		b.Run(algo, func(b *testing.B) { hotMethods(b, algo) })
	}
}

func hotMethods(b *testing.B, algo string) {
	dir := workspace(b, "hot")
	classes := filepath.Join(dir, "target", "classes")
	config := map[string]any{"classPath": []string{classes}, "mainClasses": []string{"hot.Main"}}
	if algo != "defaults" {
		config["level"], config["algorithm"] = "correct-string", algo
	}
	if _, err := os.Stat(jeditJar); err == nil {
		config["classPath"] = []string{classes, jeditJar}
		config["mainClasses"] = []string{"hot.Main", "org.gjt.sp.jedit.jEdit"}
	} else {
		b.Logf("%s not found (install jedit): measuring on the JDK and the hot workspace only", jeditJar)
	}
	e, ready := benchEnv(b, dir, config)
	b.ReportMetric(float64(ready)/1e6, "initialize-to-ready-ms")
	main := src("hot/Main.java")
	var in, out []protocol.CallHierarchyItem
	in = append(in, e.prepare(main, e.pos(main, `String\.(valueOf)\(o\)`))...)
	in = append(in, e.prepare(main, e.pos(main, `public String (toString)\(`))...)
	out = append(out, e.prepare(main, e.pos(main, `static String (describe)\(`))...)
	if len(in) != 2 || len(out) != 1 {
		b.Fatalf("prepare: %d incoming items, %d outgoing", len(in), len(out))
	}
	snap, release := e.srv.current()
	g := snap.Graph
	top := func(k int, score func(n int32) int, keep func(m *hierarchy.Method) bool) []int32 {
		var ns []int32
		for _, m := range snap.Hierarchy().Methods() {
			if g.Reachable.Has(m.ID) && keep(m) && score(m.ID) > 0 {
				ns = append(ns, m.ID)
			}
		}
		slices.SortStableFunc(ns, func(a, b int32) int { return score(b) - score(a) })
		return ns[:min(k, len(ns))]
	}
	app := func(m *hierarchy.Method) bool { return m.Class.Origin != hierarchy.JDK }
	jdk := func(m *hierarchy.Method) bool { return m.Class.Origin == hierarchy.JDK }
	callers := func(n int32) int { return g.NumCallers(n) }
	widest := func(n int32) int {
		w := 0
		for _, bu := range g.Callees(n) {
			w = max(w, len(g.Sets[bu.Set]))
		}
		return w
	}
	var summary []string
	for _, n := range append(top(5, callers, app), top(5, callers, jdk)...) {
		in = append(in, toItem(ptr(e.srv.ide.Item(snap, n))))
		summary = append(summary, fmt.Sprintf("%s (%d calling bundles)", ide.QualifiedName(snap.Method(n)), callers(n)))
	}
	for _, n := range top(5, widest, func(*hierarchy.Method) bool { return true }) {
		out = append(out, toItem(ptr(e.srv.ide.Item(snap, n))))
		big, sets := 0, map[int32]bool{}
		for _, bu := range g.Callees(n) {
			if len(g.Sets[bu.Set]) > 100 {
				big++
				sets[bu.Set] = true
			}
		}
		summary = append(summary, fmt.Sprintf("%s (a call with %d targets; %d calls of over 100 targets, %d sets)", ide.QualifiedName(snap.Method(n)), widest(n), big, len(sets)))
	}
	release()
	b.Logf("ready after %v; hot methods: %s", ready, strings.Join(summary, "; "))
	repeat := func(its []protocol.CallHierarchyItem) []protocol.CallHierarchyItem {
		var r []protocol.CallHierarchyItem
		for range 20 {
			r = append(r, its...)
		}
		return r
	}
	b.ResetTimer()
	latencies(b, "hot-incoming", repeat(in), func(it protocol.CallHierarchyItem) { e.incomingRaw(it) })
	latencies(b, "hot-outgoing", repeat(out), func(it protocol.CallHierarchyItem) { e.outgoingRaw(it) })
}

// BenchmarkEditorFeatures measures Go to Implementations and type-hierarchy requests
// (budget: 5 ms p99) on the hot workspace plus jEdit's jar (when installed) with the
// full JDK, at the server's defaults (TFA at Correct-JDK): 200 method declarations,
// 200 call sites and 200 class declarations drawn at random (seeded) from the
// listings of jEdit's classes (the hot workspace's without jEdit), and the hottest
// cases, each asked 20 times per iteration: java.lang.Object (its thousands of direct
// subclasses, capped to pages; toString's overriders) and java.lang.Runnable (its
// reachable implementations).
//
//	go test ./server -run '^$' -bench EditorFeatures -benchtime 1x
func BenchmarkEditorFeatures(b *testing.B) {
	hotReps := 20
	if os.Getenv("JCG_HOT_REPS") != "" {
		hotReps = 1000
	}
	dir := workspace(b, "hot")
	classes := filepath.Join(dir, "target", "classes")
	config := map[string]any{"classPath": []string{classes}, "mainClasses": []string{"hot.Main"}}
	app := "hot/"
	if _, err := os.Stat(jeditJar); err == nil {
		config["classPath"] = []string{classes, jeditJar}
		config["mainClasses"] = []string{"hot.Main", "org.gjt.sp.jedit.jEdit"}
		app = "org/gjt/sp/"
	} else {
		b.Logf("%s not found (install jedit): measuring on the JDK and the hot workspace only", jeditJar)
	}
	e, ready := benchEnv(b, dir, config)
	b.ReportMetric(float64(ready)/1e6, "initialize-to-ready-ms")
	waitCompanion(b, e)
	type pos = docPos
	snap, release := e.srv.current()
	lp := listingPositionsOf(snap, func(c *hierarchy.Class) bool { return strings.HasPrefix(c.Name, app) })
	h := snap.Hierarchy()
	object, runnable := h.Class("java/lang/Object"), h.Class("java/lang/Runnable")
	toString := object.Method("toString", "()Ljava/lang/String;")
	objectDecls, _ := ide.ListingPositions(snap, object)
	hot := []pos{
		{classURI(object.Name), toPosition(ide.ListingClassPosition(snap, object))},
		{classURI(runnable.Name), toPosition(ide.ListingClassPosition(snap, runnable))},
		{classURI(object.Name), toPosition(objectDecls[slices.Index(object.Methods, toString)])},
	}
	release()
	b.Logf("ready after %v; %d classes, %d declarations, %d call sites", ready, len(lp.types), len(lp.decls), len(lp.calls))
	rng := rand.New(rand.NewPCG(1, 2))
	decls, calls, types := sample(rng, lp.decls), sample(rng, lp.calls), sample(rng, lp.types)
	var hotRepeated []pos
	for range hotReps {
		hotRepeated = append(hotRepeated, hot...)
	}
	tdp := pos.params
	implementation := func(p pos) {
		var raw json.RawMessage
		e.call(protocol.MethodTextDocumentImplementation, &protocol.ImplementationParams{TextDocumentPositionParams: tdp(p)}, &raw)
	}
	prepare := func(p pos) []protocol.TypeHierarchyItem {
		var its []protocol.TypeHierarchyItem
		e.call(protocol.MethodTextDocumentPrepareTypeHierarchy, &protocol.TypeHierarchyPrepareParams{TextDocumentPositionParams: tdp(p)}, &its)
		return its
	}
	var items, hotItems []protocol.TypeHierarchyItem
	for _, p := range types {
		items = append(items, prepare(p)...)
	}
	for _, p := range hot[:2] {
		hotItems = append(hotItems, prepare(p)...)
	}
	if len(items) != len(types) || len(hotItems) != 2 {
		b.Fatalf("prepare: %d items of %d classes, %d hot", len(items), len(types), len(hotItems))
	}
	var hotItemsRepeated []protocol.TypeHierarchyItem
	for range hotReps {
		hotItemsRepeated = append(hotItemsRepeated, hotItems...)
	}
	supertypes := func(it protocol.TypeHierarchyItem) {
		var raw json.RawMessage
		e.call(protocol.MethodTypeHierarchySupertypes, &protocol.TypeHierarchySupertypesParams{Item: it}, &raw)
	}
	subtypes := func(it protocol.TypeHierarchyItem) {
		var raw json.RawMessage
		e.call(protocol.MethodTypeHierarchySubtypes, &protocol.TypeHierarchySubtypesParams{Item: it}, &raw)
	}
	b.ResetTimer()
	latencies(b, "implementation-call", calls, implementation)
	latencies(b, "implementation-decl", decls, implementation)
	latencies(b, "implementation-type", types, implementation)
	latencies(b, "implementation-hot", hotRepeated, implementation)
	latencies(b, "prepare-type-hierarchy", types, func(p pos) { prepare(p) })
	latencies(b, "supertypes", items, supertypes)
	latencies(b, "subtypes", items, subtypes)
	latencies(b, "subtypes-hot", hotItemsRepeated, subtypes)
}

// BenchmarkCodeLens measures the caller lenses of a 2,000-line source file (285
// methods, each calling the next ones) with the full JDK at the defaults: the list
// (budget: 20 ms), asked after each edit of the open file so that the file is
// scanned and mapped again each time, and the resolve of every lens (budget: 1 ms).
//
//	go test ./server -run '^$' -bench CodeLens -benchtime 10x
func BenchmarkCodeLens(b *testing.B) {
	const methods = 285
	var sb strings.Builder
	sb.WriteString("package big;\n\npublic class Big {\n    public static void main(String[] args) {\n        m0(args.length);\n    }\n")
	for i := range methods {
		fmt.Fprintf(&sb, "\n    static int m%d(int x) {\n        if (x > %d) {\n            return m%d(x - 1);\n        }\n        return x;\n    }\n", i, i, (i+1)%methods)
	}
	sb.WriteString("}\n")
	text := sb.String()
	srcDir := b.TempDir()
	os.MkdirAll(filepath.Join(srcDir, "big"), 0o755)
	file := filepath.Join(srcDir, "big", "Big.java")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	classes := javatest.Compile(b, srcDir)
	dir := b.TempDir()
	e, ready := benchEnv(b, dir, map[string]any{"classPath": []string{classes}, "sourceRoots": []string{srcDir}})
	b.Logf("ready after %v; %s has %d lines", ready, file, strings.Count(text, "\n"))
	waitCompanion(b, e)
	u := uri.File(file)
	e.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "java", Version: 1, Text: text}})
	var lists, resolves []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// An edit (a comment at the end): the file is scanned and mapped anew.
		e.notify(protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": i + 2},
			"contentChanges": []map[string]any{{"text": text + fmt.Sprintf("// edit %d\n", i)}},
		})
		var lenses []protocol.CodeLens
		t0 := time.Now()
		e.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &lenses)
		lists = append(lists, time.Since(t0))
		if len(lenses) != methods+1 {
			b.Fatalf("%d lenses, want %d", len(lenses), methods+1)
		}
		for _, l := range lenses {
			var raw json.RawMessage
			t0 := time.Now()
			e.call(protocol.MethodCodeLensResolve, &l, &raw)
			resolves = append(resolves, time.Since(t0))
		}
	}
	report := func(name string, ds []time.Duration) {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2])/1e6, name+"-p50-ms")
		b.ReportMetric(float64(ds[int(0.99*float64(len(ds)-1))])/1e6, name+"-p99-ms")
		b.ReportMetric(float64(ds[len(ds)-1])/1e6, name+"-max-ms")
	}
	report("lens-list", lists)
	report("lens-resolve", resolves)
}
