package buildtool

import (
	"archive/zip"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/debmaven"
)

// repoFile writes a file of the test repository.
func repoFile(t testing.TB, repo, rel, text string) {
	t.Helper()
	p := filepath.Join(repo, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// artifact writes test.jcg:<a>:<v>'s POM (with the given inner XML) and, unless
// pomOnly, a jar holding one class of package test.jcg.<a>.
func artifact(t testing.TB, repo, a, v, inner string, pomOnly bool) {
	t.Helper()
	dir := "test/jcg/" + a + "/" + v + "/"
	repoFile(t, repo, dir+a+"-"+v+".pom", `<project><modelVersion>4.0.0</modelVersion>
  <groupId>test.jcg</groupId><artifactId>`+a+`</artifactId><version>`+v+`</version>
  `+inner+`
</project>
`)
	if pomOnly {
		return
	}
	f, err := os.Create(filepath.Join(repo, filepath.FromSlash(dir+a+"-"+v+".jar")))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	pkg := strings.ReplaceAll(a, "-", "")
	if _, err := zw.Create("test/jcg/" + pkg + "/C.class"); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func dep(a, v string, more ...string) string {
	return "<dependency><groupId>test.jcg</groupId><artifactId>" + a + "</artifactId>" +
		map[bool]string{true: "<version>" + v + "</version>", false: ""}[v != ""] + strings.Join(more, "") + "</dependency>"
}

func xdeps(ds ...string) string { return "<dependencies>" + strings.Join(ds, "") + "</dependencies>" }

// TestResolutionRules resolves a project whose dependencies exercise Maven's rules
// (parents from the repository, properties a child overrides, imported BOMs,
// nearest wins, scopes, optional, exclusions, relocation, version ranges, profiles,
// .mvn/maven.config) against a repository written by the test, and checks the class
// path reasoned out below. Where Maven is installed it must give the same.
func TestResolutionRules(t *testing.T) {
	repo := t.TempDir()
	// Maven itself, and its dependency plugin, from Debian's repository: the test's
	// repository links Debian's top-level directories and adds test/jcg/.
	if ents, err := os.ReadDir(debmaven.Repo); err == nil {
		for _, e := range ents {
			if err := os.Symlink(filepath.Join(debmaven.Repo, e.Name()), filepath.Join(repo, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	artifact(t, repo, "parent", "1", `<packaging>pom</packaging>
  <properties><lib-b.version>1.0</lib-b.version></properties>
  <dependencyManagement>`+xdeps(dep("lib-b", "${lib-b.version}"))+`</dependencyManagement>`, true)
	artifact(t, repo, "bom", "1", `<packaging>pom</packaging>
  <dependencyManagement>`+xdeps(dep("lib-a", "2.0"), dep("lib-c", "1.0"))+`</dependencyManagement>`, true)
	artifact(t, repo, "lib-a", "1.0", "", false)
	artifact(t, repo, "lib-a", "2.0", xdeps(dep("lib-c", "1.0"), dep("lib-opt", "1.0", "<optional>true</optional>"),
		dep("lib-t", "1.0", "<scope>test</scope>"), dep("lib-run", "1.0", "<scope>runtime</scope>")), false)
	artifact(t, repo, "lib-b", "1.0", "", false)
	artifact(t, repo, "lib-b", "1.1", xdeps(dep("lib-c", "2.0")), false)
	artifact(t, repo, "lib-c", "1.0", xdeps(dep("lib-x", "1.0")), false)
	artifact(t, repo, "lib-c", "2.0", "", false)
	for _, a := range []string{"lib-x", "lib-opt", "lib-t", "lib-y", "lib-z", "lib-q", "lib-new", "lib-prof"} {
		artifact(t, repo, a, "1.0", "", false)
	}
	artifact(t, repo, "lib-run", "1.0", xdeps(dep("lib-y", "1.0")), false)
	artifact(t, repo, "lib-ex", "1.0", xdeps(dep("lib-z", "1.0")), false)
	artifact(t, repo, "lib-p", "1.0", xdeps(dep("lib-q", "1.0")), false)
	artifact(t, repo, "lib-old", "1.0", `<distributionManagement><relocation><artifactId>lib-new</artifactId></relocation></distributionManagement>`, true)
	for _, v := range []string{"1.0", "1.5", "2.0"} {
		artifact(t, repo, "lib-range", v, "", false)
	}
	// Maven offline finds the versions of a range in the local metadata.
	repoFile(t, repo, "test/jcg/lib-range/maven-metadata-local.xml", `<metadata><groupId>test.jcg</groupId><artifactId>lib-range</artifactId>
  <versioning><versions><version>1.0</version><version>1.5</version><version>2.0</version></versions></versioning></metadata>`)
	// lib-gone 2.0 is declared, only 1.0 is in the repository.
	artifact(t, repo, "lib-gone", "1.0", "", false)

	home := t.TempDir()
	repoFile(t, home, ".m2/settings.xml", "<settings><localRepository>"+repo+"</localRepository><offline>true</offline></settings>")
	dir := filepath.Join(t.TempDir(), "rules")
	repoFile(t, dir, ".mvn/maven.config", "-Drange.spec=[1.0,2.0)\n")
	repoFile(t, dir, "pom.xml", `<project><modelVersion>4.0.0</modelVersion>
  <parent><groupId>test.jcg</groupId><artifactId>parent</artifactId><version>1</version><relativePath/></parent>
  <artifactId>rules</artifactId>
  <properties><lib-b.version>1.1</lib-b.version></properties>
  <dependencyManagement>`+xdeps(dep("bom", "1", "<type>pom</type><scope>import</scope>"))+`</dependencyManagement>
  `+xdeps(dep("lib-a", ""), dep("lib-b", ""), dep("lib-old", "1.0"), dep("lib-range", "${range.spec}"),
		dep("lib-ex", "1.0", "<exclusions><exclusion><groupId>test.jcg</groupId><artifactId>lib-z</artifactId></exclusion></exclusions>"),
		dep("lib-p", "1.0", "<scope>provided</scope>"), dep("lib-gone", "2.0"))+`
  <profiles><profile><id>extra</id><activation><activeByDefault>true</activeByDefault></activation>`+xdeps(dep("lib-prof", "1.0"))+`</profile></profiles>
</project>
`)
	want := []string{
		"1 test.jcg:lib-a:2.0 compile lib-a-2.0.jar", // version from the imported BOM
		"2 test.jcg:lib-c:1.0 compile lib-c-1.0.jar", // nearest first: lib-a's, not lib-b's 2.0 (and the BOM says 1.0)
		"3 test.jcg:lib-x:1.0 compile lib-x-1.0.jar",
		"2 test.jcg:lib-run:1.0 runtime lib-run-1.0.jar", // lib-opt (optional) and lib-t (test) are not transitive
		"3 test.jcg:lib-y:1.0 runtime lib-y-1.0.jar",     // compile under runtime is runtime
		"1 test.jcg:lib-b:1.1 compile lib-b-1.1.jar",     // the parent manages ${lib-b.version}, which the child sets
		"1 test.jcg:lib-new:1.0 compile lib-new-1.0.jar", // lib-old relocated
		"1 test.jcg:lib-range:1.5 compile lib-range-1.5.jar",
		"1 test.jcg:lib-ex:1.0 compile lib-ex-1.0.jar", // lib-z excluded
		"1 test.jcg:lib-p:1.0 provided lib-p-1.0.jar",
		"2 test.jcg:lib-q:1.0 provided lib-q-1.0.jar",
		"1 test.jcg:lib-gone:2.0 compile missing",
		"1 test.jcg:lib-prof:1.0 compile lib-prof-1.0.jar", // the profile active by default
	}
	check := func(t *testing.T, trusted bool, mvn string) {
		res, err := New(Options{Home: home, Maven: mvn}).Resolve(context.Background(), Request{Dir: dir, Trusted: trusted, JavaVersion: "17"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Ran != trusted || len(res.Modules) != 1 {
			t.Fatalf("ran %v, %d modules: %s", res.Ran, len(res.Modules), res.Describe())
		}
		if got := depLines(res.Modules[0]); !slices.Equal(got, want) {
			t.Errorf("class path\ngot  %q\nwant %q", got, want)
		}
		gone := res.MissingDeps()
		if len(gone) != 1 || gone[0].OtherVersion != "1.0" || !slices.Equal(gone[0].Packages, []string{"test.jcg.libgone"}) {
			t.Errorf("missing %+v; want lib-gone 2.0, with version 1.0 holding package test.jcg.libgone", gone)
		}
	}
	t.Run("files", func(t *testing.T) { check(t, false, "") })
	t.Run("maven", func(t *testing.T) {
		mvn, err := exec.LookPath("mvn")
		if err != nil {
			t.Skip("mvn is not installed: apt-get install maven")
		}
		debmaven.Maven(t)
		check(t, true, mvn)
	})
}

// TestParseTree reads dependency:tree's text output, and rejects what is not.
func TestParseTree(t *testing.T) {
	root, ds, err := parseTree([]byte(`example:app:jar:1.0
+- com.google.guava:guava:jar:31.1-jre:compile
|  \- org.jsr-305:jsr305:jar:0.x:compile
+- example:lib:test-jar:tests:2.0:test (optional)
\- junit:junit:jar:4.13.2:test
   \- org.hamcrest:hamcrest:jar:debian:test
`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, depLine(d)+" via "+d.Via.String()+map[bool]string{true: " optional"}[d.Optional])
	}
	want := []string{
		"1 com.google.guava:guava:31.1-jre compile missing via com.google.guava:guava:31.1-jre",
		"2 org.jsr-305:jsr305:0.x compile missing via com.google.guava:guava:31.1-jre",
		"1 example:lib:test-jar:tests:2.0 test missing via example:lib:test-jar:tests:2.0 optional",
		"1 junit:junit:4.13.2 test missing via junit:junit:4.13.2",
		"2 org.hamcrest:hamcrest:debian test missing via junit:junit:4.13.2",
	}
	if root.String() != "example:app:1.0" || !slices.Equal(got, want) {
		t.Errorf("root %s, deps\n%q\nwant\n%q", root, got, want)
	}
	for _, bad := range []string{"", "example:app", "example:app:jar:1\n|  \\- a:b:jar:1:compile\n", "example:app:jar:1\n+- a:b:1\n", "example:app:jar:1\nx- a:b:jar:1:compile\n"} {
		if _, _, err := parseTree([]byte(bad)); err == nil {
			t.Errorf("parseTree(%q) accepted", bad)
		}
	}
}

// TestParsePOMErrors checks that a broken POM is an error naming the file and line.
func TestParsePOMErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"<project>\n<groupId>a</groupId>\n<dependencies>\n</project>", "p.xml:4: not well-formed XML"},
		{"<settings/>", "p.xml: root element <settings>, want <project>"},
		{"", "p.xml: not well-formed XML: no root element"},
	} {
		_, err := parsePOM("p.xml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parsePOM(%q) = %v, want %q", c.text, err, c.want)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	// Each is older than the next.
	order := []string{"1.0-alpha-1", "1.0-beta", "1.0-rc1", "1.0-SNAPSHOT", "1.0", "1.0-sp1", "1.0.1", "1.1", "1.10", "2.0-jre", "31.1-android", "31.1-jre"}
	for i := 0; i+1 < len(order); i++ {
		if c := compareVersions(order[i], order[i+1]); c >= 0 {
			t.Errorf("compareVersions(%s, %s) = %d, want < 0", order[i], order[i+1], c)
		}
	}
	for _, eq := range [][2]string{{"1", "1.0.0"}, {"1.0", "1-ga"}, {"1.0-final", "1"}} {
		if c := compareVersions(eq[0], eq[1]); c != 0 {
			t.Errorf("compareVersions(%s, %s) = %d, want 0", eq[0], eq[1], c)
		}
	}
	r, ok := parseRange("[1.0,2.0)")
	if !ok || !r.contains("1.0") || !r.contains("1.9.9") || r.contains("2.0") || r.contains("0.9") {
		t.Errorf("[1.0,2.0) = %+v", r)
	}
	if r, ok := parseRange("[1.5]"); !ok || !r.contains("1.5") || r.contains("1.6") {
		t.Errorf("[1.5] = %+v", r)
	}
}

func FuzzParsePOM(f *testing.F) {
	for _, name := range []string{"guava-app/pom.xml", "multi/pom.xml", "multi/app/pom.xml", "missing/pom.xml"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "maven", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("<project><profiles><profile><activation><jdk>[11,)</jdk></activation></profile></profiles></project>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePOM("f.xml", data)
		if err == nil && p == nil {
			t.Fatal("nil POM without an error")
		}
	})
}

func FuzzParseTree(f *testing.F) {
	f.Add([]byte("a:b:jar:1\n+- c:d:jar:2:compile\n|  \\- e:f:jar:cls:3:runtime (optional)\n"))
	f.Add([]byte("a:b:pom:1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, ds, err := parseTree(data)
		if err != nil {
			return
		}
		for i, d := range ds {
			if d.Depth < 1 || i == 0 && d.Depth != 1 || i > 0 && d.Depth > ds[i-1].Depth+1 {
				t.Fatalf("dependency %d at depth %d after %d", i, d.Depth, ds[max(i-1, 0)].Depth)
			}
		}
	})
}
