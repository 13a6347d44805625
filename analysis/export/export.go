// Package export writes call graphs for other tools: the JCG benchmark's JSON format
// (docs/jcg-format.md), Graphviz DOT, and jcg-lsp's own JSON with every
// edge's reason.
package export

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Options filter what is written.
type Options struct {
	// AppOnly writes only methods of application and library classes as callers (JDK
	// methods still appear as callees).
	AppOnly bool
}

// graphView pairs a graph with the program it was computed from.
type graphView struct {
	g    *callgraph.Graph
	p    analysis.Program
	ms   []*hierarchy.Method
	opts Options
}

func newView(g *callgraph.Graph, p analysis.Program, opts Options) *graphView {
	return &graphView{g: g, p: p, ms: p.Hierarchy().Methods(), opts: opts}
}

// name is a node's name in DOT and JSON output: class.name+descriptor.
func (v *graphView) name(id int32) string {
	if id == v.g.Native {
		return "<NativeMethod>"
	}
	m := v.ms[id]
	return m.Class.Name + "." + m.Name + m.Desc
}

// callers calls fn for every reachable method that the options keep as a caller.
func (v *graphView) callers(fn func(m *hierarchy.Method) error) error {
	var err error
	v.g.Reachable.ForEach(func(id int32) {
		if err != nil || id == v.g.Native {
			return
		}
		m := v.ms[id]
		if v.opts.AppOnly && m.Class.Origin == hierarchy.JDK {
			return
		}
		err = fn(m)
	})
	return err
}

// jcgMethod is the JCG JSON form of a method.
type jcgMethod struct {
	Name           string   `json:"name"`
	DeclaringClass string   `json:"declaringClass"`
	ReturnType     string   `json:"returnType"`
	ParameterTypes []string `json:"parameterTypes"`
}

func jcgOf(class, name, desc string) jcgMethod {
	params, ret, err := classfile.ParseMethodDescriptor(desc)
	if err != nil {
		ret = "V"
	}
	if params == nil {
		params = []string{}
	}
	dc := class
	if len(dc) == 0 || dc[0] != '[' {
		dc = "L" + class + ";"
	}
	return jcgMethod{Name: name, DeclaringClass: dc, ReturnType: ret, ParameterTypes: params}
}

// WriteJCG writes g in the JCG benchmark's call-graph format: one call site per call
// instruction with its targets, and, for edges that reach methods of another name
// than the instruction's (reflection, lambdas, Thread.start, initialisers, ...), one
// extra call site per name on the same line, whose declared target is such a callee
// and whose targets are all of them. JCG judges a line and name by one site it
// finds, so the targets of a name must not be split between sites (and a fallback
// site's hundred thousand targets take a few thousand sites, not one each).
//
// The output is written as it is made, each method's JSON encoded once: a
// whole-program graph has tens of millions of targets (a fallback site alone a
// hundred thousand), which as encoding/json values cost 30 GB of allocations and
// 5 GB of memory for javacc.
func WriteJCG(w io.Writer, g *callgraph.Graph, p analysis.Program, opts Options) error {
	v := newView(g, p, opts)
	jw := &jcgWriter{graphView: v, w: bufio.NewWriterSize(w, 1<<20), methods: make([]jcgEncoded, len(v.ms))}
	jw.w.WriteString(`{"reachableMethods":[`)
	first := true
	err := v.callers(func(m *hierarchy.Method) error {
		if !first {
			jw.w.WriteByte(',')
		}
		first = false
		jw.w.WriteString(`{"method":`)
		jw.w.Write(jw.method(m.ID).json)
		// encoding/json's Encoder ended each value with a newline: kept, so the
		// output stays what it was.
		jw.w.WriteString("\n,\"callSites\":")
		return jw.sites(m)
	})
	if err != nil {
		return err
	}
	jw.w.WriteString("]}\n")
	return jw.w.Flush()
}

// jcgWriter writes the JCG format, each method's JSON made once.
type jcgWriter struct {
	*graphView
	w       *bufio.Writer
	methods []jcgEncoded // by method ID, made on first use
	num     []byte
}

// jcgEncoded is a method in the JCG form and its JSON.
type jcgEncoded struct {
	m    jcgMethod
	json []byte
}

func (jw *jcgWriter) method(id int32) *jcgEncoded {
	e := &jw.methods[id]
	if e.json == nil {
		m := jw.ms[id]
		e.m = jcgOf(m.Class.Name, m.Name, m.Desc)
		e.json = mustJSON(e.m)
	}
	return e
}

