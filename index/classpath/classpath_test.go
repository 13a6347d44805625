package classpath

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
)

const (
	jdk17      = "/usr/lib/jvm/java-17-openjdk-amd64"
	temurin25  = "/usr/lib/jvm/temurin-25-jdk-amd64"
	jdk17Jmods = jdk17 + "/jmods"
)

// requireDir skips tests that need a JDK this machine does not have.
func requireDir(t testing.TB, dir string) {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not installed: %v", dir, err)
	}
}

func mustOpen(t testing.TB, cfg Config) *ClassPath {
	t.Helper()
	cp, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cp.Close(); err != nil {
			t.Error(err)
		}
	})
	return cp
}

func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeClassDir creates dir/<name>.class for each name.
func writeClassDir(t testing.TB, dir string, files map[string][]byte) string {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type zipEntry struct {
	name string
	data []byte
}

func makeZip(t testing.TB, prefix string, entries ...zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString(prefix)
	zw := zip.NewWriter(&buf)
	zw.SetOffset(int64(len(prefix)))
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func names(cp *ClassPath) []string {
	var ns []string
	for _, c := range cp.Classes {
		ns = append(ns, c.Name)
	}
	return ns
}

// assertWarning checks that some warning names the container and the entry,
// gives a byte offset and says msg.
func assertWarning(t testing.TB, cp *ClassPath, container, entry, msg string) {
	t.Helper()
	for _, w := range cp.Warnings {
		s := w.Error()
		if w.Container == container && w.Entry == entry && w.Offset >= 0 && strings.Contains(s, msg) &&
			strings.Contains(s, container) && strings.Contains(s, entry) && strings.Contains(s, fmt.Sprintf("at byte %#x", w.Offset)) {
			return
		}
	}
	t.Errorf("no warning for %s %s with offset and %q; got:", container, entry, msg)
	for _, w := range cp.Warnings {
		t.Logf("  %v", w)
	}
}

func checkJDKClassPath(t *testing.T, cp *ClassPath, wantRelease int) {
	t.Helper()
	if len(cp.Warnings) > 0 {
		t.Errorf("warnings: %v", cp.Warnings[:min(5, len(cp.Warnings))])
	}
	if len(cp.Classes) < 20000 {
		t.Errorf("%d classes, want > 20000", len(cp.Classes))
	}
	if cp.Release != wantRelease {
		t.Errorf("release %d, want %d", cp.Release, wantRelease)
	}
	obj := cp.Lookup("java/lang/Object")
	if obj == nil {
		t.Fatal("java/lang/Object missing")
	}
	if obj.Origin != JDK || obj.Module != "java.base" || obj.Entry != "/java.base/java/lang/Object.class" ||
		obj.Container != filepath.Join(cp.JDKHome, "lib", "modules") {
		t.Errorf("java/lang/Object: %+v", *obj)
	}
	for _, c := range cp.Classes {
		if !bytes.HasPrefix(c.Data, []byte{0xCA, 0xFE, 0xBA, 0xBE}) {
			t.Fatalf("%s: data starts with % x", c.Name, c.Data[:min(4, len(c.Data))])
		}
		if c.Hash != xxhash.Sum64(c.Data) {
			t.Fatalf("%s: wrong hash", c.Name)
		}
		if cp.Lookup(c.Name) != c {
			t.Fatalf("%s: Lookup does not return it", c.Name)
		}
		if skipEntry(c.Name) {
			t.Fatalf("%s listed", c.Name)
		}
	}
	if cp.Lookup("module-info") != nil {
		t.Error("module-info listed")
	}
}

func TestOpenJDK17(t *testing.T) {
	requireDir(t, jdk17)
	cp := mustOpen(t, Config{JDKHome: jdk17})
	checkJDKClassPath(t, cp, 17)
	t.Logf("JDK 17: %d classes", len(cp.Classes))
}

func TestOpenTemurin25(t *testing.T) {
	requireDir(t, temurin25)
	cp := mustOpen(t, Config{JDKHome: temurin25})
	checkJDKClassPath(t, cp, 25)
	// A class added after 17 proves this is the 25 image.
	if cp.Lookup("java/lang/ScopedValue") == nil {
		t.Error("java/lang/ScopedValue missing from JDK 25")
	}
	t.Logf("Temurin 25: %d classes", len(cp.Classes))
}

// TestImageFindAll checks the redirect table and the hash against jlink's:
// every listed resource must be found by name.
func TestImageFindAll(t *testing.T) {
	for _, home := range []string{jdk17, temurin25} {
		t.Run(filepath.Base(home), func(t *testing.T) {
			requireDir(t, home)
			f, err := os.Open(filepath.Join(home, "lib", "modules"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, _ := f.Stat()
			im, err := OpenImage(f, st.Size())
			if err != nil {
				t.Fatal(err)
			}
			res, errs := im.Resources()
			if len(errs) > 0 || len(res) != im.NumResources() {
				t.Fatalf("%d of %d resources, errors %v", len(res), im.NumResources(), errs)
			}
			for _, r := range res {
				got, ok := im.Find(r.Name)
				if !ok || got != r {
					t.Fatalf("Find(%q) = %+v, %v; want %+v", r.Name, got, ok, r)
				}
			}
			r, _ := im.Find("/java.base/java/lang/Object.class")
			data, err := im.Data(r) // through ReadAt, not the mapping
			if err != nil || checkClass(data) != nil {
				t.Errorf("Object via ReadAt: %v", err)
			}
		})
	}
}

// TestJmodMatchesImage reads the JDK's own java.base.jmod: its classes are
// the ones jlink put in the image.
func TestJmodMatchesImage(t *testing.T) {
	requireDir(t, jdk17Jmods)
	jmod := filepath.Join(jdk17Jmods, "java.base.jmod")
	cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: jmod, Origin: JDK}}})
	if len(cp.Warnings) > 0 {
		t.Errorf("warnings: %v", cp.Warnings)
	}
	img := mustOpen(t, Config{JDKHome: jdk17})
	n := 0
	for _, c := range img.Classes {
		if c.Module == "java.base" {
			n++
		}
	}
	if len(cp.Classes) < 5000 || len(cp.Classes) > n+50 {
		t.Errorf("%d classes in java.base.jmod, %d in the image's java.base", len(cp.Classes), n)
	}
	obj := cp.Lookup("java/lang/Object")
	if obj == nil || obj.Module != "java.base" || obj.Entry != "classes/java/lang/Object.class" || obj.Container != jmod {
		t.Fatalf("java/lang/Object: %+v", obj)
	}
	if !bytes.Equal(obj.Data, img.Lookup("java/lang/Object").Data) {
		t.Error("java/lang/Object differs between java.base.jmod and lib/modules")
	}
}

