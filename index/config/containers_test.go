package config_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/config"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// Debian's Sisu and Spring, whose own index readers TestContainerIndexes compares
// Read with (.ci/run installs libsisu-inject-java and libspring-core-java).
var containerJars = []string{"/usr/share/java/sisu-inject.jar", "/usr/share/java/spring3-core.jar", "/usr/share/java/commons-logging.jar"}

// indexNames prints the class names Sisu's and Spring's own readers find in the
// index files of its class path: Sisu's IndexedClassFinder (global, as
// BeanScanning.GLOBAL_INDEX uses it) and SpringFactoriesLoader.loadFactoryNames
// for each factory type given as an argument.
const indexNames = `package p;
public class IndexNames {
    public static void main(String[] args) throws Exception {
        ClassLoader cl = IndexNames.class.getClassLoader();
        for (String n : new org.eclipse.sisu.space.IndexedClassFinder("META-INF/sisu/javax.inject.Named", true)
                .indexedNames(new org.eclipse.sisu.space.URLClassSpace(cl))) {
            System.out.println("sisu " + n);
        }
        for (String k : args) {
            for (String n : org.springframework.core.io.support.SpringFactoriesLoader.loadFactoryNames(Class.forName(k, false, cl), cl)) {
                System.out.println("spring " + k + " " + n);
            }
        }
    }
}
`

// TestContainerIndexes reads Sisu's index and spring.factories from a class
// directory and a jar (comments, trailing text, continuation lines, a key given
// twice, CRLF) and compares the names with what Sisu's and Spring's own readers
// find on the same class path.
func TestContainerIndexes(t *testing.T) {
	for _, jar := range containerJars {
		if _, err := os.Stat(jar); err != nil {
			t.Skipf("%s is not installed (Debian's libsisu-inject-java, libspring-core-java): %v", jar, err)
		}
	}
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "p", "IndexNames.java"), indexNames)
	writeFile(t, filepath.Join(src, "p", "F.java"), "package p; public interface F {}")
	writeFile(t, filepath.Join(src, "p", "G.java"), "package p; public interface G {}")
	app := t.TempDir()
	javatest.CopyTree(t, javatest.Compile(t, src, javatest.Release(8), javatest.ClassPath(containerJars...)), app)
	writeFile(t, filepath.Join(app, "META-INF", "sisu", "javax.inject.Named"),
		"# components\n  p.A   trailing words\np.B#comment\n\n\tp.A\r\np.Outer$Inner\n")
	writeFile(t, filepath.Join(app, "META-INF", "spring.factories"),
		"# factories\np.F=p.A,\\\n   p.B ,p.C\np.G : p.D\n")
	lib := writeZip(t, "lib.jar",
		"META-INF/sisu/javax.inject.Named", "p.C\np.A\n",
		"META-INF/spring.factories", "p.F=p.X\np.G=p.Y\np.G=p.Z, p.D\n") // the last p.G wins

	cp := openCP(t, classpath.Config{NoJDK: true, Sources: []classpath.Source{
		{Path: app, Origin: classpath.Application}, {Path: lib, Origin: classpath.Library}}})
	c, warns := config.Read(cp)
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	var got []string
	for _, x := range c.Indexed(config.SisuIndex) {
		got = append(got, x.Class+" "+x.Source.String())
	}
	appSisu, libSisu := app+"!"+config.SisuIndexFile, lib+"!"+config.SisuIndexFile
	want := []string{"p/A " + appSisu + ":2", "p/B " + appSisu + ":3", "p/Outer$Inner " + appSisu + ":6", // line 5 repeats p.A
		"p/C " + libSisu + ":1", "p/A " + libSisu + ":2"}
	if !slices.Equal(got, want) {
		t.Errorf("Sisu's index:\n got %q\nwant %q", got, want)
	}
	got = nil
	for _, x := range c.Indexed(config.SpringFactories) {
		got = append(got, x.Key+" "+x.Class+" "+x.Source.String())
	}
	appSpring, libSpring := app+"!"+config.SpringFactoriesFile, lib+"!"+config.SpringFactoriesFile
	want = []string{"p/F p/A " + appSpring + ":2", "p/F p/B " + appSpring + ":2", "p/F p/C " + appSpring + ":2",
		"p/G p/D " + appSpring + ":4", "p/F p/X " + libSpring + ":1", "p/G p/Z " + libSpring + ":3", "p/G p/D " + libSpring + ":3"}
	if !slices.Equal(got, want) {
		t.Errorf("spring.factories:\n got %q\nwant %q", got, want)
	}

	// What Sisu (one set for every file) and Spring (every file's list, in class-path
	// order) find on the same class path.
	var read []string
	for _, x := range c.Indexed(config.SisuIndex) {
		if line := "sisu " + dotted(x.Class); !slices.Contains(read, line) {
			read = append(read, line)
		}
	}
	for _, key := range []string{"p/F", "p/G"} {
		for _, x := range c.Indexed(config.SpringFactories) {
			if x.Key == key {
				read = append(read, "spring "+dotted(key)+" "+dotted(x.Class))
			}
		}
	}
	cpArg := strings.Join(append([]string{app, lib}, containerJars...), string(os.PathListSeparator))
	out, err := exec.Command(filepath.Join(javatest.JDKHome(t), "bin", "java"), "-cp", cpArg, "p.IndexNames", "p.F", "p.G").CombinedOutput()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, out)
	}
	if jvm := strings.Split(strings.TrimSpace(string(out)), "\n"); !slices.Equal(read, jvm) {
		t.Errorf("Sisu and Spring find\n%q\nRead\n%q", jvm, read)
	}
}

func dotted(internal string) string { return strings.ReplaceAll(internal, "/", ".") }

// TestBadContainerIndexes: names no class can have and malformed properties are
// warnings naming the file and the line; the rest of the file is still read.
func TestBadContainerIndexes(t *testing.T) {
	jar := writeZip(t, "bad.jar",
		"META-INF/sisu/javax.inject.Named", "p.A\nnot-a-name\n\xff\np.B\n",
		"META-INF/spring.factories", "p.F=p.A,,p.B\n9bad=p.C\np.G=p.D\\u12\np.H=p.E\n")
	cp := &classpath.ClassPath{Release: 17, Containers: []classpath.Container{{Path: jar, Origin: classpath.Library}}}
	c, warns := config.Read(cp)
	var got []string
	for _, w := range warns {
		got = append(got, w.Error())
	}
	sisu, spring := jar+"!"+config.SisuIndexFile, jar+"!"+config.SpringFactoriesFile
	want := []string{
		"config: " + sisu + ": not valid UTF-8",
		"config: " + sisu + `:2: illegal class name "not-a-name"`,
		"config: " + sisu + `:3: illegal class name "\xff"`,
		"config: " + spring + `:3: malformed \uxxxx encoding (Properties.load rejects the file)`,
		"config: " + spring + `:1: illegal implementation-class name "" under p.F (SpringFactoriesLoader fails here)`,
		"config: " + spring + `:2: factory type "9bad" is not a binary class name`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n got %q\nwant %q", got, want)
	}
	var names []string
	for _, k := range []config.IndexKind{config.SisuIndex, config.SpringFactories} {
		for _, x := range c.Indexed(k) {
			names = append(names, x.Key+" "+x.Class)
		}
	}
	if want := []string{" p/A", " p/B", "p/F p/A", "p/F p/B", "p/H p/E"}; !slices.Equal(names, want) {
		t.Errorf("indexed %q, want %q", names, want)
	}
}