// mustJSON encodes a jcgMethod, which has only strings: it cannot fail.
func mustJSON(m jcgMethod) []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// jcgSite is a call site being collected. Its declared target is the instruction's
// (decl, JSON), or for a site named after its callees the first of them in the
// output's order (decl nil).
type jcgSite struct {
	line    int32
	decl    []byte // JSON of the declared target of an instruction's site
	targets []int32
}

// jcgKey is a site: an instruction's offset and the name of its declared target.
type jcgKey struct {
	pc   int32
	name string
}

// sites writes the call sites of one method, then the end of its object.
func (jw *jcgWriter) sites(m *hierarchy.Method) error {
	f := jw.p.Facts(m)
	sites := map[jcgKey]*jcgSite{}
	var order []jcgKey
	site := func(k jcgKey, line int32, decl func() []byte) *jcgSite {
		s := sites[k]
		if s == nil {
			s = &jcgSite{line: line}
			if decl != nil {
				s.decl = decl()
			}
			sites[k] = s
			order = append(order, k)
		}
		return s
	}
	refJSON := func(r *classfile.Ref) func() []byte {
		return func() []byte { return mustJSON(jcgOf(r.Class, r.Name, r.Desc)) }
	}
	// Every call instruction is a site, even one without targets.
	if f != nil {
		for _, c := range f.Calls {
			if c.Indy != nil {
				continue
			}
			site(jcgKey{pc: c.PC, name: c.Ref.Name}, c.Line, refJSON(c.Ref))
		}
	}
	for _, b := range jw.g.Callees(m.ID) {
		r := jw.g.Reasons[b.Reason]
		var instr *facts.Call
		if b.Call >= 0 && f != nil && int(b.Call) < len(f.Calls) && f.Calls[b.Call].Indy == nil && !r.Kind.Dynamic() {
			instr = &f.Calls[b.Call]
		}
		for _, id := range jw.g.Sets[b.Set] {
			if id == jw.g.Native {
				continue
			}
			if instr != nil {
				s := site(jcgKey{pc: instr.PC, name: instr.Ref.Name}, b.Line, refJSON(instr.Ref))
				s.targets = append(s.targets, id)
				continue
			}
			// An edge the instruction does not name: the site named after its callee
			// (the instruction's own when it has the same name).
			s := site(jcgKey{pc: b.PC, name: jw.ms[id].Name}, b.Line, nil)
			s.targets = append(s.targets, id)
		}
	}
	// By pc, then by what the site names: the bundles' order depends on the order
	// the run made its target sets, which is not the same from run to run.
	slices.SortFunc(order, func(a, b jcgKey) int {
		return cmp.Or(cmp.Compare(a.pc, b.pc), strings.Compare(a.name, b.name))
	})
	w := jw.w
	w.WriteByte('[')
	for i, k := range order {
		s := sites[k]
		if i > 0 {
			w.WriteByte(',')
		}
		for _, id := range s.targets {
			jw.method(id)
		}
		slices.SortFunc(s.targets, func(a, b int32) int { return cmpJCG(jw.methods[a].m, jw.methods[b].m) })
		s.targets = slices.CompactFunc(s.targets, func(a, b int32) bool { return cmpJCG(jw.methods[a].m, jw.methods[b].m) == 0 })
		w.WriteString(`{"declaredTarget":`)
		if s.decl != nil {
			w.Write(s.decl)
		} else {
			w.Write(jw.methods[s.targets[0]].json)
		}
		w.WriteString(`,"line":`)
		w.Write(strconv.AppendInt(jw.num[:0], int64(s.line), 10))
		w.WriteString(`,"pc":`)
		w.Write(strconv.AppendInt(jw.num[:0], int64(k.pc), 10))
		w.WriteString(`,"targets":[`)
		for j, id := range s.targets {
			if j > 0 {
				w.WriteByte(',')
			}
			w.Write(jw.methods[id].json)
		}
		w.WriteString("]}")
	}
	_, err := w.WriteString("]\n}")
	return err
}

func cmpJCG(a, b jcgMethod) int {
	if a.DeclaringClass != b.DeclaringClass {
		return cmpStr(a.DeclaringClass, b.DeclaringClass)
	}
	if a.Name != b.Name {
		return cmpStr(a.Name, b.Name)
	}
	if a.ReturnType != b.ReturnType {
		return cmpStr(a.ReturnType, b.ReturnType)
	}
	return slices.Compare(a.ParameterTypes, b.ParameterTypes)
}

