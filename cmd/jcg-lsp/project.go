package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// projectFlags are --project and --build-tool: the class path of a workspace,
// discovered exactly as the language server discovers it (build output, and the
// dependencies Maven or Gradle resolve).
type projectFlags struct {
	project   string
	buildTool string
	// builds are the builds discovery resolved, for the missing-class report.
	builds []*buildtool.Result
	// widest is the graph with the most reachable methods of those analysed: the
	// missing classes are counted over it.
	widest *callgraph.Graph
}

func (p *projectFlags) register(fs flagSet) {
	fs.StringVar(&p.project, "project", "", "a workspace folder: discover its class path as the language server does (Maven target/, Gradle build/, lib/*.jar, ...) with the dependencies its build tool resolves; replaces the class-path arguments")
	fs.StringVar(&p.buildTool, "build-tool", buildtool.ModeAuto, "with --project, the build tool asked for the dependencies: "+strings.Join(buildtool.Modes, ", ")+" (the command runs it: it runs the project's build logic)")
}

// flagSet is what register needs of flag.FlagSet.
type flagSet interface {
	StringVar(p *string, name, value, usage string)
}

// discover returns the index configuration of the project, reporting on stderr
// what discovery found and what the build could not resolve (file:line:col).
func (c *classPathFlags) discover(ctx context.Context, args []string, stderr io.Writer) (index.Config, []string, error) {
	p := &c.projectFlags
	if !slices.Contains(buildtool.Modes, p.buildTool) {
		return index.Config{}, nil, usagef("--build-tool %q: want one of %s", p.buildTool, strings.Join(buildtool.Modes, ", "))
	}
	if p.project == "" {
		return c.config(args), args, nil
	}
	if len(args) > 0 {
		return index.Config{}, nil, usagef("--project takes the class path from the project: no class-path arguments (got %s)", strings.Join(args, " "))
	}
	dir, err := filepath.Abs(p.project)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(dir); err == nil && !fi.IsDir() {
			err = fmt.Errorf("not a directory")
		}
	}
	if err != nil {
		return index.Config{}, nil, fmt.Errorf("--project %s: %w", p.project, err)
	}
	cache, err := buildtool.DefaultCacheDir()
	if err != nil {
		cache = "" // in memory: the command runs once
	}
	st := incremental.Discovery{JDKHome: c.jdk, NoJDK: c.noJDK, Release: c.release, BuildTool: p.buildTool}
	// The user named the project on the command line: its build tool may run.
	bt := &incremental.BuildTools{Resolver: buildtool.New(buildtool.Options{CacheDir: cache}), Trusted: true}
	wss, err := incremental.DiscoverProjectsWith(ctx, []string{dir}, &st, bt)
	if err != nil {
		return index.Config{}, nil, err
	}
	ws := wss[0]
	p.builds = ws.Builds
	for _, n := range ws.Notes {
		fmt.Fprintf(stderr, "jcg-lsp: %s\n", n)
	}
	for _, b := range ws.Builds {
		for _, n := range b.Notes {
			fmt.Fprintf(stderr, "jcg-lsp: %s build: %s\n", b.Tool, n)
		}
		for _, pr := range b.Problems {
			fmt.Fprintf(stderr, "%s: %s\n", pr.Pos, pr.Msg)
		}
	}
	if !slices.ContainsFunc(ws.ClassPath, func(e incremental.ClassPathEntry) bool { return e.Origin == classpath.Application }) {
		return index.Config{}, nil, fmt.Errorf("--project %s: no class directories or jars of the application (build it first: mvn compile, gradle classes)", p.project)
	}
	cfg := ws.Config()
	for _, l := range c.libs {
		cfg.Sources = append(cfg.Sources, classpath.Source{Path: l, Origin: classpath.Library})
	}
	return cfg, []string{dir}, nil
}

// noteGraphs keeps the widest of the graphs.
func (p *projectFlags) noteGraphs(gs ...*callgraph.Graph) {
	for _, g := range gs {
		if g != nil && (p.widest == nil || g.NumReachable() > p.widest.NumReachable()) {
			p.widest = g
		}
	}
}

// reportMissing prints the missing classes of the widest graph analysed: their
// count and, per package, the dependency that should have provided them.
func (p *projectFlags) reportMissing(w io.Writer, ix *index.Index, verbose bool) *incremental.MissingReport {
	if p.widest == nil {
		return nil
	}
	r := incremental.FindMissing(ix, p.widest, p.builds)
	fmt.Fprint(w, r.Describe(verbose))
	return r
}

// missingLine is the one line callgraph and why print on stderr when the graph's
// reachable code refers to missing classes.
func (p *projectFlags) missingLine(w io.Writer, ix *index.Index, g *callgraph.Graph) {
	r := incremental.FindMissing(ix, g, p.builds)
	if n := r.Count(); n > 0 {
		fmt.Fprintf(w, "jcg-lsp: %d missing classes in %d packages (referenced by reachable code, on no class path; `jcg-lsp analyze` lists them)\n", n, len(r.Packages))
	}
}

// allReachable is a graph in which every method is reachable: what the index
// command counts missing classes over.
func allReachable(ix *index.Index) *callgraph.Graph {
	n := len(ix.Hierarchy().Methods())
	g := &callgraph.Graph{NumNodes: n + 1, Reachable: callgraph.NewBitset(n + 1)}
	for i := range n {
		g.Reachable.Add(int32(i))
	}
	return g
}

// shown is what the output names as the class path: the arguments, or the project.
func (p *projectFlags) shown(args []string) []string {
	if p.project != "" {
		return []string{p.project}
	}
	return args
}
