package wholejdk

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
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
	return writeClasses(t, main, other)
}

// TestProgramBootstrap checks that an invokedynamic with the program's bootstrap
// method calls the call site's target: the JVM runs programBootstrap's program
// (its stack trace has main -> target -> reached), and at each of constantRuns the
// graph has main -> bsm (the JVM links the site) and main -> target (the site
// calls its target, a handle argument of the bootstrap, private to Main). Other's
// private never is reachable only at Behaved-CLs, whose fallback may call anything.
// (constantRuns: the hole was at Encap-Respect and above, under every algorithm.)
func TestProgramBootstrap(t *testing.T) {
	ix := runAndIndex(t, programBootstrap(t), "indy.Main", "indy.Main.reached", "indy.Main.target")
	h := ix.Hierarchy()
	mainC := h.Class("indy/Main")
	main, bsm := mainC.Method("main", "([Ljava/lang/String;)V"), mainC.Method("bsm", mainC.Methods[1].Desc)
	target, reached := mainC.Method("target", "()V"), mainC.Method("reached", "()V")
	never := h.Class("indy/Other").Method("never", "()V")
	for _, r := range constantRuns {
		g, err := analysis.New(ix).Run(context.Background(), analysis.Options{Level: r.level, Algorithm: r.algo, Mains: []string{"indy.Main"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range [][2]int32{{main.ID, bsm.ID}, {main.ID, target.ID}, {target.ID, reached.ID}} {
			if !g.HasEdge(e[0], e[1]) {
				t.Errorf("%v %v: no edge %s -> %s", r.algo, r.level, h.Methods()[e[0]], h.Methods()[e[1]])
			}
		}
		if g.Reachable.Has(never.ID) != (r.level == callgraph.BehavedCLs) {
			t.Errorf("%v %v: %s reachable %v", r.algo, r.level, never, g.Reachable.Has(never.ID))
		}
	}
}

// constantRuns are the levels and algorithms the tests of programs with handle
// constants and bootstraps of their own analyse them at: each level whose fallback
// differs, under a different algorithm each (whole-JDK runs cost seconds).
var constantRuns = []struct {
	level callgraph.Level
	algo  callgraph.Algorithm
}{{callgraph.BehavedCLs, callgraph.CHA}, {callgraph.EncapRespect, callgraph.RTA}, {callgraph.CorrectJDK, callgraph.TFA}}

// programConstants writes a program that loads a method handle constant and a
// dynamic constant, as other compilers and bytecode generators do (javac emits
// neither). condy.Main.main loads the dynamic constant "cfg", whose bootstrap method
// Main.make runs then (the JVM resolves the constant at the ldc), and pops it; it
// loads the handle constant of Main.secret, private, and passes it to Other.call,
// which invokes it: secret throws, so a run's stack trace shows main -> Other.call
// -> secret. Main.unused, private, is called by nothing.
func programConstants(t *testing.T) string {
	const lookup = "Ljava/lang/invoke/MethodHandles$Lookup;"
	mk := classgen.Handle{Kind: classgen.RefInvokeStatic, Class: "condy/Main", Name: "make",
		Desc: "(" + lookup + "Ljava/lang/String;Ljava/lang/Class;)Ljava/lang/Object;"}
	secret := classgen.Handle{Kind: classgen.RefInvokeStatic, Class: "condy/Main", Name: "secret", Desc: "()V"}
	main := classgen.Class{Access: classgen.Public | classgen.Super, Name: "condy/Main", Methods: []classgen.Method{
		{Access: classgen.Public | classgen.Static, Name: "main", Desc: "([Ljava/lang/String;)V",
			Code: (&classgen.Code{MaxStack: 1, MaxLocals: 1}).LdcDynamic("cfg", "Ljava/lang/Object;", mk).Op(classgen.Pop).
				LdcHandle(secret).Invoke(classgen.InvokeStatic, "condy/Other", "call", "(Ljava/lang/invoke/MethodHandle;)V").Op(classgen.Return)},
		{Access: classgen.Public | classgen.Static, Name: "make", Desc: mk.Desc,
			Code: (&classgen.Code{MaxStack: 1, MaxLocals: 3}).Op(classgen.Aload1).Op(classgen.Areturn)},
		{Access: classgen.Private | classgen.Static, Name: "secret", Desc: "()V",
			Code: (&classgen.Code{MaxStack: 2, MaxLocals: 0}).New("java/lang/Error").Op(classgen.Dup).
				Invoke(classgen.InvokeSpecial, "java/lang/Error", "<init>", "()V").Op(classgen.Athrow)},
		{Access: classgen.Private | classgen.Static, Name: "unused", Desc: "()V", Code: (&classgen.Code{}).Op(classgen.Return)},
	}}
	other := classgen.Class{Access: classgen.Public | classgen.Super, Name: "condy/Other", Methods: []classgen.Method{
		{Access: classgen.Public | classgen.Static, Name: "call", Desc: "(Ljava/lang/invoke/MethodHandle;)V",
			Code: (&classgen.Code{MaxStack: 1, MaxLocals: 1}).Op(classgen.Aload0).
				Invoke(classgen.InvokeVirtual, "java/lang/invoke/MethodHandle", "invokeExact", "()V").Op(classgen.Return)},
	}}
	return writeClasses(t, main, other)
}

// TestProgramConstants checks programConstants's program: the JVM runs it (its stack
// trace has Other.call -> secret), and at each of constantRuns the graph has
// main -> make (the dynamic constant's bootstrap) and, from Encap-Respect on,
// Other.call -> secret: the handle Other.call invokes is not known there, and secret,
// private to Main, is neither public nor accessible from Other, so only the handle
// constant's joining the handles the program holds puts it in the invocation's
// fallback. At Behaved-CLs that fallback is every method, unused included; from
// Encap-Respect on, unused is unreachable.
func TestProgramConstants(t *testing.T) {
	ix := runAndIndex(t, programConstants(t), "condy.Main", "condy.Main.secret", "condy.Other.call")
	h := ix.Hierarchy()
	mainC := h.Class("condy/Main")
	var main, bsm, secret, unused *hierarchy.Method
	for _, m := range mainC.Methods {
		switch m.Name {
		case "main":
			main = m
		case "make":
			bsm = m
		case "secret":
			secret = m
		case "unused":
			unused = m
		}
	}
	call := h.Class("condy/Other").Method("call", "(Ljava/lang/invoke/MethodHandle;)V")
	for _, r := range constantRuns {
		g, err := analysis.New(ix).Run(context.Background(), analysis.Options{Level: r.level, Algorithm: r.algo, Mains: []string{"condy.Main"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range [][2]*hierarchy.Method{{main, bsm}, {main, call}, {call, secret}} {
			if !g.HasEdge(e[0].ID, e[1].ID) {
				t.Errorf("%v %v: no edge %s -> %s", r.algo, r.level, e[0], e[1])
			}
		}
		if g.Reachable.Has(unused.ID) != (r.level == callgraph.BehavedCLs) {
			t.Errorf("%v %v: %s reachable %v", r.algo, r.level, unused, g.Reachable.Has(unused.ID))
		}
	}
}

// writeClasses writes class files into a new class directory.
func writeClasses(t *testing.T, classes ...classgen.Class) string {
	dir := t.TempDir()
	for _, c := range classes {
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

// runAndIndex runs class main of the class directory dir with java, which must
// fail with a stack trace that has each of frames, and indexes dir with the JDK;
// the index is closed when the test ends.
func runAndIndex(t *testing.T, dir, main string, frames ...string) *index.Index {
	t.Helper()
	java := filepath.Join(javatest.JDKHome(t), "bin", "java")
	out, err := exec.Command(java, "-cp", dir, main).CombinedOutput()
	ok := err != nil
	for _, f := range frames {
		ok = ok && strings.Contains(string(out), "at "+f)
	}
	if !ok {
		t.Fatalf("running %s: %v\n%s", main, err, out)
	}
	ix, err := index.Build(context.Background(), index.Config{JDKHome: javatest.JDKHome(t), Sources: []classpath.Source{{Path: dir, Origin: classpath.Application}}}, factsCache)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}
