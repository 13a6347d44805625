package incremental

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// normalize makes empty slices nil, as gob decodes them.
func normalize(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			normalize(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			normalize(v.Field(i))
		}
	case reflect.Slice:
		if v.Len() == 0 {
			if !v.IsNil() {
				v.Set(reflect.Zero(v.Type()))
			}
			return
		}
		for i := range v.Len() {
			normalize(v.Index(i))
		}
	}
}

// TestFactsGobRoundTrip round-trips the facts of real classes (the JDK's java.base
// part the test can reach quickly, plus a test program with lambdas and indy).
func TestFactsGobRoundTrip(t *testing.T) {
	ix, err := index.Build(context.Background(), index.Config{JDKHome: javatest.JDKHome(t)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	n, indys := 0, 0
	for i, c := range ix.Hierarchy().Classes() {
		if i%5 != 0 { // a fifth of the JDK keeps it quick under -race
			continue
		}
		f, err := ix.ClassFacts(c)
		if err != nil || f == nil {
			continue
		}
		var buf bytes.Buffer
		if err := encodeFacts(&buf, 7, f); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		g, err := decodeFacts(buf.Bytes(), 7)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		want := cloneFacts(t, f)
		normalize(reflect.ValueOf(want))
		if !reflect.DeepEqual(g, want) {
			t.Fatalf("%s: facts differ after the round trip", c.Name)
		}
		for _, m := range f.Methods {
			for _, call := range m.Calls {
				if call.Indy != nil {
					indys++
				}
			}
		}
		n++
	}
	if n < 1000 || indys == 0 {
		t.Fatalf("only %d classes, %d indy calls checked", n, indys)
	}
}

// cloneFacts deep-copies f, so that normalising does not modify the index's shared facts.
func cloneFacts(t *testing.T, f *facts.Class) *facts.Class {
	return deepCopy(reflect.ValueOf(f)).Interface().(*facts.Class)
}

func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Elem().Type())
		p.Elem().Set(deepCopy(v.Elem()))
		return p
	case reflect.Struct:
		s := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			s.Field(i).Set(deepCopy(v.Field(i)))
		}
		return s
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			s.Index(i).Set(deepCopy(v.Index(i)))
		}
		return s
	}
	return v
}

func TestDiskCacheWarmAndCorrupt(t *testing.T) {
	out := t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	dir := t.TempDir()
	st := testSettings(t, out, "")

	// run builds a new host's first snapshot with the facts on disk and returns its
	// graph's text.
	run := func() string {
		dc, err := OpenDiskCache(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer dc.Close()
		h := NewHost(context.Background(), HostOptions{Facts: index.NewFactsCacheWithStore(dc)})
		defer h.Close()
		snaps, err := h.Build(context.Background(), Request{Reason: ReasonInitial, Options: st.Options, Projects: []*Project{st.project()}})
		if err != nil {
			t.Fatal(err)
		}
		return snapshotText(t, snaps[0], st.Options.Level)
	}
	w1 := run()

	b, _ := os.ReadFile(filepath.Join(out, "p/B.class"))
	bpath := (&DiskCache{dir: dir}).path(hashOf(b))
	if _, err := os.Stat(bpath); err != nil {
		t.Fatalf("no cache file for B: %v", err)
	}
	// Corrupt B's file: it is ignored, re-extracted and rewritten.
	if err := os.WriteFile(bpath, []byte("jcg-lsp facts v1\ngarbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := run(); got != w1 {
		t.Errorf("warm snapshot differs:\n%s\nwant\n%s", got, w1)
	}
	data, _ := os.ReadFile(bpath)
	if _, err := decodeFacts(data, hashOf(b)); err != nil {
		t.Errorf("corrupt cache file not rewritten: %v", err)
	}
	// Loading from disk gives the same facts.
	dc3, _ := OpenDiskCache(dir, nil)
	defer dc3.Close()
	if dc3.Load(hashOf(b)) == nil {
		t.Errorf("no facts loaded for B")
	}
}

func hashOf(b []byte) uint64 { return xxhash.Sum64(b) }