func cmpStr(a, b string) int {
	if a < b {
		return -1
	}
	return 1
}

// WriteDOT writes g as a Graphviz digraph, one node per method and one edge per
// (caller, callee, kind).
func WriteDOT(w io.Writer, g *callgraph.Graph, p analysis.Program, opts Options) error {
	v := newView(g, p, opts)
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, "digraph callgraph {\n  label=%s;\n  node [shape=box, fontname=monospace];\n", strconv.Quote(g.Algorithm.String()+" call graph, level "+g.Level.Title()))
	name := func(id int32) string { return strconv.Quote(v.name(id)) }
	type edge struct {
		to   int32
		kind callgraph.Kind
	}
	err := v.callers(func(m *hierarchy.Method) error {
		seen := map[edge]bool{}
		for _, b := range g.Callees(m.ID) {
			k := g.Reasons[b.Reason].Kind
			for _, id := range g.Sets[b.Set] {
				if e := (edge{id, k}); !seen[e] {
					seen[e] = true
					style := ""
					if k.Dynamic() {
						style = ", style=dashed"
					}
					fmt.Fprintf(bw, "  %s -> %s [label=%s%s];\n", name(m.ID), name(id), strconv.Quote(k.String()), style)
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// jsonEdge is one edge of jcg-lsp's own JSON format.
type jsonEdge struct {
	Caller   string `json:"caller"`
	Callee   string `json:"callee"`
	PC       int32  `json:"pc"`
	Line     int32  `json:"line"`
	Kind     string `json:"kind"`
	Resolver string `json:"resolver"`
	Evidence string `json:"evidence,omitempty"`
	Fallback int    `json:"fallbackLevel,omitempty"`
}

type jsonSite struct {
	Caller   string `json:"caller"`
	PC       int32  `json:"pc"`
	Line     int32  `json:"line"`
	Feature  string `json:"feature"`
	API      string `json:"api"`
	Status   string `json:"status"`
	Evidence string `json:"evidence,omitempty"`
	Fallback int    `json:"fallbackLevel,omitempty"`
	// Points are the specification points: "method line: kind", with " (beyond the
	// level)" when the level does not license the value's source.
	Points []string `json:"specificationPoints,omitempty"`
	// Resolvable says whether the level's assumptions let an analysis resolve the
	// site (callgraph.FeatureStats.Resolvable).
	Resolvable bool `json:"resolvable"`
}

// WriteJSON writes g with every edge's reason and every dynamic site's status, one
// JSON object per line after a header line (JSON Lines), so large graphs stream.
func WriteJSON(w io.Writer, g *callgraph.Graph, p analysis.Program, opts Options) error {
	v := newView(g, p, opts)
	bw := bufio.NewWriterSize(w, 1<<20)
	enc := json.NewEncoder(bw)
	name := v.name
	if err := enc.Encode(map[string]any{"level": g.Level.String(), "algorithm": g.Algorithm.String(), "reachable": g.NumReachable(), "edges": g.NumEdges()}); err != nil {
		return err
	}
	err := v.callers(func(m *hierarchy.Method) error {
		for _, b := range g.Callees(m.ID) {
			r := g.Reasons[b.Reason]
			for _, id := range g.Sets[b.Set] {
				e := jsonEdge{Caller: name(m.ID), Callee: name(id), PC: b.PC, Line: b.Line, Kind: r.Kind.String(), Resolver: r.Resolver, Evidence: r.Evidence, Fallback: r.Fallback.Number()}
				if err := enc.Encode(map[string]jsonEdge{"edge": e}); err != nil {
					return err
				}
			}
		}
		for _, s := range g.SitesOf(m.ID) {
			js := jsonSite{Caller: name(m.ID), PC: s.PC, Line: s.Line, Feature: s.Feature.String(), API: s.API, Status: s.Status.String(), Evidence: s.Evidence, Fallback: s.Fallback.Number()}
			for _, p := range s.Points {
				pt := fmt.Sprintf("%s line %d: %s", name(p.Method), p.Line, p.Kind)
				if p.Beyond {
					pt += " (beyond the level)"
				}
				js.Points = append(js.Points, pt)
			}
			js.Resolvable = s.Resolvable(g.Level)
			if err := enc.Encode(map[string]jsonSite{"site": js}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}
