package incremental

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
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
	ReasonBuildFiles Reason = "build files" // a pom.xml or Gradle script changed (the watcher)
)

// reindexes reports whether a build for this reason re-reads the class path even
// when the project's class path did not change.
func (r Reason) reindexes() bool {
	return r == ReasonInitial || r == ReasonCommand || r == ReasonClassFiles
}

// Host owns the analysis of a workspace: it builds the snapshots of its projects,
// publishes them, and keeps what later builds reuse (extracted facts by class
// content, indexes and graphs per project, graphs on disk). A build re-reads only
// the classes whose bytes changed, updates the graphs in place when only method
// bodies changed (analysis.Analyzer.Update), and reuses the graphs of a settings
// change it computed before. Safe for concurrent use; builds run one at a time.
type Host struct {
	facts  *index.FactsCache
	graphs *GraphCache // nil for none
	log    *zap.Logger
	stores deferredStore
	bg     context.Context // background work of worlds (traceLater); ends with the host

	buildMu sync.Mutex // held by the one build that runs
	seq     atomic.Uint64
	cur     atomic.Pointer[[]*Snapshot] // the published snapshots, whose worlds the host holds
	// view is what Current and Acquire return: cur, or, while a build analyses an
	// edit anew, its interim snapshots (Request.Interim), whose worlds the build
	// holds until it publishes or gives up (and then puts cur back first).
	view   atomic.Pointer[[]*Snapshot]
	closed atomic.Bool
}

// HostOptions configure a Host.
type HostOptions struct {
	// Facts are the extracted facts shared by builds; nil for a new in-memory cache
	// (index.NewFactsCacheWithStore with a DiskCache keeps them across restarts).
	Facts *index.FactsCache
	// Graphs keeps analysed graphs on disk, for warm restarts; nil for none. The
	// owner closes it after the host.
	Graphs *GraphCache
	Logger *zap.Logger // nil for none
}

// NewHost returns a host without snapshots. Its background work ends with ctx or
// Close.
func NewHost(ctx context.Context, opts HostOptions) *Host {
	h := &Host{facts: opts.Facts, graphs: opts.Graphs, log: opts.Logger, bg: ctx}
	if h.facts == nil {
		h.facts = index.NewFactsCache()
	}
	if h.log == nil {
		h.log = zap.NewNop()
	}
	return h
}

// Request says what a build analyses and how.
type Request struct {
	Reason Reason
	// Reindex re-reads the class path whatever the reason: a build for changed
	// class files was cancelled before it published, and a build that would reuse
	// the index would leave its changes unread.
	Reindex bool
	// Options are the analysis options of every project's graph; a project's
	// specification file sets Spec.
	Options  analysis.Options
	Projects []*Project
	// Progress receives the build's progress; nil for none.
	Progress ReportFunc
	// Early, when not nil, is asked for an analysis.Options.Sites callback for each
	// project of the host's first build, with a snapshot of the project whose graph
	// is nil (Snapshot.WithGraph makes ones with the reported sites' graphs).
	Early func(*Snapshot) func(*callgraph.Graph)
	// SpecRead, when not nil, is told every specification file the build reads.
	SpecRead func(*SpecFile)
	// Interim, when not nil, is given the snapshots to publish diagnostics from
	// while the build analyses anew under an algorithm that cannot update in place:
	// the current snapshots with the edited project's replaced by one whose graph is
	// the CHA graph of the same level updated in place (a sound superset of the
	// coming one's; world.companionLater keeps it, and the edit waits for it while
	// it is being computed). From then until the build publishes (or fails), Current
	// and Acquire return them: a request after the edit reads the graph its
	// diagnostics come from, not the one before the edit. It is called on the
	// build's goroutine and must not keep the snapshots after it returns (Current
	// holds them).
	Interim func([]*Snapshot)
}

