package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/export"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/leveltable"
)

// analysisFlags are the flags shared by analyze and callgraph.
type analysisFlags struct {
	classPathFlags
	algo    string
	mains   stringList
	entries stringList
	library bool
	env     stringList
	verbose bool
	spec    specFlags
}

func (a *analysisFlags) register(fs *flag.FlagSet) {
	a.classPathFlags.register(fs)
	fs.StringVar(&a.algo, "algo", analysis.DefaultAlgorithm.String(), "call-graph algorithm: cha (declared types), rta (instantiated classes), xta (type sets per method and field) or tfa (type sets per value); analyze also takes all (one table each)")
	fs.Var(&a.mains, "main", "main class (repeatable; default: every application class with a main method)")
	fs.Var(&a.entries, "entry", "explicit entry method pkg.Class.method[(descriptor)] (repeatable)")
	fs.BoolVar(&a.library, "library-mode", false, "analyse the application as a library for unknown clients: every method a client can call or override is an entry point, and calls reach what client subclasses may select")
	fs.Var(&a.env, "env", "KEY=VALUE system property or environment value for Correct-Env (repeatable)")
	fs.BoolVar(&a.verbose, "verbose", false, "list every class-path problem and missing class (default: the count and the first few)")
	a.spec.register(fs)
}

func (a *analysisFlags) options(level callgraph.Level) (analysis.Options, error) {
	alg, err := callgraph.ParseAlgorithm(a.algo)
	if err != nil {
		return analysis.Options{}, usagef("%v", err)
	}
	env := map[string]string{}
	for _, kv := range a.env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return analysis.Options{}, usagef("--env %q: want KEY=VALUE", kv)
		}
		env[k] = v
	}
	return analysis.Options{Level: level, Algorithm: alg, Mains: a.mains, Entries: a.entries, LibraryMode: a.library, Env: env, Spec: a.spec.file}, nil
}

// load indexes the class path given on the command line and reports its problems
// on stderr: a missing jar or a truncated class must be named, not end in a puzzling
// "no entry points".
func (a *analysisFlags) load(ctx context.Context, args []string, stderr io.Writer) (*index.Index, error) {
	if len(args) == 0 && len(a.libs) == 0 && a.project == "" {
		return nil, usagef("empty class path: give the application's class directories or jars")
	}
	if err := checkPaths(args, a.libs); err != nil {
		return nil, err
	}
	// Before the class path: a missing specification file fails in milliseconds.
	if err := a.spec.read(); err != nil {
		return nil, err
	}
	cfg, _, err := a.discover(ctx, args, stderr)
	if err != nil {
		return nil, err
	}
	ix, err := index.Build(ctx, cfg, nil)
	if err != nil {
		return nil, err
	}
	reportWarnings(stderr, ix.Warnings, a.verbose)
	for _, n := range a.mains {
		// Main classes of other JVM languages are taken as the JVM's entry: say so.
		if _, note, err := analysis.MainClass(ix.Hierarchy(), n); err == nil && note != "" {
			fmt.Fprintf(stderr, "jcg-lsp: note: %s\n", note)
		}
	}
	return ix, nil
}

// analyzed is a run's graph with what made it, for commands that run again on the
// same program (why --top's what-if).
type analyzed struct {
	g    *callgraph.Graph
	ix   *index.Index
	an   *analysis.Analyzer
	opts analysis.Options
}

// runAnalyzer indexes the class path args and analyses it once with opts and the
// specification files, keeping the analyzer and the options it ran with; the
// caller closes the index. An error of the run says what went wrong once
// (runError), after the specification's problems.
func (a *analysisFlags) runAnalyzer(ctx context.Context, opts analysis.Options, args []string, stderr io.Writer) (*analyzed, error) {
	ix, err := a.load(ctx, args, stderr)
	if err != nil {
		return nil, err
	}
	an := analysis.New(ix)
	if err := an.Prepare(ctx, opts.Algorithm); err != nil {
		ix.Close()
		return nil, err
	}
	opts.Spec = a.spec.file // read by load
	g, err := an.Run(ctx, opts)
	if err != nil {
		a.spec.report(stderr)
		err = a.runError(ix, a.shown(args), err)
		ix.Close()
		return nil, err
	}
	return &analyzed{g: g, ix: ix, an: an, opts: opts}, nil
}

// runError explains a run's failure once for all levels: the levels fail alike when
// nothing is an entry point, and the reason is then usually the class path.
func (a *analysisFlags) runError(ix *index.Index, args []string, err error) error {
	if !errors.Is(err, analysis.ErrNoEntryPoints) {
		return err
	}
	app := 0
	for _, c := range ix.Hierarchy().Classes() {
		if c.Origin == hierarchy.Application && !c.Phantom {
			app++
		}
	}
	switch {
	case app == 0:
		return fmt.Errorf("no entry points: no application class was read from %s (see the class-path problems above)", strings.Join(args, ", "))
	case a.library:
		return fmt.Errorf("no entry points: the %d application classes of %s have no public or protected method", app, strings.Join(args, ", "))
	}
	return fmt.Errorf("no entry points: none of the %d application classes of %s has a main method (use --main CLASS, --entry METHOD or --library-mode)", app, strings.Join(args, ", "))
}

