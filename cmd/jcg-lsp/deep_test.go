package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/internal/classgen"
)

// chainJar writes classgen.Chain(n) as a jar in a temporary directory.
func chainJar(tb testing.TB, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("chain%d.jar", n))
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := classgen.WriteJar(f, classgen.Chain(n)); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkAnalyzeDeepChain runs the README's `analyze` (every level, with the JDK)
// on the bundled example and on superclass chains 10,000 and 20,000 classes deep.
// Issue 16's budget: the 20,000-deep chain costs at most 1.5 times the example. With
// selection walking each class's whole chain, CHA was quadratic in the depth.
func BenchmarkAnalyzeDeepChain(b *testing.B) {
	jars := []struct{ name, path string }{{"example", exampleJar}}
	for _, n := range []int{10000, 20000} {
		jars = append(jars, struct{ name, path string }{fmt.Sprintf("chain%d", n), chainJar(b, n)})
	}
	for _, j := range jars {
		b.Run(j.name, func(b *testing.B) {
			for b.Loop() {
				var errb bytes.Buffer
				if err := run(context.Background(), []string{"analyze", j.path}, io.Discard, &errb); err != nil {
					b.Fatalf("%v\n%s", err, errb.String())
				}
			}
		})
	}
}

// TestAnalyzeDeepChainLinear analyses a chain 100,000 classes deep (with a class
// java/lang/Object of its own instead of the JDK) under CHA. Selection walking each
// class's chain made this quadratic, and CHA dispatch of constructor calls cubic:
// hours. Linear, it takes seconds; the minute allowed is a bound on a hang, not a
// budget (BenchmarkAnalyzeDeepChain is the budget). (TFA, the command's default,
// takes about 15 s here: the created classes its filters fed by top nodes keep
// grow with the square of the depth.)
func TestAnalyzeDeepChainLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses 100,000 classes")
	}
	const n = 100000
	object := classgen.Class{Access: classgen.Public | classgen.Super, Name: "java/lang/Object", Methods: []classgen.Method{
		{Access: classgen.Public, Name: "<init>", Desc: "()V", Code: (&classgen.Code{MaxStack: 0, MaxLocals: 1}).Op(classgen.Return)},
		{Access: classgen.Public, Name: "hashCode", Desc: "()I", Code: (&classgen.Code{MaxStack: 1, MaxLocals: 1}).Op(0x03).Op(classgen.Ireturn)},
		{Access: classgen.Public, Name: "toString", Desc: "()Ljava/lang/String;", Code: (&classgen.Code{MaxStack: 1, MaxLocals: 1}).Op(0x01).Op(classgen.Areturn)},
	}}
	path := filepath.Join(t.TempDir(), "chain.jar")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := classgen.WriteJar(f, append(classgen.Chain(n), object)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	if err := run(ctx, []string{"analyze", "--algo", "cha", "--no-jdk", "--levels", "1", path}, &out, &errb); err != nil {
		t.Fatalf("analyze: %v\n%s", err, errb.String())
	}
	// Every constructor of the chain is reachable from main, with Object's three
	// methods and main itself.
	if want := regexp.MustCompile(fmt.Sprintf(`Behaved-CLs +%d `, n+4)); !want.Match(out.Bytes()) {
		t.Errorf("output lacks %v:\n%s", want, out.String())
	}
}
