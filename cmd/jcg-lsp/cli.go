package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// usageError is a mistake in the command line: the process exits 2 with its one line
// (other failures exit 1), as Unix commands do.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef is a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitCode is the process status for what run returned: 0 for nil and for help, 2
// for a usage error, 1 for any other failure.
func exitCode(err error) int {
	var ue usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

// command is a subcommand's flag set with its usage text.
type command struct {
	fs       *flag.FlagSet
	name     string // "analyze", "spec import-tamiflex"
	synopsis string // after "usage: jcg-lsp NAME "
	about    string // what the command does, one paragraph
}

func newCommand(name, synopsis, about string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	return &command{fs: fs, name: name, synopsis: synopsis, about: about}
}

// parse parses args. -h and --help print the usage to stdout and return
// flag.ErrHelp (exit 0); a bad flag is a one-line usage error, not the flag
// package's message followed by every flag.
func (c *command) parse(args []string, stdout io.Writer) error {
	c.fs.SetOutput(io.Discard)
	c.fs.Usage = func() {}
	err := c.fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		c.printUsage(stdout)
		return err
	}
	if err != nil {
		return usagef("%s: %v (see 'jcg-lsp %s -h')", c.name, err, c.name)
	}
	return nil
}

func (c *command) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: jcg-lsp %s %s\n\n%s\n\nflags:\n", c.name, c.synopsis, c.about)
	c.fs.SetOutput(w)
	c.fs.PrintDefaults()
	c.fs.SetOutput(io.Discard)
}

// levelFlags are --level and --levels, which mean the same on every command that
// takes levels: people type either.
type levelFlags struct {
	list string
}

func (l *levelFlags) register(fs *flag.FlagSet, def, help string) {
	fs.StringVar(&l.list, "level", def, help)
	fs.StringVar(&l.list, "levels", def, "the same as --level")
}

// parse returns the levels named (names or numbers, comma-separated, or all).
func (l *levelFlags) parse() ([]callgraph.Level, error) {
	if l.list == "all" {
		return callgraph.Levels, nil
	}
	var levels []callgraph.Level
	for _, n := range strings.Split(l.list, ",") {
		lv, err := callgraph.ParseLevelOrNumber(n)
		if err != nil {
			return nil, usageError{err}
		}
		levels = append(levels, lv)
	}
	return levels, nil
}

// one returns the single level named.
func (l *levelFlags) one() (callgraph.Level, error) {
	levels, err := l.parse()
	if err != nil {
		return 0, err
	}
	if len(levels) != 1 {
		return 0, usagef("want one level, got %q", l.list)
	}
	return levels[0], nil
}

// maxWarningsShown is how many class-path problems a command prints without
// --verbose: enough to name the culprit, few enough to leave the results readable.
const maxWarningsShown = 5

// reportWarnings prints the class path's problems to stderr: their count and the
// first few, or all of them when verbose.
func reportWarnings(stderr io.Writer, warnings []string, verbose bool) {
	if len(warnings) == 0 {
		return
	}
	noun := "problems"
	if len(warnings) == 1 {
		noun = "problem"
	}
	fmt.Fprintf(stderr, "jcg-lsp: %d class-path %s:\n", len(warnings), noun)
	for i, w := range warnings {
		if !verbose && i == maxWarningsShown {
			fmt.Fprintf(stderr, "  ... and %d more (--verbose lists all)\n", len(warnings)-i)
			break
		}
		fmt.Fprintf(stderr, "  %s\n", w)
	}
}

// checkPaths rejects class-path arguments that cannot name anything: an empty
// argument (a shell variable that was not set) would otherwise become a warning
// about a container named "".
func checkPaths(lists ...[]string) error {
	for _, l := range lists {
		for _, p := range l {
			if strings.TrimSpace(p) == "" {
				return usagef("an empty argument is not a class-path entry (an unset shell variable?)")
			}
		}
	}
	return nil
}
