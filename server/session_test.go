package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/incremental"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestSession drives one server through a whole editing session on the plugins test
// program (testdata/lsp/plugins) with the full JDK: initialize, diagnostics, hovers,
// call hierarchies, a quick fix applied and saved, a level switch, commands,
// cancellation and malformed requests. One session, because every build analyses
// the whole JDK; the subtests run in order and share it.
func TestSession(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	dir, e := pluginsEnv(t)
	first := e.waitReady(0)
	if first.Level != "correct-string" || first.Reason != string(incremental.ReasonInitial) {
		t.Fatalf("first status %+v", first)
	}
	factory, main, worker, registry := src("app/Factory.java"), src("app/Main.java"), src("app/Worker.java"), src("app/Registry.java")

	t.Run("Progress", func(t *testing.T) {
		e.mu.Lock()
		defer e.mu.Unlock()
		var kinds []string
		pct, reached := false, false
		last := uint32(0)
		for _, raw := range e.progress {
			var p struct {
				Value struct {
					Kind       string  `json:"kind"`
					Percentage *uint32 `json:"percentage"`
					Message    string  `json:"message"`
				} `json:"value"`
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				t.Fatal(err)
			}
			kinds = append(kinds, p.Value.Kind)
			pct = pct || p.Value.Percentage != nil && *p.Value.Percentage > 0
			// Inside the analysis: methods reached so far.
			reached = reached || strings.HasSuffix(p.Value.Message, " methods reached")
			if p.Value.Percentage != nil {
				if *p.Value.Percentage < last {
					t.Errorf("progress went back from %d%% to %d%%", last, *p.Value.Percentage)
				}
				last = *p.Value.Percentage
			}
		}
		if len(kinds) < 3 || kinds[0] != "begin" || kinds[len(kinds)-1] != "end" || !pct || !reached {
			t.Errorf("progress %v (percentages: %v, run reported: %v)", kinds, pct, reached)
		}
	})

	t.Run("Diagnostics", func(t *testing.T) {
		ds := e.diagnostics(factory)
		forName := findDiag(t, e, factory, ds, e.pos(factory, `Class\.(forName)\(name\)`))
		if forName.Severity != protocol.DiagnosticSeverityWarning || forName.Code != protocol.String("loading") {
			t.Errorf("forName diagnostic: severity %v code %v", forName.Severity, forName.Code)
		}
		msg := forName.Message.(protocol.String)
		if !strings.Contains(string(msg), "unresolved at Correct-String") || !strings.Contains(string(msg), "level 2") ||
			!strings.Contains(string(msg), "unknown value from public parameter 0 of create, which Correct-String does not license") {
			t.Errorf("message %q", msg)
		}
		if len(forName.RelatedInformation) == 0 || !strings.Contains(forName.RelatedInformation[0].Message, "specification point") {
			t.Errorf("related information %+v", forName.RelatedInformation)
		}
		// The constant name in known() is resolved at Correct-String: no diagnostic.
		if d := diagAt(ds, e.pos(factory, `Class\.(forName)\("app`)); d != nil {
			t.Errorf("unexpected diagnostic for a resolved site: %v", d.Message)
		}
		// A reachable native call, with its own severity.
		nat := findDiag(t, e, main, e.diagnostics(main), e.pos(main, `started = System\.(currentTimeMillis)`))
		if nat.Severity != protocol.DiagnosticSeverityInformation || nat.Code != protocol.String("native") {
			t.Errorf("native diagnostic %+v", nat)
		}
	})

	t.Run("Hover", func(t *testing.T) {
		h := e.hover(factory, e.pos(factory, `Class\.(forName)\(name\)`))
		// create's parameter is public: a source beyond Correct-String's assumptions.
		for _, want := range []string{"Class.forName", "unresolved", "Targets:", "Specification points", "public parameter 0 of create", "(a source Correct-String does not license)"} {
			if !strings.Contains(h, want) {
				t.Errorf("hover on create's forName lacks %q:\n%s", want, h)
			}
		}
		h = e.hover(factory, e.pos(factory, `Class\.(forName)\("app`))
		if !strings.Contains(h, "**resolved**") || !strings.Contains(h, "app.plugins.Bye") {
			t.Errorf("hover on known's forName:\n%s", h)
		}
		h = e.hover(worker, e.pos(worker, `void (run)\(`))
		if !strings.Contains(h, "**Reachable**") || !strings.Contains(h, "app.Main.main") || !strings.Contains(h, "thread") {
			t.Errorf("hover on Worker.run:\n%s", h)
		}
		if want := filepath.Join("target", "classes", "app", "Worker.class") + "` (application)"; !strings.Contains(h, want) {
			t.Errorf("hover on Worker.run does not say where its class file is (%q):\n%s", want, h)
		}
		h = e.hover(main, e.pos(main, `private static void (unused)`))
		if !strings.Contains(h, "**Not reachable**") || !strings.Contains(h, "private static void unused()") {
			t.Errorf("hover on unused:\n%s", h)
		}
		if h := e.hover(main, e.pos(main, `(\{)\n        started`)); h != "" {
			t.Errorf("hover on a brace: %q", h)
		}
	})

	t.Run("CallHierarchy", func(t *testing.T) {
		// Worker.run is called by the JVM on the thread main starts.
		items := e.prepare(worker, e.pos(worker, `void (run)\(`))
		if len(items) != 1 || items[0].Name != "run()" || !strings.Contains(detail(items[0]), "app.Worker") {
			t.Fatalf("prepare Worker.run: %+v", items)
		}
		in := e.incoming(items[0])
		c := findCall(t, in, "app.Main", "main(String[])")
		if !strings.Contains(detail(c.From), "thread") {
			t.Errorf("incoming Worker.run from main: detail %q", detail(c.From))
		}
		if got := e.textAt(main, c.FromRanges[0]); got != "start" {
			t.Errorf("fromRange of the thread start: %q", got)
		}

		// record(String) is called from the lambda registered in main; the lambda runs
		// from Registry.fire, and main creates it.
		items = e.prepare(main, e.pos(main, `e -> (record)\(`))
		if len(items) != 1 || items[0].Name != "record(String)" {
			t.Fatalf("prepare on the call in the lambda: %+v", items)
		}
		in = e.incoming(items[0])
		lam := findCall(t, in, "app.Main", "lambda in main")
		if got := e.textAt(main, lam.FromRanges[0]); got != "record" {
			t.Errorf("fromRange in the lambda: %q", got)
		}
		in = e.incoming(lam.From)
		fire := findCall(t, in, "app.Registry", "fire(String)")
		if !strings.Contains(detail(fire.From), "lambda") || e.textAt(registry, fire.FromRanges[0]) != "accept" {
			t.Errorf("lambda called from fire: %q %v", detail(fire.From), fire.FromRanges)
		}
		creator := findCall(t, in, "app.Main", "main(String[])")
		if !strings.Contains(detail(creator.From), "creates this lambda") || e.textAt(main, creator.FromRanges[0]) != "->" {
			t.Errorf("lambda created in main: %q %v", detail(creator.From), creator.FromRanges)
		}

		// Columns count UTF-16 units: the call after the emoji on its line.
		p := e.pos(main, `😀 ✓"; (record)\(smile`)
		items = e.prepare(main, p)
		if len(items) != 1 || items[0].Name != "record(String, int)" {
			t.Fatalf("prepare after non-BMP text: %+v", items)
		}
		in = e.incoming(items[0])
		c = findCall(t, in, "app.Main", "main(String[])")
		if c.FromRanges[0].Start != p || e.textAt(main, c.FromRanges[0]) != "record" {
			t.Errorf("fromRange %v, want start %v", c.FromRanges[0], p)
		}

		// Outgoing calls of main reach JDK methods, shown in class listings.
		items = e.prepare(main, e.pos(main, `static void (main)\(`))
		out := e.outgoing(items[0])
		var join *protocol.CallHierarchyOutgoingCall
		for i := range out {
			if out[i].To.Name == "join()" {
				join = &out[i]
			}
		}
		if join == nil || !strings.HasPrefix(string(join.To.URI), "jcg-class:") || !strings.HasSuffix(string(join.To.URI), "java/lang/Thread.class") {
			t.Fatalf("outgoing join: %+v", join)
		}
		var content classContentResult
		e.call(MethodClassContent, map[string]string{"uri": string(join.To.URI)}, &content)
		if got := rangeText(content.Text, join.To.SelectionRange); got != "join" {
			t.Errorf("selection range of join in the listing: %q", got)
		}
		// The header says where the class file is, in the jar-URL form that names
		// nested archives too, and its origin.
		if !strings.Contains(content.Text, "modules!/java.base/java/lang/Thread.class (jdk)") {
			t.Errorf("listing header lacks the class's location:\n%.400s", content.Text)
		}
		// Incoming calls of a JDK method come back through its listing URI.
		in = e.incoming(join.To)
		c = findCall(t, in, "app.Main", "main(String[])")
		if e.textAt(main, c.FromRanges[0]) != "join" {
			t.Errorf("incoming join from main: %v", c.FromRanges)
		}
	})

	t.Run("Commands", func(t *testing.T) {
		var cp string
		if err := e.command(cmdShowClassPath, &cp); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Maven target/classes", filepath.Join("src", "main", "java"), "JDK in use"} {
			if !strings.Contains(cp, want) {
				t.Errorf("class path lacks %q:\n%s", want, cp)
			}
		}
		var res exportResult
		if err := e.command(cmdExport, &res, map[string]any{"format": "dot", "path": "graph.dot", "appOnly": true}); err != nil {
			t.Fatal(err)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "graph.dot")); err != nil || !strings.Contains(string(b), "digraph") || res.Bytes != int64(len(b)) {
			t.Errorf("export: %+v %v", res, err)
		}
		if err := e.command("jcg.nonsense", nil); rpcCode(err) != jsonrpc2.InvalidParams {
			t.Errorf("unknown command: %v", err)
		}
	})

	t.Run("QuickFix", func(t *testing.T) {
		p := e.pos(factory, `Class\.(forName)\(name\)`)
		d := findDiag(t, e, factory, e.diagnostics(factory), p)
		// A TamiFlex log of a run that loaded Bye at this site (and something
		// elsewhere): its observation is the first, preferred fix.
		reflLog := fmt.Sprintf("Class.forName;app.plugins.Bye;app.Factory.create;%d;;\nClass.forName;app.Other;app.Main.main;3;;\n", p.Line+1)
		os.MkdirAll(filepath.Join(dir, "out"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "out", "refl.log"), []byte(reflLog), 0o644); err != nil {
			t.Fatal(err)
		}
		actions := e.codeActions(factory, d)
		var titles []string
		var add *protocol.CodeAction
		for i := range actions {
			titles = append(titles, actions[i].Title)
			if actions[i].Title == "Add specification: this site ⇒ {Hello}" {
				add = &actions[i]
			}
		}
		if add == nil || !slices.Contains(titles, "Open specification file") || !slices.ContainsFunc(titles, func(s string) bool { return strings.Contains(s, "all ") }) {
			t.Fatalf("actions: %q", titles)
		}
		if obs := actions[0]; obs.Title != "Add specification: this site ⇒ {Bye} (observed in refl.log)" || obs.IsPreferred == nil || !*obs.IsPreferred {
			t.Errorf("first action %q (preferred %v), want the observed target", obs.Title, obs.IsPreferred)
		}
		// Apply the edit as a client would: create the file, insert the text.
		specPath := filepath.Join(dir, "jcg-spec.txt")
		text := applyEdit(t, add.Edit, specPath)
		if !strings.Contains(text, "app.Factory.create(Ljava/lang/String;)Ljava/lang/Object; @ ") || !strings.HasSuffix(text, "=> app.plugins.Hello\n") {
			t.Fatalf("specification file:\n%s", text)
		}
		n := e.numStatuses()
		e.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri("jcg-spec.txt")}})
		st := e.waitReady(n)
		if st.Reason != string(incremental.ReasonSpec) || st.SpecEntries != 1 || len(st.SpecProblems) != 0 {
			t.Fatalf("status after saving the specification: %+v", st)
		}
		var show string
		if err := e.command(cmdShowSpecification, &show); err != nil || !strings.Contains(show, "=> app.plugins.Hello") {
			t.Errorf("showSpecification: %v\n%s", err, show)
		}
		// The site is specified now: its diagnostic is gone, its hover says so.
		if d := diagAt(e.diagnostics(factory), p); d != nil {
			t.Errorf("diagnostic still there: %v", d.Message)
		}
		if h := e.hover(factory, p); !strings.Contains(h, "**specified**") || !strings.Contains(h, "app.plugins.Hello") {
			t.Errorf("hover after the specification:\n%s", h)
		}
	})

	t.Run("LevelSwitch", func(t *testing.T) {
		known := e.pos(factory, `Class\.(forName)\("app`)
		var res string
		if err := e.command(cmdSetLevel, &res, "behaved-cls"); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(res, "Behaved-CLs") {
			t.Errorf("setLevel: %q", res)
		}
		// Behaved-CLs resolves nothing: the constant name's site is unresolved too.
		e.waitFor("diagnostic on known's forName", func() bool { return diagAt(e.diags[e.uri(factory)], known) != nil })
		if h := e.hover(factory, known); !strings.Contains(h, "unresolved") || !strings.Contains(h, "Behaved-CLs") {
			t.Errorf("hover at Behaved-CLs:\n%s", h)
		}
		n := e.numStatuses()
		if err := e.command(cmdSetLevel, &res, 4); err != nil {
			t.Fatal(err)
		}
		e.waitFor("no diagnostic on known's forName", func() bool { return diagAt(e.diags[e.uri(factory)], known) == nil })
		// The status counts the unresolved sites of this level and of every level
		// computed so far; Behaved-CLs resolves nothing, so it has more.
		st := e.waitReady(n)
		// Only the program's own sites count: a handful here, not the JDK's thousands.
		if st.Level != "correct-string" || st.UnresolvedByLevel["correct-string"] != st.Unresolved || st.Unresolved == 0 || st.Unresolved > 20 {
			t.Errorf("status after the switch back: level %s, unresolved %d, by level %v", st.Level, st.Unresolved, st.UnresolvedByLevel)
		}
		// Factory.create's forName takes a public parameter: beyond Correct-String.
		if st.UnresolvedBeyond == 0 || st.UnresolvedBeyond > st.Unresolved {
			t.Errorf("status: %d of %d unresolved sites beyond the level, want at least create's forName", st.UnresolvedBeyond, st.Unresolved)
		}
		if bcl, ok := st.UnresolvedByLevel["behaved-cls"]; !ok || bcl <= st.Unresolved {
			t.Errorf("Behaved-CLs unresolved %d (known: %v), want more than Correct-String's %d", bcl, ok, st.Unresolved)
		}
		if err := e.command(cmdSetLevel, &res, "level 9"); rpcCode(err) != jsonrpc2.InvalidParams {
			t.Errorf("bad level: %v", err)
		}

		// Correct-JDK: System.currentTimeMillis is a JDK native whose model entry says
		// it calls nothing, so its site is resolved and its hover names the entry and
		// its evidence; at Correct-String it is an unresolved native site.
		millis := e.pos(main, `System\.(currentTimeMillis)\(\)`)
		if h := e.hover(main, millis); !strings.Contains(h, "unresolved") {
			t.Errorf("hover on currentTimeMillis at Correct-String:\n%s", h)
		}
		n = e.numStatuses()
		if err := e.command(cmdSetLevel, &res, "correct-jdk"); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(res, "Correct-JDK") {
			t.Errorf("setLevel correct-jdk: %q", res)
		}
		if st := e.waitReady(n); st.Level != "correct-jdk" {
			t.Errorf("status after the switch to Correct-JDK: %+v", st)
		}
		if h := e.hover(main, millis); !strings.Contains(h, "Correct-JDK") || !strings.Contains(h, "native modeled: System.currentTimeMillis") || !strings.Contains(h, "evidence") || strings.Contains(h, "unresolved") {
			t.Errorf("hover on currentTimeMillis at Correct-JDK:\n%s", h)
		}
		n = e.numStatuses()
		if err := e.command(cmdSetLevel, &res, "correct-string"); err != nil {
			t.Fatal(err)
		}
		e.waitReady(n)
	})

	t.Run("Configuration", func(t *testing.T) {
		// A configuration change that does not touch the analysis reuses the graph
		// and republishes the diagnostics it changes.
		e.mu.Lock()
		e.config = mustJSON(map[string]any{"level": "correct-string", "diagnosticSeverity": "error"})
		e.mu.Unlock()
		n := e.numStatuses()
		e.notify(protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": nil})
		if st := e.waitReady(n); st.Reason != string(incremental.ReasonConfig) {
			t.Errorf("status %+v", st)
		}
		p := e.pos(factory, `c\.getDeclaredConstructor\(\)\.(newInstance)\(\);\n    \}\n\n    public static Plugin`)
		e.waitFor("an error diagnostic", func() bool {
			d := diagAt(e.diags[e.uri(factory)], p)
			return d != nil && d.Severity == protocol.DiagnosticSeverityError
		})
	})

	t.Run("Cancellation", func(t *testing.T) {
		testCancellation(t, e)
	})

	t.Run("Statistics", func(t *testing.T) {
		var table string
		if err := e.command(cmdStatistics, &table); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Behaved-CLs", "Encap-Respect", "Correct-Cast", "Correct-String", "Correct-Env", "loading t/r/u"} {
			if !strings.Contains(table, want) {
				t.Errorf("statistics lack %q:\n%s", want, table)
			}
		}
	})

	t.Run("Reanalyze", func(t *testing.T) {
		n := e.numStatuses()
		var res string
		if err := e.command(cmdReanalyze, &res); err != nil || !strings.Contains(res, "reachable methods") {
			t.Fatalf("reanalyze: %q %v", res, err)
		}
		if st := e.waitReady(n); st.Reason != string(incremental.ReasonCommand) {
			t.Errorf("status %+v", st)
		}
		// The new index serves requests; the old one was closed once unused.
		if h := e.hover(worker, e.pos(worker, `void (run)\(`)); !strings.Contains(h, "Reachable") {
			t.Errorf("hover after reanalysis: %q", h)
		}
	})

	t.Run("WorkspaceFolders", func(t *testing.T) {
		// A folder added to the workspace joins the class path (its lib/ jar is
		// discovered); removed, it leaves it again.
		other := t.TempDir()
		jar, err := os.ReadFile(filepath.Join("..", "testdata", "java", "main-example", "example.jar"))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(other, "lib"), 0o755)
		if err := os.WriteFile(filepath.Join(other, "lib", "example.jar"), jar, 0o644); err != nil {
			t.Fatal(err)
		}
		folder := []map[string]any{{"uri": uri.File(other), "name": "other"}}
		for _, add := range []bool{true, false} {
			ev := map[string]any{"added": folder, "removed": []any{}}
			if !add {
				ev = map[string]any{"added": []any{}, "removed": folder}
			}
			n := e.numStatuses()
			e.notify(protocol.MethodWorkspaceDidChangeWorkspaceFolders, map[string]any{"event": ev})
			if st := e.waitReady(n); st.Reason != string(incremental.ReasonFolders) {
				t.Errorf("status %+v", st)
			}
			var cp string
			if err := e.command(cmdShowClassPath, &cp); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(cp, filepath.Join(other, "lib", "example.jar")); got != add {
				t.Errorf("folder added %v, its jar on the class path %v:\n%s", add, got, cp)
			}
		}
	})

	t.Run("Malformed", func(t *testing.T) {
		// Parameters of the wrong shape, unknown methods and notifications sent as
		// requests get JSON-RPC errors; the server keeps serving.
		err := e.tryCall(protocol.MethodTextDocumentHover, json.RawMessage(`{"textDocument": 5, "position": "x"}`), nil)
		if rpcCode(err) != jsonrpc2.InvalidParams {
			t.Errorf("malformed hover: %v", err)
		}
		if err := e.tryCall("textDocument/nonsense", map[string]any{}, nil); rpcCode(err) != jsonrpc2.MethodNotFound {
			t.Errorf("unknown method: %v", err)
		}
		if err := e.tryCall(protocol.MethodTextDocumentDidSave, map[string]any{}, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
			t.Errorf("notification as request: %v", err)
		}
		if err := e.tryCall(protocol.MethodInitialize, map[string]any{}, nil); rpcCode(err) != jsonrpc2.InvalidRequest {
			t.Errorf("second initialize: %v", err)
		}
		e.notify("jcg/unknownNotification", map[string]any{"x": 1})
		e.notify(protocol.MethodTextDocumentDidOpen, json.RawMessage(`{"textDocument": []}`))
		if h := e.hover(worker, e.pos(worker, `void (run)\(`)); !strings.Contains(h, "Reachable") {
			t.Errorf("server stopped serving after malformed messages: %q", h)
		}
	})
}