// TestJmodBuilt covers jmods where the JDK ships none (Temurin 25).
func TestJmodBuilt(t *testing.T) {
	data := makeZip(t, jmodMagic,
		zipEntry{"classes/module-info.class", fakeClass("module-info")},
		zipEntry{"classes/x/Y.class", fakeClass("x/Y")},
		zipEntry{"classes/x/y.properties", []byte("a=b")},
		zipEntry{"bin/x/Z.class", fakeClass("not a class of the module")},
		zipEntry{"classes/x/Bad.class", []byte("not a class")},
	)
	path := writeTemp(t, "m.y.jmod", data)
	cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: path, Origin: Library}}})
	if got := names(cp); !slices.Equal(got, []string{"x/Y"}) {
		t.Fatalf("classes %v, want [x/Y]", got)
	}
	c := cp.Lookup("x/Y")
	if c.Module != "m.y" || c.Origin != Library || c.Entry != "classes/x/Y.class" || !bytes.Equal(c.Data, fakeClass("x/Y")) {
		t.Errorf("x/Y: %+v", *c)
	}
	// The offset is in the jmod file, past the 4-byte header.
	zr, _ := zip.NewReader(bytes.NewReader(data[4:]), int64(len(data)-4))
	var want int64
	for _, f := range zr.File {
		if f.Name == "classes/x/Bad.class" {
			want, _ = f.DataOffset()
		}
	}
	assertWarning(t, cp, path, "classes/x/Bad.class", "not a class file")
	for _, w := range cp.Warnings {
		if w.Entry == "classes/x/Bad.class" && w.Offset != want+4 {
			t.Errorf("offset %#x, want %#x", w.Offset, want+4)
		}
	}
}

