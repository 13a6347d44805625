package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// `why --site` answers the question a call hierarchy raises: why does this call
// reach these methods? A call on a List field with 35 targets says nothing of
// itself; the flow of its receiver does (a public field that code the analysis
// does not follow may write, say), and that is what a user can act on.

// Past these, the text lists no more targets or objects (--format json lists
// every target; the objects are the first that came).
const (
	maxSiteTargets = 10
	maxSiteObjects = 10
)

// siteReport is what `why --site` prints for one call site.
type siteReport struct {
	Method    string                `json:"method"`
	Line      int32                 `json:"line,omitempty"`
	PC        int32                 `json:"pc"`
	Algorithm string                `json:"algorithm"`
	Level     string                `json:"level"`
	Targets   []string              `json:"targets"`
	Reasons   []topReason           `json:"reasons"`
	Receiver  []analysis.ChainGroup `json:"receiver,omitempty"`
	// Traced says which objects the receiver's chains are about: the classes
	// that select a target, or lambdas that implement one.
	Traced string `json:"traced,omitempty"`
}

// parseSite splits pkg.Class[.name[(descriptor)]]:LINE.
func parseSite(s string) (where string, line int32, err error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", 0, usagef("--site %q: want pkg.Class:LINE or pkg.Class.name[(descriptor)]:LINE", s)
	}
	n, err := strconv.ParseInt(s[i+1:], 10, 32)
	if err != nil || n <= 0 {
		return "", 0, usagef("--site %q: the line after ':' must be a positive number", s)
	}
	return s[:i], int32(n), nil
}

// siteMethods returns the methods whose calls at a line --site asks about: every
// method of a class named alone, or the methods named with the bodies of the
// lambdas javac compiles from them (lambda$name$N): a source line inside a lambda
// is code of its body. named are the methods the user named.
func siteMethods(h *hierarchy.Hierarchy, where string) (ms, named []*hierarchy.Method, err error) {
	if c := h.Class(strings.ReplaceAll(where, ".", "/")); c != nil && !c.Phantom {
		return c.Methods, nil, nil
	}
	named, err = analysis.LookupMethods(h, where)
	if err != nil {
		return nil, nil, err
	}
	ms = slices.Clone(named)
	for _, m := range named {
		for _, l := range m.Class.Methods {
			if strings.HasPrefix(l.Name, "lambda$"+m.Name+"$") && !slices.Contains(ms, l) {
				ms = append(ms, l)
			}
		}
	}
	return ms, named, nil
}

// whySite reports every call site at the given line of the methods where names:
// their targets, the reasons, and for a dispatch that XTA or TFA resolved how its
// receiver came to hold each object that selects a target.
func whySite(ctx context.Context, w io.Writer, res *analyzed, where string, line int32, format string) error {
	ms, named, err := siteMethods(res.ix.Hierarchy(), where)
	if err != nil {
		return err
	}
	g := res.g
	var reps []siteReport
	var lines []int32
	for _, m := range ms {
		if !g.Reachable.Has(m.ID) {
			continue
		}
		for _, bs := range siteBundles(g, m.ID) {
			if l := g.Bundles[bs[0]].Line; l != line {
				lines = append(lines, l)
				continue
			}
			rep, err := explainSite(ctx, res, m, bs)
			if err != nil {
				return err
			}
			reps = append(reps, rep)
		}
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(reps)
	}
	if len(reps) == 0 {
		for _, m := range named {
			if !g.Reachable.Has(m.ID) {
				fmt.Fprintf(w, "%s is not reachable at %s (%s): its calls have no edges.\n", javaMethod(m), g.Level.Title(), g.Algorithm)
			}
		}
		slices.Sort(lines)
		fmt.Fprintf(w, "No call of %s in the graph at line %d; its calls are at lines %s.\n", where, line, lineList(slices.Compact(lines)))
	}
	for _, rep := range reps {
		rep.writeText(w)
	}
	return nil
}