// Build analyses the projects of the request, reusing what the current snapshots
// have, and publishes one snapshot per project, replacing the current ones as a
// whole. A failed analysis of a project is its snapshot's Err; the error is ctx's
// when it was cancelled, or says why a project could not be indexed (then nothing is
// published).
func (h *Host) Build(ctx context.Context, req Request) (snaps []*Snapshot, err error) {
	h.buildMu.Lock()
	defer h.buildMu.Unlock()
	if h.closed.Load() {
		return nil, fmt.Errorf("incremental: host closed")
	}
	start := time.Now()
	req.Options = req.Options.WithDefaults() // snapshots say which level and algorithm
	// The published snapshots: an earlier build's interim ones are gone by now.
	prevs, release := acquireSet(&h.cur)
	defer release()
	var fresh []*world // worlds this build made: released unless published
	defer func() {
		if snaps == nil {
			h.view.Store(h.cur.Load()) // an interim set is gone with the worlds it uses
			for _, w := range fresh {
				w.retire()
				w.release()
			}
		}
	}()
	progress := req.Progress
	if progress == nil {
		progress = func(uint32, string) {}
	}
	var out []*Snapshot
	for i, p := range req.Projects {
		report := progress
		if len(req.Projects) > 1 {
			// Each project gets its share of the bar, and its name in the message.
			name := filepath.Base(p.Folders[0])
			report = func(pct uint32, msg string) {
				progress((uint32(i)*90+pct*90/100)/uint32(len(req.Projects)), name+": "+msg)
			}
		}
		snap, made, err := h.buildProject(ctx, &req, p, prevs, report, start)
		if made != nil {
			fresh = append(fresh, made)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, snap)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("incremental: nothing to build")
	}
	id, now := h.seq.Add(1), time.Now()
	inUse := map[*world]bool{}
	for _, p := range out {
		p.ID, p.Reason, p.Built, p.Took = id, req.Reason, now, now.Sub(start)
		p.w.pin(graphKey(p.Options, p.Spec))
		if p.Graph != nil {
			p.w.companionLater(p.Options, p.Spec)
		}
		inUse[p.w] = true
	}
	old := h.cur.Swap(&out)
	h.view.Store(&out)
	if old != nil {
		for _, p := range *old {
			if !inUse[p.w] {
				p.w.retire()
				p.w.release()
			}
		}
	}
	fresh = nil
	ixs := make([]*index.Index, len(out))
	for i, p := range out {
		ixs[i] = p.w.ix
	}
	h.facts.Retain(ixs...) // facts of replaced class versions are not needed again
	return out, nil
}

