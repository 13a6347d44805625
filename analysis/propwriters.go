package analysis

import (
	"cmp"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/jdkmodel"
	"github.com/jcg-lsp/jcg-lsp/analysis/values"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// PropertyWriter is a call site through which reachable code may set every system
// property, or every security property: a dynamic call (reflection, a method
// handle, native code, ...) whose targets include a property writer, to which it
// hands arguments the analysis does not follow. At Correct-Env one such site is
// enough for every property to be unknown instead of unset (resolve_env.go), so
// these sites are what keeps the analysed environment from narrowing the graph.
type PropertyWriter struct {
	Caller  callgraph.NodeID
	PC      int32
	Line    int32
	Bundles []int32             // the site's bundles that reach a writer, in the graph's order
	Writers []*hierarchy.Method // the writers among their targets
}

// Security reports whether the site may set every security property
// (Security.setProperty), besides or instead of the system properties.
func (w PropertyWriter) Security() bool {
	return slices.ContainsFunc(w.Writers, func(m *hierarchy.Method) bool { return writerSpace(m) == values.SecurityKey })
}

// PropertyWriters returns the sites of g through which reachable code may set
// every property, sorted by caller and offset; nil below Correct-Env, where the
// environment is unknown anyway. The writers are System.setProperty, setProperties
// and getProperties (whose object the caller may change) and Security.setProperty.
// A run also counts plain calls whose key the string analysis does not know, and
// dynamic calls of methods that return System.getProperties()'s object; the graph
// does not say which those are, so they are not listed (a run tells the plain
// ones to Options.PlainPropertyWriter). A JDK native whose model
// names the properties it sets is not a site (applyEffects writes those keys).
func PropertyWriters(g *callgraph.Graph, h *hierarchy.Hierarchy) []PropertyWriter {
	if !g.Level.UsesAnalysedEnvironment() {
		return nil
	}
	var model *jdkmodel.Model
	if g.Level.ModelsJDK() {
		model, _ = jdkmodel.Shipped() // a model that does not parse sets nothing
	}
	setsKeys := func(b callgraph.Bundle) bool {
		return b.PC == -1 && b.Caller != g.Native && nativeSetsKeys(model, h.Methods()[b.Caller])
	}
	type key struct {
		caller callgraph.NodeID
		pc     int32
	}
	sites := map[key]*PropertyWriter{}
	for _, api := range propertyWriterAPIs(h) {
		for _, bi := range g.Callers(api.ID) {
			b := g.Bundles[bi]
			if !g.Reasons[b.Reason].Kind.Dynamic() || setsKeys(b) {
				continue
			}
			k := key{b.Caller, b.PC}
			w := sites[k]
			if w == nil {
				w = &PropertyWriter{Caller: b.Caller, PC: b.PC, Line: b.Line}
				sites[k] = w
			}
			if !slices.Contains(w.Bundles, bi) {
				w.Bundles = append(w.Bundles, bi)
			}
			if !slices.Contains(w.Writers, api) {
				w.Writers = append(w.Writers, api)
			}
		}
	}
	out := make([]PropertyWriter, 0, len(sites))
	for _, w := range sites {
		slices.Sort(w.Bundles)
		out = append(out, *w)
	}
	slices.SortFunc(out, func(a, b PropertyWriter) int {
		return cmp.Or(cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.PC, b.PC))
	})
	return out
}

// propertyWriterAPIs returns the methods whose call with unknown arguments may set
// every property: those newEnvRun watches in dynamic bundles, in a fixed order.
func propertyWriterAPIs(h *hierarchy.Hierarchy) []*hierarchy.Method {
	var out []*hierarchy.Method
	if sys := h.Class("java/lang/System"); sys != nil {
		for _, m := range sys.Methods {
			switch m.Name {
			case "setProperty", "setProperties", "getProperties":
				out = append(out, m)
			}
		}
	}
	if sec := h.Class("java/security/Security"); sec != nil {
		for _, m := range sec.Methods {
			if m.Name == "setProperty" {
				out = append(out, m)
			}
		}
	}
	return out
}

// writerSpace returns the namespace (keySpace's) of the keys writer m sets.
func writerSpace(m *hierarchy.Method) string {
	if WritesSecurity(m) {
		return values.SecurityKey
	}
	return ""
}

// WritesSecurity reports whether property writer m writes security properties
// (Security.setProperty) rather than system properties.
func WritesSecurity(m *hierarchy.Method) bool { return m.Class.Name == "java/security/Security" }