// testCancellation cancels a long request (the statistics of every level, three of
// them not computed yet) with $/cancelRequest and checks the reply and that the
// server goes on.
func testCancellation(t *testing.T, e *env) {
	for len(e.spy.sent) > 0 {
		<-e.spy.sent
	}
	errc := make(chan error, 1)
	go func() { errc <- e.command(cmdStatistics, nil) }()
	var sent sentCall
	for sent.method != protocol.MethodWorkspaceExecuteCommand {
		sent = <-e.spy.sent
	}
	start := time.Now()
	e.notify(protocol.MethodCancelRequest, map[string]any{"id": sent.id})
	err := <-errc
	if err == nil {
		t.Skip("statistics finished before the cancellation arrived")
	}
	if rpcCode(err) != protocol.CodeRequestCancelled {
		t.Errorf("cancelled request: %v (code %d)", err, rpcCode(err))
	}
	t.Logf("cancelled after %v", time.Since(start))
	if h := e.hover(src("app/Worker.java"), e.pos(src("app/Worker.java"), `void (run)\(`)); !strings.Contains(h, "Reachable") {
		t.Errorf("hover after cancellation: %q", h)
	}
}

func findDiag(t *testing.T, e *env, rel string, ds []protocol.Diagnostic, p protocol.Position) *protocol.Diagnostic {
	t.Helper()
	d := diagAt(ds, p)
	if d == nil {
		var all []string
		for _, d := range ds {
			all = append(all, e.textAt(rel, d.Range)+": "+string(d.Message.(protocol.String)))
		}
		t.Fatalf("no diagnostic at %v in %s; have:\n%s", p, rel, strings.Join(all, "\n"))
	}
	return d
}