// buildProject indexes (or reuses the index of) one project and analyses it. It
// returns the world it made, if any, which the caller releases when the build fails.
func (h *Host) buildProject(ctx context.Context, req *Request, p *Project, prevs []*Snapshot, report ReportFunc, start time.Time) (*Snapshot, *world, error) {
	key := p.Key()
	var prev *Snapshot // the project's previous snapshot, if any
	for _, ps := range prevs {
		if ps.w.key == key || prev == nil && len(ps.Project.Folders) > 0 && len(p.Folders) > 0 && ps.Project.Folders[0] == p.Folders[0] {
			prev = ps
		}
	}
	var w, made *world
	if prev != nil && prev.w.key == key && !req.Reason.reindexes() && !req.Reindex {
		w = prev.w
	} else {
		report(0, "indexing the class path")
		for _, line := range strings.Split(strings.TrimSpace(p.Describe()), "\n") {
			h.log.Info("workspace: " + line)
		}
		var prevIx *index.Index
		switch {
		case prev != nil:
			prevIx = prev.w.ix
		case len(prevs) > 0:
			prevIx = prevs[0].w.ix // another project's: its JDK image is shared all the same
		}
		// prevIx is alive: Build holds the previous snapshots until it ends.
		ix, err := index.Rebuild(ctx, p.Config(), h.facts, prevIx)
		if err != nil {
			return nil, nil, fmt.Errorf("indexing: %w", err)
		}
		report(35, fmt.Sprintf("indexed %d classes", len(ix.Hierarchy().Classes())))
		w = newWorld(key, ix, h.log)
		w.cache, w.stores = h.graphs, &h.stores
		w.bg, w.stopBG = context.WithCancel(h.bg)
		made = w
		h.log.Info("indexed", zap.Int("classes", len(ix.Hierarchy().Classes())), zap.Int("warnings", len(ix.Warnings)),
			zap.Duration("took", time.Since(start)))
	}

	spec := ReadSpecFile(p.SpecFile)
	if req.SpecRead != nil {
		req.SpecRead(spec)
	}
	switch {
	case spec.Err != nil:
		h.log.Warn("specification file", zap.String("path", spec.Path), zap.Error(spec.Err))
	case spec.Exists:
		h.log.Info("specification file", zap.String("reason", string(req.Reason)), zap.String("path", spec.Path), zap.Int("entries", spec.Entries()), zap.Int("problems", len(spec.Problems())))
		for _, pr := range spec.Problems() {
			h.log.Warn("specification: " + pr)
		}
	}

	opts := req.Options
	opts.Spec = nil
	t0 := time.Now()
	inPlace := false
	switch {
	case made == nil && prev != nil && prev.Graph != nil && prev.w == w && opts.Algorithm.UpdatesInPlace() &&
		prev.Spec.Meaning() != spec.Meaning() && w.finished(graphKey(opts, spec)) == nil:
		// The specification changed: its entries resolve dynamic sites only, which
		// an update in place visits again.
		var why string
		if inPlace, why = w.updateFrom(ctx, w, opts, prev.Spec, spec, false); inPlace {
			h.log.Info("call graph updated in place for the specification", zap.Duration("took", time.Since(t0)))
		} else {
			h.log.Debug("call graph not updated in place for the specification", zap.String("why", why))
		}
	case made != nil && prev != nil && prev.Graph != nil:
		// Whatever the edit, the new analyzer need not plan the unchanged classes
		// again: shared when the hierarchy is the same (an edit of method bodies),
		// the JDK's plans and the value index's look-ups moved to the new IDs
		// after an edit of members.
		w.an.Inherit(prev.w.an, w.ix.Changes(prev.w.ix))
		var why string
		if inPlace, why = w.updateFrom(ctx, prev.w, opts, prev.Spec, spec, false); inPlace {
			h.log.Info("call graph updated in place", zap.Duration("took", time.Since(t0)))
			w.updateOthers(prev.w, graphKey(opts, spec))
		} else {
			h.log.Debug("call graph not updated in place", zap.String("why", why))
			if req.Interim != nil && !opts.Algorithm.UpdatesInPlace() {
				h.interim(ctx, req, p, w, prev, prevs, spec)
			}
		}
	}
	report(40, "analysing at "+opts.Level.Title())
	expect := 0
	if prev != nil && prev.Graph != nil {
		expect = prev.Graph.NumReachable()
	}
	snap := &Snapshot{Options: opts, Project: p, Spec: spec, w: w}
	var early func(*callgraph.Graph)
	if len(prevs) == 0 && req.Early != nil {
		early = req.Early(snap.WithGraph(nil))
	}
	if len(prevs) == 0 {
		// The first build's companion runs beside its analysis (another core),
		// so that the first edit after opening finds it ready as later ones do,
		// rather than waiting for its whole run.
		w.companionLater(opts, spec)
	}
	g, gerr := w.graph(ctx, opts, spec, report, expect, early)
	if ctx.Err() != nil {
		return nil, made, ctx.Err()
	}
	if gerr != nil {
		h.log.Warn("analysis failed", zap.Error(gerr))
	} else {
		h.log.Info("analysed", zap.String("reason", string(req.Reason)), zap.String("level", opts.Level.Title()), zap.Int("reachable", g.NumReachable()), zap.Int("sites", len(g.Sites)), zap.Duration("took", time.Since(t0)))
	}
	snap.Graph, snap.InPlace, snap.Err = g, inPlace && g != nil, gerr
	return snap, made, nil
}

