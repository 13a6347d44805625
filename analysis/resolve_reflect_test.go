package analysis

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// TestDynamicSiteRecords checks what the expectation comments of testdata/java/cg
// cannot: the reasons of the API resolvers' edges (kind, fallback level, evidence) and
// the target sets of their sites, on one Encap-Respect CHA run over the reflection,
// method-handle, proxy and serialization programs.
func TestDynamicSiteRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the JDK")
	}
	ctx := context.Background()
	ix := programsIndex(t, "cg/reflection", "cg/methodhandles", "cg/proxy", "cg/serialization")
	h := ix.Hierarchy()
	g, err := New(ix).Run(ctx, Options{Level: callgraph.EncapRespect, Algorithm: callgraph.CHA})
	if err != nil {
		t.Fatal(err)
	}
	method := func(class, name, desc string) *hierarchy.Method {
		t.Helper()
		c := h.Class(class)
		if c == nil {
			t.Fatalf("no class %s", class)
		}
		for _, m := range c.Methods {
			if m.Name == name && (desc == "" || m.Desc == desc) {
				return m
			}
		}
		t.Fatalf("no method %s.%s%s", class, name, desc)
		return nil
	}
	// siteAt returns the site of an API in a method (the first one when line is 0).
	siteAt := func(m *hierarchy.Method, api string, line int32) callgraph.Site {
		t.Helper()
		for _, s := range g.SitesOf(m.ID) {
			if s.API == api && (line == 0 || s.Line == line) {
				return s
			}
		}
		t.Fatalf("no %s site in %s (line %d)", api, m, line)
		return callgraph.Site{}
	}
	// reasonsAt returns the reasons of the bundles from one instruction.
	reasonsAt := func(m *hierarchy.Method, pc int32) []callgraph.Reason {
		var out []callgraph.Reason
		for _, b := range g.Callees(m.ID) {
			if b.PC == pc {
				out = append(out, g.Reasons[b.Reason])
			}
		}
		return out
	}
	targets := func(s callgraph.Site) []int32 {
		if s.Targets < 0 {
			return nil
		}
		return g.Sets[s.Targets]
	}

	t.Run("forName falls back to level 2", func(t *testing.T) {
		m := method("refl/Main", "loading", "")
		s := siteAt(m, "Class.forName", 0)
		if s.Status != callgraph.Unresolved || s.Fallback != callgraph.EncapRespect || s.Feature != callgraph.FeatLoading {
			t.Errorf("site %+v: want an unresolved loading site with fallback 2", s)
		}
		rs := reasonsAt(m, s.PC)
		if !slices.ContainsFunc(rs, func(r callgraph.Reason) bool {
			return r.Kind == callgraph.KindReflection && r.Fallback == callgraph.EncapRespect && strings.Contains(r.Evidence, "<clinit>")
		}) {
			t.Errorf("reasons at the forName site: %+v", rs)
		}
	})

	t.Run("lookup and invocation", func(t *testing.T) {
		m := method("mh/Main", "main", "")
		greet := method("mh/Greeter", "greet", "")
		loud := method("mh/LoudGreeter", "greet", "")
		twice := method("mh/Main", "twice", "")
		lookup := siteAt(m, "MethodHandles.Lookup.findStatic", 0)
		if lookup.Status != callgraph.Resolved || !slices.Contains(targets(lookup), twice.ID) {
			t.Errorf("findStatic site %+v: want resolved with target twice", lookup)
		}
		for _, r := range reasonsAt(m, lookup.PC) {
			if r.Kind == callgraph.KindMethodHandle {
				t.Errorf("a lookup calls nothing, got an edge for %+v", r)
			}
		}
		inv := siteAt(m, "MethodHandle.invokeExact", 0)
		if inv.Status != callgraph.Resolved || inv.Fallback != 0 {
			t.Errorf("invokeExact site %+v: want resolved without fallback", inv)
		}
		if ts := targets(inv); !slices.Contains(ts, greet.ID) || !slices.Contains(ts, loud.ID) {
			t.Errorf("invokeExact targets %v: want Greeter.greet and LoudGreeter.greet", ts)
		}
		var ev []string
		for _, r := range reasonsAt(m, inv.PC) {
			if r.Kind == callgraph.KindMethodHandle {
				ev = append(ev, r.Evidence)
				if r.Fallback != 0 {
					t.Errorf("resolved edge with fallback: %+v", r)
				}
			}
		}
		if len(ev) == 0 || !strings.Contains(ev[0], `findVirtual — constant arguments (mh.Greeter, "greet"`) {
			t.Errorf("evidence of the invokeExact edges: %q", ev)
		}
	})

	t.Run("proxy with an unknown handler", func(t *testing.T) {
		m := method("prx/Main", "make", "")
		s := siteAt(m, "Proxy.newProxyInstance", 0)
		if s.Status != callgraph.Unresolved || s.Fallback != 0 || s.Feature != callgraph.FeatProxy {
			t.Errorf("site %+v: want unresolved without a level fallback", s)
		}
		if !slices.Contains(targets(s), method("prx/LogHandler", "invoke", "").ID) {
			t.Errorf("targets %v lack LogHandler.invoke", targets(s))
		}
	})

	t.Run("serialization reasons", func(t *testing.T) {
		m := method("ser/Main", "main", "")
		read := method("ser/Data", "readObject", "")
		kinds := map[callgraph.Kind]bool{}
		for _, b := range g.Callees(m.ID) {
			r := g.Reasons[b.Reason]
			if r.Resolver != "serialization" {
				continue
			}
			kinds[r.Kind] = true
			if _, ok := slices.BinarySearch(g.Sets[b.Set], read.ID); ok && (r.Kind != callgraph.KindSerialization || !strings.Contains(r.Evidence, "readObject")) {
				t.Errorf("Data.readObject reached for %+v", r)
			}
		}
		if !kinds[callgraph.KindSerialization] || !kinds[callgraph.KindInit] {
			t.Errorf("serialization edge kinds %v: want serialization and init", kinds)
		}
	})
}