// diagAt returns the diagnostic whose range starts at p.
func diagAt(ds []protocol.Diagnostic, p protocol.Position) *protocol.Diagnostic {
	for i := range ds {
		if ds[i].Range.Start == p {
			return &ds[i]
		}
	}
	return nil
}

// findCall returns the incoming call from the method with the given name declared in
// class (a binary name with dots).
func findCall(t *testing.T, calls []protocol.CallHierarchyIncomingCall, class, name string) protocol.CallHierarchyIncomingCall {
	t.Helper()
	var names []string
	for _, c := range calls {
		if c.From.Name == name && strings.HasPrefix(detail(c.From), class+" ") {
			return c
		}
		if len(names) < 20 {
			names = append(names, strings.SplitN(detail(c.From), " ", 2)[0]+" "+c.From.Name)
		}
	}
	t.Fatalf("no incoming call from %s %q among %d; some: %q", class, name, len(calls), names)
	return protocol.CallHierarchyIncomingCall{}
}

// applyEdit applies a workspace edit to one file the way a client does and returns
// the file's new text.
func applyEdit(t *testing.T, we *protocol.WorkspaceEdit, path string) string {
	t.Helper()
	if we == nil {
		t.Fatal("no edit")
	}
	for _, ch := range we.DocumentChanges {
		switch c := ch.(type) {
		case *protocol.CreateFile:
			if filePath(c.URI) != path {
				t.Fatalf("creates %s", c.URI)
			}
			if _, err := os.Stat(path); os.IsNotExist(err) {
				if err := os.WriteFile(path, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		case *protocol.TextDocumentEdit:
			if filePath(c.TextDocument.URI) != path {
				t.Fatalf("edits %s", c.TextDocument.URI)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			for _, el := range c.Edits {
				te := el.(*protocol.TextEdit)
				text = applyTextEdit(t, text, te)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("unexpected change %T", ch)
		}
	}
	b, _ := os.ReadFile(path)
	return string(b)
}

func applyTextEdit(t *testing.T, text string, te *protocol.TextEdit) string {
	t.Helper()
	off := func(p protocol.Position) int {
		lines := strings.SplitAfter(text, "\n")
		o := 0
		for i := 0; i < int(p.Line) && i < len(lines); i++ {
			o += len(lines[i])
		}
		return o + int(p.Character) // ASCII specification files
	}
	s, e := off(te.Range.Start), off(te.Range.End)
	if s > len(text) || e > len(text) {
		t.Fatalf("edit %v out of range of %q", te.Range, text)
	}
	return text[:s] + te.NewText + text[e:]
}
