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
	"text/tabwriter"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/export"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// analysisFlags are the flags shared by analyze and callgraph.
type analysisFlags struct {
	classPathFlags
	algo    string
	mains   stringList
	entries stringList
	library bool
	env     stringList
}

func (a *analysisFlags) register(fs *flag.FlagSet) {
	a.classPathFlags.register(fs)
	fs.StringVar(&a.algo, "algo", analysis.CHA, "call-graph algorithm: cha or rta")
	fs.Var(&a.mains, "main", "main class (repeatable; default: every application class with a main method)")
	fs.Var(&a.entries, "entry", "explicit entry method pkg.Class.method[(descriptor)] (repeatable)")
	fs.BoolVar(&a.library, "library-mode", false, "every public and protected method of application classes is an entry point")
	fs.Var(&a.env, "env", "KEY=VALUE system property or environment value for Correct-Env (repeatable)")
}

func (a *analysisFlags) options(level callgraph.Level) (analysis.Options, error) {
	if a.algo != analysis.CHA && a.algo != analysis.RTA {
		return analysis.Options{}, fmt.Errorf("unknown algorithm %q (want cha or rta)", a.algo)
	}
	env := map[string]string{}
	for _, kv := range a.env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return analysis.Options{}, fmt.Errorf("--env %q: want KEY=VALUE", kv)
		}
		env[k] = v
	}
	return analysis.Options{Level: level, Algorithm: a.algo, Mains: a.mains, Entries: a.entries, LibraryMode: a.library, Env: env}, nil
}

// load indexes the class path given on the command line.
func (a *analysisFlags) load(ctx context.Context, args []string) (*index.Index, error) {
	if len(args) == 0 && len(a.libs) == 0 {
		return nil, errors.New("empty class path: give the application's class directories or jars")
	}
	return index.Build(ctx, a.config(args), nil)
}