func TestMultiReleaseJar(t *testing.T) {
	entries := []zipEntry{
		{"META-INF/MANIFEST.MF", []byte("Manifest-Version: 1.0\r\nMulti-Release: true\r\nCreated-By: test\r\n\r\nName: x/Y.class\r\nMulti-Release: false\r\n")},
		{"x/Y.class", fakeClass("base")},
		{"x/Only.class", fakeClass("only")},
		{"META-INF/versions/9/x/Y.class", fakeClass("v9")},
		{"META-INF/versions/21/x/Y.class", fakeClass("v21")},
		{"META-INF/versions/11/x/New.class", fakeClass("new in 11")},
		{"META-INF/versions/9/module-info.class", fakeClass("module-info")},
		{"META-INF/versions/8/x/Only.class", fakeClass("ignored: below 9")},
		{"META-INF/Foo.class", fakeClass("not loadable")},
	}
	mr := writeTemp(t, "mr.jar", makeZip(t, "", entries...))
	entries[0].data = []byte("Manifest-Version: 1.0\nCreated-By: test\n\nName: x\nMulti-Release: true\n")
	plain := writeTemp(t, "plain.jar", makeZip(t, "", entries...))

	for _, tc := range []struct {
		jar     string
		release int
		want    map[string]string // class -> data suffix
	}{
		{mr, 17, map[string]string{"x/Y": "v9", "x/Only": "only", "x/New": "new in 11"}},
		{mr, 21, map[string]string{"x/Y": "v21", "x/Only": "only", "x/New": "new in 11"}},
		{mr, 25, map[string]string{"x/Y": "v21", "x/Only": "only", "x/New": "new in 11"}},
		{mr, 10, map[string]string{"x/Y": "v9", "x/Only": "only"}},
		{mr, 8, map[string]string{"x/Y": "base", "x/Only": "only"}},
		{plain, 21, map[string]string{"x/Y": "base", "x/Only": "only"}},
	} {
		t.Run(fmt.Sprintf("%s/%d", filepath.Base(tc.jar), tc.release), func(t *testing.T) {
			cp := mustOpen(t, Config{NoJDK: true, Release: tc.release, Sources: []Source{{Path: tc.jar, Origin: Library}}})
			if len(cp.Warnings) > 0 {
				t.Errorf("warnings: %v", cp.Warnings)
			}
			got := map[string]string{}
			for _, c := range cp.Classes {
				got[c.Name] = string(c.Data[10:])
				if c.Origin != Library || c.Container != tc.jar {
					t.Errorf("%s: %+v", c.Name, *c)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if c := cp.Lookup("x/Y"); c != nil && strings.HasPrefix(string(c.Data[10:]), "v") &&
				c.Entry != "META-INF/versions/"+string(c.Data[11:])+"/x/Y.class" {
				t.Errorf("entry %q for data %q", c.Entry, c.Data[10:])
			}
		})
	}
}

func TestShadowing(t *testing.T) {
	a := writeClassDir(t, t.TempDir(), map[string][]byte{"p/A.class": fakeClass("first A"), "p/B.class": fakeClass("B")})
	b := writeClassDir(t, t.TempDir(), map[string][]byte{"p/A.class": fakeClass("second A"), "p/C.class": fakeClass("C")})
	cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: a}, {Path: b, Origin: Library}}})
	if got := names(cp); !slices.Equal(got, []string{"p/A", "p/B", "p/C"}) {
		t.Errorf("classes %v", got)
	}
	if c := cp.Lookup("p/A"); c.Container != a || !bytes.Equal(c.Data, fakeClass("first A")) || c.Origin != Application {
		t.Errorf("p/A from %s, want %s", c.Container, a)
	}
	if len(cp.Shadowed) != 1 || cp.Shadowed[0].Container != b || cp.Shadowed[0].Name != "p/A" {
		t.Errorf("shadowed %v", cp.Shadowed)
	}
	if len(cp.Warnings) != 1 || cp.Warnings[0].Container != b || cp.Warnings[0].Entry != "p/A.class" ||
		!strings.Contains(cp.Warnings[0].Error(), "shadowed by the one in "+a) {
		t.Errorf("warnings %v", cp.Warnings)
	}
}

