package main

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// springBootJar lays the compiled example out as a Spring Boot executable jar:
// example/report/ in a stored library jar, the rest under BOOT-INF/classes/,
// a launcher class at the root, and a corrupt library.
func springBootJar(t *testing.T) string {
	t.Helper()
	zr, err := zip.OpenReader(exampleJar)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var app, lib bytes.Buffer
	aw, lw := zip.NewWriter(&app), zip.NewWriter(&lib)
	copyTo := func(zw *zip.Writer, name string, data []byte, method uint16) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	copyTo(aw, "META-INF/MANIFEST.MF", []byte("Manifest-Version: 1.0\nMain-Class: org.springframework.boot.loader.launch.JarLauncher\nStart-Class: example.Main\n\n"), zip.Deflate)
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".class") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(f.Name, "example/report/") {
			copyTo(lw, f.Name, data, zip.Deflate)
		} else {
			copyTo(aw, "BOOT-INF/classes/"+f.Name, data, zip.Deflate)
		}
	}
	if err := lw.Close(); err != nil {
		t.Fatal(err)
	}
	copyTo(aw, "BOOT-INF/lib/report.jar", lib.Bytes(), zip.Store)
	copyTo(aw, "BOOT-INF/lib/broken.jar", []byte("not a jar"), zip.Store)
	if err := aw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "app.jar")
	if err := os.WriteFile(path, app.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestIndexNestedListing checks that `index --containers --classes` names the
// nested library and where each class was read, and that the corrupt library
// is a warning naming it.
func TestIndexNestedListing(t *testing.T) {
	app := springBootJar(t)
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"index", "--no-jdk", "--headers-only", "--containers", "--classes", app}, &out, &errb); err != nil {
		t.Fatalf("index: %v\n%s", err, errb.String())
	}
	text := out.String()
	lib := app + "!/BOOT-INF/lib/report.jar"
	for _, want := range []string{
		"application  8 classes  " + app + "\n",
		"library      3 classes  " + lib + "\n",
		"application  example/Main                           " + app + "!/BOOT-INF/classes/example/Main.class\n",
		"library      example/report/JsonFormatter           " + lib + "!/example/report/JsonFormatter.class\n",
		"warnings: 1\n  classpath: " + app + "!/BOOT-INF/lib/broken.jar: ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

// TestAnalyzeSpringBootJar builds the call graph of the Spring Boot layout: the
// main class under BOOT-INF/classes is the entry point, and its calls reach the
// formatters of the nested library.
func TestAnalyzeSpringBootJar(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the JDK")
	}
	app := springBootJar(t)
	cg := filepath.Join(t.TempDir(), "cg.json")
	var out, errb bytes.Buffer
	args := []string{"callgraph", "--level", "1", "--format", "json", "--app-only", "--out", cg, app}
	if err := run(context.Background(), args, &out, &errb); err != nil {
		t.Fatalf("callgraph: %v\n%s", err, errb.String())
	}
	data, err := os.ReadFile(cg)
	if err != nil {
		t.Fatal(err)
	}
	for _, callee := range []string{"example/report/JsonFormatter.format", "example/report/PlainFormatter.format"} {
		if !bytes.Contains(data, []byte(`"caller":"example/Main.main([Ljava/lang/String;)V","callee":"`+callee)) {
			t.Errorf("no edge from example/Main.main to %s", callee)
		}
	}
	if !bytes.Contains(data, []byte(`"caller":"example/report/JsonFormatter.format`)) {
		t.Error("the library's methods are not reachable")
	}
}
