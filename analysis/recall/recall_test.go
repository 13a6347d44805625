package recall

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/ide"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/jvmrecord"
)

// The recall of our call graphs against a dynamic oracle (the measure of Sui et al.,
// "On the Recall of Static Call Graph Construction in Practice"): run real programs with a
// JVMTI agent that records every method that executes, analyse the same class
// path at every level with CHA and RTA, and require that the graphs find the
// executed methods reachable:
//
//	recall = executed methods found reachable / executed methods
//
// overall and for the application's methods, at every level. Methods of
// classes whose names change from run to run (hidden, lambda and proxy
// classes) are left out by jvmrecord; executed methods that the hierarchy does
// not have are reported apart (see mapExecuted).

// factsCache keeps the JDK's facts between the workloads' indexes.
var factsCache = index.NewFactsCache()

// minRecall is the goal, at every level and with every algorithm.
const minRecall = 0.99

// recallWorkload is one program run on a real input.
type recallWorkload struct {
	name  string
	apt   string   // the Debian packages it needs (.ci/run installs them)
	short bool     // runs under -short
	jars  []string // the application class path: what the analysis indexes
	// src is a program of ours under the repository (a directory of sources),
	// compiled against libs by TestRecall into the one entry of jars.
	src  string
	libs []string // the libraries on the class path, indexed as such
	main string
	// props are system properties the run is given (-Dkey=value, before the
	// run's own options) and the analysis alike (Options.Env): Correct-Env's
	// graph is for the environment the program runs in.
	props map[string]string
	need  []string // files or commands (no '/') that must exist, else skip
	// minApp is the least recall of the application's methods, when above
	// minRecall.
	minApp float64
	// least measures only the graph of level 6 and TFA, unless JCG_RECALL_ALL is
	// set: at a higher level the graph is a subgraph of the lower level's
	// (TestCallGraphs), and TFA's of XTA's, RTA's and CHA's
	// (TestAlgorithmsOnRandomPrograms), so its recall is the least of them all, and a
	// recall of 1 there is one everywhere. For workloads whose 24 runs take
	// minutes (the guice workload's graphs are level 1's size at every level).
	least bool
	// run returns the run to record; tmp is a fresh directory for outputs, cp
	// the jars and then the libs. It runs on a goroutine of its own, so it
	// returns errors instead of failing a test.
	run func(jdk, tmp string, cp []string) (jvmrecord.Run, error)
	// check tells whether the run did its work (the program may exit 0
	// having done nothing, which would make recall meaningless).
	check func(tmp string, ex *jvmrecord.Executed) error
}

// recallInput is the absolute path of an input under testdata/recall (the
// programs run in other directories).
func recallInput(rel string) string {
	return repoPath(filepath.Join("testdata", "recall", rel))
}

// repoPath is the absolute path of a file of the repository, from this package's
// directory (analysis/recall) where go test runs.
func repoPath(rel string) string {
	rel = filepath.Join("..", "..", rel)
	if p, err := filepath.Abs(rel); err == nil {
		return p
	}
	return rel
}

func wroteFile(path string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("the program did not write %s: %v", path, err)
	}
	return nil
}