// TestJDKShadowsClassPath: like the JVM's parent-first loading, the JDK wins
// over a class path that redefines one of its classes.
func TestJDKShadowsClassPath(t *testing.T) {
	requireDir(t, jdk17)
	dir := writeClassDir(t, t.TempDir(), map[string][]byte{"java/lang/String.class": fakeClass("fake String")})
	cp := mustOpen(t, Config{JDKHome: jdk17, Sources: []Source{{Path: dir}}})
	if c := cp.Lookup("java/lang/String"); c.Origin != JDK {
		t.Errorf("java/lang/String from %s", c.Container)
	}
	if len(cp.Warnings) != 1 || !strings.Contains(cp.Warnings[0].Error(), "shadowed") {
		t.Errorf("warnings %v", cp.Warnings)
	}
}

func TestDirSource(t *testing.T) {
	dir := writeClassDir(t, t.TempDir(), map[string][]byte{
		"a/B.class":                     fakeClass("a/B"),
		"a/package-info.class":          fakeClass("a/package-info"),
		"module-info.class":             fakeClass("module-info"),
		"a/notes.txt":                   []byte("ignored"),
		"a/Short.class":                 []byte{0xCA, 0xFE},
		"META-INF/versions/9/a/B.class": fakeClass("exploded jar"),
	})
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "a", "Dangling.class")); err != nil {
		t.Fatal(err)
	}
	cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: dir}, {Path: filepath.Join(dir, "missing")}}})
	if got := names(cp); !slices.Equal(got, []string{"a/B", "a/package-info"}) {
		t.Errorf("classes %v", got)
	}
	var msgs []string
	for _, w := range cp.Warnings {
		msgs = append(msgs, w.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"a/Short.class: truncated class file", "a/Dangling.class:", filepath.Join(dir, "missing") + ": "} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning with %q in\n%s", want, all)
		}
	}
}

func TestFindJDK(t *testing.T) {
	requireDir(t, jdk17)
	requireDir(t, temurin25)
	t.Run("explicit", func(t *testing.T) {
		t.Setenv("JAVA_HOME", temurin25)
		if got, err := FindJDK(jdk17); got != jdk17 || err != nil {
			t.Errorf("FindJDK(%s) = %q, %v", jdk17, got, err)
		}
		if _, err := FindJDK(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not a JDK") {
			t.Errorf("FindJDK(empty dir): %v", err)
		}
	})
	t.Run("JAVA_HOME", func(t *testing.T) {
		t.Setenv("JAVA_HOME", temurin25)
		t.Setenv("PATH", "")
		if got, err := FindJDK(""); got != temurin25 || err != nil {
			t.Errorf("FindJDK() = %q, %v", got, err)
		}
	})
	t.Run("PATH", func(t *testing.T) {
		// A symlink chain like Debian's /usr/bin/java -> /etc/alternatives.
		bin := t.TempDir()
		alt := filepath.Join(t.TempDir(), "java")
		if err := os.Symlink(filepath.Join(temurin25, "bin", "java"), alt); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(alt, filepath.Join(bin, "java")); err != nil {
			t.Fatal(err)
		}
		t.Setenv("JAVA_HOME", "")
		t.Setenv("PATH", bin)
		if got, err := FindJDK(""); got != temurin25 || err != nil {
			t.Errorf("FindJDK() = %q, %v", got, err)
		}
		// A stale JAVA_HOME is skipped, and Open says so.
		t.Setenv("JAVA_HOME", "/no/such/jdk")
		if got, err := FindJDK(""); got != temurin25 || err != nil {
			t.Errorf("FindJDK() with stale JAVA_HOME = %q, %v", got, err)
		}
		cp := mustOpen(t, Config{})
		if cp.JDKHome != temurin25 || len(cp.Warnings) != 1 || !strings.Contains(cp.Warnings[0].Error(), "JAVA_HOME=/no/such/jdk ignored") {
			t.Errorf("JDK %s, warnings %v", cp.JDKHome, cp.Warnings)
		}
	})
	t.Run("none", func(t *testing.T) {
		t.Setenv("JAVA_HOME", "")
		t.Setenv("PATH", t.TempDir())
		if _, err := FindJDK(""); err == nil {
			t.Error("FindJDK found a JDK on an empty PATH")
		}
		if _, err := Open(context.Background(), Config{}); err == nil {
			t.Error("Open without a JDK succeeded")
		}
		cp := mustOpen(t, Config{NoJDK: true})
		if len(cp.Classes) != 0 || cp.Release != defaultRelease {
			t.Errorf("empty class path: %d classes, release %d", len(cp.Classes), cp.Release)
		}
	})
}

