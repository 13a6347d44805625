package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// classPathFlags are the flags every command uses to describe the class path.
type classPathFlags struct {
	jdk     string
	noJDK   bool
	release int
	libs    stringList
	projectFlags
}

func (c *classPathFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.jdk, "jdk", "", "JDK home (default: $JAVA_HOME, then the java on $PATH)")
	fs.BoolVar(&c.noJDK, "no-jdk", false, "leave the JDK out")
	fs.IntVar(&c.release, "release", 0, "Java release for multi-release jars (default: the JDK's)")
	fs.Var(&c.libs, "lib", "a library jar or directory (repeatable); positional arguments are application code")
	c.projectFlags.register(fs)
}

func (c *classPathFlags) config(app []string) index.Config {
	cfg := index.Config{JDKHome: c.jdk, NoJDK: c.noJDK, Release: c.release}
	for _, p := range app {
		cfg.Sources = append(cfg.Sources, classpath.Source{Path: p, Origin: classpath.Application})
	}
	for _, p := range c.libs {
		cfg.Sources = append(cfg.Sources, classpath.Source{Path: p, Origin: classpath.Library})
	}
	return cfg
}

func runIndex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := newCommand("index", "[flags] [CLASSPATH...]",
		"Reads the JDK and the given class directories and jars, parses every class,\nbuilds the hierarchy, extracts per-method facts and reports what it read.")
	fs := cmd.fs
	var cpf classPathFlags
	cpf.register(fs)
	noFacts := fs.Bool("headers-only", false, "parse headers and build the hierarchy only; skip method bodies")
	maxWarn := fs.Int("max-warnings", 20, "warnings to print (0 = all)")
	listContainers := fs.Bool("containers", false, "list the containers read, archives nested in jars (Spring Boot, WAR, EAR) included")
	listClasses := fs.Bool("classes", false, "list the application and library classes with their origin and location (app.war!/WEB-INF/lib/dep.jar!/p/C.class)")
	if err := cmd.parse(args, stdout); err != nil {
		return err
	}
	if err := checkPaths(fs.Args(), cpf.libs); err != nil {
		return err
	}
	start := time.Now()
	cfg, _, err := cpf.discover(ctx, fs.Args(), stderr)
	if err != nil {
		return err
	}
	ix, err := index.Build(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer ix.Close()
	var factErrs []error
	if !*noFacts {
		factErrs = ix.ExtractAll(ctx)
	}
	total := time.Since(start)

	type row struct{ classes, methods, bytes, calls int }
	rows := map[hierarchy.Origin]*row{}
	phantoms := 0
	for _, c := range ix.Hierarchy().Classes() {
		if c.Phantom {
			phantoms++
			continue
		}
		r := rows[c.Origin]
		if r == nil {
			r = &row{}
			rows[c.Origin] = r
		}
		r.classes++
		r.methods += len(c.Methods)
		r.bytes += len(ix.Source(c).Data)
		if !*noFacts {
			if cf, _ := ix.ClassFacts(c); cf != nil {
				for i := range cf.Methods {
					r.calls += len(cf.Methods[i].Calls)
				}
			}
		}
	}
	if ix.ClassPath.JDKHome != "" {
		fmt.Fprintf(stdout, "JDK: %s (release %d)\n", ix.ClassPath.JDKHome, ix.ClassPath.Release)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "origin\tclasses\tmethods\tcall sites\tbytes\t")
	var sum row
	for _, o := range []hierarchy.Origin{hierarchy.Application, hierarchy.Library, hierarchy.JDK} {
		r := rows[o]
		if r == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", o, r.classes, r.methods, r.calls, r.bytes)
		sum.classes += r.classes
		sum.methods += r.methods
		sum.calls += r.calls
		sum.bytes += r.bytes
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t\n", sum.classes, sum.methods, sum.calls, sum.bytes)
	tw.Flush()
	if *noFacts {
		fmt.Fprintf(stdout, "phantom classes (missing supertypes): %d\n", phantoms)
	} else {
		// Without a graph, what every application and library method refers to.
		cpf.noteGraphs(allReachable(ix))
		cpf.reportMissing(stdout, ix, false)
	}
	if *listContainers {
		printContainers(stdout, ix.ClassPath)
	}
	if *listClasses {
		printClasses(stdout, ix.ClassPath)
	}
	warnings := append([]string(nil), ix.Warnings...)
	for _, e := range factErrs {
		warnings = append(warnings, e.Error())
	}
	fmt.Fprintf(stdout, "warnings: %d\n", len(warnings))
	for i, w := range warnings {
		if *maxWarn > 0 && i >= *maxWarn {
			fmt.Fprintf(stdout, "  ... %d more (--max-warnings 0 shows all)\n", len(warnings)-i)
			break
		}
		fmt.Fprintf(stdout, "  %s\n", w)
	}
	t := ix.Timings
	fmt.Fprintf(stdout, "time: %v (open %v, parse %v, hierarchy %v, facts %v)\n",
		total.Round(time.Millisecond), t.Open.Round(time.Millisecond), t.Parse.Round(time.Millisecond),
		t.Hierarchy.Round(time.Millisecond), t.Facts.Round(time.Millisecond))
	return nil
}
