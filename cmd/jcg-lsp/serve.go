package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime/debug"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/server"
)

// runServe speaks LSP over standard input and output. It is what `jcg-lsp`, `jcg-lsp
// serve` and `jcg-lsp --stdio` run (VS Code's client appends --stdio).
func runServe(ctx context.Context, args []string, stderr io.Writer) error {
	cmd := newCommand("serve", "[--stdio] [--log FILE] [--log-level LEVEL] [--graph-cache DIR|off] [--debug ADDR]",
		"Runs the language server over standard input and output (logs go to standard error).")
	fs := cmd.fs
	fs.Bool("stdio", true, "speak LSP over standard input and output (the only transport; accepted because VS Code passes it)")
	logFile := fs.String("log", "", "also append the log to this file (the log always goes to standard error)")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	graphCache := fs.String("graph-cache", "", "directory of the on-disk call-graph cache that makes restarts fast (default: the user cache directory's jcg-lsp/graphs; \"off\" for none)")
	debugAddr := fs.String("debug", "", "serve Go's profiles (net/http/pprof: heap, CPU, goroutines) on this local address, e.g. localhost:6060")
	// Help goes to stderr: in serve mode, stdout belongs to the LSP stream.
	if err := cmd.parse(args, stderr); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("serve takes no arguments, got %q (see 'jcg-lsp serve -h')", fs.Args())
	}
	log, err := server.NewLogger(*logLevel, *logFile)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }() // Sync on a pipe fails with "invalid argument": nothing to do about it
	in, out, err := guardStdio()
	if err != nil {
		return fmt.Errorf("redirecting standard output: %w", err)
	}
	log.Info("jcg-lsp serving over stdio", zap.String("version", version()))
	if *debugAddr != "" {
		_, stopDebug, err := serveDebug(*debugAddr, log)
		if err != nil {
			return err
		}
		defer stopDebug()
	}
	opts := server.Options{Logger: log, Version: version(), ReleaseIdle: server.DefaultReleaseIdle}
	// Resolved build class paths are kept across restarts, keyed by the content of
	// the build files: a restart over unchanged POMs does not run Maven again.
	buildCache, err := buildtool.DefaultCacheDir()
	if err != nil {
		log.Warn("no build class-path cache: restarts run the build tool again", zap.Error(err))
	}
	opts.BuildTools = buildtool.New(buildtool.Options{CacheDir: buildCache, Logger: log})
	if *graphCache != "off" {
		gc, err := incremental.OpenGraphCache(*graphCache, log)
		if err != nil {
			log.Warn("no graph cache: restarts analyse again", zap.Error(err))
		} else {
			defer gc.Close()
			opts.Graphs = gc
		}
	}
	return server.Serve(ctx, stdio{in, out}, opts)
}

// stdio is the LSP stream: the guarded standard input and output.
type stdio struct {
	in  *os.File
	out *os.File
}

func (s stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s stdio) Close() error {
	err := s.in.Close()
	if e := s.out.Close(); err == nil {
		err = e
	}
	return err
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "dev"
}

// serveDebug serves net/http/pprof's handlers on addr, at the returned URL, until
// the returned stop is called, so that a server's heap and CPU can be profiled while an editor uses it
// (as gopls's -debug does). Only loopback addresses are accepted: the profiles
// show the workspace's paths and names.
func serveDebug(addr string, log *zap.Logger) (url string, stop func(), err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", nil, usagef("--debug %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", nil, usagef("--debug %q: only a loopback address (localhost, 127.0.0.1, [::1]) may serve profiles", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("--debug: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("debug server stopped", zap.Error(err))
		}
	}()
	url = "http://" + ln.Addr().String() + "/debug/pprof/"
	log.Info("serving profiles", zap.String("url", url))
	return url, func() { _ = srv.Close() }, nil
}