// TestJDK8Layout builds a JDK 8 style home: the platform is rt.jar plus the
// other boot and extension jars.
func TestJDK8Layout(t *testing.T) {
	home := t.TempDir()
	lib := filepath.Join(home, "jre", "lib")
	if err := os.MkdirAll(filepath.Join(lib, "ext"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p string, data []byte) {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, "release"), []byte("JAVA_VERSION=\"1.8.0_392\"\nOS_NAME=\"Linux\"\n"))
	write(filepath.Join(lib, "rt.jar"), makeZip(t, "", zipEntry{"java/lang/Object.class", fakeClass("Object")}))
	write(filepath.Join(lib, "jce.jar"), makeZip(t, "", zipEntry{"javax/crypto/Cipher.class", fakeClass("Cipher")}))
	write(filepath.Join(lib, "ext", "zipfs.jar"), makeZip(t, "", zipEntry{"jdk/nio/zipfs/ZipFileSystem.class", fakeClass("zipfs")}))

	if got, err := FindJDK(home); got != home || err != nil {
		t.Fatalf("FindJDK = %q, %v", got, err)
	}
	cp := mustOpen(t, Config{JDKHome: home})
	if got := names(cp); !slices.Equal(got, []string{"java/lang/Object", "javax/crypto/Cipher", "jdk/nio/zipfs/ZipFileSystem"}) {
		t.Errorf("classes %v", got)
	}
	if cp.Release != 8 || cp.Lookup("java/lang/Object").Origin != JDK {
		t.Errorf("release %d, Object %+v", cp.Release, cp.Lookup("java/lang/Object"))
	}
}

