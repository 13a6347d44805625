package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestMainClassOtherLanguages checks the main classes users of Scala and Kotlin name
// (testdata/java/entries, the classes scalac and kotlinc make, written in Java): a
// Scala object's module class means its static forwarder, a Kotlin file its file
// class, each with a note; Java main classes are taken as they are; and a run from
// the module class reaches the object's main and what it calls.
func TestMainClassOtherLanguages(t *testing.T) {
	ix := programsIndex(t, "entries")
	h := ix.Hierarchy()
	for _, c := range []struct {
		name, want string
		note       bool
		err        string
	}{
		{"scalalike.Hello", "scalalike/Hello", false, ""},
		{"scalalike.Hello$", "scalalike/Hello", true, ""},
		{"scalalike/Hello$", "scalalike/Hello", true, ""},
		{"kotlinlike.AppKt", "kotlinlike/AppKt", false, ""},
		{"kotlinlike.App", "kotlinlike/AppKt", true, ""},
		{"kotlinlike.Nope", "", false, "is not on the class path"},
		{"java.lang.String", "", false, "has no public static void main"},
	} {
		got, note, err := MainClass(h, c.name)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one saying %q", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case got.Name != c.want || (note != "") != c.note:
			t.Errorf("%s: %s with note %q, want %s (note: %v)", c.name, got.Name, note, c.want, c.note)
		}
	}

	g, err := New(ix).Run(context.Background(), Options{Level: callgraph.CorrectJDK, Algorithm: callgraph.RTA, Mains: []string{"scalalike.Hello$"}})
	if err != nil {
		t.Fatal(err)
	}
	reached := func(cls, name string) bool {
		c := h.Class(cls)
		if c == nil {
			t.Fatalf("no class %s", cls)
		}
		for _, m := range c.Methods {
			if m.Name == name {
				return g.Reachable.Has(m.ID)
			}
		}
		t.Fatalf("no method %s.%s", cls, name)
		return false
	}
	for _, m := range [][2]string{{"scalalike/Hello", "main"}, {"scalalike/Hello$", "main"}, {"scalalike/Hello$", "greet"}} {
		if !reached(m[0], m[1]) {
			t.Errorf("%s.%s is not reachable from the module class's entry", m[0], m[1])
		}
	}
	// The entry is the forwarder; AppKt.main is no entry (it is reachable all the
	// same, through the JDK's unresolved reflective sites' fallback to every public
	// method).
	entries := map[string]bool{}
	for _, id := range g.Entries {
		m := h.Methods()[id]
		entries[m.Class.Name+"."+m.Name] = true
	}
	if !entries["scalalike/Hello.main"] || entries["kotlinlike/AppKt.main"] || entries["scalalike/Hello$.main"] {
		t.Errorf("entry points %v: want scalalike/Hello.main, not the module class's instance main or AppKt.main", entries)
	}
}