// interim updates in place the CHA companion of prev's graph (world.companionLater)
// for w, the world of an edit whose graph the build analyses anew, and gives
// req.Interim the current snapshots with prev replaced by one of it.
func (h *Host) interim(ctx context.Context, req *Request, p *Project, w *world, prev *Snapshot, prevs []*Snapshot, spec *SpecFile) {
	if changed, same := w.ix.ChangedSince(prev.w.ix); same && len(changed) == 0 {
		// Nothing changed (a reanalysis on command): the coming graph is the
		// previous one, whose diagnostics stand; the companion's would differ in
		// what CHA cannot prove unreachable, for nothing.
		return
	}
	t0 := time.Now()
	opts := companionOptions(req.Options)
	opts.Spec = nil
	if ok, why := w.updateFrom(ctx, prev.w, opts, prev.Spec, spec, true); !ok {
		h.log.Debug("no interim graph", zap.String("why", why))
		return
	}
	key := graphKey(opts, spec)
	w.mu.Lock()
	w.companion = key
	g := w.graphs[key].g
	w.mu.Unlock()
	snap := &Snapshot{Options: opts, Project: p, Spec: spec, w: w, Graph: g, InPlace: true, Reason: req.Reason, Built: time.Now()}
	set := slices.Clone(prevs)
	set[slices.Index(prevs, prev)] = snap
	h.log.Info("interim CHA graph updated in place", zap.Duration("took", time.Since(t0)))
	// The build holds w (made) and prevs until it ends, and puts cur back before
	// it releases them.
	h.view.Store(&set)
	req.Interim(set)
}

// Current returns the current snapshot of every project (none before the first
// build; the interim ones of an edit, Request.Interim, while its build analyses),
// with references that release drops: their indexes stay open until then.
func (h *Host) Current() ([]*Snapshot, func()) { return acquireSet(&h.view) }

// acquireSet returns the snapshots ptr points to, with references that release
// drops.
func acquireSet(ptr *atomic.Pointer[[]*Snapshot]) ([]*Snapshot, func()) {
	for {
		set := ptr.Load()
		if set == nil {
			return nil, func() {}
		}
		var held []*Snapshot
		ok := true
		for _, p := range *set {
			if !p.acquire() {
				ok = false
				break
			}
			held = append(held, p)
		}
		release := func() {
			for _, p := range held {
				p.release()
			}
		}
		if ok {
			return *set, release
		}
		release() // a newer set replaced this one meanwhile: load again
	}
}

// Acquire returns the current snapshot of the first project that match accepts (of
// the first project when none does, or match is nil) with a reference that release
// drops; nil before the first build. Like Current, it returns an edit's interim
// snapshot while its build analyses.
func (h *Host) Acquire(match func(*Snapshot) bool) (*Snapshot, func()) {
	for {
		set := h.view.Load()
		if set == nil || len(*set) == 0 {
			return nil, func() {}
		}
		snap := (*set)[0]
		if match != nil {
			for _, p := range *set {
				if match(p) {
					snap = p
					break
				}
			}
		}
		if snap.acquire() {
			return snap, snap.release
		}
		// Its index was closed after a newer snapshot replaced it: load again.
	}
}

// ReleaseStrings empties the table of strings that builds parse classes with
// (index.FactsCache.ReleaseStrings): a server calls it when no build runs.
func (h *Host) ReleaseStrings() { h.facts.ReleaseStrings() }

// Close writes the pending graphs to the disk cache and releases the current
// snapshots (their indexes close once every holder has released them). Call it
// after the last Build returned.
func (h *Host) Close() {
	h.closed.Store(true)
	h.stores.flush() // the owner's GraphCache.Close waits for the write
	h.buildMu.Lock()
	defer h.buildMu.Unlock()
	h.view.Store(nil)
	if old := h.cur.Swap(nil); old != nil {
		for _, p := range *old {
			p.w.retire()
			p.w.release()
		}
	}
}
