package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/graphtext"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// updateProgram compiles testdata/java/update/base with the classes of
// testdata/java/update/<variant> (none for "") in its place, and indexes it over the
// mini JDK.
func updateProgram(t *testing.T, variants ...string) *index.Index {
	t.Helper()
	src := t.TempDir()
	javatest.CopyTree(t, javatest.Program(t, "update/base"), src)
	for _, v := range variants {
		if v != "" {
			javatest.CopyTree(t, javatest.Program(t, "update/"+v), src)
		}
	}
	classes := javatest.Compile(t, src)
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{
		{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// variantRun returns an analyzer of the update program with the variants and its
// new run's graph.
func variantRun(t *testing.T, opts Options, variants ...string) (*Analyzer, *callgraph.Graph) {
	t.Helper()
	a := New(updateProgram(t, variants...))
	g, err := a.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return a, g
}

// methodID returns the ID of the method of h whose String is s.
func methodID(t *testing.T, h *hierarchy.Hierarchy, s string) int32 {
	t.Helper()
	for _, m := range h.Methods() {
		if m.String() == s {
			return m.ID
		}
	}
	t.Fatalf("no method %s", s)
	return -1
}

// TestUpdate: each variant of testdata/java/update changes one class of the base
// program (the comment at the top of each file says how and what to expect). Update
// must either give exactly the graph of a new run over the changed program, or
// decline for the stated reason; the expectations on the new run show that each
// decline is needed.
func TestUpdate(t *testing.T) {
	ctx := context.Background()
	base := updateProgram(t, "")
	a0 := New(base)
	type expect struct {
		edges   [][2]string // caller, callee: edges the new graph has
		noReach []string    // methods the new graph does not reach
		gone    []string    // methods the previous graph reaches and the new program does not declare
		noEdges [][2]string // edges the new graph does not have
		reach   []string    // methods it reaches
	}
	cases := []struct {
		variant string
		changed []string
		why     string // "" when updatable
		expect
	}{
		{"addcall", []string{"app/Work"}, "", expect{edges: [][2]string{
			{"app/Work.run([Ljava/lang/String;)V", "app/Lib.viaLambda()V"},
			{"app/Work.run([Ljava/lang/String;)V", "app/Main.lambda$main$0()V"},
			{"app/Work.run([Ljava/lang/String;)V", "app/Creator.lambda$create$0()V"},
		}}},
		{"removecall", []string{"app/Work"}, "", expect{reach: []string{"app/Lib.common()V", "java/io/PrintStream.println(I)V"}}},
		{"unreachable", []string{"app/Work"}, "", expect{noReach: []string{"app/Lib.onlyFromWork()V"}}},
		// The update takes the lambda body out of the dispatch's lambda targets: its
		// only creator, create, is no longer reachable.
		{"cycle", []string{"app/Work"}, "", expect{noReach: []string{"app/Creator.create()V", "app/Creator.lambda$create$0()V"}}},
		{"newreach", []string{"app/Work"}, "", expect{edges: [][2]string{
			{"app/Work.run([Ljava/lang/String;)V", "app/Work.other()V"},
			{"app/Work.other()V", "app/Lib.common()V"},
		}}},
		{"newlambda", []string{"app/Work"}, "", expect{edges: [][2]string{
			{"app/Main.main([Ljava/lang/String;)V", "app/Lib.lambda$lambdaMaker$0()V"},
		}}},
		// Member edits: the IDs move, and Update maps them (update_members.go).
		{"header", []string{"app/Work"}, "", expect{reach: []string{"app/Work.run([Ljava/lang/String;)V"}, noReach: []string{"app/Work.added()V"}}},
		{"helper", []string{"app/Work"}, "", expect{edges: [][2]string{
			{"app/Work.run([Ljava/lang/String;)V", "app/Work.helper()V"},
			{"app/Work.helper()V", "app/Lib.onlyFromWork()V"},
		}}},
		{"removeoverride", []string{"app/Circle"}, "", expect{edges: [][2]string{
			{"app/Lib.drawAll(Lapp/Shape;)V", "app/Shape.draw()V"},
		}, gone: []string{"app/Circle.draw()V"}}},
		{"addoverride", []string{"app/Quiet"}, "", expect{edges: [][2]string{
			{"app/Lib.greetAll(Lapp/Greeter;)V", "app/Quiet.greet()V"},
			{"app/Lib.greetAll(Lapp/Greeter;)V", "app/Polite.greet()V"},
			{"app/Quiet.greet()V", "app/Lib.viaLambda()V"},
		}, noEdges: [][2]string{
			// Every concrete Greeter overrides the default method now.
			{"app/Lib.greetAll(Lapp/Greeter;)V", "app/Greeter.greet()V"},
		}}},
		{"iface", []string{"app/Greeter"}, "interface app/Greeter was added, removed or changed", expect{reach: []string{"app/Greeter.greet()V"}}},
		{"pubnative", []string{"app/Work"}, "", expect{edges: [][2]string{
			{"app/Work.run([Ljava/lang/String;)V", "app/Work.nat()V"},
		}}},
		{"addclass", []string{"app/Triangle"}, "", expect{edges: [][2]string{
			{"app/Lib.drawAll(Lapp/Shape;)V", "app/Triangle.draw()V"},
			{"app/Lib.drawAll(Lapp/Shape;)V", "app/Circle.draw()V"},
			{"app/Triangle.draw()V", "app/Lib.onlyFromWork()V"},
		}}},
		{"callers", []string{"app/Main"}, "", expect{edges: [][2]string{
			{"app/Lib.load(Ljava/lang/String;)Ljava/lang/Object;", "app/Other.<init>()V"},
		}, noReach: []string{"app/Plugin.<init>()V"}}},
		{"property", []string{"app/Main"}, "", expect{edges: [][2]string{
			{"app/Lib.load(Ljava/lang/String;)Ljava/lang/Object;", "app/Plugin.<init>()V"},
			{"app/Lib.load(Ljava/lang/String;)Ljava/lang/Object;", "app/Other.<init>()V"},
		}}},
	}
	for _, level := range []callgraph.Level{callgraph.BehavedCLs, callgraph.CorrectString, callgraph.CorrectJDK} {
		opts := Options{Level: level, Algorithm: callgraph.CHA}
		g0, tr0, err := a0.RunTrace(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkDerivations(t, "run", g0, tr0.parent, tr0.condOf, tr0)
		// The search Update falls back on finds derivations of a new run's graph too.
		parent, condOf, reached, ok := grounded(g0, tr0, a0.h.Methods())
		if !ok || reached.Count() != g0.Reachable.Count() {
			t.Fatal("grounded: a new run's graph has a node without a derivation")
		}
		checkDerivations(t, "grounded", g0, parent, condOf, tr0)
		for _, c := range cases {
			if level != callgraph.CorrectString && c.why != "" {
				continue // the reasons to decline are argued at Correct-String
			}
			t.Run(level.String()+"/"+c.variant, func(t *testing.T) {
				a, want := variantRun(t, opts, c.variant)
				h := a.h
				method := func(s string) int32 { return methodID(t, h, s) }
				// The expectations are argued at levels 1 and 3. At level 6 the JVM's
				// upcalls are a root (the NativeMethod node) and an unset property
				// loads nothing: there the update is checked against a new run only.
				var argued expect
				if level != callgraph.CorrectJDK {
					argued = c.expect
				}
				for _, e := range argued.edges {
					if !want.HasEdge(method(e[0]), method(e[1])) {
						t.Errorf("the new run has no edge %s -> %s", e[0], e[1])
					}
				}
				for _, m := range argued.noReach {
					// At Behaved-CLs Lib.load's forName may call any method.
					if level == callgraph.CorrectString && want.Reachable.Has(method(m)) {
						t.Errorf("the new run reaches %s", m)
					}
				}
				for _, m := range argued.reach {
					if !want.Reachable.Has(method(m)) {
						t.Errorf("the new run does not reach %s", m)
					}
				}
				for _, e := range argued.noEdges {
					if want.HasEdge(method(e[0]), method(e[1])) {
						t.Errorf("the new run has an edge %s -> %s", e[0], e[1])
					}
				}
				for _, m := range argued.gone {
					if slices.ContainsFunc(h.Methods(), func(x *hierarchy.Method) bool { return x.String() == m }) {
						t.Errorf("the changed program declares %s", m)
					}
					if !slices.ContainsFunc(a0.h.Methods(), func(x *hierarchy.Method) bool { return x.String() == m && g0.Reachable.Has(x.ID) }) {
						t.Errorf("the previous graph does not reach %s", m)
					}
				}
				got, tr, err := a.Update(ctx, opts, Previous{Analyzer: a0, Graph: g0, Trace: tr0}, c.changed)
				if c.why != "" {
					if !IsNotUpdatable(err) || !strings.Contains(err.Error(), c.why) {
						t.Fatalf("Update: %v, want it to decline because %q", err, c.why)
					}
					return
				}
				if err != nil {
					t.Fatalf("Update: %v", err)
				}
				if d := graphtext.Compare(h, got, want); d != "" {
					t.Errorf("updated graph differs from a new run:\n%s", d)
				}
				checkDerivations(t, "update", got, tr.parent, tr.condOf, tr)
			})
		}
	}
}

// TestUpdateChain updates an updated graph: base -> addcall -> removecall -> base
// (changes of Work's calls), then base -> callers -> property -> callers -> base
// (Main passes Lib.load's reflective site another name, then a property, and back),
// then the steps below, each equal to a new run.
func TestUpdateChain(t *testing.T) {
	ctx := context.Background()
	opts := Options{Level: callgraph.CorrectString, Algorithm: callgraph.CHA}
	prev := Previous{Analyzer: New(updateProgram(t, ""))}
	var err error
	if prev.Graph, prev.Trace, err = prev.Analyzer.RunTrace(ctx, opts); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		variant, changed string
		over             []string // variants under variant
	}{
		{"addcall", "app/Work", nil}, {"removecall", "app/Work", nil}, {"", "app/Work", nil},
		{"callers", "app/Main", nil}, {"property", "app/Main", nil}, {"callers", "app/Main", nil}, {"", "app/Main", nil},
		// A dispatch the first update makes, without lambda targets, gains one in the
		// second, which does not visit its caller again: the updated trace must know
		// the dispatch. Then its caller leaves it (its one target is no longer
		// reachable) and comes back (the target is reached again), and the creator of
		// the target stops creating it (the dispatch has no lambda targets again).
		{"newdispatch", "app/Work", nil}, {"newdispatch-creator", "app/Creator", []string{"newdispatch"}},
		{"newdispatch-creator", "app/Work", nil}, {"newdispatch-creator", "app/Work", []string{"newdispatch"}},
		{"", "app/Creator", []string{"newdispatch"}}, {"", "app/Work", nil},
		// A lambda created while a dispatch without lambda targets has no caller
		// (the key is known, without a set) is a target once a caller comes back.
		{"newdispatch", "app/Work", nil}, {"", "app/Work", nil}, {"newdispatch-creator", "app/Creator", nil},
		{"newdispatch", "app/Work", []string{"newdispatch-creator"}}, {"newdispatch-creator", "app/Work", nil},
		{"", "app/Creator", nil},
		// Two creators of one method reference, which each stop creating it in
		// turn: the first to stop leaves the target to the other (the trace keeps
		// every lambda), the second takes it away.
		{"mref", "app/Work", nil}, {"mref-creator", "app/Creator", []string{"mref"}},
		{"mref-creator", "app/Work", nil}, {"", "app/Creator", nil},
		// The first creator of a method reference becomes unreachable while another
		// keeps creating it.
		{"mref-creator", "app/Creator", nil}, {"mref", "app/Work", []string{"mref-creator"}},
		{"mref-nocreate", "app/Work", []string{"mref-creator"}}, {"", "app/Work", []string{"mref-creator"}},
		{"", "app/Creator", nil},
		// A member edit removes the one method creating a method reference.
		{"mref-helper", "app/Work", nil}, {"", "app/Work", nil},
	}
	for _, st := range steps {
		v := st.variant
		ix := updateProgram(t, append(st.over, v)...)
		a := New(ix)
		g, tr, err := a.Update(ctx, opts, prev, []string{st.changed})
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		want, err := a.Run(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := graphtext.Compare(ix.Hierarchy(), g, want); d != "" {
			t.Fatalf("%q: updated graph differs from a new run:\n%s", v, d)
		}
		prev = Previous{Analyzer: a, Graph: g, Trace: tr}
	}
}

// TestUpdatePropertyWrites: at Correct-JDK a property that reachable code sets holds
// what the code writes, and one that nothing sets is unset. Over the variant
// property, whose Main passes app.plugin to Lib.load, the variants propwrite and
// propwrite-more have Work set it. An update
// that keeps the write (propwrite -> propwrite-more), adds it (property ->
// propwrite) or removes it (propwrite -> property: Lib.load's site read the key as
// written, and a new run's loads nothing) or leaves the method that writes it
// unreachable (propwrite-lib -> property) is in place and equals a new run.
func TestUpdatePropertyWrites(t *testing.T) {
	ctx := context.Background()
	opts := Options{Level: callgraph.CorrectJDK, Algorithm: callgraph.CHA}
	const load, other = "app/Lib.load(Ljava/lang/String;)Ljava/lang/Object;", "app/Other.<init>()V"
	creates := func(a *Analyzer, g *callgraph.Graph) bool {
		return g.HasEdge(methodID(t, a.h, load), methodID(t, a.h, other))
	}
	// traced is a new run of the variants, with its trace.
	traced := func(variants ...string) Previous {
		a := New(updateProgram(t, variants...))
		g, tr, err := a.RunTrace(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		return Previous{Analyzer: a, Graph: g, Trace: tr}
	}
	// inPlace checks that to's update from prev (changing class) is in place and
	// equals to's graph.
	inPlace := func(what string, prev, to Previous, class string) {
		t.Helper()
		g, _, err := to.Analyzer.Update(ctx, opts, prev, []string{class})
		if err != nil {
			t.Fatalf("an update that %s: %v", what, err)
		}
		if d := graphtext.Compare(to.Analyzer.h, g, to.Graph); d != "" {
			t.Errorf("an update that %s differs from a new run:\n%s", what, d)
		}
	}
	write, unset := traced("property", "propwrite"), traced("property")
	if !creates(write.Analyzer, write.Graph) || creates(unset.Analyzer, unset.Graph) {
		t.Fatalf("Lib.load creates app.Other: where Work sets app.plugin %v (want true), where nothing does %v (want false)",
			creates(write.Analyzer, write.Graph), creates(unset.Analyzer, unset.Graph))
	}
	inPlace("keeps the write", write, traced("property", "propwrite-more"), "app/Work")
	// The write is gone: Lib.load's site, which read the key as written, is
	// visited again and loads nothing.
	inPlace("removes the write", write, unset, "app/Work")
	// The other way the write is new: Lib.load's site, which took app.plugin as
	// unset, is visited again and creates app.Other.
	inPlace("adds the write", unset, write, "app/Work")

	// Two writers, one left unreachable by the first update, the other stopping in
	// the second: the write must not stay for the first.
	both := traced("property", "propwrite-both")
	g, tr, err := write.Analyzer.Update(ctx, opts, both, []string{"app/Work"})
	if err != nil {
		t.Fatalf("an update that leaves one of two writers: %v", err)
	}
	inPlace("removes the last writer", Previous{Analyzer: write.Analyzer, Graph: g, Trace: tr}, unset, "app/Work")

	// Over variant opwrite, Work.callOp calls a method reference to
	// System.getProperties (created in Work.run), which may write every property,
	// and the variant opwrite-call's Main calls callOp. An update that stops calling
	// it leaves no writer: a new run takes app.plugin as unset. The write is
	// callOp's, not run's (which created the reference and is still reachable), so
	// the update either declines or gives the new run's graph.
	calls, stops := traced("opwrite", "opwrite-call"), traced("property", "opwrite")
	if !creates(calls.Analyzer, calls.Graph) || creates(stops.Analyzer, stops.Graph) {
		t.Fatalf("Lib.load creates app.Other: with callOp %v (want true), without %v (want false)",
			creates(calls.Analyzer, calls.Graph), creates(stops.Analyzer, stops.Graph))
	}
	if g, _, err := stops.Analyzer.Update(ctx, opts, calls, []string{"app/Main"}); !IsNotUpdatable(err) {
		if err != nil {
			t.Fatal(err)
		}
		if d := graphtext.Compare(stops.Analyzer.h, g, stops.Graph); d != "" {
			t.Errorf("an update that removes the only dynamic writer differs from a new run:\n%s", d)
		}
	}

	// Work sets it through Lib.setPlugin, which the update leaves unreachable.
	lib := traced("property", "propwrite-lib")
	if !creates(lib.Analyzer, lib.Graph) {
		t.Fatal("where Lib.setPlugin sets app.plugin to app.Other, Lib.load does not create app.Other")
	}
	// The write is gone with its writer: Lib.load's site, which read the key as
	// written, is visited again.
	inPlace("leaves the writer unreachable", lib, unset, "app/Work")
}

// TestUpdateSerializable: (de)serialization reaches every serializable class, through
// sets computed from all of them (resolve_serial.go) and the JDK's sites that
// serialProxyResolver answers. With the real JDK, whose code reaches deserialization,
// a member edit that makes app.Plugin serializable with a readObject hook (the
// variant "serializable") and the edit back are updates in place equal to new runs,
// and the first reaches the hook.
func TestUpdateSerializable(t *testing.T) {
	ctx := context.Background()
	build := func(variant string) *Analyzer {
		src := t.TempDir()
		javatest.CopyTree(t, javatest.Program(t, "update/base"), src)
		if variant != "" {
			javatest.CopyTree(t, javatest.Program(t, "update/"+variant), src)
		}
		ix, err := index.Build(ctx, index.Config{JDKHome: javatest.JDKHome(t),
			Sources: []classpath.Source{{Path: javatest.Compile(t, src), Origin: classpath.Application}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return New(ix)
	}
	opts := Options{Level: callgraph.CorrectJDK, Algorithm: callgraph.CHA}
	a := build("")
	g, tr, err := a.RunTrace(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.serial) == 0 {
		t.Fatal("the base program's graph reaches no (de)serialization")
	}
	const hook = "app/Plugin.readObject(Ljava/io/ObjectInputStream;)V"
	for _, variant := range []string{"serializable", ""} {
		next := build(variant)
		got, gotTrace, err := next.Update(ctx, opts, Previous{Analyzer: a, Graph: g, Trace: tr}, []string{"app/Plugin"})
		if err != nil {
			t.Fatalf("update to %q: %v", variant, err)
		}
		want, err := next.Run(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := graphtext.Compare(next.h, got, want); d != "" {
			t.Fatalf("update to %q differs from a new run:\n%s", variant, d)
		}
		reached := slices.ContainsFunc(next.h.Methods(), func(m *hierarchy.Method) bool { return m.String() == hook && want.Reachable.Has(m.ID) })
		if reached != (variant == "serializable") {
			t.Errorf("%q: a new run reaches %s: %v", variant, hook, reached)
		}
		a, g, tr = next, got, gotTrace
	}
}

// TestUpdateNativeFallback: at Correct-JDK a native outside the JDK model opens the
// NativeMethod node's public fallback, whose targets include every public native.
// When an edit stops calling the only such native (pubnative -> pubnative-uncalled),
// the fallback must not keep the native, and so itself, reachable: the search for
// derivations (grounded) does not count it, and the update declines or gives a new
// run's graph, which reaches neither.
func TestUpdateNativeFallback(t *testing.T) {
	ctx := context.Background()
	opts := Options{Level: callgraph.CorrectJDK, Algorithm: callgraph.CHA}
	a0 := New(updateProgram(t, "pubnative"))
	g0, tr0, err := a0.RunTrace(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	a := New(updateProgram(t, "pubnative-uncalled"))
	want, err := a.Run(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	const nat = "app/Work.nat()V"
	reaches := func(a *Analyzer, g *callgraph.Graph) bool {
		return slices.ContainsFunc(a.h.Methods(), func(m *hierarchy.Method) bool { return m.String() == nat && g.Reachable.Has(m.ID) })
	}
	if !reaches(a0, g0) || reaches(a, want) {
		t.Fatalf("reaches %s: before the edit %v (want true), a new run after it %v (want false)", nat, reaches(a0, g0), reaches(a, want))
	}
	// The search for derivations, on the graph before the edit without run's call
	// of the native: the fallback the native opened does not justify the native.
	natID := methodID(t, a0.h, nat)
	cut := &callgraph.Graph{Level: g0.Level, Algorithm: g0.Algorithm, NumNodes: g0.NumNodes, Native: g0.Native, Reachable: g0.Reachable,
		Entries: g0.Entries, Sets: g0.Sets, Reasons: g0.Reasons}
	for _, b := range g0.Bundles {
		if b.Caller == g0.Native || !slices.Contains(g0.Sets[b.Set], natID) {
			cut.Bundles = append(cut.Bundles, b)
		}
	}
	if _, _, reached, _ := grounded(cut, tr0, a0.h.Methods()); reached.Has(natID) {
		t.Errorf("grounded: %s derives from the NativeMethod node's fallback, which it opened", nat)
	}
	got, _, err := a.Update(ctx, opts, Previous{Analyzer: a0, Graph: g0, Trace: tr0}, []string{"app/Work"})
	switch {
	case IsNotUpdatable(err):
		t.Logf("declined: %v", err)
	case err != nil:
		t.Fatal(err)
	default:
		if d := graphtext.Compare(a.h, got, want); d != "" {
			t.Errorf("the updated graph differs from a new run:\n%s", d)
		}
	}
}

// checkDerivations checks what Update relies on: every reachable node has a
// derivation from nodes reached before it (entries have parent -1); a node reached
// unconditionally is in a set its parent bundles to; one reached as a member of a
// conditional set is in such a set, justified by condOf.
func checkDerivations(t *testing.T, what string, g *callgraph.Graph, parent, condOf []int32, tr *Trace) {
	t.Helper()
	entry := map[int32]bool{}
	for _, e := range roots(g) {
		entry[e] = true
	}
	rank := map[int32]int{}
	var order func(n int32, depth int) int
	order = func(n int32, depth int) int {
		if r, ok := rank[n]; ok {
			return r
		}
		if depth > len(parent) {
			t.Fatalf("%s: derivations are cyclic at node %d", what, n)
		}
		r := 0
		for _, p := range []int32{parent[n], condOf[n]} {
			if p >= 0 {
				r = max(r, order(p, depth+1)+1)
			}
		}
		rank[n] = r
		return r
	}
	bad := 0
	g.Reachable.ForEach(func(n int32) {
		p, c := parent[n], condOf[n]
		switch {
		case p < 0:
			if !entry[n] {
				bad++
				t.Errorf("%s: node %d has no parent and is no entry point", what, n)
			}
		case !g.Reachable.Has(p) || (c >= 0 && !g.Reachable.Has(c)):
			bad++
			t.Errorf("%s: node %d derives from unreachable %d/%d", what, n, p, c)
		case c < 0:
			found := false
			for _, b := range g.Callees(p) {
				if _, isCond := tr.cond[b.Set]; !isCond {
					_, in := slices.BinarySearch(g.Sets[b.Set], n)
					found = found || in
				}
			}
			if !found {
				bad++
				t.Errorf("%s: node %d is in no unconditional set of its parent %d", what, n, p)
			}
		default:
			found := false
			for _, m := range tr.cond {
				found = found || m[n] == c
			}
			if !found {
				bad++
				t.Errorf("%s: node %d is in no conditional set justified by %d", what, n, c)
			}
		}
		if bad < 10 {
			order(n, 0)
		}
	})
}

// TestUpdateDeclinesOtherRuns: Update says which of its options the previous run
// does not share: another algorithm, another level.
func TestUpdateDeclinesOtherRuns(t *testing.T) {
	a := New(updateProgram(t, ""))
	opts := Options{Level: callgraph.CorrectString, Algorithm: callgraph.CHA}
	for _, c := range []struct {
		g    *callgraph.Graph
		want string
	}{
		{&callgraph.Graph{Level: callgraph.CorrectString, Algorithm: callgraph.RTA}, "another algorithm (RTA)"},
		{&callgraph.Graph{Level: callgraph.EncapRespect, Algorithm: callgraph.CHA}, "another level (Encap-Respect)"},
	} {
		_, _, err := a.Update(context.Background(), opts, Previous{Analyzer: a, Graph: c.g, Trace: &Trace{}}, []string{"app/Work"})
		if !IsNotUpdatable(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("previous run %v at %v: %v, want %q", c.g.Algorithm, c.g.Level, err, c.want)
		}
	}
	if _, _, err := a.Update(context.Background(), Options{Level: callgraph.CorrectString, Algorithm: callgraph.TFA}, Previous{}, nil); !IsNotUpdatable(err) || !strings.Contains(err.Error(), "the algorithm is TFA") {
		t.Errorf("TFA: %v", err)
	}
}

// TestInherit: an analyzer of an edited program (index.Rebuild from the base: the
// same hierarchy with other method bodies) that starts from the base analyzer's
// plans and caches (Inherit) gives the graph of a new analyzer, under TFA (the
// default, which runs anew on every edit) and CHA, whether the edit adds, removes
// or redirects calls; and it reuses the plans of the classes the edit left alone.
// A member edit makes another hierarchy: Inherit then takes nothing.
func TestInherit(t *testing.T) {
	ctx := context.Background()
	base := updateProgram(t, "")
	a0 := New(base)
	// The JDK model's evidence strings of a0's graphs, which an inheriting
	// analyzer's graphs share (inheritModel) rather than copy.
	modelTexts := map[string]string{}
	for _, alg := range []callgraph.Algorithm{callgraph.TFA, callgraph.CHA} {
		g, err := a0.Run(ctx, Options{Level: callgraph.CorrectJDK, Algorithm: alg})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range g.Reasons {
			if r.Resolver == "jdk-model" {
				modelTexts[r.Evidence] = r.Evidence
			}
		}
	}
	if len(modelTexts) == 0 {
		t.Fatal("no JDK model reasons in the base program's graphs")
	}
	// Edits of members make another hierarchy, whose IDs moved: the inheriting
	// analyzer gets the JDK's plans remapped (inheritAcross), not shared.
	members := map[string]bool{"helper": true, "addclass": true, "addoverride": true, "removeoverride": true, "header": true}
	for _, variant := range []string{"addcall", "removecall", "newreach", "newlambda", "property", "helper", "addclass", "addoverride", "removeoverride", "header"} {
		t.Run(variant, func(t *testing.T) {
			src := t.TempDir()
			javatest.CopyTree(t, javatest.Program(t, "update/base"), src)
			javatest.CopyTree(t, javatest.Program(t, "update/"+variant), src)
			ix, err := index.Rebuild(ctx, index.Config{Sources: []classpath.Source{
				{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: javatest.Compile(t, src), Origin: classpath.Application}}}, nil, base)
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			changed := ix.Changes(base)
			same := ix.Hierarchy().SameClasses(base.Hierarchy())
			if same == members[variant] {
				t.Fatalf("%s: the edited hierarchy shares the base's classes: %v", variant, same)
			}
			for _, alg := range []callgraph.Algorithm{callgraph.TFA, callgraph.CHA} {
				opts := Options{Level: callgraph.CorrectJDK, Algorithm: alg}
				a := New(ix)
				a.Inherit(a0, changed)
				reused, remapped := 0, 0
				for i := range a.plans {
					p := a.plans[i].Load()
					switch {
					case p == nil:
					case same && p == a0.plans[i].Load():
						reused++
					case !same && a.h.Methods()[i].Class.Origin == hierarchy.JDK:
						remapped++
					default:
						t.Errorf("%s: a plan of %s before the first run", alg, a.h.Methods()[i])
					}
				}
				if same != (reused > 0) || same == (remapped > 0) {
					t.Errorf("%s: %d plans reused, %d remapped, hierarchy shared: %v", alg, reused, remapped, same)
				}
				got := inheritedEqualsNew(t, a, ix, opts, alg.String())
				{
					for _, r := range got.Reasons {
						if prev, ok := modelTexts[r.Evidence]; ok && unsafe.StringData(prev) != unsafe.StringData(r.Evidence) {
							t.Errorf("%s: the reason %q is a copy of the previous analyzer's", alg, r.Evidence)
							break
						}
					}
				}
			}
		})
	}
}

// TestUpdateLibraryMode: in library mode (entry points are what a client may call,
// dispatches have the targets client classes may add) member edits update in place
// too, and each update equals a new run. In variant collude Other gains a public
// greet(): Lib.greetAll's g.greet() gains Other.greet through colluding inheritance
// (see the variant), although Lib does not name Other, so Update must find the
// dispatch from the library-mode sets, not from the code that changed. Variants
// helper and header add methods, which are new entry points; removeoverride removes
// one; addclass adds a class, whose public methods are new entry points.
func TestUpdateLibraryMode(t *testing.T) {
	ctx := context.Background()
	base := updateProgram(t, "")
	a0 := New(base)
	cases := []struct {
		variant string
		changed []string
		edges   [][2]string // edges the new run has, argued in the variant
	}{
		{"collude", []string{"app/Other"}, [][2]string{
			{"app/Lib.greetAll(Lapp/Greeter;)V", "app/Other.greet()V"},
			{"app/Other.greet()V", "app/Lib.onlyFromWork()V"},
		}},
		{"helper", []string{"app/Work"}, [][2]string{{"app/Work.helper()V", "app/Lib.onlyFromWork()V"}}},
		{"header", []string{"app/Work"}, nil},
		{"removeoverride", []string{"app/Circle"}, [][2]string{{"app/Lib.drawAll(Lapp/Shape;)V", "app/Shape.draw()V"}}},
		{"addclass", []string{"app/Triangle"}, [][2]string{{"app/Lib.drawAll(Lapp/Shape;)V", "app/Triangle.draw()V"}}},
	}
	for _, level := range []callgraph.Level{callgraph.BehavedCLs, callgraph.CorrectString} {
		opts := Options{Level: level, Algorithm: callgraph.CHA, LibraryMode: true}
		g0, tr0, err := a0.RunTrace(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(level.String()+"/"+c.variant, func(t *testing.T) {
				a, want := variantRun(t, opts, c.variant)
				h := a.h
				for _, e := range c.edges {
					if !want.HasEdge(methodID(t, h, e[0]), methodID(t, h, e[1])) {
						t.Errorf("the new run has no edge %s -> %s", e[0], e[1])
					}
				}
				got, tr, err := a.Update(ctx, opts, Previous{Analyzer: a0, Graph: g0, Trace: tr0}, c.changed)
				if err != nil {
					t.Fatalf("Update: %v", err)
				}
				if d := graphtext.Compare(h, got, want); d != "" {
					t.Errorf("updated graph differs from a new run:\n%s", d)
				}
				checkDerivations(t, "update", got, tr.parent, tr.condOf, tr)
			})
		}
	}
}

// TestInheritAcrossMovedJDK: with the application first on the class path, a member
// edit moves the IDs of the JDK's methods too, so the plans an analyzer inherits
// across the edit (inheritAcross) must be remapped, not shared: its graphs equal a
// new analyzer's. At Encap-Respect Lib.load's name is not resolved: its fallback
// sets, inherited too, must gain the public constructor of addclass's Triangle and
// lose none but the changed classes' members.
func TestInheritAcrossMovedJDK(t *testing.T) {
	ctx := context.Background()
	build := func(variant string, prev *index.Index) *index.Index {
		src := t.TempDir()
		javatest.CopyTree(t, javatest.Program(t, "update/base"), src)
		if variant != "" {
			javatest.CopyTree(t, javatest.Program(t, "update/"+variant), src)
		}
		ix, err := index.Rebuild(ctx, index.Config{Sources: []classpath.Source{
			{Path: javatest.Compile(t, src), Origin: classpath.Application}, {Path: minijdk.Dir(t), Origin: classpath.JDK}}}, nil, prev)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	}
	base := build("", nil)
	a0 := New(base)
	levels := []callgraph.Level{callgraph.EncapRespect, callgraph.CorrectJDK}
	for _, lv := range levels {
		for _, alg := range []callgraph.Algorithm{callgraph.TFA, callgraph.CHA} {
			if _, err := a0.Run(ctx, Options{Level: lv, Algorithm: alg}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, variant := range []string{"helper", "addclass"} {
		ix := build(variant, base)
		idm := newIDMap(base.Hierarchy(), ix.Hierarchy())
		moved := 0
		for old, m := range base.Hierarchy().Methods() {
			if m.Class.Origin == hierarchy.JDK && idm.method[old] != int32(old) {
				moved++
			}
		}
		if moved == 0 {
			t.Fatalf("%s: no JDK method moved: the test checks no remapping", variant)
		}
		for _, lv := range levels {
			for _, alg := range []callgraph.Algorithm{callgraph.TFA, callgraph.CHA} {
				opts := Options{Level: lv, Algorithm: alg}
				a := New(ix)
				a.Inherit(a0, ix.Changes(base))
				if len(a.fallbacks) == 0 {
					t.Errorf("%s: no conservative set inherited", variant)
				}
				inheritedEqualsNew(t, a, ix, opts, fmt.Sprintf("%s, %v, %s", variant, lv, alg))
			}
		}
	}
}

// TestOutsideJDK: the JDK's code may name a class of a package the JDK has classes
// in (java/lang/Gone, say, if some JDK code referred to it), never one of the
// application's own packages.
func TestOutsideJDK(t *testing.T) {
	h := updateProgram(t, "").Hierarchy()
	for _, c := range []struct {
		names []string
		want  bool
	}{
		{[]string{"app/Work", "app/Triangle"}, true},
		{[]string{"app/Work", "java/lang/Gone"}, false},
		{[]string{"Default"}, true},
	} {
		if got := outsideJDK(slices.Values(c.names), h); got != c.want {
			t.Errorf("outsideJDK(%v) = %v, want %v", c.names, got, c.want)
		}
	}
}

// TestJDKNamesItsOwnClasses checks outsideJDK's premise on the real JDK images (17,
// and 25 when installed): no class of the JDK names a class of a package the JDK
// has no class in, neither in its constant pool's class entries nor in the
// descriptors of its members and of the members it refers to. An application's
// class in such a package could otherwise be named by the JDK's code, whose plans
// a member edit keeps. (The JDK does hold strings naming such classes, the Windows
// look and feel's among them, but a string names a class only at run time: the
// sites that load by name are resolved in each run, not kept in plans.)
func TestJDKNamesItsOwnClasses(t *testing.T) {
	images := map[string]*index.Index{"17": programsIndex(t, "whytop")}
	if home := javatest.JDK25Home(); home != "" {
		ix, err := index.Build(context.Background(), index.Config{JDKHome: home}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		images["25"] = ix
	} else {
		t.Log("no JDK 25 (set JCG_JDK25_HOME or install Temurin 25): JDK 17 only")
	}
	for release, ix := range images {
		h := ix.Hierarchy()
		pkgs := map[string]bool{}
		for _, c := range h.Classes() {
			if c.Origin == hierarchy.JDK && !c.Phantom {
				pkgs[c.Package()] = true
			}
		}
		outside := map[string]string{} // class named -> a JDK class naming it
		name := func(n, by string) {
			pkg := ""
			if i := strings.LastIndexByte(n, '/'); i >= 0 {
				pkg = n[:i]
			}
			if !pkgs[pkg] {
				outside[n] = by
			}
		}
		inDesc := func(d, by string) {
			for {
				i := strings.IndexByte(d, 'L')
				if i < 0 {
					return
				}
				j := strings.IndexByte(d[i:], ';')
				if j < 0 {
					return
				}
				name(d[i+1:i+j], by)
				d = d[i+j+1:]
			}
		}
		classes := 0
		for _, c := range h.Classes() {
			f := h.File(c)
			if c.Origin != hierarchy.JDK || f == nil {
				continue
			}
			classes++
			for i := 1; i < f.Pool.Len(); i++ {
				switch f.Pool.Tag(uint16(i)) {
				case classfile.TagClass:
					if n := f.Pool.ClassName(uint16(i)); strings.HasPrefix(n, "[") {
						inDesc(n, c.Name)
					} else {
						name(n, c.Name)
					}
				case classfile.TagNameAndType:
					_, d := f.Pool.NameAndType(uint16(i))
					inDesc(d, c.Name)
				}
			}
			for _, m := range f.Methods {
				inDesc(m.Desc, c.Name)
			}
			for _, fd := range f.Fields {
				inDesc(fd.Desc, c.Name)
			}
		}
		if classes < 10000 {
			t.Fatalf("JDK %s: %d classes read, want the whole image", release, classes)
		}
		for n, by := range outside {
			t.Errorf("JDK %s: %s names %s, of a package without JDK classes", release, by, n)
		}
	}
}

// inheritedEqualsNew runs a, an analyzer that inherited from another, and a new one
// over ix with opts, checks that their graphs are equal, and returns a's.
func inheritedEqualsNew(t *testing.T, a *Analyzer, ix *index.Index, opts Options, what string) *callgraph.Graph {
	t.Helper()
	got, err := a.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := New(ix).Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if d := graphtext.Compare(ix.Hierarchy(), got, want); d != "" {
		t.Errorf("%s: the graph of the inheriting analyzer differs from a new one's:\n%s", what, d)
	}
	return got
}