func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := newCommand("analyze", "[flags] CLASSPATH...",
		"Builds the call graph of the application (with the JDK) at every assumption level\nand prints reachable methods, edges and dynamic sites per level. Class-path\nproblems go to standard error.")
	fs := cmd.fs
	var af analysisFlags
	af.register(fs)
	var lf levelFlags
	lf.register(fs, "all", "comma-separated levels to analyse (names or numbers), or all: "+levelChoices())
	var pf profileFlags
	pf.register(fs)
	if err := cmd.parse(args, stdout); err != nil {
		return err
	}
	verbose := &af.verbose
	all := strings.EqualFold(af.algo, "all")
	if all {
		af.algo = callgraph.CHA.String()
	}
	opts, err := af.options(callgraph.BehavedCLs)
	if err != nil {
		return err
	}
	algos := []callgraph.Algorithm{opts.Algorithm}
	if all {
		// One table per algorithm, from the least precise.
		algos = callgraph.Algorithms
	}
	levels, err := lf.parse()
	if err != nil {
		return err
	}
	stop, err := pf.start(stderr)
	if err != nil {
		return err
	}
	defer stop()
	start := time.Now()
	ix, err := af.load(ctx, fs.Args(), stderr)
	if err != nil {
		return err
	}
	defer ix.Close()
	// Nearly every method of the JDK is reachable at every level: extracting facts,
	// resolving calls and CHA dispatch up front uses every core, where the solver
	// would do them one by one.
	a := analysis.New(ix)
	if err := a.Prepare(ctx, algos[0]); err != nil {
		return err
	}
	indexTime := time.Since(start)
	for _, algo := range algos {
		if err := af.analyzeTable(ctx, a, ix, algo, levels, af.shown(fs.Args()), indexTime, stdout, stderr); err != nil {
			return err
		}
	}
	af.reportMissing(stdout, ix, *verbose)
	fmt.Fprintf(stdout, "class-path problems: %d\n", len(ix.Warnings))
	return nil
}

// analyzeTable runs the levels with one algorithm and prints its tables.
func (af *analysisFlags) analyzeTable(ctx context.Context, a *analysis.Analyzer, ix *index.Index, algo callgraph.Algorithm, levels []callgraph.Level, args []string, indexTime time.Duration, stdout, stderr io.Writer) error {
	type result struct {
		g     *callgraph.Graph
		dur   time.Duration
		edges int // counted in the run's goroutine: tens of millions per level
	}
	// The levels run concurrently: they share the analyzer's level-independent caches.
	results := make([]result, len(levels))
	errs := make([]error, len(levels))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	levelsStart := time.Now()
	for i, l := range levels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			opts, _ := af.options(l)
			opts.Algorithm = algo
			t0 := time.Now()
			g, err := a.Run(ctx, opts)
			if err != nil {
				errs[i] = err
				return
			}
			results[i] = result{g, time.Since(t0), g.NumEdges()}
		}()
	}
	wg.Wait()
	levelsTime := time.Since(levelsStart)
	if err := levelErrors(ctx, levels, errs); err != nil {
		af.spec.report(stderr)
		return af.runError(ix, args, err)
	}
	graphs := make([]*callgraph.Graph, len(results))
	for i, r := range results {
		graphs[i] = r.g
	}
	af.noteGraphs(graphs...)
	af.spec.report(stderr, graphs...)
	jdk := "no JDK"
	if ix.ClassPath.JDKHome != "" {
		jdk = "+ JDK " + ix.ClassPath.JDKHome
	}
	fmt.Fprintf(stdout, "%s call graph of %s (%s); index %v\n", algo, strings.Join(args, " "), jdk, indexTime.Round(time.Millisecond))
	ms := ix.Hierarchy().Methods()
	own := func(n callgraph.NodeID) bool { return int(n) < len(ms) && ms[n].Class.Origin != hierarchy.JDK }
	rows := make([]leveltable.Row, len(results))
	for i, r := range results {
		rows[i] = leveltable.Row{Graph: r.g, Time: r.dur, Edges: r.edges}
	}
	if err := leveltable.Write(stdout, rows, own); err != nil {
		return err
	}
	// A row's time is not what the level costs alone: the runs share the cores and
	// the analyzer's caches, which the first runs fill.
	fmt.Fprintf(stdout, "time: each run's wall time, %d at a time; all levels took %v.\n", cap(sem), levelsTime.Round(time.Millisecond))
	if len(af.env) > 0 {
		fmt.Fprintln(stdout, "Correct-Env is sound only for the environment given with --env.")
	}
	fmt.Fprintln(stdout)
	return nil
}

