package classpath

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
)

// TestContainers checks that Containers lists what was read, in class-path order,
// with origins, and leaves out paths that are not containers.
func TestContainers(t *testing.T) {
	dir := writeClassDir(t, t.TempDir(), map[string][]byte{"a/A.class": fakeClass("a/A")})
	jar := writeTemp(t, "lib.jar", makeZip(t, "", zipEntry{"b/B.class", fakeClass("b/B")}))
	missing := filepath.Join(t.TempDir(), "missing.jar")
	cfg := Config{NoJDK: true, Sources: []Source{{dir, Application}, {missing, Library}, {jar, Library}}}
	cp, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	want := []Container{{dir, Application}, {jar, Library}}
	if !reflect.DeepEqual(cp.Containers, want) {
		t.Errorf("Containers = %v, want %v", cp.Containers, want)
	}
	// Reopen reuses the jar: it is still listed.
	cp2, err := Reopen(context.Background(), cfg, cp)
	if err != nil {
		t.Fatal(err)
	}
	defer cp2.Close()
	if !reflect.DeepEqual(cp2.Containers, want) {
		t.Errorf("after Reopen: Containers = %v, want %v", cp2.Containers, want)
	}
}
