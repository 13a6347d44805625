package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Reason says why a build runs.
type Reason string

// Build reasons.
const (
	ReasonInitial    Reason = "initial"
	ReasonConfig     Reason = "configuration"
	ReasonSpec       Reason = "specification"
	ReasonCommand    Reason = "command"     // jcg.reanalyze: re-reads the class path
	ReasonClassFiles Reason = "class files" // class files changed on disk (the watcher)
	ReasonFolders    Reason = "workspace folders"
)

// reindexes reports whether a build for this reason re-reads the class path even
// when the workspace's class path settings did not change.
func (r Reason) reindexes() bool {
	return r == ReasonInitial || r == ReasonCommand || r == ReasonClassFiles
}

type buildState struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{} // closed when the latest build's goroutine ends
	last   *Build        // the latest build, nil before the first (snapshotFor)
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
// Requests keep being answered from the latest snapshot until the new one is
// published. The index is reused when the class path did not change and the reason
// does not ask for re-reading it; graphs are reused per analysis settings.
//
// ctx does not bound the build: a build outlives the request or notification that
// asked for it and ends only when it finishes, a newer build starts or the server
// stops.
func (s *Server) Rebuild(ctx context.Context, reason Reason) *Build {
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
	bctx, cancel := context.WithCancel(s.bg)
	prev := s.build.done
	s.build.cancel, s.build.done, s.build.last = cancel, b.done, b
	s.goBackground(func(context.Context) {
		defer close(b.done)
		defer cancel()
		if prev != nil {
			<-prev // one build at a time: they would compete for the same cores
		}
		b.snap, b.err = s.runBuild(bctx, reason)
		if b.err != nil && !errors.Is(b.err, context.Canceled) {
			s.log.Warn("build failed", zap.String("reason", string(reason)), zap.Error(b.err))
		}
	})
	return b
}

func (s *Server) cancelBuild() {
	s.build.mu.Lock()
	defer s.build.mu.Unlock()
	if s.build.cancel != nil {
		s.build.cancel()
	}
}

func (s *Server) runBuild(ctx context.Context, reason Reason) (snap *Snapshot, err error) {
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
	if len(problems) > 0 && reason != ReasonSpec {
		s.showMessage(protocol.MessageTypeWarning, "jcg-lsp: "+strings.Join(problems, "; "))
	}
	wss := discoverProjects(s.folderList(), &st)
	// Watch before indexing: what the build tool writes meanwhile is a change too.
	s.ensureWatcher(wss)
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

	prevs, release := s.currentAll()
	defer release()
	var snaps []*Snapshot
	var fresh []*world // worlds this build made: released unless published
	defer func() {
		if snap == nil {
			for _, w := range fresh {
				w.retire()
				w.release()
			}
		}
	}()
	for i, ws := range wss {
		report := prog.report
		if len(wss) > 1 {
			// Each project gets its share of the bar, and its name in the message.
			name := filepath.Base(ws.Folders[0])
			report = func(pct uint32, msg string) {
				prog.report((uint32(i)*90+pct*90/100)/uint32(len(wss)), name+": "+msg)
			}
		}
		p, made, err := s.buildProject(ctx, reason, &st, ws, prevs, report)
		if made != nil {
			fresh = append(fresh, made)
		}
		if err != nil {
			return nil, err
		}
		snaps = append(snaps, p)
	}
	id, now := s.seq.Add(1), time.Now()
	inUse := map[*world]bool{}
	for _, p := range snaps {
		p.ID, p.Reason, p.Built, p.Took = id, reason, now, now.Sub(start)
		p.w.pin(st.analysisKey(p.Spec))
		inUse[p.w] = true
	}
	if old := s.snap.Swap(&snapSet{list: snaps}); old != nil {
		for _, p := range old.list {
			if !inUse[p.w] {
				p.w.retire()
				p.w.release()
			}
		}
	}
	snap, fresh = snaps[0], nil
	var ixs []*index.Index
	for _, p := range snaps {
		ixs = append(ixs, p.w.ix)
	}
	s.facts.Retain(ixs...) // facts of replaced class versions are not needed again

	prog.report(90, "publishing diagnostics")
	s.publishDiagnostics(ctx, snaps)
	var msgs []string
	status := statusParams{State: "ready", Snapshot: id, Reason: string(reason), Level: st.Level.String(),
		SpecFile: snap.Spec.path, SpecEntries: snap.Spec.entries(), UnresolvedByLevel: map[string]int{}}
	for _, p := range snaps {
		if g := p.Graph; g != nil {
			// Warm what hovers and call hierarchies need, so that the first requests
			// after a build are as fast as the later ones.
			g.Callers(0)
			p.pathTree()
			status.Unresolved += unresolvedSites(g, p.w.h.Methods())
			status.UnresolvedBeyond += beyondSites(g, p.w.h.Methods())
		}
		for l, n := range p.w.unresolvedByLevel(st, p.Spec) {
			status.UnresolvedByLevel[l] += n
		}
		status.SpecProblems = append(status.SpecProblems, specProblems(p.Spec, p.Graph)...)
		m := summary(p)
		if len(snaps) > 1 {
			m = filepath.Base(p.Workspace.Folders[0]) + ": " + m
		}
		msgs = append(msgs, m)
	}
	msg := fmt.Sprintf("%s: %s", st.Level.Title(), strings.Join(msgs, "; "))
	prog.end(msg)
	status.Message, status.TookMs = msg, time.Since(start).Milliseconds()
	s.sendStatus(status)
	return snap, nil
}

