package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// runSpecCheck handles `jcg-lsp spec check`: it analyses the class path with the
// specification files and fails when one of their lines is bad or names a site,
// method or class the classes no longer have, so that a CI job can keep a reviewed
// specification in step with the code it describes.
func runSpecCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := newCommand("spec check", "[--level L] --spec FILE [flags] CLASSPATH...",
		"Analyses the class path at one level with the specification files and exits 1\nwhen an entry is malformed or names a class, method or call site the classes do\nnot have (each printed to standard error as file:line:col), 0 with a one-line\nsummary when every entry applies. Meant for CI, to guard a reviewed specification.")
	fs := cmd.fs
	var lr levelRun
	lr.register(fs, callgraph.CorrectString, "assumption level to check at: ")
	if err := cmd.parse(args, stdout); err != nil {
		return err
	}
	if len(lr.spec.paths) == 0 {
		return usagef("spec check: give the specification file with --spec FILE")
	}
	g, ix, err := lr.run(ctx, fs.Args(), stderr)
	if err != nil {
		return err
	}
	defer ix.Close()
	files := strings.Join(lr.spec.paths, ", ")
	if probs := lr.spec.report(stderr, g); len(probs) == 1 {
		return fmt.Errorf("spec check: a problem in %s", files)
	} else if len(probs) > 1 {
		return fmt.Errorf("spec check: %d problems in %s", len(probs), files)
	}
	specified := 0
	for _, s := range g.Sites {
		if s.Status == callgraph.Specified {
			specified++
		}
	}
	fmt.Fprintf(stdout, "%s: no problems in %s at %s (%s specified)\n", files, count(len(lr.spec.file.Entries), "entry", "entries"), g.Level.Title(), count(specified, "reachable site", "reachable sites"))
	return nil
}

// count writes n with the noun's singular or plural.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
