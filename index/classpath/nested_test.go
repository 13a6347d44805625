package classpath

import (
	"archive/zip"
	"bytes"
	"context"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// exampleJar holds the compiled classes of testdata/java/main-example.
const exampleJar = "../../testdata/java/main-example/example.jar"

// nestEntry is an entry of a test archive; store writes it uncompressed.
type nestEntry struct {
	name  string
	data  []byte
	store bool
}

func buildZip(t testing.TB, prefix string, entries ...nestEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString(prefix)
	zw := zip.NewWriter(&buf)
	zw.SetOffset(int64(len(prefix)))
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.store {
			h.Method = zip.Store
		}
		w, err := zw.CreateHeader(h)
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

// exampleClasses returns the class entries of the compiled example program.
func exampleClasses(t testing.TB) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(exampleJar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".class") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	if len(out) < 5 {
		t.Fatalf("%s: only %d classes", exampleJar, len(out))
	}
	return out
}

// bootJarData lays the example out as a Spring Boot executable jar, with a
// launcher script in front as `spring-boot:repackage` writes for a "fully
// executable" jar: example/report/ is a stored library, the rest is the
// application; one more library is compressed and one is corrupt.
func bootJarData(t testing.TB, cls map[string][]byte) []byte {
	var app, report []nestEntry
	for name, data := range cls {
		if strings.HasPrefix(name, "example/report/") {
			report = append(report, nestEntry{name: name, data: data})
		} else {
			app = append(app, nestEntry{name: "BOOT-INF/classes/" + name, data: data})
		}
	}
	entries := []nestEntry{
		{name: "META-INF/MANIFEST.MF", data: []byte("Manifest-Version: 1.0\nMain-Class: org.springframework.boot.loader.launch.JarLauncher\nStart-Class: example.Main\n\n")},
		{name: "org/springframework/boot/loader/launch/JarLauncher.class", data: fakeClass("launcher")},
	}
	entries = append(entries, app...)
	entries = append(entries,
		nestEntry{name: "BOOT-INF/lib/report.jar", data: buildZip(t, "", report...), store: true},
		nestEntry{name: "BOOT-INF/lib/other.jar", data: buildZip(t, "", nestEntry{name: "o/Other.class", data: fakeClass("o/Other")})},
		nestEntry{name: "BOOT-INF/lib/corrupt.jar", data: []byte("PK\x03\x04 not really a jar"), store: true},
		// Jars elsewhere are resources, not libraries.
		nestEntry{name: "BOOT-INF/classes/fixtures/f.jar", data: buildZip(t, "", nestEntry{name: "f/F.class", data: fakeClass("f/F")})},
	)
	return buildZip(t, "#!/bin/bash\nexec java -jar \"$0\" \"$@\"\n", entries...)
}

func TestSpringBootJar(t *testing.T) {
	cls := exampleClasses(t)
	path := writeTemp(t, "app.jar", bootJarData(t, cls))
	cfg := Config{NoJDK: true, Sources: []Source{{path, Application}}}
	cp, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()

	check := func(name string, origin Origin, container, location string) {
		t.Helper()
		c := cp.Lookup(name)
		if c == nil {
			t.Errorf("%s not read; classes: %v; warnings: %v", name, names(cp), cp.Warnings)
			return
		}
		if c.Origin != origin || c.Container != container || c.Location() != location {
			t.Errorf("%s: origin %v, container %q, location %q; want %v, %q, %q", name, c.Origin, c.Container, c.Location(), origin, container, location)
		}
		if want, ok := cls[name+".class"]; ok && !bytes.Equal(c.Data, want) {
			t.Errorf("%s: data differ from the compiled class", name)
		}
	}
	check("example/Main", Application, path, path+"!/BOOT-INF/classes/example/Main.class")
	check("example/report/JsonFormatter", Library, path+"!/BOOT-INF/lib/report.jar",
		path+"!/BOOT-INF/lib/report.jar!/example/report/JsonFormatter.class")
	check("o/Other", Library, path+"!/BOOT-INF/lib/other.jar", path+"!/BOOT-INF/lib/other.jar!/o/Other.class")
	check("org/springframework/boot/loader/launch/JarLauncher", Library, path, path+"!/org/springframework/boot/loader/launch/JarLauncher.class")
	if n := len(cp.Classes); n != len(cls)+2 {
		t.Errorf("%d classes, want the %d of the example, the launcher and o/Other: %v", n, len(cls), names(cp))
	}
	for _, c := range cp.Classes {
		if strings.HasPrefix(c.Name, "BOOT-INF/") || c.Name == "f/F" {
			t.Errorf("%s read from %s: not on the class path", c.Name, c.Location())
		}
	}
	corrupt := path + "!/BOOT-INF/lib/corrupt.jar"
	found := false
	for _, w := range cp.Warnings {
		if w.Container == corrupt && strings.Contains(w.Error(), "zip directory") {
			found = true
		} else {
			t.Errorf("unexpected warning %v", w)
		}
	}
	if !found {
		t.Errorf("no warning names %s: %v", corrupt, cp.Warnings)
	}
	want := []Container{{path + "!/BOOT-INF/lib/report.jar", Library}, {path + "!/BOOT-INF/lib/other.jar", Library}}
	if !reflect.DeepEqual(cp.Nested, want) {
		t.Errorf("Nested = %v, want %v", cp.Nested, want)
	}
	cp2, err := Reopen(context.Background(), cfg, cp)
	if err != nil {
		t.Fatal(err)
	}
	defer cp2.Close()
	if !reflect.DeepEqual(cp2.Nested, want) || len(cp2.Classes) != len(cp.Classes) || len(cp2.Warnings) != len(cp.Warnings) {
		t.Errorf("after Reopen: Nested = %v, %d classes, %d warnings", cp2.Nested, len(cp2.Classes), len(cp2.Warnings))
	}
}

// TestWarAndEar reads an EAR holding a WAR (with its classes and a library),
// an EJB module and a library of its own.
func TestWarAndEar(t *testing.T) {
	war := buildZip(t, "",
		nestEntry{name: "index.jsp", data: []byte("<html/>")},
		nestEntry{name: "WEB-INF/web.xml", data: []byte("<web-app/>")},
		nestEntry{name: "WEB-INF/classes/w/Servlet.class", data: fakeClass("w/Servlet")},
		nestEntry{name: "WEB-INF/lib/dep.jar", data: buildZip(t, "", nestEntry{name: "d/Dep.class", data: fakeClass("d/Dep")})},
		nestEntry{name: "WEB-INF/lib/sub/ignored.jar", data: buildZip(t, "", nestEntry{name: "i/I.class", data: fakeClass("i/I")})},
	)
	ear := buildZip(t, "",
		nestEntry{name: "META-INF/application.xml", data: []byte("<application/>")},
		nestEntry{name: "web.war", data: war},
		nestEntry{name: "ejb.jar", data: buildZip(t, "", nestEntry{name: "e/Bean.class", data: fakeClass("e/Bean")}), store: true},
		nestEntry{name: "lib/common.jar", data: buildZip(t, "", nestEntry{name: "c/Common.class", data: fakeClass("c/Common")})},
	)
	path := writeTemp(t, "app.ear", ear)
	cp, err := Open(context.Background(), Config{NoJDK: true, Sources: []Source{{path, Application}}})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	want := map[string]string{
		"w/Servlet": "application " + path + "!/web.war!/WEB-INF/classes/w/Servlet.class",
		"d/Dep":     "library " + path + "!/web.war!/WEB-INF/lib/dep.jar!/d/Dep.class",
		"e/Bean":    "application " + path + "!/ejb.jar!/e/Bean.class",
		"c/Common":  "library " + path + "!/lib/common.jar!/c/Common.class",
	}
	got := map[string]string{}
	for _, c := range cp.Classes {
		got[c.Name] = c.Origin.String() + " " + c.Location()
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("classes:\n got %v\nwant %v", got, want)
	}
	if len(cp.Warnings) != 0 {
		t.Errorf("warnings: %v", cp.Warnings)
	}
	// The library directory comes first: it is the modules' parent.
	wantNested := []Container{{path + "!/lib/common.jar", Library}, {path + "!/web.war", Application},
		{path + "!/web.war!/WEB-INF/lib/dep.jar", Library}, {path + "!/ejb.jar", Application}}
	if !reflect.DeepEqual(cp.Nested, wantNested) {
		t.Errorf("Nested = %v\nwant %v", cp.Nested, wantNested)
	}
}

// countingReaderAt counts the bytes read through it.
type countingReaderAt struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestNestedStoredInPlace checks that a stored nested jar is read in place:
// its 4 MiB resource is never read, while the same jar compressed has to be
// read (and inflated) whole.
func TestNestedStoredInPlace(t *testing.T) {
	noise := make([]byte, 4<<20)
	rng := rand.NewChaCha8([32]byte{1})
	rng.Read(noise)
	lib := buildZip(t, "",
		nestEntry{name: "big.bin", data: noise, store: true},
		nestEntry{name: "l/L.class", data: fakeClass("l/L")})
	for _, store := range []bool{true, false} {
		outer := buildZip(t, "", nestEntry{name: "BOOT-INF/lib/lib.jar", data: lib, store: store})
		r := &countingReaderAt{r: bytes.NewReader(outer)}
		classes, warns, err := ReadJar(context.Background(), r, int64(len(outer)), ReadOptions{Container: "app.jar", Workers: 2})
		if err != nil || len(warns) != 0 || len(classes) != 1 || classes[0].Name != "l/L" || !bytes.Equal(classes[0].Data, fakeClass("l/L")) {
			t.Fatalf("store=%v: classes %v, warnings %v, error %v", store, classes, warns, err)
		}
		read := r.n.Load()
		if store && read > 64<<10 {
			t.Errorf("stored nested jar: %d bytes read, want the directories and the class only", read)
		}
		if !store && read < int64(len(noise)) {
			t.Errorf("compressed nested jar: only %d bytes read: the measurement is broken", read)
		}
	}
}

// TestNestedHostile checks the bounds on nesting: too deep, bombs, lying
// sizes, too many entries and corrupt archives are warnings naming the
// nested archive, and the rest loads.
func TestNestedHostile(t *testing.T) {
	read := func(t *testing.T, data []byte) ([]*Class, []Warning) {
		t.Helper()
		classes, warns, err := ReadJar(context.Background(), bytes.NewReader(data), int64(len(data)), ReadOptions{Container: "h.jar", Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		return classes, warns
	}
	wantWarning := func(t *testing.T, warns []Warning, container, msg string) {
		t.Helper()
		for _, w := range warns {
			if strings.Contains(w.Error(), container) && strings.Contains(w.Error(), msg) {
				return
			}
		}
		t.Errorf("no warning naming %s says %q: %v", container, msg, warns)
	}

	t.Run("depth", func(t *testing.T) {
		// Level i holds class p/Ci and the jar of level i+1.
		data := buildZip(t, "", nestEntry{name: "p/C6.class", data: fakeClass("p/C6")})
		for i := 5; i >= 0; i-- {
			data = buildZip(t, "", nestEntry{name: "p/C" + string(rune('0'+i)) + ".class", data: fakeClass("x")},
				nestEntry{name: "in.jar", data: data, store: i%2 == 0})
		}
		classes, warns := read(t, data)
		var got []string
		for _, c := range classes {
			got = append(got, c.Name)
		}
		if want := []string{"p/C0", "p/C1", "p/C2", "p/C3"}; !reflect.DeepEqual(got, want) {
			t.Errorf("classes %v, want %v", got, want)
		}
		wantWarning(t, warns, "h.jar!/in.jar!/in.jar!/in.jar!/in.jar", "nested 4 deep, over the limit of 3")
	})
	t.Run("bomb", func(t *testing.T) {
		data := buildZip(t, "",
			nestEntry{name: "ok/A.class", data: fakeClass("ok/A")},
			nestEntry{name: "lib/bomb.jar", data: make([]byte, 8<<20)})
		classes, warns := read(t, data)
		if len(classes) != 1 {
			t.Errorf("classes %v", classes)
		}
		wantWarning(t, warns, "h.jar!/lib/bomb.jar", "zip bomb")
	})
	t.Run("lying size", func(t *testing.T) {
		// Headers that declare a nested jar of 1 TiB, stored and compressed.
		body := buildZip(t, "", nestEntry{name: "x/X.class", data: fakeClass("x/X")})
		for method, msg := range map[uint16]string{zip.Store: "runs past the end of the archive", zip.Deflate: "over the 536870912-byte limit"} {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			compressed := uint64(len(body))
			if method == zip.Store {
				compressed = 1 << 40 // a stored entry's two sizes agree
			}
			w, err := zw.CreateRaw(&zip.FileHeader{Name: "huge.jar", Method: method,
				CompressedSize64: compressed, UncompressedSize64: 1 << 40, CRC32: crc32.ChecksumIEEE(body)})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(body)
			zw.Close()
			_, warns := read(t, buf.Bytes())
			wantWarning(t, warns, "h.jar!/huge.jar", msg)
		}
	})
	t.Run("corrupt", func(t *testing.T) {
		data := buildZip(t, "",
			nestEntry{name: "WEB-INF/classes/a/A.class", data: fakeClass("a/A")},
			nestEntry{name: "WEB-INF/lib/bad.jar", data: []byte("garbage, not a zip")},
			nestEntry{name: "WEB-INF/lib/good.jar", data: buildZip(t, "", nestEntry{name: "g/G.class", data: fakeClass("g/G")})})
		classes, warns := read(t, data)
		if len(classes) != 2 {
			t.Errorf("classes %v, want a/A and g/G", classes)
		}
		wantWarning(t, warns, "h.jar!/WEB-INF/lib/bad.jar", "zip directory")
	})
	t.Run("entries", func(t *testing.T) {
		// The limit is lowered: a nested jar of more entries than what is
		// left is skipped, and the next one is skipped too.
		var many []nestEntry
		for i := range 50 {
			many = append(many, nestEntry{name: "r/" + strings.Repeat("x", i+1), store: true})
		}
		data := buildZip(t, "",
			nestEntry{name: "a.jar", data: buildZip(t, "", many...), store: true},
			nestEntry{name: "b.jar", data: buildZip(t, "", nestEntry{name: "b/B.class", data: fakeClass("b/B")}), store: true})
		tr := newNestTree(int64(len(data)))
		tr.entries = 20
		_, warns, err := readZip(context.Background(), bytes.NewReader(data), int64(len(data)), 0, ReadOptions{Container: "h.jar", Workers: 1}, false, tr, 0)
		if err != nil {
			t.Fatal(err)
		}
		wantWarning(t, warns, "h.jar!/a.jar", "over what is left of the limit")
		wantWarning(t, warns, "h.jar!/b.jar", "later nested archives skipped")
	})
	t.Run("budget", func(t *testing.T) {
		// Many names for one stored jar: a small budget runs out.
		lib := buildZip(t, "", nestEntry{name: "l/L.class", data: fakeClass("l/L")})
		var es []nestEntry
		for i := range 20 {
			es = append(es, nestEntry{name: "lib" + strings.Repeat("_", i) + ".jar", data: lib, store: true})
		}
		data := buildZip(t, "", es...)
		tr := newNestTree(0)
		tr.total.Store(int64(5 * len(lib)))
		classes, warns, err := readZip(context.Background(), bytes.NewReader(data), int64(len(data)), 0, ReadOptions{Container: "h.jar", Workers: 1}, false, tr, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(classes) == 0 || len(classes) > 5 {
			t.Errorf("%d classes read on a budget of 5 jars", len(classes))
		}
		wantWarning(t, warns, "h.jar", "over 100 times its size")
	})
}

// FuzzNestedJar feeds mutations of nested archives to the jar reader: no
// panic, every class consistent and named after an archive at most
// maxNestingDepth deep.
func FuzzNestedJar(f *testing.F) {
	if data, err := os.ReadFile(exampleJar); err == nil {
		f.Add(buildZip(f, "", nestEntry{name: "BOOT-INF/lib/ex.jar", data: data, store: true},
			nestEntry{name: "BOOT-INF/classes/a/A.class", data: fakeClass("a/A")}))
	}
	inner := buildZip(f, "", nestEntry{name: "x/Y.class", data: fakeClass("x/Y")})
	f.Add(buildZip(f, "", nestEntry{name: "web.war", data: buildZip(f, "", nestEntry{name: "WEB-INF/lib/i.jar", data: inner, store: true})},
		nestEntry{name: "lib/i.jar", data: inner}))
	nest := inner
	for range 5 {
		nest = buildZip(f, "", nestEntry{name: "n.jar", data: nest, store: true})
	}
	f.Add(nest)
	f.Fuzz(func(t *testing.T, data []byte) {
		classes, _, _ := ReadJar(context.Background(), bytes.NewReader(data), int64(len(data)), ReadOptions{Container: "fuzz.ear", Release: 21, Workers: 2})
		seen := map[string]bool{}
		for _, c := range classes {
			if checkClass(c.Data) != nil || c.Hash != hashClass(c.Data) || !validClassName(c.Name) || seen[c.Container+" "+c.Name] ||
				!strings.HasPrefix(c.Container, "fuzz.ear") || strings.Count(c.Container, "!/") > maxNestingDepth {
				t.Fatalf("inconsistent class %+v", c)
			}
			seen[c.Container+" "+c.Name] = true
		}
	})
}

// TestBootClassPathIndex checks that BOOT-INF/classpath.idx orders the
// libraries: the class both define comes from the one listed first.
func TestBootClassPathIndex(t *testing.T) {
	lib := func(tag string) []byte {
		return buildZip(t, "", nestEntry{name: "d/D.class", data: fakeClass(tag)})
	}
	for _, tc := range []struct{ idx, winner string }{
		{"", "a.jar"},
		{"- \"BOOT-INF/lib/b.jar\"\n- \"BOOT-INF/lib/a.jar\"\n", "b.jar"},
		{"- \"b.jar\"\n", "b.jar"}, // Spring Boot 2.3
		{"- \"BOOT-INF/lib/a.jar\"\n", "a.jar"},
	} {
		es := []nestEntry{{name: "BOOT-INF/lib/a.jar", data: lib("a"), store: true}, {name: "BOOT-INF/lib/b.jar", data: lib("b"), store: true}}
		if tc.idx != "" {
			es = append(es, nestEntry{name: "BOOT-INF/classpath.idx", data: []byte(tc.idx)})
		}
		path := writeTemp(t, "app.jar", buildZip(t, "", es...))
		cp, err := Open(context.Background(), Config{NoJDK: true, Sources: []Source{{path, Application}}})
		if err != nil {
			t.Fatal(err)
		}
		if c := cp.Lookup("d/D"); c == nil || c.Container != path+"!/BOOT-INF/lib/"+tc.winner {
			t.Errorf("index %q: d/D from %v, want %s", tc.idx, c, tc.winner)
		}
		cp.Close()
	}
}

// TestLayoutNeedsItsDirectories checks that a jar with WEB-INF/ or BOOT-INF/
// resources but no class or library directory is a plain jar: its classes
// stay the application's.
func TestLayoutNeedsItsDirectories(t *testing.T) {
	for _, res := range []string{"WEB-INF/tags/x.tld", "BOOT-INF/layers.idx"} {
		data := buildZip(t, "", nestEntry{name: res, data: []byte("x")}, nestEntry{name: "a/A.class", data: fakeClass("a/A")})
		classes, warns, err := ReadJar(context.Background(), bytes.NewReader(data), int64(len(data)), ReadOptions{Container: "a.jar", Origin: Application})
		if err != nil || len(warns) != 0 || len(classes) != 1 || classes[0].Origin != Application {
			t.Errorf("with %s: classes %v, warnings %v, error %v", res, classes, warns, err)
		}
	}
}

// TestLocation covers the forms of Location besides nested archives.
func TestLocation(t *testing.T) {
	dir := writeClassDir(t, t.TempDir(), map[string][]byte{"a/A.class": fakeClass("a/A")})
	cp, err := Open(context.Background(), Config{NoJDK: true, Sources: []Source{{dir, Application}}})
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if got, want := cp.Lookup("a/A").Location(), filepath.Join(dir, "a", "A.class"); got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
	img := &Class{Container: "/jdk/lib/modules", Entry: "/java.base/java/lang/Object.class"}
	if got, want := img.Location(), "/jdk/lib/modules!/java.base/java/lang/Object.class"; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
}
