// Package debmaven sets tests up with Maven as a Debian machine without network has
// it: Debian's mvn (package maven), its maven-dependency-plugin
// (libmaven-dependency-plugin-java) and Debian's Maven repository
// /usr/share/maven-repo, where Debian's Java library packages (libguava-java,
// libcommons-lang3-java, junit4, libcommons-io-java) put their jars and POMs, as
// the local repository.
package debmaven

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// Repo is Debian's Maven repository.
const Repo = "/usr/share/maven-repo"

// Artifacts the test projects (testdata/maven) depend on, with the Debian package
// that installs each.
var artifacts = []struct{ path, pkg string }{
	{"com/google/guava/guava/31.1-jre/guava-31.1-jre.jar", "libguava-java"},
	{"org/apache/commons/commons-lang3/3.12.0/commons-lang3-3.12.0.jar", "libcommons-lang3-java"},
	{"junit/junit/4.13.2/junit-4.13.2.jar", "junit4"},
	{"commons-io/commons-io/2.11.0/commons-io-2.11.0.jar", "libcommons-io-java"},
}

// Home returns a new home directory whose .m2/settings.xml makes Repo the local
// repository, offline; it skips the test when Repo lacks the test projects'
// dependencies. Point $HOME at it (t.Setenv) or give it to the code under test.
func Home(t testing.TB) string {
	t.Helper()
	for _, a := range artifacts {
		if _, err := os.Stat(filepath.Join(Repo, a.path)); err != nil {
			t.Skipf("%s is not in %s: apt-get install %s", a.path, Repo, a.pkg)
		}
	}
	home := t.TempDir()
	settings := `<settings>
  <localRepository>` + Repo + `</localRepository>
  <offline>true</offline>
</settings>
`
	if err := os.MkdirAll(filepath.Join(home, ".m2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".m2", "settings.xml"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// Maven returns the path of mvn, skipping the test when Maven or the dependency
// plugin is not installed.
func Maven(t testing.TB) string {
	t.Helper()
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		t.Skip("mvn is not installed: apt-get install maven")
	}
	if ms, _ := filepath.Glob(filepath.Join(Repo, "org/apache/maven/plugins/maven-dependency-plugin/*/maven-dependency-plugin-*.jar")); len(ms) == 0 {
		t.Skipf("maven-dependency-plugin is not in %s: apt-get install libmaven-dependency-plugin-java", Repo)
	}
	return mvn
}

// Jars are the Debian jars the test projects compile against (their Maven
// dependencies, as Debian installs them).
var Jars = []string{
	filepath.Join(Repo, "com/google/guava/guava/31.1-jre/guava-31.1-jre.jar"),
	filepath.Join(Repo, "org/apache/commons/commons-lang3/3.12.0/commons-lang3-3.12.0.jar"),
}

// Workspace lays out testdata/maven/<name> in a temporary directory, its modules
// (directories relative to it, "." for the root, in build order) compiled with javac
// into their target/classes: against the Debian jars, the classes of the modules
// before them, and testdata/maven/stubs/nowhere (the API of a dependency that no
// repository has). It skips the test when Repo lacks the jars.
func Workspace(t testing.TB, name string, modules ...string) string {
	t.Helper()
	Home(t) // skips without the Debian packages
	_, self, _, _ := runtime.Caller(0)
	testdata := filepath.Join(filepath.Dir(self), "..", "..", "testdata", "maven")
	dir := filepath.Join(t.TempDir(), name)
	javatest.CopyTree(t, filepath.Join(testdata, name), dir)
	cp := append(slices.Clone(Jars), javatest.Compile(t, filepath.Join(testdata, "stubs", "nowhere"), javatest.Release(17)))
	if len(modules) == 0 {
		modules = []string{"."}
	}
	for _, m := range modules {
		src := filepath.Join(testdata, name, m, "src", "main", "java")
		classes := javatest.Compile(t, src, javatest.Release(17), javatest.ClassPath(cp...))
		out := filepath.Join(dir, m, "target", "classes")
		javatest.CopyTree(t, classes, out)
		cp = append(cp, classes)
	}
	return dir
}
