package server

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/ide"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
)

// Options configure a server.
type Options struct {
	Logger  *zap.Logger // default: no logging
	Version string
	// Graphs caches analysed call graphs on disk, so that a restart over unchanged
	// classes and settings loads them instead of analysing; nil for none.
	Graphs *incremental.GraphCache
	// FirstBuildWait bounds how long a request waits for the first snapshot
	// (snapshotFor); zero means two minutes.
	FirstBuildWait time.Duration
	// BuildTools resolves the dependencies of the workspace's builds (buildtools.go);
	// nil for one that caches in memory.
	BuildTools *buildtool.Resolver
	// ReleaseIdle, when positive, is how long after a build ends, with no other
	// build started, the server returns the heap's free memory to the operating
	// system (releaseWhenIdle). That acts on the whole process: a process that
	// serves one editor sets it (DefaultReleaseIdle); zero never does.
	ReleaseIdle time.Duration
}

// DefaultReleaseIdle is the ReleaseIdle of `jcg-lsp serve`: long enough for the CHA
// companion a build starts (about 2 s on javacc) to finish first.
const DefaultReleaseIdle = 5 * time.Second

// Server is a jcg-lsp language server for one client connection.
type Server struct {
	log     *zap.Logger
	version string
	routes  map[string]route

	inflight inflight
	conn     jsonrpc2.Conn
	client   protocol.Client

	// bg is the context of the server's background work (builds, client calls); it
	// ends when the connection does.
	bg       context.Context
	bgCancel context.CancelFunc
	bgWG     sync.WaitGroup

	mu            sync.Mutex
	state         lifecycle
	caps          clientCaps
	folders       []string
	layers        [3]settingsLayer // initializationOptions, configuration, command overrides
	initialized   chan struct{}    // closed by the initialized notification
	exited        chan struct{}    // closed by the exit notification
	shutdownAsked bool

	configMu sync.Mutex // serialises configuration pulls

	// host builds and owns the snapshots the server answers from.
	host *incremental.Host
	// resolver asks the build tools for the dependencies; untrusted says the client
	// does not trust the workspace (buildtools.go).
	resolver  *buildtool.Resolver
	untrusted atomic.Bool
	// shown are the settings of the latest published build: what requests and
	// diagnostics present (severities, hover and call-hierarchy limits) besides
	// the snapshot's analysis options.
	shown       atomic.Pointer[Settings]
	progressSeq atomic.Uint64
	build       buildState
	watch       watchState
	// ide answers the requests about a snapshot; it holds the open documents.
	ide *ide.Session

	firstBuildWait time.Duration
	releaseIdle    time.Duration // Options.ReleaseIdle

	pubMu     sync.Mutex
	published map[uri.URI]string // fingerprint of the diagnostics last published per file
}

type lifecycle uint8

const (
	stateNew lifecycle = iota
	stateRunning
	stateShutdown
)

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	progress      bool // window.workDoneProgress
	configuration bool // workspace.configuration
	docChanges    bool // workspace.workspaceEdit.documentChanges
	createFiles   bool // workspace.workspaceEdit.resourceOperations includes create
	showDocument  bool
	// codeLensRefresh: workspace.codeLens.refreshSupport.
	codeLensRefresh bool
}

// New returns a server; Serve connects it to a client.
func New(opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	s := &Server{
		log:         log,
		version:     opts.Version,
		initialized: make(chan struct{}),
		exited:      make(chan struct{}),
		published:   map[uri.URI]string{},

		firstBuildWait: opts.FirstBuildWait,
		releaseIdle:    opts.ReleaseIdle,
	}
	if s.firstBuildWait <= 0 {
		s.firstBuildWait = defaultFirstBuildWait
	}
	s.ide = ide.NewSession(func() ide.Settings { return s.shownSettings().present() }, func(msg string) { s.bug("%s", msg) }, log)
	s.bg, s.bgCancel = context.WithCancel(context.Background())
	s.host = incremental.NewHost(s.bg, incremental.HostOptions{Graphs: opts.Graphs, Logger: log})
	s.resolver = opts.BuildTools
	if s.resolver == nil {
		s.resolver = buildtool.New(buildtool.Options{Logger: log})
	}
	s.routes = s.makeRoutes()
	return s
}

// Serve speaks LSP over rwc until the client sends exit, the stream ends or ctx is
// cancelled. It returns an error when the client exits without asking for shutdown
// first, or when the connection failed.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	return New(opts).Serve(ctx, rwc)
}

