package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// runWhy answers "why is this method in the graph": a shortest path from an entry
// point, each edge with the assumption it rests on. A graph that reaches most of
// the JDK is only as useful as its users' means of asking where that comes from.
func runWhy(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := newCommand("why", "(--method pkg.Class.name[(descriptor)] | --site pkg.Class[.name[(descriptor)]]:LINE | --top N) [--level L] [flags] CLASSPATH...",
		"Says whether a method is reachable in the call graph at one assumption level and, if\nso, prints a shortest path to it from an entry point, with the reason of each edge\n(the call's kind, or the resolver and its evidence). With --site, lists instead the\ntargets of the calls at a line and, for a dispatch that XTA or TFA resolved, how its\nreceiver came to hold each object that selects one. With --top N, lists instead the N\ncall sites whose targets bring the most methods into the graph (the size of their\nsubtrees in the shortest-path tree, and the reach without the site's edges), the\nreach with each kind of edge left out, from Correct-Env on the call sites that may\nset every system property and, from a second run without the JDK's fallbacks (a\nwhat-if: not a sound graph), its reach and the JDK's sites that fall back even then,\nthe ones to resolve first. Class-path problems go to standard error.")
	fs := cmd.fs
	var lr levelRun
	lr.register(fs, analysis.DefaultLevel, "assumption level: ")
	method := fs.String("method", "", "the method: pkg.Class.name (every overload) or pkg.Class.name(descriptor)")
	site := fs.String("site", "", "the call sites at a line, `pkg.Class:LINE` or `pkg.Class.name[(descriptor)]:LINE` (with its lambdas' bodies): their targets, and how a dispatch's receiver came to hold each object that selects one")
	top := fs.Int("top", 0, "list the `N` call sites that bring the most methods into the graph, and the reach with each kind of edge left out")
	format := fs.String("format", "text", "output of --top and --site: text or json")
	whatIfOnly := fs.Bool("without-jdk-fallbacks", false, "answer on the run without the JDK's fallbacks (a what-if, not a sound graph): what brings the most methods in, or a path, once the JDK's unresolved sites add no edges")
	if err := cmd.parse(args, stdout); err != nil {
		return err
	}
	asked := 0
	for _, q := range []bool{*method != "", *top > 0, *site != ""} {
		if q {
			asked++
		}
	}
	switch {
	case asked == 0:
		return usagef("--method pkg.Class.name, --site pkg.Class:LINE or --top N is required")
	case asked > 1:
		return usagef("--method, --site and --top are separate questions: give one")
	case *format != "text" && *format != "json":
		return usagef("--format %q: want text or json", *format)
	}
	var siteMethod string
	var siteLine int32
	if *site != "" {
		var err error
		if siteMethod, siteLine, err = parseSite(*site); err != nil {
			return err
		}
	}
	// skipped collects the JDK's sites a run without their fallbacks leaves
	// unresolved; plain and wiPlain the plain calls that may set every property
	// in the first run and in the what-if.
	skipped := map[sitePos]bool{}
	plain, wiPlain := plainWriters{}, plainWriters{}
	withoutJDKFallbacks := func(o *analysis.Options) {
		o.WithoutJDKFallbacks = func(caller callgraph.NodeID, pc int32) { skipped[sitePos{caller, pc}] = true }
		if *top > 0 {
			o.PlainPropertyWriter = wiPlain.tell // the list costs the keys of every writer
		}
	}
	adjust := func(o *analysis.Options) {
		if *top > 0 {
			o.PlainPropertyWriter = plain.tell
		}
	}
	if *whatIfOnly {
		adjust = withoutJDKFallbacks
	}
	res, err := lr.runAnalyzer(ctx, fs.Args(), stderr, adjust)
	if err != nil {
		return err
	}
	g, ix := res.g, res.ix
	defer ix.Close()
	if *whatIfOnly && *format == "text" {
		fmt.Fprintln(stdout, "The run without the JDK's fallbacks (a what-if: the JDK's unresolved sites add no edges, so the graph is not sound).")
	}
	if *top > 0 {
		rep := reachReport(g, ix.Hierarchy(), *top, strings.ToUpper(lr.algo))
		rep.Modules = modulesReach(g, ix)
		wg := g
		if *whatIfOnly {
			rep.WhatIfOnly = true
		} else {
			opts := res.opts
			withoutJDKFallbacks(&opts)
			if wg, err = res.an.Run(ctx, opts); err != nil {
				return fmt.Errorf("the run without the JDK's fallbacks: %w", err)
			}
		}
		rep.WhatIf = whatIf(wg, ix.Hierarchy(), skipped)
		ms := ix.Hierarchy().Methods()
		if *whatIfOnly {
			plain = wiPlain
		}
		rep.PlainPropertyWriters = plain.sites(ms)
		rep.WhatIf.PlainPropertyWriters = wiPlain.sites(ms)
		if *format == "json" {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
		rep.writeText(stdout)
		return nil
	}
	if *site != "" {
		return whySite(ctx, stdout, res, siteMethod, siteLine, *format)
	}
	ms, err := analysis.LookupMethods(ix.Hierarchy(), *method)
	if err != nil {
		return err
	}
	tree := g.PathTree()
	h := ix.Hierarchy()
	all := h.Methods()
	for _, m := range ms {
		writeWhy(stdout, g, all, tree, m, g.Algorithm.String())
		if err := explainReceiver(ctx, stdout, res, tree, h, m); err != nil {
			return err
		}
	}
	return nil
}

// explainReceiver says, when the last call of m's path is a dispatch that an
// algorithm following values (XTA, TFA) resolved, how the object it runs m on
// came to hold an object whose class selects m: the values it flowed through,
// back to its creation or to a value that holds any object. The path alone does
// not say it, and a dispatch reaches m only where such objects flow. The object
// is the call's operand 0: a virtual or interface call's receiver (a lambda
// whose implementation m is, for a lambda edge), the action doPrivileged runs,
// the thread Thread.start runs. It takes a second run that records the flow of
// those classes or lambdas.
func explainReceiver(ctx context.Context, w io.Writer, res *analyzed, tree []int32, h *hierarchy.Hierarchy, m *hierarchy.Method) error {
	g := res.g
	if tree[m.ID] < 0 {
		return nil
	}
	b := g.Bundles[tree[m.ID]]
	explain := analysis.DispatchExplain(g, h, []int32{tree[m.ID]}, m)
	if explain == nil || b.Caller == g.Native || b.PC < 0 {
		return nil
	}
	opts := res.opts
	opts.Explain = explain
	if _, err := res.an.Run(ctx, opts); err != nil {
		return fmt.Errorf("the run that explains the receiver: %w", err)
	}
	if explain.Receiver == nil {
		return nil
	}
	chains := explain.Receiver(h.Methods()[b.Caller], b.PC, 1)
	if len(chains) == 0 {
		return nil
	}
	what := "of a class that selects it"
	if len(explain.Lambdas) > 0 {
		what = "a lambda or method reference it implements"
	}
	fmt.Fprintf(w, "The object the last call runs %s.%s on may be %s; how it came there, that value first:\n", javaName(m.Class.Name), m.Name, what)
	writeSteps(w, "  ", chains[0].Steps)
	return nil
}

// writeWhy prints whether m is reachable and a shortest path to it.
func writeWhy(w io.Writer, g *callgraph.Graph, ms []*hierarchy.Method, tree []int32, m *hierarchy.Method, algo string) {
	at := g.Level.Title() + " (" + algo + ")"
	if tree[m.ID] == -2 {
		fmt.Fprintf(w, "%s is not reachable at %s from the %d entry points.\n", javaMethod(m), at, len(g.Entries))
		return
	}
	// Walk the tree back: bundles from the method to an entry point.
	var path []int32
	for n := m.ID; tree[n] >= 0 && len(path) < len(tree); n = g.Bundles[tree[n]].Caller {
		path = append(path, tree[n])
	}
	if len(path) == 0 {
		fmt.Fprintf(w, "%s is an entry point at %s.\n", javaMethod(m), at)
		return
	}
	fmt.Fprintf(w, "%s is reachable at %s; a shortest path from an entry point:\n", javaMethod(m), at)
	first := g.Bundles[path[len(path)-1]].Caller
	fmt.Fprintf(w, "  1. %s (entry point)\n", nodeName(g, ms, first))
	for i := len(path) - 1; i >= 0; i-- {
		b := g.Bundles[path[i]]
		callee := m.ID
		if i > 0 {
			callee = g.Bundles[path[i-1]].Caller
		}
		fmt.Fprintf(w, "  %d. %s\n       <- %s\n", len(path)-i+1, nodeName(g, ms, callee), edgeReason(g, b))
	}
}

// edgeReason says how a bundle's caller reaches its targets: where, by which kind of
// call, and for a dynamic feature the resolver and its evidence.
func edgeReason(g *callgraph.Graph, b callgraph.Bundle) string {
	r := g.Reasons[b.Reason]
	s := r.Kind.String() + " call"
	switch {
	case b.Line > 0:
		s += fmt.Sprintf(" at line %d", b.Line)
	case b.PC >= 0:
		s += fmt.Sprintf(" at pc %d", b.PC)
	}
	if r.Resolver != "" && r.Kind.Dynamic() {
		s += ", resolved by " + r.Resolver
	}
	if r.Fallback.Valid() {
		s += fmt.Sprintf(", the fallback of level %d (%s)", r.Fallback.Number(), r.Fallback.Title())
	}
	if r.Evidence != "" {
		s += ": " + r.Evidence
	}
	return s
}

func nodeName(g *callgraph.Graph, ms []*hierarchy.Method, n int32) string {
	if n == g.Native {
		return "<NativeMethod> (native code, or the JVM at Correct-JDK)"
	}
	return javaMethod(ms[n])
}

// javaMethod names a method as --method and --entry take it, with its descriptor.
func javaMethod(m *hierarchy.Method) string {
	return javaName(m.Class.Name) + "." + m.Name + m.Desc
}

func javaName(internal string) string { return strings.ReplaceAll(internal, "/", ".") }
