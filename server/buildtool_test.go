package server

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/internal/debmaven"
)

// mavenEnv points HOME at a home whose settings.xml makes Debian's repository the
// local one (the server's resolver reads $HOME; Maven gets the settings with -s).
func mavenEnv(t *testing.T) {
	t.Helper()
	t.Setenv("HOME", debmaven.Home(t))
}

func callNames(calls []protocol.CallHierarchyIncomingCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.From.Name+" "+detail(c.From))
	}
	return out
}

func outNames(calls []protocol.CallHierarchyOutgoingCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.To.Name+" "+detail(c.To))
	}
	return out
}

func anyContains(list []string, s string) bool {
	return slices.ContainsFunc(list, func(l string) bool { return strings.Contains(l, s) })
}

// TestMavenWorkspace opens a Maven project that depends on Guava and Commons Lang
// (testdata/maven/guava-app) with Maven installed: discovery runs Maven for the
// dependencies, so library methods the program calls are in the graph, and a call
// from Guava back into the program is in the call hierarchy.
func TestMavenWorkspace(t *testing.T) {
	mavenEnv(t)
	debmaven.Maven(t)
	dir := debmaven.Workspace(t, "guava-app")
	e := newEnv(t, dir, envOptions{})
	st := e.waitReady(0)
	if st.MissingClasses != 0 || !strings.Contains(st.Build, "Maven: 6 libraries, 0 missing (ran)") {
		t.Errorf("status: %d missing classes, build %q; want 0, and Maven's 6 libraries", st.MissingClasses, st.Build)
	}
	app := src("example/guava/App.java")
	// Nothing in the program calls Greeting.get(): Guava's memoizing supplier does,
	// from its own get().
	get := e.prepare(app, e.pos(app, `public String (get)\(\)`))
	if len(get) != 1 {
		t.Fatalf("prepare Greeting.get: %d items", len(get))
	}
	// The interface method is Supplier<T>.get()Object: javac's bridge in Greeting
	// calls get()String, and Guava calls the bridge.
	var bridge *protocol.CallHierarchyItem
	for _, c := range e.incoming(get[0]) {
		if strings.Contains(detail(c.From), "example.guava.App$Greeting · ()Ljava/lang/Object;") {
			bridge = &c.From
		}
	}
	if bridge == nil {
		t.Fatalf("no bridge method Greeting.get()Object among the callers of Greeting.get()String")
	}
	if callers := callNames(e.incoming(*bridge)); !anyContains(callers, "com.google.common.base.Suppliers$") {
		t.Errorf("callers of Greeting.get %q: want Guava's memoizing supplier (com.google.common.base.Suppliers$...)", callers)
	}
	if callees := outNames(e.outgoing(get[0])); !anyContains(callees, "org.apache.commons.lang3.StringUtils · (Ljava/lang/String;)") {
		t.Errorf("callees of Greeting.get %q: want StringUtils.capitalize", callees)
	}
	var cp string
	if err := e.command(cmdShowClassPath, &cp); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"guava-31.1-jre.jar", "Maven com.google.guava:guava:31.1-jre (compile)", "mvn dependency:tree", "Missing classes (referenced by reachable code, on no class path): 0"} {
		if !strings.Contains(cp, want) {
			t.Errorf("class-path report lacks %q:\n%s", want, cp)
		}
	}
}

