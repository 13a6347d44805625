package config_test

import (
	"archive/zip"
	"bytes"
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

// serviceSources is a service with three providers, a module that provides it and
// a main class that prints what ServiceLoader finds.
var serviceSources = map[string]string{
	"module-info.java": "module m.svc { exports p; uses p.Svc; provides p.Svc with p.A, p.B; }",
	"p/Svc.java":       "package p; public interface Svc {}",
	"p/A.java":         "package p; public class A implements Svc {}",
	"p/B.java":         "package p; public class B implements Svc {}",
	"p/C.java":         "package p; public class C implements Svc { public static class Inner implements Svc {} }",
	"p/Main.java": `package p;
public class Main {
    public static void main(String[] args) {
        java.util.ServiceLoader.load(Svc.class).stream().forEach(pr -> System.out.println(pr.type().getName()));
    }
}`,
}

// compileServices compiles serviceSources with javac (javatest.Compile cannot
// compile a module's sources) and returns the class directory.
func compileServices(t *testing.T) string {
	t.Helper()
	src, dir := t.TempDir(), t.TempDir()
	args := []string{"--release", "17", "-d", dir}
	for name, text := range serviceSources {
		writeFile(t, filepath.Join(src, name), text)
		args = append(args, filepath.Join(src, filepath.FromSlash(name)))
	}
	if out, err := exec.Command(javatest.Javac(t), args...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return dir
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// classesOnly copies the class files of p, without the module descriptor, to a
// new directory with the given services file.
func classesOnly(t *testing.T, classes, services string) string {
	t.Helper()
	dir := t.TempDir()
	javatest.CopyTree(t, filepath.Join(classes, "p"), filepath.Join(dir, "p"))
	if services != "" {
		writeFile(t, filepath.Join(dir, "META-INF", "services", "p.Svc"), services)
	}
	return dir
}

// TestServicesFiles reads META-INF/services of a class directory and a jar and
// compares the providers with what ServiceLoader finds on the same class path.
func TestServicesFiles(t *testing.T) {
	classes := compileServices(t)
	app := classesOnly(t, classes, "# providers of p.Svc\n\np.B   # the second\n\tp.A\t\np.B\n")
	lib := classesOnly(t, classes, "p.C$Inner\r\np.A\r\np.C\r\n")
	jar := filepath.Join(t.TempDir(), "lib.jar")
	javatest.Jar(t, lib, jar)

	cp := openCP(t, classpath.Config{NoJDK: true, Sources: []classpath.Source{
		{Path: app, Origin: classpath.Application}, {Path: jar, Origin: classpath.Library}}})
	c, warns := config.Read(cp)
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	var got []string
	for _, p := range c.Providers("p/Svc") {
		if p.Kind != config.ServicesFile || p.Module != "" {
			t.Errorf("%+v: want a services-file provider", p)
		}
		got = append(got, p.Class+" "+p.Source.String())
	}
	appFile := app + "!META-INF/services/p.Svc"
	jarFile := jar + "!META-INF/services/p.Svc"
	want := []string{
		"p/B " + appFile + ":3", "p/A " + appFile + ":4", // line 5 repeats p.B
		"p/C$Inner " + jarFile + ":1", "p/A " + jarFile + ":2", "p/C " + jarFile + ":3",
	}
	if !slices.Equal(got, want) {
		t.Errorf("providers:\n got %q\nwant %q", got, want)
	}
	if ps := c.Providers("p/Svc"); ps[0].Origin != classpath.Application || ps[2].Origin != classpath.Library {
		t.Errorf("origins: %v, %v", ps[0].Origin, ps[2].Origin)
	}

	// ServiceLoader over the same class path: the same classes, first
	// declarations first, duplicates dropped.
	var first []string
	for _, p := range c.Providers("p/Svc") {
		if n := strings.ReplaceAll(p.Class, "/", "."); !slices.Contains(first, n) {
			first = append(first, n)
		}
	}
	out, err := exec.Command(filepath.Join(javatest.JDKHome(t), "bin", "java"),
		"-cp", app+string(os.PathListSeparator)+jar, "p.Main").CombinedOutput()
	if err != nil {
		t.Fatalf("java: %v\n%s", err, out)
	}
	if jvm := strings.Fields(string(out)); !slices.Equal(first, jvm) {
		t.Errorf("ServiceLoader finds %q, Read %q", jvm, first)
	}
}

// TestModularJar reads the descriptor of a multi-release modular jar: the
// versioned descriptor replaces the base one, as JarFile does for the release.
func TestModularJar(t *testing.T) {
	classes := compileServices(t)
	desc, err := os.ReadFile(filepath.Join(classes, "module-info.class"))
	if err != nil {
		t.Fatal(err)
	}
	jar := writeZip(t, "mod.jar",
		"META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\nMulti-Release: true\r\n\r\n",
		"module-info.class", string(desc[:len(desc)/2]), // truncated: only read for release < 11
		"META-INF/versions/11/module-info.class", string(desc),
		"META-INF/versions/99/module-info.class", "not read: over the release",
		"META-INF/services/p.Svc", "p.C\n")
	cp := &classpath.ClassPath{Release: 17, Containers: []classpath.Container{{Path: jar, Origin: classpath.Library}}}
	c, warns := config.Read(cp)
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	var got []string
	for _, p := range c.Providers("p/Svc") {
		got = append(got, p.Kind.String()+" "+p.Module+" "+p.Class+" "+p.Source.Entry)
	}
	want := []string{
		"provides m.svc p/A META-INF/versions/11/module-info.class",
		"provides m.svc p/B META-INF/versions/11/module-info.class",
		"META-INF/services  p/C META-INF/services/p.Svc",
	}
	if !slices.Equal(got, want) {
		t.Errorf("providers:\n got %q\nwant %q", got, want)
	}
	if u := c.Uses("p/Svc"); len(u) != 1 || u[0].Module != "m.svc" {
		t.Errorf("uses: %+v", u)
	}

	// For release 9 the base descriptor counts, and it is truncated.
	cp.Release = 9
	c, warns = config.Read(cp)
	if len(warns) != 1 || warns[0].Source.Path != jar || warns[0].Source.Entry != "module-info.class" {
		t.Errorf("release 9: warnings %v, want one about the truncated module-info.class", warns)
	}
	if len(c.Providers("p/Svc")) != 1 {
		t.Errorf("release 9: providers %+v", c.Providers("p/Svc"))
	}
}

// writeZip writes a zip of name, content pairs.
func writeZip(t testing.TB, name string, entries ...string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(entries); i += 2 {
		w, err := zw.Create(entries[i])
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(entries[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMalformedContainers: every problem is a warning naming its file, entry and
// line, and the rest is read.
func TestMalformedContainers(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "META-INF/services/p.Svc"), "p.Good\nnot a name\n1p.Bad\np.Also$Good # ok\n\xff\xfe\n")
	writeFile(t, filepath.Join(dir, "META-INF/services/bad name"), "p.X\n")
	writeFile(t, filepath.Join(dir, "META-INF/services/p.Big"), strings.Repeat("p.X\n", 300000))
	writeFile(t, filepath.Join(dir, "module-info.class"), "\xca\xfe\xba\xbe\x00")
	jar := writeZip(t, "bad.jar", "module-info.class", "\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x00")
	notZip := filepath.Join(t.TempDir(), "trunc.jar")
	writeFile(t, notZip, "PK\x03\x04 truncated")
	missing := filepath.Join(t.TempDir(), "missing")
	cp := &classpath.ClassPath{Release: 17, Containers: []classpath.Container{
		{Path: dir, Origin: classpath.Application}, {Path: jar, Origin: classpath.Library},
		{Path: notZip, Origin: classpath.Library}, {Path: missing, Origin: classpath.Library}}}
	c, warns := config.Read(cp)
	var got []string
	for _, w := range warns {
		got = append(got, w.Error())
	}
	for _, want := range []string{
		dir + "!META-INF/services/p.Svc:2: illegal provider-class name \"not a name\"",
		dir + "!META-INF/services/p.Svc:3: illegal provider-class name \"1p.Bad\"",
		dir + "!META-INF/services/p.Svc: not valid UTF-8",
		dir + "!META-INF/services/bad name: file name \"bad name\" is not a binary class name",
		dir + "!META-INF/services/p.Big: file of 1200000 bytes, over the",
		dir + "!module-info.class: classfile:",
		jar + "!module-info.class: classfile:",
		notZip + ": reading the zip directory",
		missing + ": stat",
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, want) }) {
			t.Errorf("no warning containing %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	var classes []string
	for _, p := range c.Providers("p/Svc") {
		classes = append(classes, p.Class)
	}
	if !slices.Equal(classes, []string{"p/Good", "p/Also$Good"}) {
		t.Errorf("providers despite the problems: %q", classes)
	}
}

// TestDebianJars reads the services files of jars Debian ships, whose content
// `unzip -p <jar> 'META-INF/services/*'` shows: jcl-over-slf4j's LogFactory file
// names one class and then has comment lines; sisu-inject names its annotation
// processor.
func TestDebianJars(t *testing.T) {
	for _, tc := range []struct{ jar, service, provider string }{
		{"/usr/share/java/jcl-over-slf4j.jar", "org/apache/commons/logging/LogFactory", "org/apache/commons/logging/impl/SLF4JLogFactory"},
		{"/usr/share/java/sisu-inject.jar", "javax/annotation/processing/Processor", "org/eclipse/sisu/space/SisuIndexAPT6"},
	} {
		if _, err := os.Stat(tc.jar); err != nil {
			t.Logf("%s: not installed", tc.jar)
			continue
		}
		cp := &classpath.ClassPath{Release: 17, Containers: []classpath.Container{{Path: tc.jar, Origin: classpath.Library}}}
		c, warns := config.Read(cp)
		ps := c.Providers(tc.service)
		if len(warns) != 0 || len(ps) != 1 || ps[0].Class != tc.provider || ps[0].Source.Line != 1 ||
			ps[0].Source.Entry != "META-INF/services/"+strings.ReplaceAll(tc.service, "/", ".") {
			t.Errorf("%s: providers %+v, warnings %v", tc.jar, ps, warns)
		}
		if len(c.Services()) != 1 {
			t.Errorf("%s: services %q", tc.jar, c.Services())
		}
	}
}

// TestArchiveClassDirs: the services files in a Spring Boot jar's BOOT-INF/classes
// and a WAR's WEB-INF/classes are the application's (the class path reads those
// directories with the archive), and jars nested in an archive, whose files Read does
// not open, are listed by Unread so that no reader takes Providers as complete.
func TestArchiveClassDirs(t *testing.T) {
	boot := writeZip(t, "app.jar",
		"BOOT-INF/classes/META-INF/services/p.Svc", "p.Boot\n",
		"BOOT-INF/classes/META-INF/services/deeper/p.Svc", "p.Ignored\n", // not META-INF/services/<name>
		"WEB-INF/classes/META-INF/services/p.Svc", "p.Web\n",
		"META-INF/services/p.Svc", "p.Root\n")
	cp := &classpath.ClassPath{Release: 17, Containers: []classpath.Container{{Path: boot, Origin: classpath.Application}}}
	c, warns := config.Read(cp)
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	var got []string
	for _, p := range c.Providers("p/Svc") {
		got = append(got, p.Class+" "+p.Source.Entry)
	}
	want := []string{
		"p/Boot BOOT-INF/classes/META-INF/services/p.Svc",
		"p/Root META-INF/services/p.Svc",
		"p/Web WEB-INF/classes/META-INF/services/p.Svc",
	}
	if !slices.Equal(got, want) {
		t.Errorf("providers:\n got %q\nwant %q", got, want)
	}
	if u := c.Unread(); len(u) != 0 {
		t.Errorf("Unread %v for an archive without nested jars", u)
	}
	cp.Nested = []classpath.Container{{Path: boot + "!/BOOT-INF/lib/dep.jar", Origin: classpath.Library}}
	if c, _ := config.Read(cp); !slices.Equal(c.Unread(), []string{boot + "!/BOOT-INF/lib/dep.jar"}) {
		t.Errorf("Unread %v, want the nested jar", c.Unread())
	}
}

// TestReadsDirEntry: the class-directory entries a watcher must report besides class
// files are exactly those readDir reads.
func TestReadsDirEntry(t *testing.T) {
	for entry, want := range map[string]bool{
		"META-INF/services/java.lang.Runnable":   true,
		"META-INF/sisu/javax.inject.Named":       true,
		"META-INF/spring.factories":              true,
		"META-INF/services/":                     false,
		"META-INF/services/sub/java.lang.Object": false,
		"META-INF/MANIFEST.MF":                   false,
		"p/A.class":                              false,
		"services/java.lang.Runnable":            false,
	} {
		if got := config.ReadsDirEntry(entry); got != want {
			t.Errorf("ReadsDirEntry(%q) = %v, want %v", entry, got, want)
		}
	}
}
