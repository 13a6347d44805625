package analysis

import (
	"context"
	"slices"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
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