// buildProject indexes (or reuses the index of) one project and analyses it. It
// returns the world it made, if any, which the caller releases when the build fails.
func (s *Server) buildProject(ctx context.Context, reason Reason, st *Settings, ws *Workspace, prevs []*Snapshot, report reportFunc) (*Snapshot, *world, error) {
	start := time.Now()
	key := ws.indexKey()
	var prev *Snapshot // the project's previous snapshot, if any
	for _, p := range prevs {
		if p.w.key == key || prev == nil && len(p.Workspace.Folders) > 0 && len(ws.Folders) > 0 && p.Workspace.Folders[0] == ws.Folders[0] {
			prev = p
		}
	}
	var w, made *world
	if prev != nil && prev.w.key == key && !reason.reindexes() {
		w = prev.w
	} else {
		report(0, "indexing the class path")
		for _, line := range strings.Split(strings.TrimSpace(ws.describe()), "\n") {
			s.log.Info("workspace: " + line)
		}
		var prevIx *index.Index
		switch {
		case prev != nil:
			prevIx = prev.w.ix
		case len(prevs) > 0:
			prevIx = prevs[0].w.ix // another project's: its JDK image is shared all the same
		}
		// prevIx is alive: the caller holds the previous snapshots until the build ends.
		ix, err := index.Rebuild(ctx, ws.config(), s.facts, prevIx)
		if err != nil {
			return nil, nil, fmt.Errorf("indexing: %w", err)
		}
		report(35, fmt.Sprintf("indexed %d classes", len(ix.Hierarchy().Classes())))
		src := buildSourceIndex(ctx, ws.SourceRoots, ix.Hierarchy())
		w = newWorld(key, ix, src, s.log)
		w.cache, w.stores = s.graphs, &s.stores
		w.bg, w.stopBG = context.WithCancel(s.bg)
		made = w
		s.log.Info("indexed", zap.Int("classes", len(ix.Hierarchy().Classes())), zap.Int("warnings", len(ix.Warnings)),
			zap.Int("source files", len(src.classes)), zap.Duration("took", time.Since(start)))
	}

	spec := readSpecFile(ws.SpecFile)
	s.noteSpec(spec)
	switch {
	case spec.err != nil:
		s.log.Warn("specification file", zap.String("path", spec.path), zap.Error(spec.err))
	case spec.exists:
		s.log.Info("specification file", zap.String("reason", string(reason)), zap.String("path", spec.path), zap.Int("entries", spec.entries()), zap.Int("problems", len(spec.problems())))
		for _, p := range spec.problems() {
			s.log.Warn("specification: " + p)
		}
	}

	t0 := time.Now()
	inPlace := false
	if made != nil && prev != nil && prev.Graph != nil {
		var why string
		if inPlace, why = w.updateFrom(ctx, prev.w, st, spec); inPlace {
			s.log.Info("call graph updated in place", zap.Duration("took", time.Since(t0)))
		} else {
			s.log.Debug("call graph not updated in place", zap.String("why", why))
		}
	}
	report(40, "analysing at "+st.Level.Title())
	expect := 0
	if prev != nil && prev.Graph != nil {
		expect = prev.Graph.NumReachable()
	}
	var early func(*callgraph.Graph)
	if len(prevs) == 0 {
		early = s.earlyDiagnostics(ctx, st, ws, w, start)
	}
	g, gerr := w.graphReporting(ctx, st, spec, report, expect, early)
	if ctx.Err() != nil {
		return nil, made, ctx.Err()
	}
	if gerr != nil {
		s.log.Warn("analysis failed", zap.Error(gerr))
		s.showMessage(protocol.MessageTypeWarning, "jcg-lsp: no call graph: "+gerr.Error())
	} else {
		s.log.Info("analysed", zap.String("reason", string(reason)), zap.String("level", st.Level.Title()), zap.Int("reachable", g.NumReachable()), zap.Int("sites", len(g.Sites)), zap.Duration("took", time.Since(t0)))
	}
	return &Snapshot{Settings: *st, Workspace: ws, Graph: g, InPlace: inPlace && g != nil, Err: gerr, Spec: spec, w: w}, made, nil
}

