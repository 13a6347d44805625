// Command jcg-lsp is the jcg-lsp language server and its command-line jobs.
//
//	jcg-lsp [serve] [--stdio]               the language server, over stdin/stdout
//	jcg-lsp index [flags] CLASSPATH...      read a class path and report what it holds
//	jcg-lsp analyze [flags] CLASSPATH...    per-level call-graph statistics
//	jcg-lsp callgraph [flags] CLASSPATH...  write a call graph (JCG JSON, DOT, JSON)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
)

func main() {
	// The batch jobs build a large, long-lived heap (the JDK's facts and graphs): a
	// less eager collector saves a third of their CPU, and the soft limit keeps the
	// peak within the memory budget (1.5 GiB for the JDK plus an application).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1300 << 20)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "jcg-lsp:", err)
		}
		os.Exit(2)
	}
}

const usage = `usage: jcg-lsp <command> [flags] [CLASSPATH...]

commands:
  serve      the language server over standard input and output (also: no command, --stdio)
  index      read a class path (and the JDK) and report classes, methods and bytes per origin
  analyze    build the call graph at every assumption level and print one table
  callgraph  write the call graph at one level (--format jcg|dot|json)
  spec       import-tamiflex: add a TamiFlex refl.log's observations to a specification file

Run 'jcg-lsp <command> -h' for the flags of a command.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "--stdio" {
		return runServe(ctx, args, stderr)
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], stderr)
	case "index":
		return runIndex(ctx, args[1:], stdout, stderr)
	case "analyze":
		return runAnalyze(ctx, args[1:], stdout, stderr)
	case "callgraph":
		return runCallgraph(ctx, args[1:], stdout, stderr)
	case "spec":
		return runSpec(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
