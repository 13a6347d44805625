package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/ide"
	"github.com/jcg-lsp/jcg-lsp/incremental"
)

type buildState struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{} // closed when the latest build's goroutine ends
	last   *Build        // the latest build, nil before the first (snapshotFor)
	gen    uint64        // builds started
	// shownGen is the number of the build whose snapshots are the current ones
	// (gen when no build runs).
	shownGen uint64
	// explaining is the run of explainLater under way, if any: a build stops it.
	explaining *explainJob
	// edit is the number of the latest build started for an edit (isEdit);
	// viewGen that of the build whose snapshots, interim (publishInterim) or final,
	// requests read; viewed is closed and replaced when viewGen changes
	// (awaitEdits).
	edit, viewGen uint64
	viewed        chan struct{}
	// unread is the number of the latest build started for changed class files
	// while no build that read them has published since (0: none). A build that
	// cancels it before it publishes (a configuration change) re-reads the class
	// path in its place, or the changes would stay unread until the next one.
	unread uint64
}

// setView records that requests read the snapshots of build gen from now on.
func (b *buildState) setView(gen uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if gen <= b.viewGen {
		return
	}
	b.viewGen = gen
	if b.viewed != nil {
		close(b.viewed)
		b.viewed = nil
	}
}

// isEdit reports whether a build for this reason analyses an edit of the program
// or its specification that the server has seen (the watcher's class files, a
// saved or rewritten specification file): requests after it wait for its
// snapshot (awaitEdits).
func isEdit(r incremental.Reason) bool {
	return r == incremental.ReasonClassFiles || r == incremental.ReasonSpec
}

// Build is a build started by Rebuild.
type Build struct {
	done chan struct{}
	snap *Snapshot
	err  error
}

