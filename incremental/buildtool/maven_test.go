package buildtool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/debmaven"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// project copies testdata/maven/<name> to a temporary directory (tests edit POMs,
// and Maven must not see the repository's other files).
func project(t testing.TB, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	javatest.CopyTree(t, filepath.Join("..", "..", "testdata", "maven", name), dir)
	return dir
}

// line returns the 1-based line of the first line of file containing s, after the
// first line containing after ("" for the start).
func line(t testing.TB, file, after, s string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	found := after == ""
	for i, l := range strings.Split(string(data), "\n") {
		if !found {
			found = strings.Contains(l, after)
			continue
		}
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s: no %q after %q", file, s, after)
	return 0
}

// depLine renders a dependency as the tests state them: depth, coordinates, scope,
// and the file's name when there is one (else "missing" or "module").
func depLine(d Dep) string {
	where := filepath.Base(d.Path)
	switch {
	case d.Module:
		where = "module"
	case d.Path == "":
		where = "missing"
	}
	return fmt.Sprintf("%d %s %s %s", d.Depth, d.Coord, d.Scope, where)
}

func depLines(m Module) []string {
	var out []string
	for _, d := range m.Deps {
		out = append(out, depLine(d))
	}
	return out
}

// TestMavenProjects resolves the test projects with Maven (Debian's mvn, offline,
// with Debian's repository as the local one) and from the POM files alone: both
// must give the class paths reasoned out below.
func TestMavenProjects(t *testing.T) {
	home := debmaven.Home(t)
	mvn := debmaven.Maven(t)
	// Debian's guava POM (parent guava-parent:debian) depends on jsr305 and
	// error_prone_annotations, whose versions its parent manages; junit 4.13.2
	// brings hamcrest. Test scope spreads to what a test dependency brings.
	guava := []string{
		"1 com.google.guava:guava:31.1-jre compile guava-31.1-jre.jar",
		"2 org.jsr-305:jsr305:0.x compile jsr305-0.x.jar",
		"2 com.google.errorprone:error_prone_annotations:debian compile error_prone_annotations-debian.jar",
	}
	cases := []struct {
		name string
		want map[string][]string // module artifactId -> class path
	}{
		{"guava-app", map[string][]string{"guava-app": append(slices.Clone(guava),
			"1 org.apache.commons:commons-lang3:3.12.0 compile commons-lang3-3.12.0.jar", // version from dependencyManagement
			"1 junit:junit:4.13.2 test junit-4.13.2.jar",
			"2 org.hamcrest:hamcrest:debian test hamcrest-debian.jar")}},
		{"multi", map[string][]string{
			"parent": nil,
			"core": {
				"1 org.apache.commons:commons-lang3:3.12.0 compile commons-lang3-3.12.0.jar", // managed by the parent
				"1 junit:junit:4.13.2 test junit-4.13.2.jar",
				"2 org.hamcrest:hamcrest:debian test hamcrest-debian.jar"},
			"app": {
				// core is a module of the build: its classes are the application's,
				// and it brings its compile dependencies, not its test ones.
				"1 example.multi:core:2.0 compile module",
				"2 org.apache.commons:commons-lang3:3.12.0 compile commons-lang3-3.12.0.jar",
				// guava's version from the parent's property; jsr305 excluded.
				"1 com.google.guava:guava:31.1-jre compile guava-31.1-jre.jar",
				"2 com.google.errorprone:error_prone_annotations:debian compile error_prone_annotations-debian.jar"},
		}},
		{"missing", map[string][]string{"missing": append(slices.Clone(guava), "1 org.example:nowhere:1.0 compile missing")}},
	}
	for _, c := range cases {
		dir := project(t, c.name)
		for _, trusted := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/trusted=%v", c.name, trusted), func(t *testing.T) {
				r := New(Options{Home: home, Maven: mvn})
				res, err := r.Resolve(context.Background(), Request{Dir: dir, Trusted: trusted, JavaVersion: "17"})
				if err != nil {
					t.Fatal(err)
				}
				if res.Ran != trusted {
					t.Errorf("Ran = %v (%s; notes %q)", res.Ran, res.How, res.Notes)
				}
				got := map[string][]string{}
				for _, m := range res.Modules {
					got[m.Coord.Artifact] = depLines(m)
				}
				for mod, want := range c.want {
					if !slices.Equal(got[mod], want) {
						t.Errorf("module %s:\ngot  %q\nwant %q", mod, got[mod], want)
					}
				}
				if len(got) != len(c.want) {
					t.Errorf("modules %v, want those of %v", slices.Sorted(mapsKeys(got)), slices.Sorted(mapsKeys(c.want)))
				}
				if c.name != "missing" {
					if len(res.Problems) > 0 || len(res.MissingDeps()) > 0 {
						t.Errorf("problems %v", res.Problems)
					}
					return
				}
				// The missing dependency is a problem at its declaration.
				pom := filepath.Join(dir, "pom.xml")
				wantLine := line(t, pom, "<artifactId>guava</artifactId>", "<dependency>")
				if len(res.Problems) != 1 || res.Problems[0].Pos.File != pom || res.Problems[0].Pos.Line != wantLine ||
					!strings.Contains(res.Problems[0].Msg, "org.example:nowhere:1.0 is not in the local repository") {
					t.Errorf("problems %v, want one at %s:%d saying org.example:nowhere:1.0 is not in the local repository", res.Problems, pom, wantLine)
				}
			})
		}
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestMavenFailsOver checks that a module Maven cannot resolve (a parent POM that
// is nowhere) is read from its files, and the result says so.
func TestMavenFailsOver(t *testing.T) {
	home := debmaven.Home(t)
	mvn := debmaven.Maven(t)
	dir := project(t, "guava-app")
	pom := filepath.Join(dir, "pom.xml")
	data, _ := os.ReadFile(pom)
	// Maven refuses a project whose parent it cannot find; the POM reader reports
	// it at the <parent> and reads the rest.
	broken := strings.Replace(string(data), "<groupId>example</groupId>",
		"<parent><groupId>org.example</groupId><artifactId>no-parent</artifactId><version>1</version><relativePath/></parent>\n  <groupId>example</groupId>", 1)
	if err := os.WriteFile(pom, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	r := New(Options{Home: home, Maven: mvn})
	res, err := r.Resolve(context.Background(), Request{Dir: dir, Trusted: true, JavaVersion: "17"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ran || len(res.Modules) != 1 || len(res.Libraries()) != 6 {
		t.Errorf("ran %v, %d modules, %d libraries; want the POM files' 1 module and 6 libraries (%s)", res.Ran, len(res.Modules), len(res.Libraries()), res.Describe())
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "mvn failed") }) {
		t.Errorf("notes %q do not say Maven failed", res.Notes)
	}
	if !slices.ContainsFunc(res.Problems, func(p Problem) bool {
		return p.Pos.Line == 7 && strings.Contains(p.Msg, "parent org.example:no-parent:1 is not in the local repository")
	}) {
		t.Errorf("problems %v: want the missing parent at line 7", res.Problems)
	}
}

// TestMavenCache checks that a result comes from the cache (memory, then disk)
// while its inputs are unchanged, and is resolved again when a POM changes.
func TestMavenCache(t *testing.T) {
	home := debmaven.Home(t)
	dir := project(t, "guava-app")
	cache := t.TempDir()
	req := Request{Dir: dir, Trusted: false, JavaVersion: "17"}
	r := New(Options{Home: home, CacheDir: cache})
	first, err := r.Resolve(context.Background(), req)
	if err != nil || first.FromCache {
		t.Fatalf("first: %v, from cache %v", err, first != nil && first.FromCache)
	}
	again, _ := r.Resolve(context.Background(), req)
	disk, _ := New(Options{Home: home, CacheDir: cache}).Resolve(context.Background(), req)
	for _, res := range []*Result{again, disk} {
		if !res.FromCache || !slices.Equal(depLines(res.Modules[0]), depLines(first.Modules[0])) {
			t.Errorf("from cache %v, class path %q; want the first's from the cache", res.FromCache, depLines(res.Modules[0]))
		}
	}
	pom := filepath.Join(dir, "pom.xml")
	data, _ := os.ReadFile(pom)
	edited := strings.Replace(string(data), "    <dependency>\n      <groupId>junit</groupId>",
		"    <dependency>\n      <groupId>commons-io</groupId>\n      <artifactId>commons-io</artifactId>\n      <version>2.11.0</version>\n    </dependency>\n    <dependency>\n      <groupId>junit</groupId>", 1)
	if err := os.WriteFile(pom, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	after, _ := r.Resolve(context.Background(), req)
	if after.FromCache || !slices.Contains(depLines(after.Modules[0]), "1 commons-io:commons-io:2.11.0 compile commons-io-2.11.0.jar") {
		t.Errorf("after the edit: from cache %v, class path %q; want commons-io resolved anew", after.FromCache, depLines(after.Modules[0]))
	}
	var inputs []string
	for _, in := range after.Inputs {
		inputs = append(inputs, in.Path)
	}
	for _, want := range []string{pom, filepath.Join(home, ".m2", "settings.xml"), filepath.Join(dir, ".mvn", "maven.config")} {
		if !slices.Contains(inputs, want) {
			t.Errorf("inputs %q lack %s", inputs, want)
		}
	}
}

// BenchmarkResolveMaven times resolving the multi-module test project: the first
// time with Maven (a new resolver, no cache: mvn dependency:tree offline), and from
// the cache on disk (a new resolver each time, as a restarted server has: the POMs
// are read and hashed, the cached result checked against the local repository).
// Budgets (issue 29): 3 s first, 50 ms cached.
func BenchmarkResolveMaven(b *testing.B) {
	home := debmaven.Home(b)
	mvn := debmaven.Maven(b)
	dir := project(b, "multi")
	req := Request{Dir: dir, Trusted: true, JavaVersion: "17"}
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			res, err := New(Options{Home: home, Maven: mvn}).Resolve(context.Background(), req)
			if err != nil || !res.Ran {
				b.Fatalf("%v %+v", err, res)
			}
		}
	})
	cache := b.TempDir()
	if _, err := New(Options{Home: home, Maven: mvn, CacheDir: cache}).Resolve(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			res, err := New(Options{Home: home, Maven: mvn, CacheDir: cache}).Resolve(context.Background(), req)
			if err != nil || !res.FromCache {
				b.Fatalf("%v, from cache %v", err, res != nil && res.FromCache)
			}
		}
	})
}

// TestMavenNoDependencies checks that a build whose modules declare no dependency
// is read from its POM, Maven not run (the VS Code end-to-end test's workspace).
func TestMavenNoDependencies(t *testing.T) {
	dir := t.TempDir()
	repoFile(t, dir, "pom.xml", "<project><modelVersion>4.0.0</modelVersion><groupId>g</groupId><artifactId>a</artifactId><version>1</version></project>")
	res, err := New(Options{Home: t.TempDir(), Maven: "/nonexistent/mvn"}).Resolve(context.Background(), Request{Dir: dir, Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ran || len(res.Modules) != 1 || len(res.Modules[0].Deps) != 0 || !strings.Contains(res.How, "no module declares a dependency") || len(res.Notes) > 0 {
		t.Errorf("%s", res.Describe())
	}
}