func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var af analysisFlags
	af.register(fs)
	verbose := fs.Bool("verbose", false, "also list phantom classes and warnings")
	levelList := fs.String("levels", "all", "comma-separated levels to analyse (names or numbers), or all")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole job to this file")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: jcg-lsp analyze [flags] CLASSPATH...\n\nBuilds the call graph of the application (with the JDK) at every assumption level\nand prints reachable methods, edges and dynamic sites per level.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := af.options(callgraph.BehavedCLs); err != nil {
		return err
	}
	levels := callgraph.Levels
	if *levelList != "all" {
		levels = nil
		for _, n := range strings.Split(*levelList, ",") {
			l, err := callgraph.ParseLevel(n)
			if err != nil {
				return err
			}
			levels = append(levels, l)
		}
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	ix, err := af.load(ctx, fs.Args())
	if err != nil {
		return err
	}
	defer ix.Close()
	// Nearly every method of the JDK is reachable at every level: extracting facts,
	// resolving calls and CHA dispatch up front uses every core, where the solver
	// would do them one by one.
	a := analysis.New(ix)
	if err := prepare(ctx, a, af.algo); err != nil {
		return err
	}
	indexTime := time.Since(start)
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
			t0 := time.Now()
			g, err := a.Run(ctx, opts)
			if err != nil {
				errs[i] = fmt.Errorf("level %s: %w", l.Title(), err)
				return
			}
			results[i] = result{g, time.Since(t0), g.NumEdges()}
		}()
	}
	wg.Wait()
	levelsTime := time.Since(levelsStart)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s call graph of %s (+ JDK %s); index %v\n", strings.ToUpper(af.algo), strings.Join(fs.Args(), " "), ix.ClassPath.JDKHome, indexTime.Round(time.Millisecond))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "level\tmethods\tedges\t"
	for _, f := range callgraph.Features {
		header += f.String() + " t/r/u\t"
	}
	fmt.Fprintln(tw, header+"time\t")
	for _, r := range results {
		stats := callgraph.SiteStats(r.g)
		row := fmt.Sprintf("%s\t%d\t%d\t", r.g.Level.Title(), r.g.NumReachable(), r.edges)
		for _, f := range callgraph.Features {
			s := stats[f]
			row += fmt.Sprintf("%d/%d/%d\t", s.Total, s.Resolved, s.Unresolved)
		}
		fmt.Fprintln(tw, row+r.dur.Round(time.Millisecond).String()+"\t")
	}
	tw.Flush()
	fmt.Fprintln(stdout, "t/r/u: dynamic sites in reachable methods: total / resolved (incl. specified) / unresolved (incl. partially resolved).")
	// A row's time is not what the level costs alone: the runs share the cores and
	// the analyzer's caches, which the first runs fill.
	fmt.Fprintf(stdout, "time: each run's wall time, %d at a time; all levels took %v.\n", cap(sem), levelsTime.Round(time.Millisecond))
	// The JDK's own sites dominate the totals; users act on those of their code.
	ms := ix.Hierarchy().Methods()
	fmt.Fprintln(stdout, "\nDynamic sites in application and library code:")
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	header = "level\t"
	for _, f := range callgraph.Features {
		header += f.String() + " t/r/u\t"
	}
	fmt.Fprintln(tw, header)
	for _, r := range results {
		stats := callgraph.SiteStatsWhere(r.g, func(s *callgraph.Site) bool { return ms[s.Caller].Class.Origin != hierarchy.JDK })
		row := r.g.Level.Title() + "\t"
		for _, f := range callgraph.Features {
			s := stats[f]
			row += fmt.Sprintf("%d/%d/%d\t", s.Total, s.Resolved, s.Unresolved)
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
	if len(af.env) > 0 {
		fmt.Fprintln(stdout, "Correct-Env is sound only for the environment given with --env.")
	}
	phantoms := 0
	for _, c := range ix.Hierarchy().Classes() {
		if c.Phantom {
			phantoms++
			if *verbose {
				fmt.Fprintf(stdout, "phantom: %s\n", c.Name)
			}
		}
	}
	fmt.Fprintf(stdout, "phantom classes: %d; warnings: %d\n", phantoms, len(ix.Warnings))
	if *verbose {
		for _, w := range ix.Warnings {
			fmt.Fprintf(stdout, "warning: %s\n", w)
		}
	}
	return nil
}

func runCallgraph(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("callgraph", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var af analysisFlags
	af.register(fs)
	format := fs.String("format", "jcg", "output format: jcg (JCG benchmark JSON), dot (Graphviz) or json (edges with reasons, JSON Lines)")
	levelName := fs.String("level", callgraph.CorrectString.String(), "assumption level: "+levelChoices())
	out := fs.String("out", "", "output file (required; - for standard output)")
	appOnly := fs.Bool("app-only", false, "write only application and library methods as callers (JDK methods still appear as callees)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: jcg-lsp callgraph --format jcg|dot|json [--level L] [--algo A] [--main CLASS]... [--library-mode] --out FILE CLASSPATH...\n\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	level, err := callgraph.ParseLevel(*levelName)
	if err != nil {
		return err
	}
	opts, err := af.options(level)
	if err != nil {
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
		return fmt.Errorf("unknown format %q (want jcg, dot or json)", *format)
	}
	if *out == "" {
		return errors.New("--out FILE is required (- for standard output)")
	}
	ix, err := af.load(ctx, fs.Args())
	if err != nil {
		return err
	}
	defer ix.Close()
	a := analysis.New(ix)
	if err := prepare(ctx, a, af.algo); err != nil {
		return err
	}
	g, err := a.Run(ctx, opts)
	if err != nil {
		return err
	}
	w := stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := write(w, g, ix, export.Options{AppOnly: *appOnly}); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	if f, ok := w.(*os.File); ok && f != os.Stdout {
		return f.Close()
	}
	return nil
}

// prepare does the level-independent work of the runs on every core.
func prepare(ctx context.Context, a *analysis.Analyzer, algo string) error {
	if algo == analysis.CHA {
		return a.Prepare(ctx)
	}
	return a.PrepareCalls(ctx)
}

// levelChoices lists the level names and numbers a flag accepts.
func levelChoices() string {
	var names []string
	for _, l := range callgraph.Levels {
		names = append(names, l.String())
	}
	return strings.Join(names, ", ") + ", or 1-" + strconv.Itoa(int(callgraph.MaxLevel))
}