var recallWorkloads = []recallWorkload{
	{
		// With example.plugin set, PluginLoader.loadConfigured loads GreetingPlugin
		// instead of its default AuditPlugin: from Correct-Env on, the graph is for
		// that run (the site loads what the property names once no reachable code
		// may set every property), and recall says whether the run agrees.
		name: "example", short: true,
		jars:  []string{repoPath("testdata/java/main-example/example.jar")},
		main:  "example.Main",
		props: map[string]string{"example.plugin": "example.plugin.builtin.GreetingPlugin"},
		run: func(jdk, tmp string, _ []string) (jvmrecord.Run, error) {
			jar := repoPath("testdata/java/main-example/example.jar")
			return jvmrecord.Run{JavaHome: jdk, Args: []string{"-cp", jar, "example.Main"}}, nil
		},
		check: func(tmp string, ex *jvmrecord.Executed) error {
			if !strings.Contains(string(ex.Output), "completed") {
				return fmt.Errorf("example.Main did not complete its tasks; output:\n%s", ex.Output)
			}
			if strings.Contains(string(ex.Output), "audit") {
				return fmt.Errorf("example.Main ran AuditPlugin: example.plugin did not reach it; output:\n%s", ex.Output)
			}
			return nil
		},
	},
	{
		name: "javacc", apt: "javacc", short: true,
		jars: []string{"/usr/share/java/javacc.jar"},
		main: "javacc", // /usr/bin/javacc runs the class `javacc`
		run: func(jdk, tmp string, _ []string) (jvmrecord.Run, error) {
			return jvmrecord.Run{JavaHome: jdk, Args: []string{"-cp", "/usr/share/java/javacc.jar", "javacc",
				"-OUTPUT_DIRECTORY=" + tmp, recallInput("javacc/Arith.jj")}}, nil
		},
		check: func(tmp string, ex *jvmrecord.Executed) error {
			return wroteFile(filepath.Join(tmp, "ArithTokenManager.java"))
		},
	},
	{
		name: "sablecc", apt: "sablecc",
		jars: []string{"/usr/share/java/sablecc.jar"},
		main: "org.sablecc.sablecc.SableCC",
		run: func(jdk, tmp string, _ []string) (jvmrecord.Run, error) {
			return jvmrecord.Run{JavaHome: jdk, Args: []string{"-cp", "/usr/share/java/sablecc.jar", "org.sablecc.sablecc.SableCC",
				"-d", tmp, recallInput("sablecc/arith.sablecc")}}, nil
		},
		check: func(tmp string, ex *jvmrecord.Executed) error {
			return wroteFile(filepath.Join(tmp, "recall", "arith", "parser", "Parser.java"))
		},
	},
	{
		name: "proguard", apt: "proguard-cli, sablecc",
		jars: []string{"/usr/share/java/proguard.jar"}, // its Class-Path gson jar is not installed
		main: "proguard.ProGuard",
		need: []string{"/usr/share/java/sablecc.jar"}, // the jar it shrinks
		run: func(jdk, tmp string, _ []string) (jvmrecord.Run, error) {
			// As /usr/bin/proguard runs it. Breakpoints: 4 s instead of the
			// 80 s of an interpreted run (see jvmrecord.Mode).
			return jvmrecord.Run{Mode: jvmrecord.Breakpoints, JavaHome: jdk, Args: []string{"-Xss300000", "-jar", "/usr/share/java/proguard.jar",
				"@" + recallInput("proguard/shrink-sablecc.pro"), "-outjars", filepath.Join(tmp, "out.jar")}}, nil
		},
		check: func(tmp string, ex *jvmrecord.Executed) error {
			return wroteFile(filepath.Join(tmp, "out.jar"))
		},
	},
	{
		name: "jedit", apt: "jedit, xvfb (xvfb-run), xauth",
		jars: []string{"/usr/share/jedit/jedit.jar"},
		main: "org.gjt.sp.jedit.jEdit",
		need: []string{"xvfb-run"},
		run: func(jdk, tmp string, _ []string) (jvmrecord.Run, error) {
			file := filepath.Join(tmp, "Hello.java")
			src, err := os.ReadFile(recallInput("jedit/Hello.java"))
			if err != nil {
				return jvmrecord.Run{}, err
			}
			if err := os.WriteFile(file, src, 0o644); err != nil {
				return jvmrecord.Run{}, err
			}
			// Breakpoints: 25 s instead of 60 s (see jvmrecord.Mode).
			return jvmrecord.Run{Mode: jvmrecord.Breakpoints, JavaHome: jdk, Wrapper: []string{"xvfb-run", "-a"},
				// -settings: a fresh settings directory, so that nothing of the
				// user's jEdit (plugins, history, a running server) takes part.
				Args: []string{"-cp", "/usr/share/jedit/jedit.jar", "org.gjt.sp.jedit.jEdit",
					"-settings=" + filepath.Join(tmp, "settings"), "-noserver", "-nosplash", "-norestore",
					"-run=" + recallInput("jedit/edit.bsh"), file}}, nil
		},
		check: func(tmp string, ex *jvmrecord.Executed) error {
			b, err := os.ReadFile(filepath.Join(tmp, "Hello.java"))
			if err != nil {
				return err
			}
			if !strings.Contains(string(b), "edited by the recall workload") || !strings.Contains(string(b), "Bye, world") {
				return fmt.Errorf("the macro did not edit and save %s:\n%s\noutput:\n%s", filepath.Join(tmp, "Hello.java"), b, ex.Output)
			}
			return nil
		},
	},
	{
		// A real dependency-injection container: Guice (with its AOP, which on
		// JDK 17 needs java.lang opened to define its FastClass classes) puts
		// together a program of ours whose classes have package-private @Inject
		// constructors, a field injection, a @Provides method and a private hook
		// called through setAccessible (testdata/recall/guice). The classes
		// Guice spins are left out (jvmrecord's "bytecode-gen" rule).
		name: "guice", apt: "libguice-java, libguava-java", short: true,
		src: "testdata/recall/guice/src",
		libs: []string{"/usr/share/java/guice.jar", "/usr/share/java/atinject-jsr330-api.jar",
			"/usr/share/java/aopalliance.jar", "/usr/share/java/guava.jar"},
		main: "inj.Main", minApp: 1, least: true,
		run: func(jdk, tmp string, cp []string) (jvmrecord.Run, error) {
			return jvmrecord.Run{Mode: jvmrecord.Breakpoints, JavaHome: jdk, Args: []string{
				"--add-opens", "java.base/java.lang=ALL-UNNAMED",
				"-cp", strings.Join(cp, string(os.PathListSeparator)), "inj.Main"}}, nil
		},
		check: func(tmp string, ex *jvmrecord.Executed) error {
			if !strings.Contains(string(ex.Output), "recorded 2 entries") {
				return fmt.Errorf("inj.Main did not report its entries; output:\n%s", ex.Output)
			}
			return nil
		},
	},
}