func TestBadInput(t *testing.T) {
	good := writeClassDir(t, t.TempDir(), map[string][]byte{"ok/Fine.class": fakeClass("fine")})
	goodJar := makeZip(t, "", zipEntry{"ok/InJar.class", fakeClass("in jar")}, zipEntry{"ok/Other.class", fakeClass("other")})

	t.Run("truncated jar", func(t *testing.T) {
		jar := writeTemp(t, "cut.jar", goodJar[:len(goodJar)/2])
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: jar}, {Path: good}}})
		if cp.Lookup("ok/Fine") == nil {
			t.Error("the rest of the class path did not load")
		}
		assertWarningContains(t, cp, jar, "zip: not a valid zip file")
	})

	t.Run("corrupt entry", func(t *testing.T) {
		data := bytes.Clone(goodJar)
		zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		off, _ := zr.File[0].DataOffset()
		for i := range zr.File[0].CompressedSize64 {
			data[off+int64(i)] ^= 0x55
		}
		jar := writeTemp(t, "corrupt.jar", data)
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: jar}, {Path: good}}})
		if cp.Lookup("ok/Fine") == nil || cp.Lookup("ok/Other") == nil || cp.Lookup("ok/InJar") != nil {
			t.Errorf("classes %v", names(cp))
		}
		assertWarning(t, cp, jar, "ok/InJar.class", "")
	})

	t.Run("not a class", func(t *testing.T) {
		jar := writeTemp(t, "bad.jar", makeZip(t, "", zipEntry{"ok/Text.class", []byte("hello, world")}))
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: jar}, {Path: good}}})
		assertWarning(t, cp, jar, "ok/Text.class", "not a class file (magic 0x68656c6c)")
	})

	t.Run("launcher script before the jar", func(t *testing.T) {
		jar := writeTemp(t, "app.jar", makeZip(t, "#!/bin/sh\nexec java -jar \"$0\" \"$@\"\n", zipEntry{"app/Main.class", fakeClass("main")}))
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: jar}}})
		if cp.Lookup("app/Main") == nil || len(cp.Warnings) > 0 {
			t.Errorf("classes %v, warnings %v", names(cp), cp.Warnings)
		}
	})

	t.Run("unknown file", func(t *testing.T) {
		p := writeTemp(t, "notes.txt", []byte("just text"))
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: p}, {Path: good}}})
		assertWarningContains(t, cp, p, "not a directory, jar, jmod or jimage")
	})

	t.Run("truncated image index", func(t *testing.T) {
		requireDir(t, jdk17)
		img := truncatedCopy(t, filepath.Join(jdk17, "lib", "modules"), 1<<20)
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: img, Origin: JDK}, {Path: good}}})
		if cp.Lookup("ok/Fine") == nil {
			t.Error("the rest of the class path did not load")
		}
		assertWarningContains(t, cp, img, "exceeds the file size 1048576")
	})

	t.Run("truncated image content", func(t *testing.T) {
		requireDir(t, jdk17)
		img := truncatedCopy(t, filepath.Join(jdk17, "lib", "modules"), 16<<20)
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: img, Origin: JDK}, {Path: good}}})
		if cp.Lookup("ok/Fine") == nil || cp.Lookup("java/lang/Object") == nil {
			t.Error("the rest of the class path did not load")
		}
		if len(cp.Classes) < 1000 {
			t.Errorf("only %d classes from the first 16 MiB of the image", len(cp.Classes))
		}
		var cut *Warning
		for i, w := range cp.Warnings {
			if strings.Contains(w.Msg, "extends past the end of the file") {
				cut = &cp.Warnings[i]
				break
			}
		}
		if cut == nil || cut.Container != img || !strings.HasPrefix(cut.Entry, "/") || cut.Offset <= 0 {
			t.Fatalf("no warning naming a cut entry: %v", cp.Warnings[:min(3, len(cp.Warnings))])
		}
		if n := len(cp.Warnings); n > maxWarningsPerContainer+1 || !strings.Contains(cp.Warnings[n-1].Msg, "more problems not reported") {
			t.Errorf("%d warnings, last %v", n, cp.Warnings[n-1])
		}
	})

	t.Run("zip bombs", func(t *testing.T) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		raw := func(name string, declared uint64, content []byte) {
			var c bytes.Buffer
			fw, _ := flateWriter(&c)
			fw.Write(content)
			fw.Close()
			w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate,
				CompressedSize64: uint64(c.Len()), UncompressedSize64: declared})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(c.Bytes())
		}
		raw("big/Huge.class", 100<<20, fakeClass("declares 100 MiB"))
		raw("big/Ratio.class", 2<<20, make([]byte, 2<<20))
		raw("big/Liar.class", 16, append(fakeClass("says 16 bytes"), make([]byte, 1<<20)...))
		w, _ := zw.Create("ok/Small.class")
		w.Write(fakeClass("small"))
		zw.Close()
		jar := writeTemp(t, "bomb.jar", buf.Bytes())
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: jar}}})
		if got := names(cp); !slices.Equal(got, []string{"ok/Small"}) {
			t.Errorf("classes %v", got)
		}
		assertWarning(t, cp, jar, "big/Huge.class", "over the 67108864-byte limit")
		assertWarning(t, cp, jar, "big/Ratio.class", "zip bomb")
		assertWarning(t, cp, jar, "big/Liar.class", "longer than its declared 16 bytes")
	})
}

func assertWarningContains(t testing.TB, cp *ClassPath, container, msg string) {
	t.Helper()
	for _, w := range cp.Warnings {
		if w.Container == container && strings.Contains(w.Error(), msg) && strings.Contains(w.Error(), container) {
			return
		}
	}
	t.Errorf("no warning for %s with %q in %v", container, msg, cp.Warnings)
}

func truncatedCopy(t testing.TB, path string, n int64) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, 0); err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, "modules", buf)
}

func TestCancelled(t *testing.T) {
	requireDir(t, jdk17)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cp, err := Open(ctx, Config{JDKHome: jdk17})
	if !errors.Is(err, context.Canceled) || cp != nil {
		t.Errorf("Open with a cancelled context: %v, %v", cp, err)
	}
}

// TestCancelDuringOpen cancels at various points of loading the JDK and a
// jar: Open must return either a complete class path or the context error,
// never a partial one (and, under -race, without races).
func TestCancelDuringOpen(t *testing.T) {
	requireDir(t, jdk17)
	requireDir(t, guavaJar)
	cfg := Config{JDKHome: jdk17, Sources: []Source{{Path: guavaJar, Origin: Library}}}
	full := mustOpen(t, cfg)
	for _, d := range []time.Duration{100 * time.Microsecond, time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond, 30 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		cp, err := Open(ctx, cfg)
		cancel()
		switch {
		case err != nil && !errors.Is(err, context.DeadlineExceeded):
			t.Errorf("%v: %v", d, err)
		case err == nil && len(cp.Classes) != len(full.Classes):
			t.Errorf("%v: %d classes, want %d", d, len(cp.Classes), len(full.Classes))
		}
		if cp != nil {
			cp.Close()
		}
	}
}