// TestMavenMissingDependency opens a project whose dependency org.example:nowhere
// is in no repository (testdata/maven/missing): its declaration in pom.xml gets a
// warning, the status counts the three classes of it the program refers to, the
// class-path report names them with the dependency, and the call hierarchy marks the
// calls into them.
func TestMavenMissingDependency(t *testing.T) {
	mavenEnv(t)
	debmaven.Maven(t)
	dir := debmaven.Workspace(t, "missing")
	e := newEnv(t, dir, envOptions{config: map[string]any{"algorithm": "rta"}})
	st := e.waitReady(0)
	if st.MissingClasses != 3 || !strings.Contains(st.Build, "1 missing (ran)") {
		t.Errorf("status: %d missing classes, build %q; want Widget, Gadget and Registry, and one missing dependency", st.MissingClasses, st.Build)
	}
	e.waitFor("the pom.xml warning", func() bool { return len(e.diags[e.uri("pom.xml")]) > 0 })
	ds := e.diagnostics("pom.xml")
	want := e.pos("pom.xml", `(?s)<artifactId>guava</artifactId>.*?(<dependency>)`)
	if len(ds) != 1 || ds[0].Range.Start != want || ds[0].Severity != protocol.DiagnosticSeverityWarning ||
		!strings.Contains(fmt.Sprint(ds[0].Message), "org.example:nowhere:1.0 is not in the local repository") {
		t.Errorf("pom.xml diagnostics %+v; want one warning at %v saying org.example:nowhere:1.0 is not in the local repository", ds, want)
	}
	var cp string
	if err := e.command(cmdShowClassPath, &cp); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Missing classes (referenced by reachable code, on no class path): 3 in 1 packages",
		"org.example.nowhere: 3 (from org.example:nowhere:1.0, not in the local repository",
		"org.example.nowhere.Gadget: cast", "org.example.nowhere.Registry: field", "org.example.nowhere.Widget: call, new",
	} {
		if !strings.Contains(cp, want) {
			t.Errorf("class-path report lacks %q:\n%s", want, cp)
		}
	}
	app := src("example/missing/App.java")
	spin := e.prepare(app, e.pos(app, `w\.(spin)\(\)`))
	if len(spin) != 1 || spin[0].Name != "Widget.spin — missing class" || !strings.Contains(detail(spin[0]), "org.example:nowhere:1.0") {
		t.Errorf("prepare at w.spin(): %+v; want the missing-class note naming org.example:nowhere:1.0", spin)
	}
	main := e.prepare(app, e.pos(app, `static void (main)`))
	if callees := outNames(e.outgoing(main[0])); !anyContains(callees, "Widget.spin — missing class") || !anyContains(callees, "Widget.<init> — missing class") {
		t.Errorf("callees of main %q: want the missing Widget.spin and Widget.<init> marked", callees)
	}
}

// TestBuildTrustAndPOMEdit opens the Guava project without workspace trust and
// without its commons-lang3 dependency: the POMs are read (Maven is not run) and the
// one class of Commons Lang the program uses is missing. Adding the dependency to
// pom.xml while the server runs resolves the build again (the watcher), and granting
// trust runs Maven.
func TestBuildTrustAndPOMEdit(t *testing.T) {
	mavenEnv(t)
	dir := debmaven.Workspace(t, "guava-app")
	pom := filepath.Join(dir, "pom.xml")
	full, err := os.ReadFile(pom)
	if err != nil {
		t.Fatal(err)
	}
	lang := "    <dependency>\n      <groupId>org.apache.commons</groupId>\n      <artifactId>commons-lang3</artifactId>\n    </dependency>\n"
	if !strings.Contains(string(full), lang) {
		t.Fatalf("%s does not declare commons-lang3 as the test expects", pom)
	}
	if err := os.WriteFile(pom, []byte(strings.Replace(string(full), lang, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, dir, envOptions{initOptions: map[string]any{"workspaceTrusted": false}, config: map[string]any{"algorithm": "rta"}})
	st := e.waitReady(0)
	if st.MissingClasses != 1 || !strings.Contains(st.Build, "Maven: 5 libraries, 0 missing (build files only (the workspace is not trusted") {
		t.Errorf("untrusted, without commons-lang3: %d missing classes, build %q; want StringUtils missing and the POMs read", st.MissingClasses, st.Build)
	}
	n := e.numStatuses()
	if err := os.WriteFile(pom, full, 0o644); err != nil {
		t.Fatal(err)
	}
	st, at := e.waitStatus(n, "ready")
	if st.Reason != "build files" || st.MissingClasses != 0 || !strings.Contains(st.Build, "Maven: 6 libraries, 0 missing (build files only") {
		t.Errorf("after adding commons-lang3: reason %q, %d missing classes, build %q; want the POMs read again and nothing missing", st.Reason, st.MissingClasses, st.Build)
	}
	debmaven.Maven(t)
	e.notify(MethodWorkspaceTrust, map[string]any{"trusted": true})
	if st := e.waitReady(at + 1); !strings.Contains(st.Build, "Maven: 6 libraries, 0 missing (ran)") {
		t.Errorf("after trust was granted: build %q; want Maven run", st.Build)
	}
}
