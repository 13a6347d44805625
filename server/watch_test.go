package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/internal/graphtext"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// TestWatchClassFiles recompiles a changed source with javac into target/classes, as
// a build tool would, without any didSave: the server must notice the new class file
// by itself, rebuild (reporting progress), and republish the diagnostics of the files
// whose diagnostics changed, and only those.
func TestWatchClassFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	_, e := pluginsEnv(t)
	e.waitReady(0)
	factory, main := src("app/Factory.java"), src("app/Main.java")
	site := e.pos(factory, `Class\.(forName)\(name\)`)
	findDiag(t, e, factory, e.diagnostics(factory), site)
	if len(e.diagnostics(main)) == 0 {
		t.Fatalf("no diagnostics for %s", main)
	}

	e.mu.Lock()
	nPubs, nStatuses, nProgress := len(e.pubs), len(e.statuses), len(e.progress)
	before := map[uri.URI]string{}
	for u, ds := range e.diags {
		before[u] = string(mustJSON(ds))
	}
	e.mu.Unlock()

	// Edit create so that its class name is a constant (on the same line) and
	// recompile that one file into the class directory.
	editAndCompile(t, e, factory, "Class.forName(name)", `Class.forName("app.plugins.Hello")`)

	// The watcher's rebuild, and Factory.java's diagnostics published without the
	// forName site.
	got := e.waitReady(nStatuses)
	if got.Reason != string(incremental.ReasonClassFiles) {
		t.Fatalf("rebuild status %+v, want reason %q", got, incremental.ReasonClassFiles)
	}
	if d := diagAt(e.diagnostics(factory), site); d != nil {
		t.Errorf("the forName site still has a diagnostic: %v", d.Message)
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	pubs := e.pubs[nPubs:]
	sawFactory := false
	for _, p := range pubs {
		if p.uri == e.uri(factory) {
			sawFactory = true
		}
		if now := string(mustJSON(p.diags)); now == before[p.uri] {
			t.Errorf("%s republished with unchanged diagnostics", p.uri)
		}
		if p.uri == e.uri(main) {
			t.Errorf("unrelated %s republished", main)
		}
	}
	if !sawFactory {
		t.Errorf("%s not republished; publishes: %d", factory, len(pubs))
	}
	var uris []string
	for _, p := range pubs {
		uris = append(uris, string(p.uri))
	}
	t.Logf("republished after the class file changed: %v", uris)

	// The rebuild reported its progress.
	kinds := map[string]int{}
	for _, raw := range e.progress[nProgress:] {
		var p struct {
			Value struct {
				Kind string `json:"kind"`
			} `json:"value"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		kinds[p.Value.Kind]++
	}
	if kinds["begin"] == 0 || kinds["end"] == 0 {
		t.Errorf("no progress for the rebuild: %v", kinds)
	}
}

// TestWatchNoSpuriousRebuilds checks what the watcher must not rebuild for: a class
// file rewritten with the same bytes, and a specification file saved in the editor
// (didSave rebuilds; the watcher sees the same write). An edit of the specification's
// comments rebuilds nothing, saved or not. A specification file changed outside the
// editor is rebuilt for by the watcher alone.
func TestWatchNoSpuriousRebuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	_, e := pluginsEnv(t)
	e.waitReady(0)
	next := watchApplied(t, e)

	// A class file rewritten with the same bytes (an up-to-date incremental build).
	n := e.numStatuses()
	cls := e.path("target/classes/app/Factory.class")
	b, err := os.ReadFile(cls)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cls, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := next("same bytes"); r != "" {
		t.Errorf("rewriting a class file with the same bytes rebuilt (%s)", r)
	}

	// The specification file saved in the editor: one rebuild. (The entry names no
	// call of the program: the analysis reports it, and reads the rest of the file.)
	const entry = "app.Factory.create @ 3 => app.Main\n"
	specURI := protocol.TextDocumentIdentifier{URI: e.uri("jcg-spec.txt")}
	if err := os.WriteFile(e.path("jcg-spec.txt"), []byte("# saved in the editor\n"+entry), 0o644); err != nil {
		t.Fatal(err)
	}
	e.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: specURI})
	e.hover(src("app/Main.java"), protocol.Position{}) // didSave handled (notifications run in order)
	if got := e.waitReady(n); got.Reason != string(incremental.ReasonSpec) {
		t.Errorf("status after saving the specification: %+v", got)
	}
	// The watcher's change set: no rebuild, or (when it came first, as on a slow
	// client) the only one, didSave then none: the count of builds below tells.
	next("saved specification")

	// A review note added to the entry and a comment reworded, saved in the editor:
	// the same specification, so neither didSave nor the watcher rebuilds.
	if err := os.WriteFile(e.path("jcg-spec.txt"), []byte("# reviewed: Factory only ever creates Main\n"+strings.TrimSuffix(entry, "\n")+"  # see #12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: specURI})
	e.hover(src("app/Main.java"), protocol.Position{}) // didSave handled
	if r := next("comments edited"); r != "" {
		t.Errorf("editing comments of the specification rebuilt (%s)", r)
	}

	// The specification file changed outside the editor: the watcher rebuilds.
	n = e.numStatuses()
	if err := os.WriteFile(e.path("jcg-spec.txt"), []byte("# changed on disk\n"+strings.Replace(entry, "app.Main", "app.Factory", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := next("specification changed on disk"); r != incremental.ReasonSpec {
		t.Errorf("specification changed on disk: rebuild %q, want %q", r, incremental.ReasonSpec)
	}
	if got := e.waitReady(n); got.Reason != string(incremental.ReasonSpec) {
		t.Errorf("status after changing the specification on disk: %+v", got)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	builds := 0
	for _, st := range e.statuses {
		if st.State == "ready" || st.State == "cancelled" {
			builds++
		}
	}
	if builds != 3 {
		t.Errorf("%d builds, want 3 (initial, saved, changed on disk; none for comments): %+v", builds, e.statuses)
	}
}

// TestWatchQuickFixCreatesSpec applies a quick fix that creates the specification
// file the way VS Code does: the WorkspaceEdit's CreateFile writes an empty file,
// and only then (here after the watcher has seen it) the editor fills the file with
// the entry and saves it (didOpen, didChange, didSave). That is one change of the
// specification, so one rebuild: the empty file is the same specification as none,
// and didSave and the watcher both see the saved content.
func TestWatchQuickFixCreatesSpec(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	_, e := pluginsEnv(t)
	first := e.waitReady(0)
	next := watchApplied(t, e)
	factory := src("app/Factory.java")
	site := e.pos(factory, `Class\.(forName)\(name\)`)
	diag := findDiag(t, e, factory, e.diagnostics(factory), site)
	if first.SpecEntries != 0 {
		t.Fatalf("the workspace has a specification already: %+v", first)
	}
	actions := e.codeActions(factory, diag)
	var fix *protocol.WorkspaceEdit
	for i := range actions {
		if strings.HasPrefix(actions[i].Title, "Add specification") && actions[i].Edit != nil {
			fix = actions[i].Edit
			break
		}
	}
	if fix == nil {
		t.Fatalf("no specification quick fix among %+v", actions)
	}
	var created bool
	var text string
	for _, c := range fix.DocumentChanges {
		switch c := c.(type) {
		case *protocol.CreateFile:
			created = c.URI == e.uri("jcg-spec.txt")
		case *protocol.TextDocumentEdit:
			for _, te := range c.Edits {
				if te, ok := te.(*protocol.TextEdit); ok {
					text += te.NewText
				}
			}
		}
	}
	if !created || !strings.Contains(text, "=>") {
		t.Fatalf("the quick fix does not create the specification file with an entry: %+v", fix)
	}

	n := e.numStatuses()
	// CreateFile: an empty file on disk, which the watcher sees before the save.
	specPath := e.path("jcg-spec.txt")
	if err := os.WriteFile(specPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := next("empty specification file created"); r != "" {
		t.Errorf("creating the empty specification file rebuilt (%s)", r)
	}
	// Not rebuilt for, but shown as it is.
	var show string
	if err := e.command(cmdShowSpecification, &show); err != nil || strings.Contains(show, "does not exist") {
		t.Errorf("showSpecification after creating the file: %v\n%s", err, show)
	}
	// The editor fills the new file with the edit and saves it.
	specURI := e.uri("jcg-spec.txt")
	e.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: specURI, LanguageID: "plaintext", Version: 1}})
	e.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: specURI}, Version: 2},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: text}},
	})
	if err := os.WriteFile(specPath, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	e.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: specURI}})
	got := e.waitReady(n)
	if got.Reason != string(incremental.ReasonSpec) || got.SpecEntries != 1 {
		t.Errorf("status after the quick fix: %+v", got)
	}
	// The watcher's change set for the saved content: rebuilt by didSave already,
	// or (when the watcher came first) by the watcher alone.
	r := next("saved specification")
	e.hover(src("app/Main.java"), protocol.Position{}) // didSave handled (notifications run in order)
	e.mu.Lock()
	defer e.mu.Unlock()
	var builds []string
	for _, st := range e.statuses[n:] {
		if st.State == "ready" || st.State == "cancelled" {
			builds = append(builds, fmt.Sprintf("%s (%s, %d entries)", st.State, st.Reason, st.SpecEntries))
		}
	}
	if len(builds) != 1 {
		t.Errorf("the quick fix rebuilt %d times, want once (watcher's last change set: %q): %v", len(builds), r, builds)
	}
}

// watchApplied hooks the server's watcher: the function it returns waits for the next
// change set the watcher handled and returns the rebuild reason ("" for none).
func watchApplied(t *testing.T, e *env, also ...func(incremental.Reason)) func(what string) incremental.Reason {
	applied := make(chan incremental.Reason, 16)
	e.srv.watch.pendMu.Lock()
	e.srv.watch.applied = func(r incremental.Reason) {
		for _, f := range also {
			f(r)
		}
		applied <- r
	}
	e.srv.watch.pendMu.Unlock()
	return func(what string) incremental.Reason {
		t.Helper()
		select {
		case r := <-applied:
			return r
		case <-time.After(waitTimeout):
			t.Fatalf("timed out waiting for the watcher's change set (%s)", what)
			return ""
		}
	}
}

// TestWatchUpdatesInPlace: a recompiled class whose change is to method bodies only
// (Worker.run also records a constant, and Main.record is reachable already)
// updates the call graph in place; the published graph equals a new analysis of the
// same class files, and gains the edge Worker.run -> Main.record at the new line.
func TestWatchUpdatesInPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	_, e := pluginsEnv(t)
	e.waitReady(0)
	// The user looked at Correct-Cast before the edit: its graph is kept beside.
	var res string
	for _, l := range []string{"correct-cast", "correct-string"} {
		if err := e.command(cmdSetLevel, &res, l); err != nil {
			t.Fatal(err)
		}
	}
	e.mu.Lock()
	nStatuses := len(e.statuses)
	e.mu.Unlock()

	editAndCompile(t, e, src("app/Worker.java"), "Main.record(plugin.greet());", "Main.record(plugin.greet());\n        Main.record(\"ran\");")
	if got := e.waitReady(nStatuses); got.Reason != string(incremental.ReasonClassFiles) {
		t.Fatalf("rebuild status %+v, want reason %q", got, incremental.ReasonClassFiles)
	}

	snap, release := e.srv.current()
	defer release()
	checkInPlace(t, snap)
	h := snap.Hierarchy()
	run := h.Class("app/Worker").Method("run", "()V")
	record := h.Class("app/Main").Method("record", "(Ljava/lang/String;)V")
	line := e.pos(src("app/Worker.java"), `Main\.(record)\("ran"\)`).Line + 1
	found := false
	for _, bd := range snap.Graph.Callees(run.ID) {
		if _, in := slices.BinarySearch(snap.Graph.Sets[bd.Set], record.ID); in && int(bd.Line) == int(line) {
			found = true
		}
	}
	if !found {
		t.Errorf("no edge Worker.run -> Main.record at line %d", line)
	}

	// Back at Correct-Cast after the edit: its graph (updated in the background)
	// equals a new analysis of the new class files.
	if err := e.command(cmdSetLevel, &res, "correct-cast"); err != nil {
		t.Fatal(err)
	}
	cast, releaseCast := e.srv.current()
	defer releaseCast()
	if cast.Options.Level != callgraph.CorrectCast || cast.Index() != snap.Index() {
		t.Fatalf("level %v, same index %v", cast.Options.Level, cast.Index() == snap.Index())
	}
	want, err := analysis.New(cast.Index()).Run(context.Background(), cast.RunOptions())
	if err != nil {
		t.Fatal(err)
	}
	if d := graphtext.Compare(cast.Hierarchy(), cast.Graph, want); d != "" {
		t.Fatalf("Correct-Cast's graph after the edit differs from a new analysis:\n%s", d)
	}
}

// pluginsEnv starts a server at Correct-String under CHA (which updates in place) on
// a copy of the plugins workspace.
func pluginsEnv(t *testing.T) (dir string, e *env) {
	t.Helper()
	dir = workspace(t, "plugins")
	return dir, newEnv(t, dir, envOptions{config: map[string]any{"level": "correct-string", "algorithm": "cha"}})
}

// checkInPlace checks that snap's graph was updated in place and equals a new
// analysis of the same class files.
func checkInPlace(t *testing.T, snap *Snapshot) {
	t.Helper()
	if !snap.InPlace {
		t.Fatal("the graph was analysed anew, not updated in place")
	}
	want, err := analysis.New(snap.Index()).Run(context.Background(), snap.RunOptions())
	if err != nil {
		t.Fatal(err)
	}
	if d := graphtext.Compare(snap.Hierarchy(), snap.Graph, want); d != "" {
		t.Fatalf("updated graph differs from a new analysis:\n%s", d)
	}
}

// TestWatchUpdatesReflectiveSiteInPlace: the edit this product prompts, at Correct-String.
// Factory.create's forName takes its name from a public parameter (unresolved: a
// diagnostic); giving it a constant resolves it, and a system property unresolves it
// again. The value analysis read create's code, so each update visits create's sites
// again (their reader) and drops what only the fallback reached; both are updates in
// place equal to a new analysis, and the diagnostic goes and comes back.
func TestWatchUpdatesReflectiveSiteInPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	_, e := pluginsEnv(t)
	e.waitReady(0)
	reflectiveEdits(t, e, func(st reflectiveEdit, n int) {
		snap, release := e.srv.current()
		checkInPlace(t, snap)
		release()
	})
}

// TestWatchInterimDiagnostics: under the default settings (TFA at Correct-JDK),
// which analyse anew on every change, the edits of
// TestWatchUpdatesReflectiveSiteInPlace get their diagnostics first from the CHA
// companion graph updated in place (a jcg/status "interim" follows them), before the
// TFA graph is analysed anew and published (the status "ready"). Both agree on the
// forName site: its value comes from a public parameter, a constant, a system
// property whatever the algorithm.
func TestWatchInterimDiagnostics(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	e := newEnv(t, workspace(t, "plugins"), envOptions{})
	e.waitReady(0)
	snap, release := e.srv.current()
	if snap.Options.Algorithm != callgraph.TFA || snap.Options.Level != callgraph.CorrectJDK {
		t.Fatalf("default settings: %s at %v, want tfa at Correct-JDK", snap.Options.Algorithm, snap.Options.Level)
	}
	e.waitFor("the CHA companion graph", snap.Updatable)
	release()
	reflectiveEdits(t, e, func(st reflectiveEdit, n int) {
		interim, at := e.waitStatus(n, "interim")
		if interim.Reason != string(incremental.ReasonClassFiles) || !strings.Contains(interim.Message, "CHA, updated in place") || interim.UnresolvedByLevel != nil {
			t.Errorf("%s: interim status %+v", st.new, interim)
		}
		if d := diagAt(e.diagnosticsBefore(src("app/Factory.java"), at), st.site); (d != nil) != st.diagnostic {
			t.Errorf("after %s: interim diagnostic at the forName site: %v, want %v", st.new, d != nil, st.diagnostic)
		}
		snap, release := e.srv.current()
		defer release()
		if snap.InPlace || snap.Options.Algorithm != callgraph.TFA || snap.Graph.Algorithm != callgraph.TFA {
			t.Errorf("%s: published snapshot in place %v, algorithm %s (graph %s), want TFA analysed anew", st.new, snap.InPlace, snap.Options.Algorithm, snap.Graph.Algorithm)
		}
		if !snap.Updatable() {
			t.Errorf("%s: the companion was not updated in place with the interim graph", st.new)
		}
	})
}

// reflectiveEdit is one step of reflectiveEdits.
type reflectiveEdit struct {
	old, new   string
	diagnostic bool // whether the site is unresolved after the edit
	site       protocol.Position
}

// reflectiveEdits makes the plugins workspace's Factory.create resolve its forName
// site and unresolve it again (TestWatchUpdatesReflectiveSiteInPlace), calling check
// after each edit's ready status with the edit and the number of statuses before it,
// and checks the diagnostic at the site then.
func reflectiveEdits(t *testing.T, e *env, check func(st reflectiveEdit, n int)) {
	t.Helper()
	factory := src("app/Factory.java")
	site := e.pos(factory, `Class\.(forName)\(name\)`)
	findDiag(t, e, factory, e.diagnostics(factory), site)
	steps := []reflectiveEdit{
		{"Class.forName(name)", `Class.forName("app.plugins.Hello")`, false, site},
		{`Class.forName("app.plugins.Hello")`, `Class.forName(System.getProperty("app.plugin"))`, true, site},
	}
	for _, st := range steps {
		n := e.numStatuses()
		editAndCompile(t, e, factory, st.old, st.new)
		if got := e.waitReady(n); got.Reason != string(incremental.ReasonClassFiles) {
			t.Fatalf("%s: rebuild status %+v, want reason %q", st.new, got, incremental.ReasonClassFiles)
		}
		check(st, n)
		if d := diagAt(e.diagnostics(factory), site); (d != nil) != st.diagnostic {
			t.Errorf("after %s: diagnostic at the forName site: %v, want %v", st.new, d != nil, st.diagnostic)
		}
	}
}

// editAndCompile replaces the first old in a source file of the workspace by new and
// recompiles that file into target/classes, as a build tool would.
// TestUpdatedGraphCachedForRestart: the graph of an update in place reaches the disk
// cache (at the latest when the server stops), so that a restart over the edited
// class files loads it instead of analysing again, and loads what a new analysis
// computes; the first edit after the restart is updated in place.
func TestUpdatedGraphCachedForRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	dir := workspace(t, "plugins")
	gc, err := incremental.OpenGraphCache(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{"level": "correct-string", "algorithm": "cha"}
	e := newEnv(t, dir, envOptions{config: cfg, graphs: gc})
	n := e.waitReady(0)
	editAndCompile(t, e, src("app/Worker.java"), "Main.record(plugin.greet());", "Main.record(plugin.greet());\n        Main.record(\"ran\");")
	e.waitReady(e.numStatuses())
	if snap, release := e.srv.current(); !snap.InPlace || snap.ID == n.Snapshot {
		release()
		t.Fatal("the edit was not updated in place")
	} else {
		release()
	}
	e.close() // before the store delay: the server writes the graph as it stops
	gc.Close()

	hits := gc.Hits()
	e = newEnv(t, dir, envOptions{config: cfg, graphs: gc})
	defer func() {
		// The server writes the updated graph as it stops, in the background: wait
		// for the write before the cache's directory is removed.
		e.close()
		gc.Close()
	}()
	e.waitReady(0)
	if gc.Hits() != hits+1 {
		t.Fatalf("the restart did not load the updated graph from the cache (hits %d -> %d)", hits, gc.Hits())
	}
	snap, release := e.srv.current()
	defer release()
	want, err := analysis.New(snap.Index()).Run(context.Background(), snap.RunOptions())
	if err != nil {
		t.Fatal(err)
	}
	if d := graphtext.Compare(snap.Hierarchy(), snap.Graph, want); d != "" {
		t.Fatalf("the cached graph differs from a new analysis:\n%s", d)
	}

	// The cached graph's trace is computed in the background, and then the first
	// edit after the restart is updated in place too.
	e.waitFor("the trace of the cached graph", snap.Updatable)
	n = e.waitReady(0)
	editAndCompile(t, e, src("app/Worker.java"), "Main.record(\"ran\");", "Main.record(\"ran\");\n        Main.record(\"again\");")
	e.waitReady(e.numStatuses())
	snap2, release2 := e.srv.current()
	defer release2()
	if !snap2.InPlace || snap2.ID == n.Snapshot {
		t.Fatal("the first edit after the restart was not updated in place")
	}
	want, err = analysis.New(snap2.Index()).Run(context.Background(), snap2.RunOptions())
	if err != nil {
		t.Fatal(err)
	}
	if d := graphtext.Compare(snap2.Hierarchy(), snap2.Graph, want); d != "" {
		t.Fatalf("the graph updated from the cached graph's trace differs from a new analysis:\n%s", d)
	}
}

func editAndCompile(t *testing.T, e *env, file, old, new string) {
	t.Helper()
	path := e.path(file)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), old, new, 1)
	if text == string(b) {
		t.Fatalf("%s has no %q", file, old)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	classes := e.path("target/classes")
	cmd := exec.Command(javatest.Javac(t), "-g", "-parameters", "-encoding", "UTF-8", "-proc:none", "-Xlint:none",
		"--release", "17", "-cp", classes, "-d", classes, path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
}

// TestRequestsSeeEdits: under the defaults (TFA at Correct-JDK, which analyses anew
// on every change), a request that arrives once the server has seen an edit (the
// watcher handed it the recompiled class) answers from a snapshot that includes it:
// the edit's interim one (CHA's companion graph updated in place), never the one
// before the edit, which the TFA analysis replaces seconds later. The edits come one
// after the other, each while the previous one's TFA analysis runs (which it
// cancels): Worker.run gains a call of Main.record(String, int), which the outgoing
// calls asked right after must list; Factory.create's forName gets a constant name,
// which the hover on it asked right after must call resolved (the interim
// diagnostics cleared the site); Worker.run loses the call, which the outgoing calls
// must no longer list. The first edit comes right after the first ready status,
// while the companion may still be being computed: it waits for it, and gets interim
// diagnostics all the same.
func TestRequestsSeeEdits(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	e := newEnv(t, workspace(t, "plugins"), envOptions{})
	e.waitReady(0)
	applied := watchApplied(t, e)
	worker, factory := src("app/Worker.java"), src("app/Factory.java")
	run := e.pos(worker, `void (run)\(\)`)
	site := e.pos(factory, `Class\.(forName)\(name\)`)
	callsTwice := func() bool {
		t.Helper()
		items := e.prepare(worker, run)
		if len(items) != 1 {
			t.Fatalf("prepareCallHierarchy at Worker.run: %d items", len(items))
		}
		for _, c := range e.outgoing(items[0]) {
			if c.To.Name == "record(String, int)" {
				return true
			}
		}
		return false
	}
	if callsTwice() {
		t.Fatal("Worker.run calls Main.record(String, int) before the edit")
	}
	if h := e.hover(factory, site); !strings.Contains(h, "**unresolved**") {
		t.Fatalf("hover on create's forName before the edit:\n%s", h)
	}
	var n int
	for _, st := range []struct {
		file, old, new string
		check          func(string)
	}{
		{worker, "Main.record(plugin.greet());", `Main.record(plugin.greet()); Main.record("ran", 2);`, func(what string) {
			if !callsTwice() {
				t.Errorf("%s: outgoing calls of Worker.run do not list Main.record(String, int)", what)
			}
		}},
		{factory, "Class.forName(name)", `Class.forName("app.plugins.Hello")`, func(what string) {
			if h := e.hover(factory, site); !strings.Contains(h, "**resolved**") {
				t.Errorf("%s: hover on create's forName:\n%s", what, h)
			}
		}},
		{worker, `Main.record(plugin.greet()); Main.record("ran", 2);`, "Main.record(plugin.greet());", func(what string) {
			if callsTwice() {
				t.Errorf("%s: outgoing calls of Worker.run list Main.record(String, int)", what)
			}
		}},
	} {
		n = e.numStatuses()
		editAndCompile(t, e, st.file, st.old, st.new)
		if r := applied(st.new); r != incremental.ReasonClassFiles {
			t.Fatalf("%s: the watcher's change set rebuilt for %q", st.new, r)
		}
		st.check("right after " + st.new)
		if interim, _ := e.waitStatus(n, "interim"); interim.Reason != string(incremental.ReasonClassFiles) {
			t.Errorf("%s: interim status %+v", st.new, interim)
		}
	}
	e.waitReady(n)
	if callsTwice() {
		t.Error("after the last edit was analysed anew: outgoing calls of Worker.run list Main.record(String, int)")
	}
	if h := e.hover(factory, site); !strings.Contains(h, "**resolved**") {
		t.Errorf("after the last edit was analysed anew: hover on create's forName:\n%s", h)
	}
}

// TestConfigAfterEditRereads: a configuration change that arrives while the build of
// a recompiled class has not published yet cancels that build; the configuration's
// build re-reads the class path in its place, so the edit is in the graph it
// publishes (Worker.run then calls Main.record(String, int)), not left unread until
// the next change.
func TestConfigAfterEditRereads(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	_, e := pluginsEnv(t)
	e.waitReady(0)
	applied := watchApplied(t, e, func(r incremental.Reason) {
		if r == incremental.ReasonClassFiles {
			// Called right after the watcher started the class files' build: this
			// one cancels it before it can publish.
			e.srv.Rebuild(context.Background(), incremental.ReasonConfig)
		}
	})
	worker := src("app/Worker.java")
	run := e.pos(worker, `void (run)\(\)`)
	n := e.numStatuses()
	editAndCompile(t, e, worker, "Main.record(plugin.greet());", `Main.record(plugin.greet()); Main.record("ran", 2);`)
	if r := applied("the edit of Worker"); r != incremental.ReasonClassFiles {
		t.Fatalf("the watcher's change set rebuilt for %q", r)
	}
	if ready := e.waitReady(n); ready.Reason != string(incremental.ReasonConfig) {
		t.Fatalf("ready after the edit for %q, want the configuration's build", ready.Reason)
	}
	items := e.prepare(worker, run)
	if len(items) != 1 {
		t.Fatalf("prepareCallHierarchy at Worker.run: %d items", len(items))
	}
	for _, c := range e.outgoing(items[0]) {
		if c.To.Name == "record(String, int)" {
			return
		}
	}
	t.Error("after the configuration's build: outgoing calls of Worker.run do not list Main.record(String, int), the edit was not read")
}