// recording is the result of recording one workload, shared by every test of
// the process.
type recording struct {
	once sync.Once
	done chan struct{}
	ex   *jvmrecord.Executed
	err  error
	dur  time.Duration
	mode jvmrecord.Mode
	skip string
}

var (
	recordingsMu sync.Mutex
	recordings   = map[string]*recording{}
)

// record records w once per test process; concurrent callers wait for the
// first.
func record(w recallWorkload, jdk string) *recording {
	recordingsMu.Lock()
	r := recordings[w.name]
	if r == nil {
		r = &recording{done: make(chan struct{})}
		recordings[w.name] = r
	}
	recordingsMu.Unlock()
	r.once.Do(func() {
		defer close(r.done)
		for _, n := range slices.Concat(w.jars, w.libs, w.need) {
			var err error
			if strings.Contains(n, "/") {
				_, err = os.Stat(n)
			} else {
				_, err = exec.LookPath(n)
			}
			if err != nil {
				r.skip = fmt.Sprintf("%s is not installed (Debian packages %s; .ci/run installs them): %v", n, w.apt, err)
				if w.apt == "" {
					r.err = fmt.Errorf("%s, which the repository ships, is missing: %v", n, err)
					r.skip = ""
				}
				return
			}
		}
		tmp, err := os.MkdirTemp("", "recall-"+w.name+"-")
		if err != nil {
			r.err = err
			return
		}
		defer os.RemoveAll(tmp)
		run, err := w.run(jdk, tmp, slices.Concat(w.jars, w.libs))
		if err != nil {
			r.err = err
			return
		}
		for _, k := range slices.Sorted(maps.Keys(w.props)) {
			run.Args = append([]string{"-D" + k + "=" + w.props[k]}, run.Args...)
		}
		if run.Timeout == 0 {
			run.Timeout = 4 * time.Minute
		}
		r.mode = run.Mode
		t0 := time.Now()
		r.ex, r.err = jvmrecord.Record(context.Background(), run)
		r.dur = time.Since(t0)
		if r.err == nil && w.check != nil {
			r.err = w.check(tmp, r.ex)
		}
	})
	<-r.done
	return r
}

// executedMethod is an executed method mapped onto the hierarchy.
type executedMethod struct {
	id     int32
	origin hierarchy.Origin
	caller string // its first caller, "" for the JVM or native code
	// callerID is the first caller when it was a Java frame of a method the
	// hierarchy has, else -1: then the call (callerID, id) really happened
	// and is an edge the graph should have.
	callerID int32
}

