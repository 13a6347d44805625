package classpath

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestReopen: unchanged container files are shared with the previous class path
// (same classes, one mapping that outlives the class path that made it);
// rewritten jars and directories are read again.
func TestReopen(t *testing.T) {
	requireDir(t, jdk17)
	ctx := context.Background()
	dir := writeClassDir(t, t.TempDir(), map[string][]byte{"p/A.class": fakeClass("A")})
	jar := writeTemp(t, "lib.jar", makeZip(t, "", zipEntry{"q/B.class", fakeClass("B")}))
	cfg := Config{JDKHome: jdk17, Sources: []Source{{Path: dir}, {Path: jar, Origin: Library}}}

	first, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The directory changes; the jar and the JDK do not.
	writeClassDir(t, dir, map[string][]byte{"p/A.class": fakeClass("A2"), "p/C.class": fakeClass("C")})
	second, err := Reopen(ctx, cfg, first)
	if err != nil {
		t.Fatal(err)
	}
	str, b := first.Lookup("java/lang/String"), first.Lookup("q/B")
	if second.Lookup("java/lang/String") != str || second.Lookup("q/B") != b {
		t.Errorf("unchanged JDK image and jar were read again")
	}
	if a := second.Lookup("p/A"); a == first.Lookup("p/A") || !bytes.Equal(a.Data, fakeClass("A2")) || second.Lookup("p/C") == nil {
		t.Errorf("the changed directory was not read again")
	}
	want := bytes.Clone(str.Data)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	// The image is still mapped for second: its bytes are readable.
	if got := second.Lookup("java/lang/String").Data; !bytes.Equal(got, want) {
		t.Fatalf("String's bytes changed after the first class path closed")
	}
	img := second.containers[filepath.Join(jdk17, "lib", "modules")]
	if img == nil || img.mapping == nil || img.mapping.refs.Load() != 1 {
		t.Fatalf("image container %+v: want one reference left", img)
	}

	// A rewritten jar (new time) is read again, even with the same size.
	later := time.Now().Add(time.Minute)
	os.WriteFile(jar, makeZip(t, "", zipEntry{"q/B.class", fakeClass("b")}), 0o644)
	os.Chtimes(jar, later, later)
	third, err := Reopen(ctx, cfg, second)
	if err != nil {
		t.Fatal(err)
	}
	if nb := third.Lookup("q/B"); nb == b || !bytes.Equal(nb.Data, fakeClass("b")) {
		t.Errorf("rewritten jar not read again")
	}
	if third.Lookup("java/lang/String") != str {
		t.Errorf("JDK read again")
	}
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	if err := third.Close(); err != nil {
		t.Fatal(err)
	}
	if n := img.mapping.refs.Load(); n != 0 {
		t.Errorf("mapping has %d references after every class path closed", n)
	}
	// A closed class path's containers are not reused: the mapping is gone.
	fourth, err := Reopen(ctx, cfg, third)
	if err != nil {
		t.Fatal(err)
	}
	defer fourth.Close()
	if fourth.Lookup("java/lang/String") == str {
		t.Errorf("reused a container whose mapping was unmapped")
	}
}
