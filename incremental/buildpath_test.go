package incremental

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/debmaven"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// TestDiscoverBuilds discovers the multi-module Maven test project opened as two
// workspace folders, its modules: one project, resolved as one reactor (the core
// module is not a missing artifact of app), whose class path holds both modules'
// classes and the five libraries of the build, each once. The workspace is not
// trusted: the POMs are read.
func TestDiscoverBuilds(t *testing.T) {
	home := debmaven.Home(t)
	dir := debmaven.Workspace(t, "multi", "core", "app")
	// A copy of a resolved jar in target/dependency would shadow the resolved one.
	jar := filepath.Join(dir, "app", "target", "dependency", "guava-31.1-jre.jar")
	if err := os.MkdirAll(filepath.Dir(jar), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(jar, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	folders := []string{filepath.Join(dir, "core"), filepath.Join(dir, "app")}
	bt := &BuildTools{Resolver: buildtool.New(buildtool.Options{Home: home}), Trusted: false}
	wss, err := DiscoverProjectsWith(context.Background(), folders, &Discovery{}, bt)
	if err != nil {
		t.Fatal(err)
	}
	if len(wss) != 1 || len(wss[0].Builds) != 1 || wss[0].Builds[0].Root != dir {
		t.Fatalf("%d projects; want one, with the build at %s", len(wss), dir)
	}
	var got []string
	for _, e := range wss[0].ClassPath {
		rel, _ := filepath.Rel(dir, e.Path)
		if e.Origin == classpath.Library {
			rel = filepath.Base(e.Path)
		}
		got = append(got, e.Origin.String()+" "+rel)
	}
	want := []string{
		"application core/target/classes",
		"application app/target/classes",
		"library commons-lang3-3.12.0.jar", // core's, then app's through core
		"library junit-4.13.2.jar",
		"library hamcrest-debian.jar",
		"library guava-31.1-jre.jar",
		"library error_prone_annotations-debian.jar",
	}
	if !slices.Equal(got, want) {
		t.Errorf("class path\ngot  %q\nwant %q", got, want)
	}
	if files := wss[0].BuildFiles(); !slices.Contains(files, filepath.Join(dir, "pom.xml")) || !slices.Contains(files, filepath.Join(dir, "app", "pom.xml")) {
		t.Errorf("build files %q lack the POMs", files)
	}
	if d := wss[0].Describe(); !strings.Contains(d, "the workspace is not trusted, so Maven was not run") {
		t.Errorf("the description does not say Maven was not run:\n%s", d)
	}
	// Off: the build output alone.
	wss, err = DiscoverProjectsWith(context.Background(), folders, &Discovery{BuildTool: buildtool.ModeOff}, bt)
	if err != nil {
		t.Fatal(err)
	}
	if len(wss[0].Builds) != 0 || slices.ContainsFunc(wss[0].ClassPath, func(e ClassPathEntry) bool { return strings.HasSuffix(e.Path, "commons-lang3-3.12.0.jar") }) {
		t.Errorf("with jcg.buildTool off: builds %d, class path %+v", len(wss[0].Builds), wss[0].ClassPath)
	}
}

// TestChangedBuildFiles checks that a build file is a change when its content is new
// (the watcher's event of a pom.xml edit), and no change when rewritten as it was.
func TestChangedBuildFiles(t *testing.T) {
	dir := t.TempDir()
	javac(t, map[string]string{"app/Main.java": "package app; public class Main { public static void main(String[] a) {} }"}, dir)
	pom := filepath.Join(t.TempDir(), "pom.xml")
	if err := os.WriteFile(pom, []byte("<project/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &Project{ClassPath: []ClassPathEntry{{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: dir, Origin: classpath.Application}},
		Builds: []*buildtool.Result{{Tool: "maven", Inputs: []buildtool.Input{{Path: pom, Hash: buildtool.HashFile(pom)}}}}}
	h := NewHost(context.Background(), HostOptions{})
	defer h.Close()
	if _, err := h.Build(context.Background(), Request{Reason: ReasonInitial, Projects: []*Project{p},
		Options: analysis.Options{Level: callgraph.CorrectString}}); err != nil {
		t.Fatal(err)
	}
	none := func(string) uint64 { return 0 }
	cs := ChangeSet{Paths: []string{pom}}
	if ch := h.Changed(cs, none); ch.Builds || ch.Classes {
		t.Errorf("unchanged pom.xml: %+v", ch)
	}
	if err := os.WriteFile(pom, []byte("<project><modules/></project>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ch := h.Changed(cs, none); !ch.Builds || ch.Classes {
		t.Errorf("edited pom.xml: %+v; want a build change only", ch)
	}
}