// mapExecuted maps the recorded methods onto the hierarchy's. A method whose
// class or declaration the hierarchy does not have is returned apart: the
// classes the program ran differ from the class files analysed there. Seen so
// far: isEnabled()Z of JDK-internal JFR events (jdk/internal/event/
// SecurityProviderServiceEvent, ProcessStartEvent), a method HotSpot's JFR
// adds to event classes when it loads them. Other possible causes: a class
// the JVM spins under a stable name (a BoundMethodHandle$Species_* the JDK
// image does not pregenerate), or one loaded from somewhere the analysis was
// not told of. No graph over this hierarchy can have such a method, so
// counting it as a miss would measure the class path, not the call graph; it
// is logged instead.
func mapExecuted(h *hierarchy.Hierarchy, ex *jvmrecord.Executed) (found []executedMethod, absent []jvmrecord.Method) {
	for _, m := range ex.Methods {
		c := h.Class(m.Class)
		if c == nil || c.Phantom {
			absent = append(absent, m)
			continue
		}
		id := methodID(h, m)
		if id < 0 {
			absent = append(absent, m)
			continue
		}
		e := executedMethod{id: id, origin: c.Origin, caller: ex.Callers[m], callerID: -1}
		if cm, ok := javaCaller(e.caller); ok && !lambdaFormHolder(cm.Class) && !strings.HasPrefix(m.Class, "java/lang/invoke/") {
			e.callerID = methodID(h, cm)
		}
		found = append(found, e)
	}
	return found, absent
}

// First calls into java/lang/invoke are not looked for as edges either: there
// the JVM links invokedynamic and signature-polymorphic call sites
// (MethodHandleNatives.linkCallSite and findMethodHandleType called at an
// invokedynamic instruction, Invokers$Holder.linkToTargetMethod executing it,
// VarHandleGuards behind VarHandle.get/set), which the graph models as edges
// to the lambda's or handle's target instead.
//
// lambdaFormHolder tells whether class holds the JDK's pregenerated lambda
// forms (DirectMethodHandle$Holder, Invokers$Holder, ...). Their methods call
// a method handle's target through MethodHandle.linkToStatic/linkToVirtual/...,
// signature-polymorphic natives whose target is a MemberName argument; the
// graph has a method handle's targets as edges of the site that invokes the
// handle, not of the lambda form, so a first call from a holder is not an
// edge to look for.
func lambdaFormHolder(class string) bool {
	return strings.HasPrefix(class, "java/lang/invoke/") && strings.HasSuffix(class, "$Holder")
}

// javaCaller parses a caller "pkg/Cls.name(desc)@bci"; bci -1 is a native
// frame (a JNI upcall), which calls through the graph's NativeMethod node, not
// through an edge of its own.
func javaCaller(s string) (jvmrecord.Method, bool) {
	at := strings.LastIndexByte(s, '@')
	if at < 0 || strings.HasPrefix(s[at+1:], "-") {
		return jvmrecord.Method{}, false
	}
	m, err := jvmrecord.ParseMethod(s[:at])
	return m, err == nil
}

func methodID(h *hierarchy.Hierarchy, m jvmrecord.Method) int32 {
	c := h.Class(m.Class)
	if c == nil || c.Phantom {
		return -1
	}
	for _, hm := range c.Methods {
		if hm.Name == m.Name && hm.Desc == m.Desc {
			return hm.ID
		}
	}
	return -1
}

// recallRow is the recall of one graph.
type recallRow struct {
	level        callgraph.Level
	algo         callgraph.Algorithm
	total, found [3]int // by origin: all, application, JDK
	missed       []executedMethod
	// calls: the first calls from a Java frame (see executedMethod.callerID),
	// and those the graph has as edges.
	calls, callsFound int
	missedCalls       []executedMethod
	dur               time.Duration
	reachable         int
	// Precision beside recall: the application's and libraries' virtual and
	// interface call sites, and those with at most one target.
	appSites, appSingle int
	// The application's methods the editor marks unreachable in this graph
	// (ide.UnreachableMethods), and those of them the run executed: a soundness
	// bug in the editor, greyed-out code that runs.
	unreachable    int
	unreachableRun []int32
}

