package analysis

// A property test of the algorithms on random programs: a generator writes Java
// programs whose objects travel through locals, parameters, returns, instance and
// static fields and an array; javac compiles them; the JVM runs them, each method
// recording that it ran and which method called it; then at every level each
// algorithm's graph must reach every method that ran and have every call that
// happened as an edge, TFA's graph must be a subgraph of XTA's, XTA's of RTA's and
// RTA's of CHA's (also with XTA and TFA widening their sets past 2 classes, which
// these small programs otherwise never reach), and two runs of XTA or TFA must give
// the same graph (their answers depend on nothing but the program: an
// order-dependent result is a lost update). Checked to fail when XTA drops the flow
// of field reads, array loads or returns, and when TFA drops casts' results.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/graphcheck"
	"github.com/jcg-lsp/jcg-lsp/internal/graphtext"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// randomPrograms is how many programs a run checks; their seeds are fixed, so a
// failure names a program that fails again.
const randomPrograms = 24

func TestAlgorithmsOnRandomPrograms(t *testing.T) {
	src := t.TempDir()
	var progs []*genProgram
	for seed := range uint64(randomPrograms) {
		p := generate(seed)
		progs = append(progs, p)
		dir := filepath.Join(src, p.pkg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "Main.java"), []byte(p.source), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	classes := javatest.Compile(t, src)
	java := filepath.Join(javatest.JDKHome(t), "bin", "java")

	ctx := context.Background()
	ix, err := index.Build(ctx, index.Config{Sources: []classpath.Source{
		{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: classes, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	a := New(ix)
	h := a.Hierarchy()
	// The programs' sets stay far below XTA's widening size; a second analyzer
	// widens past 2 classes, so that widening (top sets) runs too.
	wide := New(ix)
	wide.xtaTopSize = 2
	// Programs where XTA has fewer edges between their methods than RTA, and TFA
	// fewer than XTA.
	finer, finerTFA := 0, 0
	for _, p := range progs {
		t.Run(p.pkg, func(t *testing.T) {
			out, err := exec.Command(java, "-cp", classes, p.pkg+".Main").Output()
			if err != nil {
				t.Fatalf("running %s: %v\n%s", p.pkg, err, out)
			}
			ran, calls := p.parseTrace(t, out)
			if len(ran) < 2 {
				t.Fatalf("the program ran %d traced methods: the generator makes programs that do nothing", len(ran))
			}
			ids := p.methodIDs(t, h)
			for _, l := range []callgraph.Level{callgraph.BehavedCLs, callgraph.EncapRespect, callgraph.CorrectString, callgraph.CorrectJDK} {
				gs := map[string]*callgraph.Graph{}
				for _, name := range []string{"CHA", "RTA", "XTA", "TFA", "XTA-wide", "TFA-wide"} {
					an, base := a, name
					if w, ok := strings.CutSuffix(name, "-wide"); ok {
						an, base = wide, w
					}
					algo, err := callgraph.ParseAlgorithm(base)
					if err != nil {
						t.Fatal(err)
					}
					g, err := an.Run(ctx, Options{Level: l, Algorithm: algo, Mains: []string{p.pkg + ".Main"}})
					if err != nil {
						t.Fatalf("%s level %d: %v", name, l, err)
					}
					gs[name] = g
					if g.Algorithm != algo {
						t.Errorf("%s level %d: the graph says it is %v's", name, l, g.Algorithm)
					}
					for _, m := range ran {
						if !g.Reachable.Has(ids[m]) {
							t.Errorf("%s level %d: %s ran but is not reachable\n%s", name, l, p.names[m], p.source)
						}
					}
					for _, c := range calls {
						if !g.HasEdge(ids[c[0]], ids[c[1]]) {
							t.Errorf("%s level %d: %s called %s, not an edge\n%s", name, l, p.names[c[0]], p.names[c[1]], p.source)
						}
					}
				}
				t.Logf("level %d: edges CHA %d RTA %d XTA %d TFA %d", l, gs["CHA"].NumEdges(), gs["RTA"].NumEdges(), gs["XTA"].NumEdges(), gs["TFA"].NumEdges())
				if l == callgraph.CorrectJDK {
					if appEdges(gs["XTA"], ids) < appEdges(gs["RTA"], ids) {
						finer++
					}
					if appEdges(gs["TFA"], ids) < appEdges(gs["XTA"], ids) {
						finerTFA++
					}
				}
				// CHA ⊇ RTA ⊇ XTA widened ⊇ XTA ⊇ TFA, and XTA widened ⊇ TFA widened ⊇
				// TFA: widening only adds, and TFA's sets are XTA's split per value.
				graphcheck.CheckSubgraph(t, []*callgraph.Graph{gs["CHA"], gs["RTA"], gs["XTA-wide"], gs["XTA"], gs["TFA"]}, h)
				graphcheck.CheckSubgraph(t, []*callgraph.Graph{gs["XTA-wide"], gs["TFA-wide"], gs["TFA"]}, h)
				for _, algo := range []callgraph.Algorithm{callgraph.XTA, callgraph.TFA} {
					again, err := a.Run(ctx, Options{Level: l, Algorithm: algo, Mains: []string{p.pkg + ".Main"}})
					if err != nil {
						t.Fatal(err)
					}
					if d := graphtext.Compare(h, again, gs[algo.String()]); d != "" {
						t.Errorf("level %d: two %s runs differ:\n%s", l, algo, d)
					}
				}
			}
		})
	}
	if finer == 0 && !t.Failed() {
		// The parts of a program share nothing, so XTA must keep them apart
		// somewhere; if it never does, the generator no longer tests XTA.
		t.Errorf("XTA's graph is RTA's in all %d programs", len(progs))
	}
	if finerTFA == 0 && !t.Failed() {
		// Objects of one part meet in methods but not always in one value.
		t.Errorf("TFA's graph is XTA's in all %d programs", len(progs))
	}
}

// appEdges counts the edges of g between the methods ids.
func appEdges(g *callgraph.Graph, ids []int32) (n int) {
	for _, x := range ids {
		for _, y := range ids {
			if g.HasEdge(x, y) {
				n++
			}
		}
	}
	return n
}

// genProgram is one generated program: its package, source and traced methods.
type genProgram struct {
	pkg    string
	source string
	names  []string     // by trace ID: Class.method
	descs  []string     // by trace ID: the JVM descriptor
	owners []string     // by trace ID: the internal class name
	rand   *rand.Rand   // the generator's randomness
	b      bytes.Buffer // the source being written
}

const (
	genParts   = 3 // independent parts of a program, sharing only the interface I
	genClasses = 4 // classes of a part: Ck_0..Ck_3 implementing I
	genLocals  = 3 // locals v0..v2 of type I in every body
)

// generate writes the program of a seed. It has genParts parts that share only
// the interface I: part k's classes Ck_0.. implement I, each with one instance
// method m(I), one static method s(I), an instance field f and a static field g,
// and class Ak holds the part's array. Bodies are random statements over the
// locals, the parameter, this, the part's fields and its array; every call is
// guarded against null and a depth bound stops the recursion the calls may form.
// Within a part objects mix freely; between parts nothing flows, so XTA's sets
// keep the parts apart where RTA's one set does not, and a lost update in XTA
// shows as a method that ran but is not reachable.
func generate(seed uint64) *genProgram {
	p := &genProgram{pkg: "gen" + strconv.FormatUint(seed, 10), rand: rand.New(rand.NewPCG(seed, 0x6a63676c7370))}
	w := &p.b
	fmt.Fprintf(w, "package %s;\n\n", p.pkg)
	w.WriteString("interface I {\n    I m(I x);\n}\n\n")
	// The trace: which methods ran, and who called whom (by trace ID; -1 is the JVM).
	w.WriteString(traceClass)
	mainID := p.trace("Main", "main", "([Ljava/lang/String;)V")
	w.WriteString("final class A0 {\n    static I[] arr = new I[2];\n}\n\n")
	for k := range genParts {
		for j := range genClasses {
			cls := fmt.Sprintf("C%d_%d", k, j)
			fmt.Fprintf(w, "class %s implements I {\n    I f;\n    static I g;\n\n", cls)
			fmt.Fprintf(w, "    public I m(I x) {\n")
			p.body(p.trace(cls, "m", "(L"+p.pkg+"/I;)L"+p.pkg+"/I;"), k, true)
			fmt.Fprintf(w, "    }\n\n    static I s(I x) {\n")
			p.body(p.trace(cls, "s", "(L"+p.pkg+"/I;)L"+p.pkg+"/I;"), k, false)
			w.WriteString("    }\n}\n\n")
		}
	}
	// Each part has a driver that main calls. Drivers return nothing, so main's
	// set stays empty: a caller's set goes to every method it calls, and main
	// would carry one part's objects into the others.
	for k := range genParts {
		id := p.trace(fmt.Sprintf("R%d", k), "run", "()V")
		fmt.Fprintf(w, "final class R%d {\n    static void run() {\n        int p = T.enter(%d);\n", k, id)
		for range 2 {
			fmt.Fprintf(w, "        C%d_%d.s(new C%d_%d());\n", k, p.rand.IntN(genClasses), k, p.rand.IntN(genClasses))
		}
		w.WriteString("        T.exit(p);\n    }\n}\n\n")
	}
	w.WriteString("public class Main {\n    public static void main(String[] args) {\n")
	fmt.Fprintf(w, "        int p = T.enter(%d);\n", mainID)
	for k := range genParts {
		fmt.Fprintf(w, "        R%d.run();\n", k)
	}
	w.WriteString("        T.exit(p);\n        T.dump();\n    }\n}\n")
	p.source = w.String()
	return p
}

// traceClass records which traced methods ran and who called whom, and prints it.
const traceClass = `final class T {
    static boolean[] ran = new boolean[64];
    static boolean[][] call = new boolean[65][64];
    static int cur = -1, depth;

    static int enter(int id) {
        int prev = cur;
        ran[id] = true;
        call[prev + 1][id] = true;
        cur = id;
        depth++;
        return prev;
    }

    static void exit(int prev) {
        cur = prev;
        depth--;
    }

    static void dump() {
        for (int i = 0; i < 64; i++) {
            if (ran[i]) {
                System.out.println(i);
            }
        }
        System.out.println(-1);
        for (int a = 0; a < 65; a++) {
            for (int b = 0; b < 64; b++) {
                if (call[a][b]) {
                    System.out.println(a * 100 + b);
                }
            }
        }
    }
}

`

// trace registers a traced method and returns its ID.
func (p *genProgram) trace(cls, name, desc string) int {
	p.names = append(p.names, cls+"."+name)
	p.descs = append(p.descs, desc)
	p.owners = append(p.owners, p.pkg+"/"+cls)
	return len(p.names) - 1
}

// body writes a traced method body of random statements.
func (p *genProgram) body(id, part int, instance bool) {
	w := &p.b
	r := p.rand
	fmt.Fprintf(w, "        int p = T.enter(%d);\n        try {\n", id)
	w.WriteString("            if (T.depth > 6) {\n                return null;\n            }\n")
	v := func() string { return "v" + strconv.Itoa(r.IntN(genLocals)) }
	c := func() string { return fmt.Sprintf("C%d_%d", part, r.IntN(genClasses)) }
	// The locals start non-null, so that the calls on them run.
	fmt.Fprintf(w, "            I v0 = x, v1 = new %s(), v2 = x != null ? x : v1;\n", c())
	for range 3 + r.IntN(4) {
		a, b, d := v(), v(), v()
		// Weights: virtual calls are rare, because every call of m passes the
		// caller's whole set to every m it reaches and back, and a program where
		// every method calls m has one set: the same as RTA's.
		switch k := r.IntN(20); {
		case k < 4:
			fmt.Fprintf(w, "            %s = new %s();\n", a, c())
		case k < 5:
			fmt.Fprintf(w, "            %s = %s;\n", a, b)
		case k < 7:
			fmt.Fprintf(w, "            if (%s != null) {\n                %s = %s.m(%s);\n            }\n", b, a, b, d)
		case k < 10:
			fmt.Fprintf(w, "            %s = %s.s(%s);\n", a, c(), b)
		case k < 12 && instance:
			fmt.Fprintf(w, "            this.f = %s;\n", a)
		case k < 12:
			fmt.Fprintf(w, "            %s.g = %s;\n", c(), a)
		case k < 14 && instance:
			fmt.Fprintf(w, "            %s = this.f;\n", a)
		case k < 14 && part == 2:
			// Part 2 reads part 0's static fields, a channel only field reads
			// carry, and calls what it finds.
			fmt.Fprintf(w, "            %s = C0_%d.g;\n            if (%s != null) {\n                %s = %s.m(%s);\n            }\n", a, r.IntN(genClasses), a, a, a, b)
		case k < 14:
			fmt.Fprintf(w, "            %s = %s.g;\n", a, c())
		case k < 15:
			other := c()
			fmt.Fprintf(w, "            if (%s instanceof %s) {\n                %s = ((%s) %s).f;\n            }\n", b, other, a, other, b)
		case k < 16:
			// A call on a cast's result: TFA's receiver set is what the cast lets pass.
			other := c()
			fmt.Fprintf(w, "            if (%s instanceof %s) {\n                %s = ((%s) %s).m(%s);\n            }\n", b, other, a, other, b, d)
		case k < 18 && part == 0:
			// One set holds the elements of every array: only part 0 stores into
			// arrays, or the parts would share that set; part 1 loads from part
			// 0's array, a channel only array loads carry.
			fmt.Fprintf(w, "            A0.arr[%d] = %s;\n", r.IntN(2), a)
		case part <= 1:
			fmt.Fprintf(w, "            %s = A0.arr[%d];\n", a, r.IntN(2))
		default:
			fmt.Fprintf(w, "            %s = new %s();\n", a, c())
		}
	}
	fmt.Fprintf(w, "            return %s;\n        } finally {\n            T.exit(p);\n        }\n", v())
}

// methodIDs maps trace IDs to the hierarchy's method IDs.
func (p *genProgram) methodIDs(t *testing.T, h *hierarchy.Hierarchy) []int32 {
	t.Helper()
	ids := make([]int32, len(p.names))
	for i := range p.names {
		c := h.Class(p.owners[i])
		if c == nil {
			t.Fatalf("class %s not in the hierarchy", p.owners[i])
		}
		m := c.Method(strings.TrimPrefix(p.names[i], strings.TrimPrefix(p.owners[i], p.pkg+"/")+"."), p.descs[i])
		if m == nil {
			t.Fatalf("method %s%s not in the hierarchy", p.names[i], p.descs[i])
		}
		ids[i] = m.ID
	}
	return ids
}

// parseTrace reads what T.dump printed: the IDs of the methods that ran, -1, then
// caller*100+callee for every call between traced methods (callers from the JVM,
// 0*100+id, are left out).
func (p *genProgram) parseTrace(t *testing.T, out []byte) (ran []int, calls [][2]int) {
	t.Helper()
	inCalls := false
	for _, line := range strings.Fields(string(out)) {
		n, err := strconv.Atoi(line)
		if err != nil {
			t.Fatalf("trace line %q: %v", line, err)
		}
		switch {
		case n == -1:
			inCalls = true
		case !inCalls:
			ran = append(ran, n)
		case n/100 > 0:
			calls = append(calls, [2]int{n/100 - 1, n % 100})
		}
	}
	return ran, calls
}
