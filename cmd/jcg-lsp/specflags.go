package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
)

// specFlags is --spec FILE, repeatable: specification files whose entries give
// dynamic sites their targets at every level, as the server's specFile setting does.
type specFlags struct {
	paths stringList
	file  *spec.File // the files read as one (spec.Concat); nil without --spec
}

func (s *specFlags) register(fs *flag.FlagSet) {
	fs.Var(&s.paths, "spec", "specification file: its entries give dynamic sites their targets at every level (repeatable: the files are read as their concatenation)")
}

// read reads and parses the files. The server takes a missing specFile for an empty
// one, since a workspace need not have one; a file named on the command line must
// exist, or a typo would analyse without the specification and say nothing of it.
// Bad lines are not errors here: like the server, the rest of the file applies.
func (s *specFlags) read() error {
	var files []*spec.File
	for _, p := range s.paths {
		if strings.TrimSpace(p) == "" {
			return usagef("--spec: an empty file name (an unset shell variable?)")
		}
		st, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("specification file: %w", err)
		}
		if st.IsDir() {
			return fmt.Errorf("specification file %s is a directory", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("specification file: %w", err)
		}
		files = append(files, spec.Parse(p, data))
	}
	if len(files) > 0 {
		s.file = spec.Concat(files...)
	}
	return nil
}

// problems lists the files' bad lines and the entries the runs could not match
// (unknown classes or methods, no call at the line), each once and with its
// position in its own file: every level reports the same entries.
func (s *specFlags) problems(graphs ...*callgraph.Graph) []string {
	if s.file == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range s.file.Problems {
		add(p.Error())
	}
	for _, g := range graphs {
		if g == nil {
			continue
		}
		for _, p := range g.Problems {
			add(s.file.Relocate(p))
		}
	}
	return out
}

// report prints the problems to stderr, all of them, and returns them: unlike the class
// path's, each is a line of a file the user wrote and must fix.
func (s *specFlags) report(stderr io.Writer, graphs ...*callgraph.Graph) []string {
	probs := s.problems(graphs...)
	if len(probs) == 0 {
		return nil
	}
	noun := "problems"
	if len(probs) == 1 {
		noun = "problem"
	}
	fmt.Fprintf(stderr, "jcg-lsp: %d specification %s:\n", len(probs), noun)
	for _, p := range probs {
		fmt.Fprintf(stderr, "  %s\n", p)
	}
	return probs
}

// readTamiFlex reads a refl.log. A directory is an error: opening one succeeds on
// Unix, and reading it as an empty log would import nothing and say nothing.
func readTamiFlex(path string) ([]spec.Entry, []spec.Problem, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reflection log: %w", err)
	}
	if st.IsDir() {
		return nil, nil, fmt.Errorf("reflection log %s is a directory, not a TamiFlex refl.log", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reflection log: %w", err)
	}
	defer f.Close()
	return spec.ReadTamiFlex(path, f)
}