func (r recallRow) recall(i int) float64 {
	if r.total[i] == 0 {
		return 1
	}
	return float64(r.found[i]) / float64(r.total[i])
}

func measure(g *callgraph.Graph, h *hierarchy.Hierarchy, executed []executedMethod) recallRow {
	row := recallRow{level: g.Level, reachable: g.NumReachable()}
	ms := h.Methods()
	row.appSites, row.appSingle = callgraph.DispatchStats(g, func(n callgraph.NodeID) bool {
		return int(n) < len(ms) && ms[n].Class.Origin != hierarchy.JDK
	})
	ran := map[int32]bool{}
	for _, e := range executed {
		ran[e.id] = true
	}
	marked := ide.UnreachableMethods(ms, g)
	row.unreachable = len(marked)
	for _, m := range marked {
		if ran[m.ID] {
			row.unreachableRun = append(row.unreachableRun, m.ID)
		}
	}
	for _, e := range executed {
		i := 2
		if e.origin == hierarchy.Application {
			i = 1
		} else if e.origin != hierarchy.JDK {
			i = -1 // a library: counted overall only
		}
		hit := g.Reachable.Has(e.id)
		row.total[0]++
		if i > 0 {
			row.total[i]++
		}
		if hit {
			row.found[0]++
			if i > 0 {
				row.found[i]++
			}
		} else {
			row.missed = append(row.missed, e)
		}
		if e.callerID >= 0 {
			row.calls++
			if g.HasEdge(e.callerID, e.id) {
				row.callsFound++
			} else {
				row.missedCalls = append(row.missedCalls, e)
			}
		}
	}
	return row
}

// TestRecall measures the recall of every level's graph, with every algorithm,
// against the methods real programs execute, and checks that none of the methods
// the editor would grey out as unreachable (ide.UnreachableMethods) ran. Under
// -short only the example and javacc run. JCG_RECALL_MISSED=n logs n missed methods
// per level instead of 20.
func TestRecall(t *testing.T) {
	jdk := javatest.JDKHome(t)
	if _, err := jvmrecord.Agent(context.Background(), jdk); err != nil {
		if errors.Is(err, jvmrecord.ErrNoToolchain) {
			t.Skipf("cannot build the recorder agent (needs gcc and the JDK's include/jvmti.h): %v", err)
		}
		t.Fatal(err)
	}
	var ws []recallWorkload
	for _, w := range recallWorkloads {
		if !testing.Short() || w.short {
			if w.src != "" && installed(w.libs) {
				w.jars = []string{javatest.Compile(t, repoPath(w.src), javatest.Release(17), javatest.ClassPath(w.libs...))}
			}
			ws = append(ws, w)
		}
	}
	// Recordings run in the background, two at a time in the order of ws,
	// while the workloads recorded before them are analysed: a recording
	// spends most of its time in one thread of an interpreting JVM, so the
	// long ones (proguard, jEdit) overlap each other and the analyses.
	go func() {
		sem := make(chan struct{}, 2)
		for _, w := range ws {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				record(w, jdk)
			}()
		}
	}()
	for _, w := range ws {
		t.Run(w.name, func(t *testing.T) { checkRecall(t, w, jdk) })
	}
}

// installed reports whether every file exists (else recording the workload says
// which is missing, and skips).
func installed(files []string) bool {
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			return false
		}
	}
	return true
}

