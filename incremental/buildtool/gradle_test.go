package buildtool

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/debmaven"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

func gradleTestBuild(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "multi")
	javatest.CopyTree(t, filepath.Join("..", "..", "testdata", "gradle", "multi"), dir)
	return dir
}

// TestGradleFromFiles resolves the Gradle test build without Gradle (an untrusted
// workspace): the dependencies the scripts declare in string notation, and what
// their POMs in the local repository bring.
func TestGradleFromFiles(t *testing.T) {
	home := debmaven.Home(t)
	dir := gradleTestBuild(t)
	res, err := New(Options{Home: home}).Resolve(context.Background(), Request{Dir: dir, Trusted: false, JavaVersion: "17"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, m := range res.Modules {
		got[m.Coord.Artifact] = depLines(m)
	}
	want := map[string][]string{
		":": nil, // the root project has no build script
		":core": {
			"1 org.apache.commons:commons-lang3:3.12.0 compile commons-lang3-3.12.0.jar",
			"1 junit:junit:4.13.2 test junit-4.13.2.jar",
			"2 org.hamcrest:hamcrest:debian test hamcrest-debian.jar"},
		":app": {
			"1 com.google.guava:guava:31.1-jre compile guava-31.1-jre.jar",
			"2 org.jsr-305:jsr305:0.x compile jsr305-0.x.jar",
			"2 com.google.errorprone:error_prone_annotations:debian compile error_prone_annotations-debian.jar",
			"1 org.example:nowhere:1.0 runtime missing"},
	}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("project %s:\ngot  %q\nwant %q", k, got[k], w)
		}
	}
	if res.Ran || !strings.Contains(res.How, "not trusted") {
		t.Errorf("ran %v, how %q: want files only, because the workspace is not trusted", res.Ran, res.How)
	}
	app := filepath.Join(dir, "app", "build.gradle")
	if len(res.Problems) != 1 || res.Problems[0].Pos.File != app || res.Problems[0].Pos.Line != line(t, app, "", "org.example:nowhere") {
		t.Errorf("problems %v: want org.example:nowhere at its line of %s", res.Problems, app)
	}
}

// TestParseGradleOutput reads what the init script prints.
func TestParseGradleOutput(t *testing.T) {
	dir := gradleTestBuild(t)
	out := strings.Join([]string{
		"> Task :jcgLspClasspath", // Gradle's own output is skipped
		"jcg-lsp\tproject\t:\t" + dir + "\t\tmulti\tunspecified",
		"jcg-lsp\tproject\t:app\t" + dir + "/app\tmulti\tapp\tunspecified",
		"jcg-lsp\tunresolved\truntimeClasspath\torg.example:nowhere:1.0\tCould not find org.example:nowhere:1.0. Searched in the following locations: ...",
		"jcg-lsp\tfile\truntimeClasspath\tproject\tproject :core\t" + dir + "/core/build/libs/core.jar",
		"jcg-lsp\tfile\truntimeClasspath\tmodule\tcom.google.guava:guava:31.1-jre\t/repo/guava-31.1-jre.jar",
		"jcg-lsp\tfile\ttestRuntimeClasspath\tmodule\tcom.google.guava:guava:31.1-jre\t/repo/guava-31.1-jre.jar",
		"jcg-lsp\tfile\ttestRuntimeClasspath\tmodule\tjunit:junit:4.13.2\t/repo/junit-4.13.2.jar",
	}, "\n")
	mods, probs, err := parseGradleOutput([]byte(out), &gradleBuild{root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) != 2 || mods[1].Dir != dir+"/app" || mods[1].File != filepath.Join(dir, "app", "build.gradle") {
		t.Fatalf("modules %+v", mods)
	}
	var got []string
	for _, d := range mods[1].Deps {
		got = append(got, depLine(d))
	}
	want := []string{
		"1 org.example:nowhere:1.0 runtime missing",
		"1 :core runtime module",
		"1 com.google.guava:guava:31.1-jre runtime guava-31.1-jre.jar",
		"1 junit:junit:4.13.2 test junit-4.13.2.jar",
	}
	if !slices.Equal(got, want) {
		t.Errorf("deps\ngot  %q\nwant %q", got, want)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].Msg, "Could not find org.example:nowhere:1.0") || probs[0].Pos.Line == 0 {
		t.Errorf("problems %v", probs)
	}
	for _, bad := range []string{"", "jcg-lsp\tfile\truntimeClasspath\tmodule\ta:b:1\t/x.jar", "jcg-lsp\tproject\t:\t/d\tg\tn\tv\njcg-lsp\tbogus"} {
		if _, _, err := parseGradleOutput([]byte(bad), &gradleBuild{root: dir}); err == nil {
			t.Errorf("parseGradleOutput(%q) accepted", bad)
		}
	}
}

// TestGradleRuns resolves the test build with a real Gradle through the init
// script. Debian's gradle (4.4.1) does not run on JDK 17, so the test needs a newer
// one on PATH.
func TestGradleRuns(t *testing.T) {
	gradle, err := exec.LookPath("gradle")
	if err != nil {
		t.Skip("no Gradle on PATH: the init script is not run (Debian's gradle 4.4.1 does not run on JDK 17; install Gradle 7.3 or newer)")
	}
	out, err := exec.Command(gradle, "--version").CombinedOutput()
	m := regexp.MustCompile(`Gradle (\d+)\.(\d+)`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Skipf("%s --version fails on this JDK (Debian's gradle 4.4.1 does not run on JDK 17; install Gradle 7.3 or newer): %v %s", gradle, err, out)
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	if major < 7 || major == 7 && minor < 3 {
		t.Skipf("Gradle %s.%s does not run on JDK 17: install Gradle 7.3 or newer", m[1], m[2])
	}
	home := debmaven.Home(t)
	dir := gradleTestBuild(t)
	res, err := New(Options{Home: home, Gradle: gradle}).Resolve(context.Background(), Request{Dir: dir, Trusted: true, JavaVersion: "17"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Ran {
		t.Fatalf("Gradle did not run: %s", res.Describe())
	}
	var app *Module
	for i := range res.Modules {
		if strings.HasSuffix(res.Modules[i].Dir, "app") {
			app = &res.Modules[i]
		}
	}
	if app == nil {
		t.Fatalf("no app project: %s", res.Describe())
	}
	var got []string
	for _, d := range app.Deps {
		got = append(got, depLine(d))
	}
	// The runtime class path: the core project, its commons-lang3 (implementation
	// dependencies are runtime dependencies of consumers), guava and what its POM
	// brings; nowhere is unresolved.
	for _, want := range []string{"commons-lang3-3.12.0.jar", "guava-31.1-jre.jar", "module", "org.example:nowhere:1.0 runtime missing"} {
		if !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, want) }) {
			t.Errorf("app's class path %q lacks %s", got, want)
		}
	}
}