// Wait waits for the build and returns the snapshot it published. The error is
// context.Canceled when a newer build (or the server's end) cancelled it.
func (b *Build) Wait(ctx context.Context) (*Snapshot, error) {
	select {
	case <-b.done:
		return b.snap, b.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Rebuild is the single entry point for re-analysing the workspace. It cancels the
// build in progress, starts a new one in the background and returns at once.
// Requests keep being answered from the latest snapshot until the new one (or an
// edit's interim one) is published, except after an edit, whose snapshot the
// requests that arrive after it wait for (awaitEdits). The index is reused when the
// class path did not change and the reason does not ask for re-reading it; graphs
// are reused per analysis settings.
//
// ctx does not bound the build: a build outlives the request or notification that
// asked for it and ends only when it finishes, a newer build starts or the server
// stops.
func (s *Server) Rebuild(ctx context.Context, reason incremental.Reason) *Build {
	b := &Build{done: make(chan struct{})}
	s.build.mu.Lock()
	defer s.build.mu.Unlock()
	if s.bg.Err() != nil {
		b.err = s.bg.Err()
		close(b.done)
		return b
	}
	if s.build.cancel != nil {
		s.build.cancel()
	}
	if s.build.explaining != nil {
		s.build.explaining.cancel()
		s.build.explaining = nil
	}
	s.build.gen++
	gen := s.build.gen
	if isEdit(reason) {
		s.build.edit = gen
	}
	if reason == incremental.ReasonClassFiles {
		s.build.unread = gen
	}
	bctx, cancel := context.WithCancel(s.bg)
	prev := s.build.done
	s.build.cancel, s.build.done, s.build.last = cancel, b.done, b
	s.goBackground(func(context.Context) {
		defer close(b.done)
		defer cancel()
		if prev != nil {
			<-prev // one build at a time: they would compete for the same cores
		}
		b.snap, b.err = s.runBuild(bctx, reason, gen)
		if b.err != nil && !errors.Is(b.err, context.Canceled) {
			s.log.Warn("build failed", zap.String("reason", string(reason)), zap.Error(b.err))
		}
		s.releaseWhenIdle(gen)
	})
	return b
}

// releaseWhenIdle returns the free pages of the heap (and of the mapped class
// files) to the operating system Options.ReleaseIdle after build gen ended, unless
// another build started meanwhile; it drops the table of strings that only builds
// read first (Host.ReleaseStrings). A build leaves the previous snapshot's graphs
// and its own scratch (about half the heap at its peak) as garbage, which the
// runtime would otherwise keep resident while the server idles: on the plugins
// workspace with the JDK, 1.32 GiB resident for 0.67 GiB live. It costs one full
// collection per quiet period.
func (s *Server) releaseWhenIdle(gen uint64) {
	if s.releaseIdle <= 0 {
		return
	}
	time.AfterFunc(s.releaseIdle, func() {
		s.build.mu.Lock()
		idle := s.build.gen == gen
		s.build.mu.Unlock()
		if idle && s.bg.Err() == nil {
			s.host.ReleaseStrings()
			debug.FreeOSMemory()
			s.dropMappedPages()
		}
	})
}

// dropMappedPages lets the pages of the mapped JDK images leave the resident set
// (classpath.ClassPath.DropPages): an analysis touches nearly all of them, and an
// idle server does not read them again until the next build.
func (s *Server) dropMappedPages() {
	snaps, release := s.currentAll()
	defer release()
	for _, snap := range snaps {
		if err := snap.Index().ClassPath.DropPages(); err != nil {
			s.log.Debug("dropping the mapped pages of the class path", zap.Error(err))
		}
	}
}

func (s *Server) cancelBuild() {
	s.build.mu.Lock()
	defer s.build.mu.Unlock()
	if s.build.cancel != nil {
		s.build.cancel()
	}
}

func (s *Server) runBuild(ctx context.Context, reason incremental.Reason, gen uint64) (snap *Snapshot, err error) {
	select {
	case <-s.initialized:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	start := time.Now()
	st, problems := s.settings()
	for _, p := range problems {
		s.log.Warn(p)
	}
	if len(problems) > 0 && reason != incremental.ReasonSpec {
		s.showMessage(protocol.MessageTypeWarning, "jcg-lsp: "+strings.Join(problems, "; "))
	}
	prog := s.startProgress(ctx, "jcg-lsp")
	defer func() {
		switch {
		case ctx.Err() != nil:
			prog.end("cancelled")
			s.sendStatus(statusParams{State: "cancelled", Reason: string(reason)})
		case snap == nil:
			prog.end("failed")
			msg := fmt.Sprint(err)
			s.sendStatus(statusParams{State: "failed", Reason: string(reason), Message: msg})
			s.showMessage(protocol.MessageTypeError, "jcg-lsp: "+msg)
		}
	}()
	// Resolving the builds' dependencies may run Maven or Gradle (seconds, the first
	// time): the first diagnostics wait for it, no longer.
	prog.report(0, "discovering the class path")
	wss, err := incremental.DiscoverProjectsWith(ctx, s.folderList(), &st.Discovery, s.buildTools())
	if err != nil {
		return nil, err
	}
	// Watch before indexing: what the build tool writes meanwhile is a change too.
	s.ensureWatcher(wss)

	// The host asks for early diagnostics in its first build only.
	early := func(p *Snapshot) func(*callgraph.Graph) { return s.earlyDiagnostics(ctx, &st, p, start) }
	interim := func(snaps []*Snapshot) {
		s.build.setView(gen) // the host returns them to requests from now on
		s.publishInterim(ctx, &st, reason, snaps, start)
	}
	s.build.mu.Lock()
	reindex := s.build.unread != 0
	s.build.mu.Unlock()
	snaps, err := s.host.Build(ctx, incremental.Request{Reason: reason, Reindex: reindex, Options: st.options(), Projects: wss,
		Progress: prog.report, Early: early, SpecRead: s.noteSpec, Interim: interim})
	if err != nil {
		return nil, err
	}
	s.build.mu.Lock()
	if reindex && s.build.unread <= gen {
		s.build.unread = 0 // read; a newer change's build has a larger number
	}
	s.build.mu.Unlock()
	snap = snaps[0]
	s.shown.Store(&st)
	s.build.setView(gen)
	for _, p := range snaps {
		if p.Err != nil {
			s.showMessage(protocol.MessageTypeWarning, "jcg-lsp: no call graph: "+p.Err.Error())
		}
	}
	id := snap.ID

	prog.report(90, "publishing diagnostics")
	s.publishDiagnostics(ctx, &st, snaps)
	for _, p := range snaps {
		if g := p.Graph; g != nil {
			// Warm what hovers and call hierarchies need, so that the first requests
			// after a build are as fast as the later ones.
			g.Callers(0)
			p.PathTree()
			ide.Warm(p)
		}
	}
	status := statusOf(&st, reason, snaps)
	status.State, status.Snapshot = "ready", id
	prog.end(status.Message)
	status.TookMs = time.Since(start).Milliseconds()
	s.sendStatus(status)
	s.build.mu.Lock()
	s.build.shownGen = gen
	s.build.mu.Unlock()
	s.explainLater()
	s.refreshCodeLenses()
	return snap, nil
}

// refreshCodeLenses asks the client to ask for its code lenses again: a build changes
// their counts, and a client asks by itself only when a document changes. The
// request goes out on its own goroutine: the next build must not wait for the
// client's answer.
func (s *Server) refreshCodeLenses() {
	s.mu.Lock()
	ok := s.caps.codeLensRefresh
	s.mu.Unlock()
	if !ok {
		return
	}
	s.goBackground(func(ctx context.Context) {
		if err := s.client.CodeLensRefresh(ctx); err != nil {
			s.log.Debug("workspace/codeLens/refresh", zap.Error(err))
		}
	})
}

// publishInterim publishes the diagnostics of an edit's interim snapshots
// (incremental.Request.Interim: CHA's graph updated in place, while the configured
// algorithm analyses anew) and says so in a jcg/status of state "interim". The
// build's final publish then changes only what the configured algorithm proves
// unreachable.
func (s *Server) publishInterim(ctx context.Context, st *Settings, reason incremental.Reason, snaps []*Snapshot, start time.Time) {
	s.publishDiagnostics(ctx, st, snaps)
	if ctx.Err() != nil {
		return
	}
	status := statusOf(st, reason, snaps)
	// The interim graph counts its own level only: clients keep the others' counts.
	status.State, status.UnresolvedByLevel = "interim", nil
	status.Message = fmt.Sprintf("%s (CHA, updated in place; %s analysing)", status.Message, st.Algorithm)
	status.TookMs = time.Since(start).Milliseconds()
	s.sendStatus(status)
}

// statusOf is the jcg/status of a build's snapshots, without its state.
func statusOf(st *Settings, reason incremental.Reason, snaps []*Snapshot) statusParams {
	status := statusParams{Reason: string(reason), Level: st.Level.String(),
		SpecFile: snaps[0].Spec.Path, SpecEntries: snaps[0].Spec.Entries(), UnresolvedByLevel: map[string]int{}}
	var msgs []string
	status.Build, status.BuildMs = buildStatus(snaps)
	for _, p := range snaps {
		if g := p.Graph; g != nil {
			status.Unresolved += incremental.UnresolvedSites(g, p.Hierarchy().Methods())
			status.UnresolvedBeyond += incremental.BeyondSites(g, p.Hierarchy().Methods())
			status.MissingClasses += p.Missing().Count()
		}
		for l, n := range p.UnresolvedByLevel() {
			status.UnresolvedByLevel[l] += n
		}
		status.SpecProblems = append(status.SpecProblems, specProblems(p.Spec, p.Graph)...)
		m := summary(p)
		if len(snaps) > 1 {
			m = filepath.Base(p.Project.Folders[0]) + ": " + m
		}
		msgs = append(msgs, m)
	}
	status.Message = fmt.Sprintf("%s: %s", st.Level.Title(), strings.Join(msgs, "; "))
	return status
}

// summary describes a snapshot's graph in one line.
func summary(snap *Snapshot) string {
	if snap.Graph == nil {
		return "no call graph: " + snap.Err.Error()
	}
	g := snap.Graph
	return fmt.Sprintf("%d reachable methods, %d dynamic sites (%d unresolved or partial)", g.NumReachable(), len(g.Sites), incremental.UnresolvedSites(g, nil))
}

// specProblems lists the problems of a specification: bad lines, and entries the
// analysis could not match (unknown classes, methods or lines).
func specProblems(sf *incremental.SpecFile, g *callgraph.Graph) []string {
	out := sf.Problems()
	if g != nil {
		out = append(out, g.Problems...)
	}
	return out
}

// statusParams are the parameters of the jcg/status notification.
type statusParams struct {
	State    string `json:"state"` // ready, interim (Server.publishInterim), failed or cancelled
	Snapshot uint64 `json:"snapshot,omitempty"`
	Reason   string `json:"reason"`
	Level    string `json:"level,omitempty"`
	Message  string `json:"message,omitempty"`
	// Unresolved counts the graph's unresolved or partially resolved dynamic sites in
	// application and library code; UnresolvedByLevel does for every level computed
	// so far under the same other settings (the statistics command computes them all).
	Unresolved int `json:"unresolved"`
	// UnresolvedBeyond counts those of them that take a value from a source the
	// level does not license (a public parameter, the environment, ...): a
	// specification entry, not a better analysis, resolves them.
	UnresolvedBeyond  int            `json:"unresolvedBeyond"`
	UnresolvedByLevel map[string]int `json:"unresolvedByLevel,omitempty"`
	SpecFile          string         `json:"specFile,omitempty"`
	SpecEntries       int            `json:"specEntries"`
	SpecProblems      []string       `json:"specProblems,omitempty"`
	TookMs            int64          `json:"tookMs,omitempty"`
	// MissingClasses counts the classes the reachable code refers to that are on no
	// class path (the class-path report names them); Build says how the builds'
	// dependencies were resolved (buildStatus).
	MissingClasses int    `json:"missingClasses"`
	Build          string `json:"build,omitempty"`
	// BuildMs is how long resolving the builds took in this build (0 from the cache).
	BuildMs int64 `json:"buildMs,omitempty"`
}

func (s *Server) sendStatus(p statusParams) {
	if err := s.conn.Notify(s.bg, MethodStatus, &p); err != nil {
		s.log.Debug("jcg/status", zap.Error(err))
	}
}

func (s *Server) showMessage(t protocol.MessageType, msg string) {
	if err := s.client.ShowMessage(s.bg, &protocol.ShowMessageParams{Type: t, Message: msg}); err != nil {
		s.log.Debug("showMessage", zap.Error(err))
	}
}

// progress reports a build's work-done progress, when the client supports it.
type progress struct {
	s     *Server
	token protocol.ProgressToken
}

func (s *Server) startProgress(ctx context.Context, title string) *progress {
	s.mu.Lock()
	ok := s.caps.progress
	s.mu.Unlock()
	if !ok {
		return &progress{}
	}
	token := protocol.String(fmt.Sprintf("jcg-lsp/build/%d", s.progressSeq.Add(1)))
	if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
		s.log.Debug("workDoneProgress/create", zap.Error(err))
		return &progress{}
	}
	zero := uint32(0)
	p := &progress{s: s, token: token}
	p.send(&protocol.WorkDoneProgressBegin{Kind: "begin", Title: title, Percentage: &zero})
	return p
}

func (p *progress) send(v any) {
	if p.s == nil {
		return
	}
	raw, err := protocol.Marshal(v)
	if err != nil {
		p.s.bug("marshal progress: %v", err)
		return
	}
	if err := p.s.client.Progress(p.s.bg, &protocol.ProgressParams{Token: p.token, Value: raw}); err != nil {
		p.s.log.Debug("$/progress", zap.Error(err))
	}
}

func (p *progress) report(pct uint32, msg string) {
	p.send(&protocol.WorkDoneProgressReport{Kind: "report", Percentage: &pct, Message: &msg})
}

func (p *progress) end(msg string) {
	p.send(&protocol.WorkDoneProgressEnd{Kind: "end", Message: &msg})
	p.s = nil
}