func checkRecall(t *testing.T, w recallWorkload, jdk string) {
	ctx := context.Background()
	t0 := time.Now()
	r := record(w, jdk)
	if r.skip != "" {
		t.Skip(r.skip)
	}
	if r.err != nil {
		t.Fatalf("recording %s: %v", w.name, r.err)
	}
	unstable := 0
	var rules []string
	for rule, ms := range r.ex.Unstable {
		unstable += len(ms)
		rules = append(rules, fmt.Sprintf("%s %d", rule, len(ms)))
	}
	sort.Strings(rules)
	t.Logf("recorded %d methods (mode %s) in %v (waited %v); left out %d of unstable classes (%s)",
		len(r.ex.Methods), r.mode, r.dur.Round(time.Millisecond), time.Since(t0).Round(time.Millisecond), unstable, strings.Join(rules, ", "))

	var sources []classpath.Source
	for _, j := range w.jars {
		sources = append(sources, classpath.Source{Path: j, Origin: classpath.Application})
	}
	for _, j := range w.libs {
		sources = append(sources, classpath.Source{Path: j, Origin: classpath.Library})
	}
	t1 := time.Now()
	ix, err := index.Build(ctx, index.Config{Sources: sources, JDKHome: jdk}, factsCache)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h := ix.Hierarchy()
	executed, absent := mapExecuted(h, r.ex)
	t.Logf("index %v; %d executed methods in the hierarchy, %d not (below)", time.Since(t1).Round(time.Millisecond), len(executed), len(absent))
	logAbsent(t, absent)

	a := analysis.New(ix)
	levels, algos := callgraph.Levels, callgraph.Algorithms
	if w.least && os.Getenv("JCG_RECALL_ALL") == "" {
		levels, algos = []callgraph.Level{callgraph.MaxLevel}, []callgraph.Algorithm{callgraph.TFA}
		t.Logf("only %s/%s, whose graph is a subgraph of every other level's and algorithm's (JCG_RECALL_ALL=1 measures them all)", algos[0], levels[0].Title())
	}
	var rows []recallRow
	// Two runs at a time: a run of the whole JDK holds 1-1.5 GB.
	sem := make(chan struct{}, 2)
	for _, l := range levels {
		cur := make([]recallRow, len(algos))
		errs := make([]error, len(algos))
		var wg sync.WaitGroup
		for i, algo := range algos {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				t2 := time.Now()
				g, err := a.Run(ctx, analysis.Options{Level: l, Algorithm: algo, Mains: []string{w.main}, Env: w.props})
				if err != nil {
					errs[i] = err
					return
				}
				// The graph is dropped here: only its recall is kept.
				cur[i] = measure(g, h, executed)
				cur[i].algo = algo
				cur[i].dur = time.Since(t2)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("%s level %d: %v", algos[i], l, err)
			}
		}
		rows = append(rows, cur...)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "recall of %s (%d executed methods: %d application, %d JDK):\n", w.name, rows[0].total[0], rows[0].total[1], rows[0].total[2])
	fmt.Fprintf(&b, "  %-5s %-3s %9s %9s %8s %8s %8s %10s %10s %15s %8s %17s %12s\n", "level", "alg", "executed", "found", "recall", "app", "JDK", "reachable", "reach/exec", "app calls <=1", "time", "first-call edges", "unreach/ran")
	for _, row := range rows {
		fmt.Fprintf(&b, "  %-5d %-3s %9d %9d %8.4f %8.4f %8.4f %10d %10.1f %7d/%-7d %8v %6d/%-5d %.4f %7d/%d\n", row.level, row.algo,
			row.total[0], row.found[0], row.recall(0), row.recall(1), row.recall(2), row.reachable, ratio(row.reachable, row.total[0]),
			row.appSingle, row.appSites, row.dur.Round(time.Millisecond),
			row.callsFound, row.calls, ratio(row.callsFound, row.calls), row.unreachable, len(row.unreachableRun))
	}
	b.WriteString("  (reach/exec: reachable methods per executed one, the precision beside recall; app calls <=1: virtual and interface call sites of application and library code with at most one target, of all of them; first-call edges: of the executed methods whose first call came from a Java frame, those whose call the graph has as an edge from that caller; informative, not asserted; unreach/ran: the application's methods the editor greys out as unreachable, and those of them the run executed, which must be none)\n")
	t.Log(b.String())

	logMissed(t, h, rows)

	for _, row := range rows {
		if len(row.unreachableRun) > 0 {
			var names []string
			for _, id := range row.unreachableRun[:min(20, len(row.unreachableRun))] {
				names = append(names, h.Methods()[id].String())
			}
			t.Errorf("%s/%d: %d methods the editor marks unreachable ran: %s", row.algo, row.level, len(row.unreachableRun), strings.Join(names, ", "))
		}
		if row.recall(0) < minRecall || row.recall(1) < max(minRecall, w.minApp) {
			t.Errorf("%s/%d: recall %.4f overall (%d of %d), %.4f for the application (%d of %d); want >= %.2f",
				row.algo, row.level, row.recall(0), row.found[0], row.total[0],
				row.recall(1), row.found[1], row.total[1], max(minRecall, w.minApp))
		}
	}
}