func TestOriginString(t *testing.T) {
	for o, want := range map[Origin]string{Application: "application", Library: "library", JDK: "jdk", 7: "Origin(7)"} {
		if o.String() != want {
			t.Errorf("%d: %q", o, o.String())
		}
	}
}

func TestFeatureVersion(t *testing.T) {
	for v, want := range map[string]int{"17.0.15": 17, "1.8.0_392": 8, "25.0.3": 25, "21-ea": 21, "9": 9, "": 0, "x": 0} {
		if got := featureVersion(v); got != want {
			t.Errorf("featureVersion(%q) = %d, want %d", v, got, want)
		}
	}
}

func BenchmarkOpenJDK17(b *testing.B) {
	requireDir(b, jdk17)
	ctx := context.Background()
	var n, size int
	for b.Loop() {
		cp, err := Open(ctx, Config{JDKHome: jdk17})
		if err != nil {
			b.Fatal(err)
		}
		n, size = len(cp.Classes), 0
		for _, c := range cp.Classes {
			size += len(c.Data)
		}
		cp.Close()
	}
	b.SetBytes(int64(size))
	b.ReportMetric(float64(n), "classes")
}

func flateWriter(w io.Writer) (*flate.Writer, error) {
	return flate.NewWriter(w, flate.BestCompression)
}

// Real jars from Debian packages, when installed.
const (
	guavaJar  = "/usr/share/java/guava.jar"
	plexusJar = "/usr/share/java/plexus-utils.jar" // multi-release: versions 9 and 10
)

func TestRealJars(t *testing.T) {
	t.Run("guava", func(t *testing.T) {
		requireDir(t, guavaJar)
		cp := mustOpen(t, Config{NoJDK: true, Sources: []Source{{Path: guavaJar, Origin: Library}}})
		if len(cp.Warnings) > 0 || len(cp.Classes) < 1500 {
			t.Errorf("%d classes, warnings %v", len(cp.Classes), cp.Warnings)
		}
		if c := cp.Lookup("com/google/common/collect/ImmutableList"); c == nil || c.Origin != Library {
			t.Errorf("ImmutableList: %+v", c)
		}
	})
	t.Run("plexus-utils", func(t *testing.T) {
		requireDir(t, plexusJar)
		for release, want := range map[int]string{
			8:  "org/codehaus/plexus/util/BaseIOUtil.class",
			9:  "META-INF/versions/9/org/codehaus/plexus/util/BaseIOUtil.class",
			17: "META-INF/versions/10/org/codehaus/plexus/util/BaseIOUtil.class",
		} {
			cp := mustOpen(t, Config{NoJDK: true, Release: release, Sources: []Source{{Path: plexusJar, Origin: Library}}})
			if c := cp.Lookup("org/codehaus/plexus/util/BaseIOUtil"); c == nil || c.Entry != want || len(cp.Warnings) > 0 {
				t.Errorf("release %d: %+v, warnings %v; want entry %s", release, c, cp.Warnings, want)
			}
		}
	})
}

func BenchmarkReadGuava(b *testing.B) {
	requireDir(b, guavaJar)
	ctx := context.Background()
	var size int
	for b.Loop() {
		cp, err := Open(ctx, Config{NoJDK: true, Sources: []Source{{Path: guavaJar, Origin: Library}}})
		if err != nil {
			b.Fatal(err)
		}
		size = 0
		for _, c := range cp.Classes {
			size += len(c.Data)
		}
	}
	b.SetBytes(int64(size))
}

func TestValidClassName(t *testing.T) {
	for name, want := range map[string]bool{
		"a/B": true, "B": true, "a/B$1": true, "p/Ünï": true, "module-info": true,
		"": false, "/a": false, "a/": false, "a//b": false, "a.b/C": false, "a/b;": false, "a/[B": false, `a\B`: false, "../x": false,
	} {
		if got := validClassName(name); got != want {
			t.Errorf("validClassName(%q) = %v", name, got)
		}
	}
}
