package wholejdk

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/graphcheck"
)

// realJar is a real application shipped by Debian, analysed with the JDK: the
// analysis must complete at every level with both algorithms, the subgraph
// invariants must hold, and methods and edges found by reading the jar with javap
// must be there.
type realJar struct {
	name  string
	path  string
	apt   string // the Debian package that installs it
	main  string
	heavy bool // only levels 1-2 under -short
	// reachable methods and edges (from, to) that every graph must have: direct
	// calls on the way from main, read from `javap -c`.
	reachable []string
	edges     [][2]string
}

var realJars = []realJar{
	{
		name: "javacc", path: "/usr/share/java/javacc.jar", apt: "javacc",
		// No Main-Class in the manifest; /usr/bin/javacc runs the class `javacc`.
		main: "javacc",
		reachable: []string{
			"org.javacc.parser.Main.mainProgram",
			"org.javacc.parser.JavaCCParser.javacc_input",
			"org.javacc.parser.Semanticize.start",
		},
		edges: [][2]string{
			{"javacc.main", "org.javacc.parser.Main.main"},
			{"org.javacc.parser.Main.mainProgram", "org.javacc.parser.JavaCCParser.javacc_input"},
			{"org.javacc.parser.Main.mainProgram", "org.javacc.parser.LexGen.start"},
		},
	},
	{
		name: "sablecc", path: "/usr/share/java/sablecc.jar", apt: "sablecc",
		main: "org.sablecc.sablecc.SableCC", heavy: true, // Main-Class
		reachable: []string{
			"org.sablecc.sablecc.SableCC.processGrammar(Ljava/io/File;Ljava/io/File;)V",
			"org.sablecc.sablecc.parser.Parser.parse",
		},
		edges: [][2]string{
			{"org.sablecc.sablecc.SableCC.main", "org.sablecc.sablecc.SableCC.processGrammar(Ljava/lang/String;Ljava/lang/String;)V"},
			{"org.sablecc.sablecc.SableCC.processGrammar(Ljava/io/File;Ljava/io/File;)V", "org.sablecc.sablecc.parser.Parser.parse"},
		},
	},
	{
		name: "proguard", path: "/usr/share/java/proguard.jar", apt: "libproguard-java (pulled in by proguard-cli)",
		main: "proguard.ProGuard", heavy: true, // Main-Class; its Class-Path gson jar is not loaded (phantoms)
		reachable: []string{
			"proguard.ProGuard.execute",
			"proguard.ConfigurationChecker.check",
		},
		edges: [][2]string{
			{"proguard.ProGuard.main", "proguard.ProGuard.execute"},
			{"proguard.ProGuard.execute", "proguard.ProGuard.shrink"},
		},
	},
}

// TestRealJars analyses real applications at every assumption level with CHA and
// RTA, and the light ones at Correct-JDK with XTA and TFA too (TFA within XTA within
// RTA). Under -short the heavy ones (sablecc, proguard) run at levels 1-2 only, and
// XTA and TFA do not run.
func TestRealJars(t *testing.T) {
	for _, j := range realJars {
		t.Run(j.name, func(t *testing.T) {
			if _, err := os.Stat(j.path); err != nil {
				t.Skipf("%s is not installed (Debian package %s; .ci/run installs it): %v", j.path, j.apt, err)
			}
			levels := callgraph.Levels
			if testing.Short() && j.heavy {
				levels = levels[:2]
				t.Logf("-short: levels 1-2 only")
			}
			checkRealJar(t, j, levels)
		})
	}
}

