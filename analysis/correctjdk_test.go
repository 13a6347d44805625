package analysis

import (
	"context"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// TestJVMUpcallsByEnvironment: at level 6 the JVM (the NativeMethod node) calls JFR's
// upcalls only in a run that uses JFR (the model's jfr entry has "when jvm.jfr"), and
// always calls what every run does (Thread.exit, the jvm thread-lifecycle entry). At
// level 5 the node may call both, whatever the environment: level 6 stays within it.
func TestJVMUpcallsByEnvironment(t *testing.T) {
	ix := programsIndex(t, "cg/correctjdk")
	h := ix.Hierarchy()
	jfr := h.Class("jdk/jfr/internal/JVMUpcalls").Method("createRecorderThread", "(Ljava/lang/ThreadGroup;Ljava/lang/ClassLoader;)Ljava/lang/Thread;")
	exit := h.Class("java/lang/Thread").Method("exit", "()V")
	if jfr == nil || exit == nil {
		t.Fatal("the JDK lacks JVMUpcalls.createRecorderThread or Thread.exit")
	}
	a := New(ix)
	calls := func(lv callgraph.Level, env map[string]string) (jfrCalled, exitCalled bool) {
		g, err := a.Run(context.Background(), Options{Level: lv, Algorithm: callgraph.CHA, Mains: []string{"correctjdk.Main"}, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range g.Callees(g.Native) {
			jfrCalled = jfrCalled || slices.Contains(g.Sets[b.Set], jfr.ID)
			exitCalled = exitCalled || slices.Contains(g.Sets[b.Set], exit.ID)
		}
		return
	}
	for _, c := range []struct {
		level     callgraph.Level
		env       map[string]string
		jfr, exit bool
	}{
		{callgraph.CorrectJDK, nil, false, true},
		{callgraph.CorrectJDK, map[string]string{"jvm.jfr": "off"}, false, true},
		{callgraph.CorrectJDK, map[string]string{"jvm.jfr": "on"}, true, true},
		{callgraph.CorrectEnv, nil, true, true},
	} {
		if gotJFR, gotExit := calls(c.level, c.env); gotJFR != c.jfr || gotExit != c.exit {
			t.Errorf("%v with %v: <native> calls JFR's upcall %v, Thread.exit %v; want %v, %v", c.level, c.env, gotJFR, gotExit, c.jfr, c.exit)
		}
	}
}

// TestModelTextsShared: the evidence the JDK model gives (a native's summary on
// each call of it, the reasons of its effects) is one string per analyzer, shared
// by every site and every run, not a copy per call site and graph.
func TestModelTextsShared(t *testing.T) {
	ix := programsIndex(t, "cg/correctjdk")
	a := New(ix)
	run := func() *callgraph.Graph {
		g, err := a.Run(context.Background(), Options{Level: callgraph.CorrectJDK, Algorithm: callgraph.CHA, Mains: []string{"correctjdk.Main"}})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	first, second := run(), run()
	summaries := map[int32]string{} // native -> the first site's evidence
	shared, reasons := 0, 0
	for _, g := range []*callgraph.Graph{first, second} {
		for _, s := range g.Sites {
			if s.Feature != callgraph.FeatNative || s.Status != callgraph.Resolved {
				continue
			}
			native := g.Sets[s.Targets][0]
			if prev, ok := summaries[native]; !ok {
				summaries[native] = s.Evidence
			} else if unsafe.StringData(prev) != unsafe.StringData(s.Evidence) {
				t.Fatalf("%s: two sites hold copies of the evidence %q", s.API, s.Evidence)
			} else {
				shared++
			}
		}
	}
	byEvidence := map[string]string{}
	for _, g := range []*callgraph.Graph{first, second} {
		for _, r := range g.Reasons {
			if r.Resolver != "jdk-model" {
				continue
			}
			if prev, ok := byEvidence[r.Evidence]; ok && unsafe.StringData(prev) != unsafe.StringData(r.Evidence) {
				t.Fatalf("the runs hold copies of the reason %q", r.Evidence)
			} else if ok {
				reasons++
			}
			byEvidence[r.Evidence] = r.Evidence
		}
	}
	if shared == 0 || reasons == 0 {
		t.Fatalf("%d shared summaries, %d shared reasons: the test proves nothing", shared, reasons)
	}
}

// TestJDKBoundary checks, on the JDK 17 image, what Correct-JDK resolves from where
// the JDK's code ends (jdkBoundary, copiesArgument), against Correct-Env, which
// knows neither:
//   - jdk.jfr.internal.SecuritySupport.setProperty is public, static and in a
//     package jdk.jfr keeps to itself; its one caller (Repository.setBasePath)
//     passes "jdk.jfr.repository", so the lambda that sets the key is a plain
//     property writer at Correct-Env only;
//   - the management agent copies System.getProperties() into its own Properties
//     with putAll (Agent.loadManagementProperties and startRemoteManagementAgent),
//     which writes no property at Correct-JDK.
//
// The JDK's other plain writers (the script shell's setProperty of a command
// line's key) stay at both levels.
func TestJDKBoundary(t *testing.T) {
	ix := programsIndex(t, "cg/correctjdk")
	h := ix.Hierarchy()
	a := New(ix)
	writers := []string{
		"jdk/jfr/internal/SecuritySupport.lambda$setProperty$4",
		"jdk/internal/agent/Agent.loadManagementProperties",
		"jdk/internal/agent/Agent.startRemoteManagementAgent",
	}
	for _, lv := range []callgraph.Level{callgraph.CorrectEnv, callgraph.CorrectJDK} {
		plain := map[string]bool{}
		g, err := a.Run(context.Background(), Options{Level: lv, Algorithm: callgraph.CHA, Mains: []string{"correctjdk.Main"},
			PlainPropertyWriter: func(caller callgraph.NodeID, _, _ int32, _ *hierarchy.Method) {
				m := h.Methods()[caller]
				plain[m.Class.Name+"."+m.Name] = true
			}})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range writers {
			cls, name, _ := strings.Cut(w, ".")
			reachable := false
			for _, m := range h.Class(cls).Methods {
				reachable = reachable || m.Name == name && g.Reachable.Has(m.ID)
			}
			if !reachable {
				t.Fatalf("%v: %s is not reachable, so the test says nothing of it", lv, w)
			}
			if want := !lv.ModelsJDK(); plain[w] != want {
				t.Errorf("%v: %s a plain property writer %v, want %v", lv, w, plain[w], want)
			}
		}
		if !plain["com/sun/tools/script/shell/Main.processOptions"] {
			t.Errorf("%v: the script shell's setProperty of an unknown key is no plain property writer (%v)", lv, plain)
		}
	}
}
