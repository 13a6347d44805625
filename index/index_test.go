package index

import (
	"context"
	"testing"
)

// TestRebuildSharesUnchanged: a rebuild over an unchanged JDK keeps the parsed
// classes (and so their facts and everything keyed by them) and builds an equal
// hierarchy, which stays usable after the first index closes.
func TestRebuildSharesUnchanged(t *testing.T) {
	cfg := jdkConfig(t)
	ctx := context.Background()
	first, err := Build(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Rebuild(ctx, cfg, nil, first)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	c1, c2 := first.Hierarchy().Class("java/util/HashMap"), second.Hierarchy().Class("java/util/HashMap")
	if c1 == nil || c2 == nil || c1.File != c2.File {
		t.Fatalf("HashMap parsed again (or missing): %p %p", c1, c2)
	}
	if n1, n2 := len(first.Hierarchy().Methods()), len(second.Hierarchy().Methods()); n1 != n2 {
		t.Errorf("hierarchies differ: %d and %d methods", n1, n2)
	}
	first.Close()
	// Facts come from the shared bytes, which the second index keeps mapped.
	f, err := second.ClassFacts(c2)
	if err != nil || f == nil || len(f.Methods) != len(c2.Methods) {
		t.Errorf("facts of HashMap after the first index closed: %v", err)
	}
}

// TestFactsCacheRetain: facts of classes no longer on the class path are dropped.
func TestFactsCacheRetain(t *testing.T) {
	cfg := jdkConfig(t)
	cache := NewFactsCache()
	ix, err := Build(context.Background(), cfg, cache)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	for _, n := range []string{"java/lang/String", "java/util/HashMap"} {
		if _, err := ix.ClassFacts(h.Class(n)); err != nil {
			t.Fatal(err)
		}
	}
	cache.put(12345, nil) // a class version no longer on the class path
	cache.Retain(ix)
	if n := cache.Len(); n != 2 {
		t.Errorf("cache holds %d classes after Retain, want 2", n)
	}
}