func checkRealJar(t *testing.T, j realJar, levels []callgraph.Level) {
	ctx := context.Background()
	t0 := time.Now()
	ix, err := index.Build(ctx, index.Config{Sources: []classpath.Source{{Path: j.path, Origin: classpath.Application}}}, factsCache)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	app, phantoms := 0, 0
	for _, c := range h.Classes() {
		switch {
		case c.Phantom:
			phantoms++
		case c.Origin == hierarchy.Application:
			app++
		}
	}
	t.Logf("index: %d application classes, %d phantoms, %d warnings, %v", app, phantoms, len(ix.Warnings), time.Since(t0).Round(time.Millisecond))
	if app == 0 {
		t.Fatalf("no application classes in %s", j.path)
	}

	resolve := func(name string) []int32 {
		ids, err := graphcheck.ResolveMethods(h, name)
		if err != nil {
			t.Fatalf("%s: %v", j.name, err)
		}
		return ids
	}
	mainIDs := resolve(j.main + ".main([Ljava/lang/String;)V")
	type named struct {
		name string
		ids  []int32
	}
	var reach []named
	for _, n := range j.reachable {
		reach = append(reach, named{n, resolve(n)})
	}
	type edge struct{ from, to named }
	var edges []edge
	for _, e := range j.edges {
		edges = append(edges, edge{named{e[0], resolve(e[0])}, named{e[1], resolve(e[1])}})
	}

	a := analysis.New(ix)
	algos := []callgraph.Algorithm{callgraph.CHA, callgraph.RTA}
	var prev []*callgraph.Graph
	for _, l := range levels {
		// The two algorithms run concurrently (runs may proceed concurrently).
		cur := make([]*callgraph.Graph, len(algos))
		errs := make([]error, len(algos))
		durs := make([]time.Duration, len(algos))
		var wg sync.WaitGroup
		for i, algo := range algos {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t1 := time.Now()
				cur[i], errs[i] = a.Run(ctx, analysis.Options{Level: l, Algorithm: algo, Mains: []string{j.main}})
				durs[i] = time.Since(t1)
			}()
		}
		wg.Wait()
		for i, algo := range algos {
			if errs[i] != nil {
				t.Fatalf("%s level %d: %v", algo, l, errs[i])
			}
			g := cur[i]
			appReach := 0
			g.Reachable.ForEach(func(id int32) {
				if id != g.Native && h.Methods()[id].Class.Origin == hierarchy.Application {
					appReach++
				}
			})
			t.Logf("%s/%d: %d reachable (%d of the jar), %d edges, %d dynamic sites, %v", algo, l,
				g.NumReachable(), appReach, g.NumEdges(), len(g.Sites), durs[i].Round(time.Millisecond))
			run := fmt.Sprintf("%s/%d", algo, l)
			if !graphcheck.AnyReachable(g, mainIDs) {
				t.Errorf("%s: %s.main is not reachable", run, j.main)
			}
			for _, r := range reach {
				if !graphcheck.AnyReachable(g, r.ids) {
					t.Errorf("%s: %s is not reachable", run, r.name)
				}
			}
			for _, e := range edges {
				if !graphcheck.AnyEdge(g, e.from.ids, e.to.ids) {
					t.Errorf("%s: no edge %s -> %s", run, e.from.name, e.to.name)
				}
			}
		}
		graphcheck.CheckSubgraph(t, cur, h) // RTA within CHA
		if prev != nil {
			for i := range algos {
				graphcheck.CheckSubgraph(t, []*callgraph.Graph{prev[i], cur[i]}, h)
			}
		}
		prev = cur
	}
	if j.heavy || testing.Short() || levels[len(levels)-1] != callgraph.CorrectJDK {
		return
	}
	// One graph at a time beside the coarser one: TFA's run alone takes 1.7 GB.
	coarser := prev[1]
	prev = nil
	for _, algo := range []callgraph.Algorithm{callgraph.XTA, callgraph.TFA} {
		t1 := time.Now()
		g, err := a.Run(ctx, analysis.Options{Level: callgraph.CorrectJDK, Algorithm: algo, Mains: []string{j.main}})
		if err != nil {
			t.Fatalf("%s: %v", algo, err)
		}
		t.Logf("%s/6: %d reachable, %d edges, %v", algo, g.NumReachable(), g.NumEdges(), time.Since(t1).Round(time.Millisecond))
		if !graphcheck.AnyReachable(g, mainIDs) {
			t.Errorf("%s/6: %s.main is not reachable", algo, j.main)
		}
		graphcheck.CheckSubgraph(t, []*callgraph.Graph{coarser, g}, h)
		if algo == callgraph.TFA {
			checkLocalActions(t, ix, g)
		}
		coarser = g
	}
}

// checkLocalActions checks TFA's rule for the JDK's summarised code on the whole
// JDK: a reachable AccessController.doPrivileged call whose action the calling
// method creates itself (its one definition a new C) runs C's run only, the one
// selection of the action interface's run in C, however many actions the JDK
// creates elsewhere.
func checkLocalActions(t *testing.T, ix *index.Index, g *callgraph.Graph) {
	t.Helper()
	h := ix.Hierarchy()
	checked := 0
	for _, m := range h.Methods() {
		if m.Class.Origin != hierarchy.JDK || !g.Reachable.Has(m.ID) {
			continue
		}
		f := ix.Facts(m)
		if f == nil {
			continue
		}
		for _, c := range f.Calls {
			if c.Op != bytecode.Invokestatic || c.Ref.Class != "java/security/AccessController" || !strings.HasPrefix(c.Ref.Name, "doPrivileged") {
				continue
			}
			action := h.Class(strings.TrimPrefix(strings.SplitN(c.Ref.Desc[1:], ";", 2)[0], "L"))
			if action == nil {
				continue
			}
			run := action.Method("run", "()Ljava/lang/Object;")
			created := localAlloc(ix, m, c.PC)
			if run == nil || created == nil || !h.IsSubtype(created, action) {
				continue
			}
			want := h.Select(created, run)
			var runs []*hierarchy.Method
			for _, b := range g.Callees(m.ID) {
				if b.PC != c.PC || g.Reasons[b.Reason].Kind != callgraph.KindPrivileged {
					continue
				}
				for _, id := range g.Sets[b.Set] {
					if callee := h.Methods()[id]; callee.Name == "run" {
						runs = append(runs, callee)
					}
				}
			}
			if len(runs) != 1 || runs[0] != want {
				t.Errorf("%s line %d: doPrivileged(new %s) runs %d run methods (%v), want %s", m, c.Line, created.Name, len(runs), first(runs, 3), want)
			}
			checked++
		}
	}
	t.Logf("TFA/6: %d doPrivileged calls of the JDK with an action of their own checked", checked)
	if checked == 0 {
		t.Error("no reachable doPrivileged call of the JDK creates its action: the check says nothing")
	}
}

// localAlloc returns the class of the object operand 0 of the call at pc in m is,
// when its one definition is a new in m; nil otherwise.
func localAlloc(ix *index.Index, m *hierarchy.Method, pc int32) *hierarchy.Class {
	fl, err := ix.Flow(m)
	if err != nil {
		return nil
	}
	ops := fl.Operands(int(pc))
	if len(ops) == 0 || len(ops[0]) != 1 || ops[0][0].Kind != facts.DefInstr {
		return nil
	}
	at := int32(ops[0][0].N)
	for _, al := range ix.Facts(m).Allocs {
		if al.PC == at {
			return ix.Hierarchy().Class(al.Type)
		}
	}
	return nil
}

func first(ms []*hierarchy.Method, n int) []*hierarchy.Method {
	return ms[:min(n, len(ms))]
}