// Serve serves one connection; see the package-level Serve.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	connCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.conn = jsonrpc2.NewConn(&tolerantStream{Stream: jsonrpc2.NewStream(rwc), log: s.log}, jsonrpc2.WithCodec(lspCodec{}))
	s.client = protocol.ClientDispatcher(s.conn)
	s.conn.Go(connCtx, s.handler())
	select {
	case <-s.conn.Done():
	case <-s.exited:
	case <-ctx.Done():
	}
	// Stop background work and in-flight requests first: Close waits for handlers.
	s.stopWatcher()
	s.bgCancel()
	cancel()
	closed := make(chan struct{})
	go func() {
		_ = s.conn.Close() // the stream's close error after the end (a closed pipe) is noise
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		// A read blocked on a stream that closing does not interrupt (a blocking
		// standard input the client keeps open): the client is gone anyway.
		s.log.Warn("connection did not close; exiting anyway")
	}
	s.bgWG.Wait()
	s.host.Close()
	s.mu.Lock()
	clean := s.shutdownAsked
	s.mu.Unlock()
	select {
	case <-s.exited:
		if !clean {
			return errors.New("client exited without shutdown")
		}
		return nil
	default:
	}
	if err := s.conn.Err(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// goBackground runs fn on its own goroutine under the server's background context.
func (s *Server) goBackground(fn func(ctx context.Context)) {
	s.bgWG.Add(1)
	go func() {
		defer s.bgWG.Done()
		fn(s.bg)
	}()
}

func (s *Server) running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state == stateRunning
}

// checkState rejects requests that the lifecycle does not allow yet or any more.
func (s *Server) checkState(method string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case stateNew:
		if method != protocol.MethodInitialize {
			return errNotInitialized
		}
	case stateShutdown:
		return errShutdown
	default:
		if method == protocol.MethodInitialize {
			return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice")
		}
	}
	return nil
}

// Methods of the jcg-lsp extensions.
const (
	// MethodClassContent is the request for the text of a jcg-class: URI.
	MethodClassContent = "jcg/classContent"
	// MethodStatus is the notification sent when a build ends (ready, failed or
	// cancelled): the VS Code extension shows it, tests wait for it.
	MethodStatus = "jcg/status"
)

func (s *Server) makeRoutes() map[string]route {
	return map[string]route{
		protocol.MethodInitialize:                         request(s.initialize),
		protocol.MethodInitialized:                        notification(s.initializedNote),
		protocol.MethodShutdown:                           request(s.shutdown),
		protocol.MethodExit:                               notification(s.exit),
		protocol.MethodTextDocumentDidOpen:                notification(s.didOpen),
		protocol.MethodTextDocumentDidChange:              notification(s.didChange),
		protocol.MethodTextDocumentDidClose:               notification(s.didClose),
		protocol.MethodTextDocumentDidSave:                notification(s.didSave),
		protocol.MethodWorkspaceDidChangeConfiguration:    notification(s.didChangeConfiguration),
		protocol.MethodWorkspaceDidChangeWorkspaceFolders: notification(s.didChangeWorkspaceFolders),
		protocol.MethodTextDocumentHover:                  request(s.hover),
		protocol.MethodTextDocumentPrepareCallHierarchy:   request(s.prepareCallHierarchy),
		protocol.MethodCallHierarchyIncomingCalls:         request(s.incomingCalls),
		protocol.MethodCallHierarchyOutgoingCalls:         request(s.outgoingCalls),
		protocol.MethodTextDocumentCodeAction:             request(s.codeAction),
		protocol.MethodTextDocumentImplementation:         request(s.implementation),
		protocol.MethodTextDocumentPrepareTypeHierarchy:   request(s.prepareTypeHierarchy),
		protocol.MethodTypeHierarchySupertypes:            request(s.supertypes),
		protocol.MethodTypeHierarchySubtypes:              request(s.subtypes),
		protocol.MethodTextDocumentCodeLens:               request(s.codeLens),
		protocol.MethodCodeLensResolve:                    request(s.resolveCodeLens),
		protocol.MethodWorkspaceExecuteCommand:            request(s.executeCommand),
		MethodClassContent:                                request(s.classContent),
		MethodWorkspaceTrust:                              notification(s.workspaceTrust),
		"$/setTrace":                                      notification(func(context.Context, *struct{}) error { return nil }),
	}
}

// shownSettings returns the settings of the latest published build (the defaults
// before the first).
func (s *Server) shownSettings() *Settings {
	if st := s.shown.Load(); st != nil {
		return st
	}
	st := DefaultSettings()
	return &st
}

// current returns the latest snapshot of the first project with a reference that
// release drops, or nil before the first build finished.
func (s *Server) current() (*Snapshot, func()) { return s.host.Acquire(nil) }

// currentFor returns the latest snapshot of the project a document belongs to: the
// project whose folders, source roots or class path hold the file, or the first that
// has the class of a class listing; else the first project.
func (s *Server) currentFor(u uri.URI) (*Snapshot, func()) {
	if name, ok := classOfURI(u); ok {
		return s.host.Acquire(func(p *Snapshot) bool {
			c := p.Hierarchy().Class(name)
			return c != nil && !c.Phantom
		})
	}
	path := filePath(u)
	return s.host.Acquire(func(p *Snapshot) bool { return path != "" && p.Project.Contains(path) })
}

// currentAll returns the latest snapshot of every project, with references that
// release drops.
func (s *Server) currentAll() ([]*Snapshot, func()) { return s.host.Current() }

// errNoSnapshot answers requests that arrive before the first analysis ended.
var errNoSnapshot = jsonrpc2.NewError(protocol.CodeContentModified, "jcg-lsp is still indexing the workspace")
