package analysis

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/classgen"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// programBootstrap writes a program whose invokedynamic has a bootstrap method of
// its own, as compilers of other JVM languages emit (javac's bootstraps are the
// JDK's). indy.Main.main's invokedynamic "run" is linked by Main.bsm, which returns
// a ConstantCallSite of its handle argument, a REF_invokeStatic constant of the
// private Main.target; target calls Main.reached, which throws, so a run's stack
// trace shows the call: main -> target (the call site's target) -> reached.
// indy.Other.never, private, is called by nothing.
func programBootstrap(t *testing.T) string {
	const (
		lookup   = "Ljava/lang/invoke/MethodHandles$Lookup;"
		bsmDesc  = "(" + lookup + "Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/invoke/MethodHandle;)Ljava/lang/invoke/CallSite;"
		callSite = "java/lang/invoke/ConstantCallSite"
	)
	bsm := classgen.Handle{Kind: classgen.RefInvokeStatic, Class: "indy/Main", Name: "bsm", Desc: bsmDesc}
	target := classgen.Handle{Kind: classgen.RefInvokeStatic, Class: "indy/Main", Name: "target", Desc: "()V"}
	main := classgen.Class{Access: classgen.Public | classgen.Super, Name: "indy/Main", Methods: []classgen.Method{
		{Access: classgen.Public | classgen.Static, Name: "main", Desc: "([Ljava/lang/String;)V",
			Code: (&classgen.Code{MaxStack: 0, MaxLocals: 1}).InvokeDynamic("run", "()V", bsm, target).Op(classgen.Return)},
		{Access: classgen.Public | classgen.Static, Name: "bsm", Desc: bsmDesc,
			Code: (&classgen.Code{MaxStack: 3, MaxLocals: 4}).New(callSite).Op(classgen.Dup).Op(classgen.Aload3).
				Invoke(classgen.InvokeSpecial, callSite, "<init>", "(Ljava/lang/invoke/MethodHandle;)V").Op(classgen.Areturn)},
		{Access: classgen.Private | classgen.Static, Name: "target", Desc: "()V",
			Code: (&classgen.Code{MaxStack: 0, MaxLocals: 0}).Invoke(classgen.InvokeStatic, "indy/Main", "reached", "()V").Op(classgen.Return)},
		{Access: classgen.Private | classgen.Static, Name: "reached", Desc: "()V",
			Code: (&classgen.Code{MaxStack: 2, MaxLocals: 0}).New("java/lang/Error").Op(classgen.Dup).
				Invoke(classgen.InvokeSpecial, "java/lang/Error", "<init>", "()V").Op(classgen.Athrow)},
	}}
	other := classgen.Class{Access: classgen.Public | classgen.Super, Name: "indy/Other", Methods: []classgen.Method{
		{Access: classgen.Private | classgen.Static, Name: "never", Desc: "()V", Code: (&classgen.Code{}).Op(classgen.Return)},
	}}
	dir := t.TempDir()
	for _, c := range []classgen.Class{main, other} {
		b, err := c.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, filepath.FromSlash(c.Name)+".class")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestProgramBootstrap checks that an invokedynamic with the program's bootstrap
// method calls the call site's target: the JVM runs programBootstrap's program
// (its stack trace has main -> target -> reached), and at every level and algorithm
// the graph has main -> bsm (the JVM links the site) and main -> target (the site
// calls its target, a handle argument of the bootstrap, private to Main). Other's
// private never is reachable only at Behaved-CLs, whose fallback may call anything.
func TestProgramBootstrap(t *testing.T) {
	dir := programBootstrap(t)
	java := filepath.Join(javatest.JDKHome(t), "bin", "java")
	out, err := exec.Command(java, "-cp", dir, "indy.Main").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "at indy.Main.reached") || !strings.Contains(string(out), "at indy.Main.target") {
		t.Fatalf("running indy.Main: %v\n%s", err, out)
	}
	ix, err := index.Build(context.Background(), index.Config{JDKHome: javatest.JDKHome(t), Sources: []classpath.Source{{Path: dir, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	mainC := h.Class("indy/Main")
	main, bsm := mainC.Method("main", "([Ljava/lang/String;)V"), mainC.Method("bsm", mainC.Methods[1].Desc)
	target, reached := mainC.Method("target", "()V"), mainC.Method("reached", "()V")
	never := h.Class("indy/Other").Method("never", "()V")
	a := New(ix)
	for _, alg := range []callgraph.Algorithm{callgraph.CHA, callgraph.RTA, callgraph.TFA} {
		for _, l := range []callgraph.Level{callgraph.BehavedCLs, callgraph.EncapRespect, callgraph.CorrectJDK} {
			g, err := a.Run(context.Background(), Options{Level: l, Algorithm: alg, Mains: []string{"indy.Main"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range [][2]int32{{main.ID, bsm.ID}, {main.ID, target.ID}, {target.ID, reached.ID}} {
				if !g.HasEdge(e[0], e[1]) {
					t.Errorf("%v %v: no edge %s -> %s", alg, l, h.Methods()[e[0]], h.Methods()[e[1]])
				}
			}
			if g.Reachable.Has(never.ID) != (l == callgraph.BehavedCLs) {
				t.Errorf("%v %v: %s reachable %v", alg, l, never, g.Reachable.Has(never.ID))
			}
		}
	}
}
