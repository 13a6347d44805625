package analysis

import (
	"context"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// TestAccessOverrideEvidence checks what cg/access's expectation comments cannot:
// that a site an override reaches says which override (file and line) in its
// evidence and in its edges' reason, that a site no override reaches does not, and
// that Update declines on a program whose run reached overrides (a change may drop
// one, which narrows sites anywhere).
func TestAccessOverrideEvidence(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the JDK")
	}
	ctx := context.Background()
	ix := programsIndex(t, "cg/access")
	h := ix.Hierarchy()
	a := New(ix)
	opts := Options{Level: callgraph.EncapRespect, Algorithm: callgraph.CHA}
	g, tr, err := a.RunTrace(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	method := func(name string) *hierarchy.Method {
		t.Helper()
		for _, m := range h.Class("acc/Main").Methods {
			if m.Name == name {
				return m
			}
		}
		t.Fatalf("no method acc.Main.%s", name)
		return nil
	}
	site := func(m *hierarchy.Method, line int32) callgraph.Site {
		t.Helper()
		for _, s := range g.SitesOf(m.ID) {
			if s.Line == line {
				return s
			}
		}
		t.Fatalf("no site on line %d of %s", line, m)
		return callgraph.Site{}
	}
	reasons := func(m *hierarchy.Method, pc int32) string {
		var ev []string
		for _, b := range g.Callees(m.ID) {
			if b.PC == pc {
				ev = append(ev, g.Reasons[b.Reason].Evidence)
			}
		}
		return strings.Join(ev, "\n")
	}
	for _, c := range []struct {
		method string
		line   int32  // of the site
		want   string // in its evidence and its edges' reasons; "" for no override
	}{
		{"byName", 49, "setAccessible(true) at Main.java:48 (acc.Main.byName) may have reached this constructor"},
		{"array", 75, "AccessibleObject.setAccessible(array, true) at Main.java:74 (acc.Main.array)"},
		{"methods", 88, "trySetAccessible() at Main.java:84 (acc.Main.methods) may have reached this method"},
		{"methods", 89, "setAccessible(true) at Main.java:87 (acc.Main.methods)"},
		{"methods", 91, ""},
		{"literal", 63, ""},
	} {
		m := method(c.method)
		s := site(m, c.line)
		ev := s.Evidence + "\n" + reasons(m, s.PC)
		switch {
		case c.want == "" && strings.Contains(ev, " at Main.java:"):
			t.Errorf("%s line %d: no override reaches its object, but its evidence names one:\n%s", c.method, c.line, ev)
		case c.want != "" && (!strings.Contains(s.Evidence, c.want) || !strings.Contains(reasons(m, s.PC), c.want)):
			t.Errorf("%s line %d: evidence and reasons should name %q:\n%s", c.method, c.line, c.want, ev)
		}
	}
	_, _, err = a.Update(ctx, opts, Previous{Analyzer: a, Graph: g, Trace: tr}, []string{"acc/Main"})
	if !IsNotUpdatable(err) || !strings.Contains(err.Error(), "overrides access") {
		t.Errorf("Update after a run that reached overrides: %v; want it declined", err)
	}
}

// TestOverrideEscapes checks which reflective objects that overrides reach may leave
// their method (testdata/java/escapes: the methods named stays* keep theirs, those
// named leaves* let theirs go), so that a site whose object comes from elsewhere is
// voided by the second kind only. Each such method must hold an override, of one of
// the kinds the program shows (setAccessible, a Lookup from Method.invoke).
func TestOverrideEscapes(t *testing.T) {
	a := New(programsIndex(t, "escapes"))
	seen := map[string]bool{}
	for _, o := range a.overrideCalls() {
		name := o.caller.Name
		stays, leaves := strings.HasPrefix(name, "stays"), strings.HasPrefix(name, "leaves")
		if o.caller.Class.Name != "esc/Main" || !stays && !leaves {
			continue
		}
		seen[name] = true
		if len(o.origins) == 0 {
			t.Errorf("%s: the override of %s has no known origin", o.where, name)
			continue
		}
		for _, x := range o.origins {
			if got := a.escapes(x); got != leaves {
				t.Errorf("%s: escapes = %v, want %v", o.where, got, leaves)
			}
		}
	}
	for _, m := range a.h.Class("esc/Main").Methods {
		if (strings.HasPrefix(m.Name, "stays") || strings.HasPrefix(m.Name, "leaves")) && !seen[m.Name] {
			t.Errorf("esc.Main.%s holds no override", m.Name)
		}
	}
}