// summary describes a snapshot's graph in one line.
func summary(snap *Snapshot) string {
	if snap.Graph == nil {
		return "no call graph: " + snap.Err.Error()
	}
	g := snap.Graph
	return fmt.Sprintf("%d reachable methods, %d dynamic sites (%d unresolved or partial)", g.NumReachable(), len(g.Sites), unresolvedSites(g, nil))
}

// unresolvedSites counts the unresolved and partially resolved dynamic sites of a
// graph; with the hierarchy's methods, only those in application and library code
// (the JDK's own sites outnumber a program's by thousands, and users act on theirs).
func unresolvedSites(g *callgraph.Graph, ms []*hierarchy.Method) int {
	n := 0
	for i := range g.Sites {
		site := &g.Sites[i]
		if st := site.Status; st != callgraph.Unresolved && st != callgraph.Partial {
			continue
		}
		if ms != nil && !own(site.Caller, ms) {
			continue
		}
		n++
	}
	return n
}

// beyondSites counts the unresolved or partially resolved sites of application and
// library code whose unknown values include one from a source the level does not
// license.
func beyondSites(g *callgraph.Graph, ms []*hierarchy.Method) int {
	n := 0
	for i := range g.Sites {
		site := &g.Sites[i]
		if st := site.Status; (st == callgraph.Unresolved || st == callgraph.Partial) && own(site.Caller, ms) && site.BeyondLevel() {
			n++
		}
	}
	return n
}

// own reports whether node n is a method of application or library code.
func own(n callgraph.NodeID, ms []*hierarchy.Method) bool {
	return n >= 0 && int(n) < len(ms) && ms[n].Class.Origin != hierarchy.JDK
}

// specProblems lists the problems of a specification: bad lines, and entries the
// analysis could not match (unknown classes, methods or lines).
func specProblems(sf *specFile, g *callgraph.Graph) []string {
	out := sf.problems()
	if g != nil {
		out = append(out, g.Problems...)
	}
	return out
}

// statusParams are the parameters of the jcg/status notification.
type statusParams struct {
	State    string `json:"state"` // ready, failed or cancelled
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