func runCallgraph(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := newCommand("callgraph", "[--format jcg|dot|json] [--level L] [flags] --out FILE CLASSPATH...",
		"Builds the call graph of the application (with the JDK) at one assumption level and\nwrites it as the JCG benchmark's JSON, Graphviz DOT, or JSON lines with every\nedge's reason. Class-path problems go to standard error.")
	fs := cmd.fs
	var lr levelRun
	lr.register(fs, analysis.DefaultLevel, "assumption level: ")
	format := fs.String("format", "jcg", "output format: jcg (JCG benchmark JSON), dot (Graphviz) or json (edges with reasons, JSON Lines)")
	out := fs.String("out", "", "output file (required; - for standard output; a name ending in .gz is gzip-compressed, which JCG reads too)")
	appOnly := fs.Bool("app-only", false, "write only application and library methods as callers (JDK methods still appear as callees)")
	var pf profileFlags
	pf.register(fs)
	if err := cmd.parse(args, stdout); err != nil {
		return err
	}
	var write func(io.Writer, *callgraph.Graph, analysis.Program, export.Options) error
	switch *format {
	case "jcg":
		write = export.WriteJCG
	case "dot":
		write = export.WriteDOT
	case "json":
		write = export.WriteJSON
	default:
		return usagef("unknown format %q (want jcg, dot or json)", *format)
	}
	if *out == "" {
		return usagef("--out FILE is required (- for standard output)")
	}
	stop, err := pf.start(stderr)
	if err != nil {
		return err
	}
	defer stop()
	g, ix, err := lr.run(ctx, fs.Args(), stderr)
	if err != nil {
		return err
	}
	defer ix.Close()
	lr.spec.report(stderr, g)
	w, done, err := createOutput(*out, stdout)
	if err != nil {
		return err
	}
	err = write(w, g, ix, export.Options{AppOnly: *appOnly})
	if derr := done(); err == nil {
		err = derr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	return nil
}

// levelErrors joins the errors of the runs of levels. An error every level met alike
// (cancellation, no entry point, an unknown main class) is said once, without a
// level: six copies of one line hide what went wrong.
func levelErrors(ctx context.Context, levels []callgraph.Level, errs []error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var first error
	same := true
	for _, err := range errs {
		switch {
		case err == nil:
			same = false
		case first == nil:
			first = err
		case err.Error() != first.Error():
			same = false
		}
	}
	if first == nil {
		return nil
	}
	if same {
		return first
	}
	var out []error
	for i, err := range errs {
		if err != nil {
			out = append(out, fmt.Errorf("level %s: %w", levels[i].Title(), err))
		}
	}
	return errors.Join(out...)
}

// levelChoices lists the level names and numbers a flag accepts.
func levelChoices() string {
	return callgraph.LevelChoices() + ", or 1-" + strconv.Itoa(callgraph.MaxLevel.Number())
}

// writeHeapProfile writes the heap profile to path, reporting a failure on stderr:
// the job's own result stands either way.
// levelRun is what the commands that analyse at one level share: the analysis
// flags and the level.
type levelRun struct {
	analysisFlags
	level levelFlags
}

// register registers the flags, the level's with its default and help (to which
// the level names are added).
func (r *levelRun) register(fs *flag.FlagSet, def callgraph.Level, help string) {
	r.analysisFlags.register(fs)
	r.level.register(fs, def.String(), help+levelChoices())
}

// run analyses the class path args at the level the flags give.
func (r *levelRun) run(ctx context.Context, args []string, stderr io.Writer) (*callgraph.Graph, *index.Index, error) {
	res, err := r.runAnalyzer(ctx, args, stderr, nil)
	if err != nil {
		return nil, nil, err
	}
	return res.g, res.ix, nil
}

// runAnalyzer is run, keeping the analyzer and the options it ran with. adjust, when
// not nil, changes the options the flags give before the run.
func (r *levelRun) runAnalyzer(ctx context.Context, args []string, stderr io.Writer, adjust func(*analysis.Options)) (*analyzed, error) {
	l, err := r.level.one()
	if err != nil {
		return nil, err
	}
	opts, err := r.options(l)
	if err != nil {
		return nil, err
	}
	if adjust != nil {
		adjust(&opts)
	}
	res, err := r.analysisFlags.runAnalyzer(ctx, opts, args, stderr)
	if err == nil {
		r.missingLine(stderr, res.ix, res.g)
	}
	return res, err
}

// profileFlags are the profiling flags of the commands that analyse.
type profileFlags struct{ cpu, mem string }

func (p *profileFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the whole job to this file")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile (allocations of the whole job) to this file at the end")
}

// start starts the profiles asked for; stop ends them and writes the heap profile
// (its problems go to stderr: the job's result stands).
func (p *profileFlags) start(stderr io.Writer) (stop func(), err error) {
	var cpu *os.File
	if p.cpu != "" {
		if cpu, err = os.Create(p.cpu); err != nil {
			return nil, err
		}
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.Close()
			return nil, err
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if p.mem != "" {
			writeHeapProfile(p.mem, stderr)
		}
	}, nil
}

func writeHeapProfile(path string, stderr io.Writer) {
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "memprofile: %v\n", err)
	}
}
