// Command jcg-lsp is the jcg-lsp language server and its command-line jobs.
//
//	jcg-lsp [serve] [--stdio]               the language server, over stdin/stdout
//	jcg-lsp index [flags] CLASSPATH...      read a class path and report what it holds
//	jcg-lsp analyze [flags] CLASSPATH...    per-level call-graph statistics
//	jcg-lsp callgraph [flags] CLASSPATH...  write a call graph (JCG JSON, DOT, JSON)
//	jcg-lsp spec check|import-tamiflex ...  guard or extend a specification file
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
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	// Every command builds a large, long-lived heap (the JDK's facts and graphs): a
	// less eager collector saves a third of their CPU, and the soft limit keeps the
	// peak within the memory budget.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(300)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit(os.Args[1:]))
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt)
	ctx, stop := cancelOnInterrupt(context.Background(), sigs, interruptGrace, os.Stderr, os.Exit)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	interrupted := stop()
	signal.Stop(sigs)
	switch {
	case interrupted:
		// The error is the cancellation, once per level that was running: say it once.
		fmt.Fprintln(os.Stderr, "jcg-lsp: interrupted")
		os.Exit(exitInterrupted)
	case err != nil && !errors.Is(err, flag.ErrHelp):
		fmt.Fprintln(os.Stderr, "jcg-lsp:", err)
		os.Exit(exitCode(err))
	}
}

// exitInterrupted is the shells' status of a process ended by SIGINT (128+2).
const exitInterrupted = 130

// interruptGrace is how long a command may take to wind down after the first
// interrupt. The work honours its context at short intervals; this bounds what
// does not (a system call, a loop that checks rarely), so Ctrl-C always ends the job.
const interruptGrace = 800 * time.Millisecond

// cancelOnInterrupt returns a context that the first signal on sigs cancels. If the
// command has not returned grace later, or at a second signal, it calls exit at once:
// a user who presses Ctrl-C twice wants the process gone, whatever it is doing. stop
// ends the watch and says whether a signal came.
func cancelOnInterrupt(parent context.Context, sigs <-chan os.Signal, grace time.Duration, stderr io.Writer, exit func(int)) (ctx context.Context, stop func() (interrupted bool)) {
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	var got atomic.Bool
	go func() {
		select {
		case <-sigs:
		case <-done:
			return
		}
		got.Store(true)
		cancel()
		timer := time.NewTimer(grace)
		defer timer.Stop()
		select {
		case <-done:
			return
		case <-sigs:
		case <-timer.C:
		}
		fmt.Fprintln(stderr, "jcg-lsp: interrupted")
		exit(exitInterrupted)
	}()
	var once sync.Once
	return ctx, func() bool {
		once.Do(func() {
			close(done)
			cancel()
		})
		return got.Load()
	}
}

const usage = `usage: jcg-lsp <command> [flags] [CLASSPATH...]

jcg-lsp builds call graphs of Java programs from their compiled classes (class
directories, jars and the JDK) at explicit assumption levels, and serves them to
editors as a language server.

commands:
  serve      the language server over standard input and output (also: no command, --stdio)
  index      read a class path (and the JDK) and report classes, methods and bytes per origin
  analyze    build the call graph at every assumption level and print one table
  callgraph  write the call graph at one level (--format jcg|dot|json)
  why        whether a method is reachable at one level, and a shortest path to it with each edge's reason
  spec       specification files: check guards one in CI, import-tamiflex adds a TamiFlex refl.log's observations

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
	case "why":
		return runWhy(ctx, args[1:], stdout, stderr)
	case "spec":
		return runSpec(ctx, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usagef("unknown command %q (see 'jcg-lsp help')", args[0])
}

// memoryLimit is the soft memory limit of a command: the server's budget is 1.5 GiB
// for the JDK plus an application, and its live heap a third of that; a batch job
// over a large class path needs more (90 jars with the JDK: 1.6 GB, of which the
// collector, held at 1.3 GiB, took a third of the CPU and 4 s of 22), and its
// budget is 3 GiB. Neither limit binds on javacc, whose job peaks at 1.2 GiB.
func memoryLimit(args []string) int64 {
	if len(args) == 0 || args[0] == "--stdio" || args[0] == "serve" {
		return 1300 << 20
	}
	return 2000 << 20
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