// logAbsent logs the executed methods the hierarchy does not have, by class.
func logAbsent(t *testing.T, absent []jvmrecord.Method) {
	if len(absent) == 0 {
		return
	}
	byClass := map[string]int{}
	for _, m := range absent {
		byClass[m.Class]++
	}
	var cs []string
	for c, n := range byClass {
		cs = append(cs, fmt.Sprintf("%s (%d)", c, n))
	}
	sort.Strings(cs)
	if len(cs) > 30 {
		cs = append(cs[:30], fmt.Sprintf("... %d classes more", len(cs)-30))
	}
	t.Logf("executed but not in the analysed hierarchy (not counted): %s", strings.Join(cs, ", "))
}

// logMissed logs, for the first level, the methods it misses, and for every
// later level the methods it misses and the level before found (each level's
// graph is a subgraph of the previous one's, so misses only grow); then, for
// the run with the lowest recall, its misses. Application methods come first;
// methods are grouped by class, each with the caller that first called it when
// the program ran, which is what says why it ran.
func logMissed(t *testing.T, h *hierarchy.Hierarchy, rows []recallRow) {
	limit := 20
	if s := os.Getenv("JCG_RECALL_MISSED"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			limit = n
		}
	}
	for _, algo := range callgraph.Algorithms {
		prev := map[int32]bool{}
		for _, row := range rows {
			if row.algo != algo {
				continue
			}
			var fresh []executedMethod
			for _, m := range row.missed {
				if !prev[m.id] {
					fresh = append(fresh, m)
				}
			}
			for _, m := range row.missed {
				prev[m.id] = true
			}
			if len(fresh) > 0 {
				t.Logf("%s/%d misses %d executed methods that the level before found:\n%s", algo, row.level, len(fresh), formatMissed(h, fresh, limit))
			}
		}
	}
	low := rows[0]
	for _, row := range rows {
		if row.recall(0) < low.recall(0) {
			low = row
		}
	}
	if len(low.missed) > 0 {
		t.Logf("lowest recall: %s/%d, %d missed:\n%s", low.algo, low.level, len(low.missed), formatMissed(h, low.missed, limit))
	}
	low = rows[0]
	for _, row := range rows {
		if ratio(row.callsFound, row.calls) < ratio(low.callsFound, low.calls) {
			low = row
		}
	}
	if len(low.missedCalls) > 0 {
		t.Logf("lowest first-call edge recall: %s/%d, %d calls that happened are not edges (callee, then its first caller):\n%s",
			low.algo, low.level, len(low.missedCalls), formatMissed(h, low.missedCalls, limit))
	}
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 1
	}
	return float64(n) / float64(d)
}

func formatMissed(h *hierarchy.Hierarchy, missed []executedMethod, limit int) string {
	ms := append([]executedMethod(nil), missed...)
	methods := h.Methods()
	sort.SliceStable(ms, func(i, j int) bool {
		ai, aj := ms[i].origin == hierarchy.Application, ms[j].origin == hierarchy.Application
		if ai != aj {
			return ai
		}
		ci, cj := methods[ms[i].id].Class.Name, methods[ms[j].id].Class.Name
		if ci != cj {
			return ci < cj
		}
		return methods[ms[i].id].Name < methods[ms[j].id].Name
	})
	more := 0
	if len(ms) > limit {
		more = len(ms) - limit
		ms = ms[:limit]
	}
	var b strings.Builder
	class := ""
	for _, e := range ms {
		m := methods[e.id]
		if m.Class.Name != class {
			class = m.Class.Name
			fmt.Fprintf(&b, "  %s (%s)\n", class, m.Class.Origin)
		}
		caller := e.caller
		if caller == "" {
			caller = "the JVM or native code"
		}
		fmt.Fprintf(&b, "    %s%s  <- %s\n", m.Name, m.Desc, caller)
	}
	if more > 0 {
		fmt.Fprintf(&b, "  ... %d more\n", more)
	}
	return b.String()
}