// siteBundles returns the bundles of caller id that are at an instruction,
// grouped by instruction in pc order: Graph.Bundles is sorted by caller and pc.
func siteBundles(g *callgraph.Graph, id int32) [][]int32 {
	i, end := g.CalleeRange(id)
	var out [][]int32
	for ; i < end; i++ {
		b := g.Bundles[i]
		switch {
		case b.PC < 0:
		case len(out) > 0 && g.Bundles[out[len(out)-1][0]].PC == b.PC:
			out[len(out)-1] = append(out[len(out)-1], int32(i))
		default:
			out = append(out, []int32{int32(i)})
		}
	}
	return out
}

func lineList(lines []int32) string {
	if len(lines) == 0 {
		return "none"
	}
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = strconv.Itoa(int(l))
	}
	return strings.Join(s, ", ")
}

// explainSite reports the site of caller m whose bundles are bs.
func explainSite(ctx context.Context, res *analyzed, m *hierarchy.Method, bs []int32) (siteReport, error) {
	g, h := res.g, res.ix.Hierarchy()
	b0 := g.Bundles[bs[0]]
	rep := siteReport{Method: javaMethod(m), Line: b0.Line, PC: b0.PC, Algorithm: g.Algorithm.String(),
		Level: g.Level.Title(), Reasons: bundleReasons(g, bs)}
	var targets []int32
	for _, b := range bs {
		targets = append(targets, g.Sets[g.Bundles[b].Set]...)
	}
	slices.Sort(targets)
	all := h.Methods()
	for _, t := range slices.Compact(targets) {
		rep.Targets = append(rep.Targets, nodeName(g, all, t))
	}
	explain := analysis.DispatchExplain(g, h, bs, nil)
	if explain == nil {
		return rep, nil
	}
	opts := res.opts
	opts.Explain = explain
	if _, err := res.an.Run(ctx, opts); err != nil {
		return rep, fmt.Errorf("the run that explains the receiver: %w", err)
	}
	if explain.Receiver != nil {
		rep.Receiver = analysis.GroupChains(explain.Receiver(m, b0.PC, maxSiteObjects))
	}
	rep.Traced = explain.Traced()
	return rep, nil
}

func (rep siteReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "%s (%s) at %s (%s): %d %s\n", rep.Method, siteAt(rep.Line, rep.PC), rep.Level, rep.Algorithm,
		len(rep.Targets), plural(len(rep.Targets), "target", "targets"))
	for _, r := range rep.Reasons {
		fmt.Fprintf(w, "  %s\n", r.text())
	}
	for i, t := range rep.Targets {
		if i == maxSiteTargets {
			fmt.Fprintf(w, "    … %d more (--format json lists them all)\n", len(rep.Targets)-i)
			break
		}
		fmt.Fprintf(w, "    %s\n", t)
	}
	switch {
	case rep.Traced == "":
		return
	case len(rep.Receiver) == 0:
		fmt.Fprintf(w, "  The receiver holds none of the %s that the run traced.\n", rep.Traced)
		return
	case len(rep.Receiver[0].Objects) == 0:
		fmt.Fprintf(w, "  The receiver may be any object of its type; how it came to, that value first:\n")
		writeSteps(w, "    ", rep.Receiver[0].Steps)
		return
	}
	fmt.Fprintf(w, "  How the receiver came to hold the %s, that value first:\n", rep.Traced)
	n := 0
	for _, ch := range rep.Receiver {
		n += len(ch.Objects)
		fmt.Fprintf(w, "    %s:\n", objectsLabel(ch.Objects))
		writeSteps(w, "      ", ch.Steps)
	}
	if n == maxSiteObjects {
		fmt.Fprintf(w, "    (the first %d objects that came)\n", maxSiteObjects)
	}
}

// objectsLabel names objects for a heading: "objects of class A, B" when they are
// all plain objects.
func objectsLabel(objs []string) string {
	const one = "an object of class "
	names := make([]string, 0, len(objs))
	for _, o := range objs {
		if !strings.HasPrefix(o, one) {
			return strings.Join(objs, "; ")
		}
		names = append(names, strings.TrimPrefix(o, one))
	}
	if len(names) == 1 {
		return objs[0]
	}
	return "objects of class " + strings.Join(names, ", ")
}

func writeSteps(w io.Writer, indent string, steps []string) {
	for i, s := range steps {
		fmt.Fprintf(w, "%s%d. %s\n", indent, i+1, s)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
