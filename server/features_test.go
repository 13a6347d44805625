package server

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/incremental"
)

// TestEditorFeatures drives Go to Implementations, type hierarchies, unreachable code
// and code lenses through a real JSON-RPC connection, on testdata/lsp/reach with the
// whole JDK at Correct-String under TFA (the program's comment says what the graph
// holds and why). One session: the subtests run in order and share it.
func TestEditorFeatures(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK")
	}
	e := newEnv(t, workspace(t, "reach"), envOptions{config: map[string]any{"level": "correct-string"}})
	e.waitReady(0)
	main, hello, bye, loader := src("reach/Main.java"), src("reach/Hello.java"), src("reach/Bye.java"), src("reach/Loader.java")
	tdp := func(rel string, p protocol.Position) protocol.TextDocumentPositionParams {
		return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(rel)}, Position: p}
	}
	// implementations returns what each location shows: the text at a source range,
	// the class of a listing.
	implementations := func(rel string, p protocol.Position) []string {
		t.Helper()
		var locs []protocol.Location
		e.call(protocol.MethodTextDocumentImplementation, &protocol.ImplementationParams{TextDocumentPositionParams: tdp(rel, p)}, &locs)
		var out []string
		for _, l := range locs {
			if !l.URI.IsFile() {
				out = append(out, string(l.URI))
				continue
			}
			rel, err := filepath.Rel(e.dir, filePath(l.URI))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, filepath.Base(rel)+":"+e.textAt(filepath.ToSlash(rel), l.Range))
		}
		return out
	}

	t.Run("Implementation", func(t *testing.T) {
		// TFA: both ways main creates a greeter create a Hello.
		if got := implementations(main, e.pos(main, `\n        g\.(greet)\(\);`)); !slices.Equal(got, []string{"Hello.java:greet"}) {
			t.Errorf("at the call g.greet(): %q", got)
		}
		// The reflective call's target, from the resolved constant name.
		// The reflective call's targets: the constructor of the resolved constant
		// name, and the API method the instruction calls.
		want := []string{"Hello.java:Hello", "jcg-class:/java/lang/reflect/Constructor.class"}
		if got := implementations(loader, e.pos(loader, `\.(newInstance)\(\)`)); !slices.Equal(got, want) {
			t.Errorf("at newInstance: %q, want %q", got, want)
		}
		// The declaration's overriders are those the graph reaches: every greet,
		// Bye's and Silent's through native code (public methods, below Correct-JDK).
		want = []string{"Bye.java:greet", "Hello.java:greet", "Silent.java:greet"}
		if got := implementations(src("reach/Greeter.java"), e.pos(src("reach/Greeter.java"), `void (greet)\(\)`)); !slices.Equal(got, want) {
			t.Errorf("at Greeter.greet's declaration: %q, want %q", got, want)
		}
		// The type written in main: its subtypes of which the graph reaches a method.
		want = []string{"Bye.java:Bye", "Hello.java:Hello", "Silent.java:Silent"}
		if got := implementations(main, e.pos(main, `(Greeter) g =`)); !slices.Equal(got, want) {
			t.Errorf("at the type Greeter: %q, want %q", got, want)
		}
		if got := implementations(main, e.pos(main, `(args)\.length`)); len(got) != 0 {
			t.Errorf("at a variable: %q", got)
		}
	})

	t.Run("TypeHierarchy", func(t *testing.T) {
		var items []protocol.TypeHierarchyItem
		e.call(protocol.MethodTextDocumentPrepareTypeHierarchy, &protocol.TypeHierarchyPrepareParams{TextDocumentPositionParams: tdp(main, e.pos(main, `(Greeter) g =`))}, &items)
		if len(items) != 1 || items[0].Name != "Greeter" || items[0].Kind != protocol.SymbolKindInterface || !strings.Contains(*items[0].Detail, "interface") {
			t.Fatalf("prepare at Greeter: %+v", items)
		}
		var subs []protocol.TypeHierarchyItem
		e.call(protocol.MethodTypeHierarchySubtypes, &protocol.TypeHierarchySubtypesParams{Item: items[0]}, &subs)
		var got []string
		for _, it := range subs {
			got = append(got, it.Name+": "+*it.Detail)
		}
		want := []string{
			"Bye: reach · application · not instantiated (no constructor reachable at Correct-String, TFA)",
			"Hello: reach · application · instantiated (a constructor is reachable at Correct-String, TFA)",
			"Silent: reach · application · not instantiated (no constructor reachable at Correct-String, TFA)",
		}
		if !slices.Equal(got, want) {
			t.Errorf("subtypes of Greeter:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		var supers []protocol.TypeHierarchyItem
		e.call(protocol.MethodTypeHierarchySupertypes, &protocol.TypeHierarchySupertypesParams{Item: subs[1]}, &supers)
		if len(supers) != 2 || supers[0].Name != "Object" || supers[0].URI != classURI("java/lang/Object") || supers[1].Name != "Greeter" {
			t.Fatalf("supertypes of Hello: %+v", supers)
		}
		if d := *supers[0].Detail; !strings.Contains(d, "java.lang · JDK · instantiated") {
			t.Errorf("Object's detail %q", d)
		}
		// java.lang.Object has thousands of direct subclasses: pages of 100 (the
		// configured maximum), the application's first, the last item continuing.
		var page []protocol.TypeHierarchyItem
		e.call(protocol.MethodTypeHierarchySubtypes, &protocol.TypeHierarchySubtypesParams{Item: supers[0]}, &page)
		if len(page) != 100 || page[0].Name != "Bye" || !strings.HasPrefix(page[99].Name, "… ") {
			t.Fatalf("subtypes of Object: %d items, first %q, last %q", len(page), page[0].Name, page[len(page)-1].Name)
		}
		var next []protocol.TypeHierarchyItem
		e.call(protocol.MethodTypeHierarchySubtypes, &protocol.TypeHierarchySubtypesParams{Item: page[99]}, &next)
		if len(next) != 100 || slices.ContainsFunc(next, func(it protocol.TypeHierarchyItem) bool { return it.Name == page[98].Name }) {
			t.Errorf("the next page of Object's subtypes: %d items", len(next))
		}
	})

	t.Run("Unreachable", func(t *testing.T) {
		p := e.pos(bye, `    (Bye)\(\) \{`)
		var d *protocol.Diagnostic
		e.waitFor("the diagnostic of Bye()", func() bool {
			d = diagAt(e.diags[e.uri(bye)], p)
			return d != nil
		})
		// What lower levels say is learnt for the files open in the editor.
		if msg := string(d.Message.(protocol.String)); msg != "Bye() is unreachable at Correct-String (TFA call graph)" {
			t.Errorf("before Bye.java is opened: %q", msg)
		}
		text, err := os.ReadFile(e.path(bye))
		if err != nil {
			t.Fatal(err)
		}
		e.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: e.uri(bye), LanguageID: "java", Version: 1, Text: string(text)}})
		e.waitFor("the diagnostic of Bye() with what Correct-Cast says", func() bool {
			d = diagAt(e.diags[e.uri(bye)], p)
			return d != nil && strings.Contains(string(d.Message.(protocol.String)), "Correct-Cast")
		})
		msg := string(d.Message.(protocol.String))
		want := "Bye() is unreachable at Correct-String (TFA call graph); Correct-Cast (level 3) reaches it: a reflection edge of Constructor.newInstance in reach.Loader.make (line 8)"
		if msg != want || d.Severity != protocol.DiagnosticSeverityHint || !slices.Equal(d.Tags.Slice(), []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}) {
			t.Errorf("diagnostic %+v %q, want a hint tagged unnecessary: %q", d, msg, want)
		}
		if e.textAt(bye, protocol.Range{Start: d.Range.Start, End: protocol.Position{Line: d.Range.Start.Line, Character: d.Range.Start.Character + 3}}) != "Bye" || d.Range.End.Line != d.Range.Start.Line+1 {
			t.Errorf("range %+v: want the constructor from its name to its body's end", d.Range)
		}
		if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != e.uri(loader) || e.textAt(loader, d.RelatedInformation[0].Location.Range) != "newInstance" {
			t.Errorf("related information %+v", d.RelatedInformation)
		}
		for _, rel := range []string{main, hello, loader} {
			if ds := e.diagnostics(rel); len(ds) != 0 {
				t.Errorf("%s: diagnostics %+v", rel, ds)
			}
		}
	})

	t.Run("CodeLens", func(t *testing.T) {
		var lenses []protocol.CodeLens
		e.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(hello)}}, &lenses)
		if len(lenses) != 2 || lenses[0].Command.Command != "" {
			t.Fatalf("lenses of Hello.java: %+v", lenses)
		}
		var titles []string
		for _, l := range lenses {
			var r protocol.CodeLens
			e.call(protocol.MethodCodeLensResolve, &l, &r)
			titles = append(titles, e.textAt(hello, r.Range)+": "+r.Command.Title)
			if r.Command.Command != CommandShowCallers || len(r.Command.Arguments) != 2 || !strings.Contains(string(r.Command.Arguments[0]), "Hello.java") {
				t.Errorf("command %+v", r.Command)
			}
		}
		// Hello(): main's new and make's reflection. greet: main's interface call,
		// and dynamic callers that may call any public method at Correct-String:
		// native code (the NativeMethod node) and the JDK's unresolved reflective
		// invocations (as many as the JDK has).
		var callers, dynamic int
		if len(titles) != 2 || titles[0] != "Hello: 2 callers · 1 dynamic" {
			t.Errorf("lenses %q, want Hello's first: 2 callers · 1 dynamic", titles)
		} else if _, err := fmt.Sscanf(titles[1], "greet: %d callers · %d dynamic", &callers, &dynamic); err != nil || callers-dynamic != 1 || dynamic < 1 {
			t.Errorf("greet's lens %q: want one static caller and dynamic ones", titles[1])
		}
	})

	t.Run("SettingsOff", func(t *testing.T) {
		e.mu.Lock()
		e.config = mustJSON(map[string]any{"level": "correct-string", "unreachable": "off", "codeLens": false})
		e.mu.Unlock()
		n := e.numStatuses()
		e.notify(protocol.MethodWorkspaceDidChangeConfiguration, map[string]any{"settings": nil})
		if st := e.waitReady(n); st.Reason != string(incremental.ReasonConfig) {
			t.Errorf("status %+v", st)
		}
		e.waitFor("no diagnostics in Bye.java", func() bool { return len(e.diags[e.uri(bye)]) == 0 })
		var lenses []protocol.CodeLens
		e.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri(hello)}}, &lenses)
		if len(lenses) != 0 {
			t.Errorf("lenses when off: %+v", lenses)
		}
	})
}
