package incremental

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
)

// TestGroupFolders: nested folders and modules of one multi-module build belong
// together; unrelated folders do not.
func TestGroupFolders(t *testing.T) {
	root := t.TempDir()
	mk := func(rel, file, content string) string {
		dir := filepath.Join(root, rel)
		os.MkdirAll(dir, 0o755)
		if file != "" {
			os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644)
		}
		return dir
	}
	mk("build", "pom.xml", "<project><modules><module>core</module><module>app</module></modules></project>")
	core, app := mk("build/core", "pom.xml", "<project/>"), mk("build/app", "pom.xml", "<project/>")
	gradle := mk("gr", "settings.gradle", "include 'lib', 'cli'")
	lib := mk("gr/lib", "build.gradle", "")
	alone, other := mk("alone", "pom.xml", "<project/>"), mk("other", "", "")
	nested := mk("other/sub", "", "")
	got := groupFolders(fspath.Host(), []string{core, alone, app, nested, lib, other, gradle})
	want := [][]string{{core, app}, {alone}, {nested, other}, {lib, gradle}}
	if !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("groups\n got %q\nwant %q", got, want)
	}
	st := Discovery{SpecFile: "jcg-spec.txt"}
	if n := len(DiscoverProjects([]string{core, alone}, &st)); n != 2 {
		t.Errorf("%d projects for two unrelated folders", n)
	}
	st.ClassPath = []string{"target/classes"}
	if n := len(DiscoverProjects([]string{core, alone}, &st)); n != 1 {
		t.Errorf("a configured class path: %d projects, want one", n)
	}
}

// TestDiscover checks class-path and source-root discovery on the layouts of the
// usual build tools.
func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	mk := func(rel string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, ".jar") || strings.HasSuffix(rel, ".war") || strings.HasSuffix(rel, ".xml") || strings.HasSuffix(rel, ".gradle") {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, rel := range []string{
		"pom.xml", "target/classes", "target/test-classes", "target/dependency/a.jar", "src/main/java", "src/test/java",
		"gradle-mod/build.gradle", "gradle-mod/build/classes/java/main", "gradle-mod/build/libs/mod.jar", "gradle-mod/src/main/java",
		"jarsonly/build.gradle", "jarsonly/build/libs/only.jar",
		"out/production/core", "lib/dep.jar",
		// Spring Boot builds without class directories: the executable archives, not
		// the sources, javadoc or plain jars beside them.
		"boot/pom.xml", "boot/target/app.jar", "boot/target/app-sources.jar", "boot/target/app-javadoc.jar",
		"gboot/build.gradle", "gboot/build/libs/g.jar", "gboot/build/libs/g-plain.jar", "gboot/build/libs/web.war",
	} {
		mk(rel)
	}
	st := Discovery{SpecFile: "jcg-spec.txt"}
	ws := discover([]string{dir}, &st)
	var got []string
	for _, e := range ws.ClassPath {
		rel, _ := filepath.Rel(dir, e.Path)
		got = append(got, fmt.Sprintf("%s %s", e.Origin, filepath.ToSlash(rel)))
	}
	want := []string{
		"application target/classes", "application target/test-classes", "library target/dependency/a.jar",
		"application out/production/core", "library lib/dep.jar",
		"application boot/target/app.jar",
		"application gboot/build/libs/g.jar", "application gboot/build/libs/web.war",
		"application gradle-mod/build/classes/java/main",
		"application jarsonly/build/libs/only.jar",
	}
	if !slices.Equal(got, want) {
		t.Errorf("class path:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var roots []string
	for _, r := range ws.SourceRoots {
		rel, _ := filepath.Rel(dir, r)
		roots = append(roots, filepath.ToSlash(rel))
	}
	if want := []string{"gradle-mod/src/main/java", "src/main/java", "src/test/java"}; !slices.Equal(roots, want) {
		t.Errorf("source roots %v, want %v", roots, want)
	}
	if ws.SpecFile != filepath.Join(dir, "jcg-spec.txt") {
		t.Errorf("spec file %s", ws.SpecFile)
	}

	// Configured entries replace discovery; globs expand.
	st.ClassPath = []string{"target/classes"}
	st.Libraries = []string{"lib/*.jar"}
	ws = discover([]string{dir}, &st)
	if len(ws.ClassPath) != 2 || ws.ClassPath[1].Path != filepath.Join(dir, "lib", "dep.jar") || ws.ClassPath[1].Origin != classpath.Library {
		t.Errorf("configured class path %+v", ws.ClassPath)
	}
}
