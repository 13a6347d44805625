package incremental

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/refcount"
)

// world is what snapshots over the same index share: the index, the analyzer (with
// its level-independent caches), graphs by analysis settings and what features
// derive from the index (Snapshot.Derived). It is reference counted because closing
// the index unmaps the JDK image: it is closed only when no snapshot a request holds
// uses it.
type world struct {
	key  string // Project.Key of the index
	ix   *index.Index
	an   *analysis.Analyzer
	run  func(context.Context, analysis.Options) (*callgraph.Graph, *analysis.Trace, error) // an.RunTrace; tests replace it
	h    *hierarchy.Hierarchy
	log  *zap.Logger
	refs refcount.Count
	// cache keeps graphs on disk across restarts; nil for none.
	cache *GraphCache
	// stores writes the graphs of updates in place to cache, later; nil for none.
	stores *deferredStore
	// bg is the context of work the world does in the background (traceLater); it
	// ends when a build replaces the world (retire) or the host closes. nil: no such
	// work.
	bg     context.Context
	stopBG context.CancelFunc

	mu     sync.Mutex
	graphs map[string]*graphCall
	recent []string // graph keys, most recently used last
	pinned string   // the key of the published snapshot's graph: never evicted
	// companion is the key of the CHA graph kept beside a pinned graph of another
	// algorithm (companionLater): never evicted either.
	companion string
	// unresolved counts the unresolved or partially resolved sites in application
	// and library code of every graph computed, by graph key. It outlives evicted
	// graphs (a number each), so the status can tell the counts of every level
	// computed so far.
	unresolved map[string]int

	prepare sync.Once
	tracing sync.Mutex // one run of later at a time
	derived sync.Map   // Snapshot.Derived's values by key
}

type graphCall struct {
	done chan struct{}
	g    *callgraph.Graph
	err  error
	// base is what an update in place of the graph starts from: the graph with the
	// trace of its run. A graph loaded from the disk cache has none until a run in
	// the background (traceLater) has computed them again.
	base atomic.Pointer[updateBase]
}

type updateBase struct {
	g    *callgraph.Graph
	tr   *analysis.Trace
	opts analysis.Options // of the run, specification included
}

// update returns b's graph updated in place (analysis.Analyzer.Update) for w, whose
// index was rebuilt from prev's with the classes changed, under the run options
// opts (b's own, or the same settings with the specification read again).
func (b *updateBase) update(ctx context.Context, w, prev *world, opts analysis.Options, changed []string) (*updateBase, error) {
	g, tr, err := w.an.Update(ctx, opts, analysis.Previous{Analyzer: prev.an, Graph: b.g, Trace: b.tr}, changed)
	if err != nil {
		return nil, err
	}
	return &updateBase{g, tr, opts}, nil
}

func newWorld(key string, ix *index.Index, log *zap.Logger) *world {
	w := &world{key: key, ix: ix, an: analysis.New(ix), h: ix.Hierarchy(), log: log, graphs: map[string]*graphCall{}, unresolved: map[string]int{}}
	w.run = func(ctx context.Context, opts analysis.Options) (*callgraph.Graph, *analysis.Trace, error) {
		// Planning every method's calls (and CHA dispatch) runs beside the first run,
		// on the cores the run (which is serial) leaves idle: the run uses the plans
		// that are ready and makes the others itself, and later runs find them all.
		// It ends with the build that started it (ctx), and holds the world so that
		// the index it reads stays open.
		w.prepare.Do(func() {
			if !w.acquire() {
				return
			}
			go func() {
				defer w.release()
				if err := w.an.Prepare(ctx, opts.Algorithm); err != nil {
					w.log.Debug("prepare", zap.Error(err))
				}
			}()
		})
		return w.an.RunTrace(ctx, opts)
	}
	w.refs.Init()
	return w
}

// companionOptions are the options of the graph that an edit of method bodies
// updates in place for a graph of opts: opts themselves when their algorithm
// updates in place, else those of the CHA companion of the same level and
// specification (callgraph.Algorithm.Companion, companionLater).
func companionOptions(opts analysis.Options) analysis.Options {
	opts.Algorithm = opts.Algorithm.Companion()
	return opts
}

// graphKey identifies the analysis settings and the specification of a graph:
// graphs are cached per key.
func graphKey(opts analysis.Options, sf *SpecFile) string {
	opts.Spec = nil
	key := opts.Key()
	if sf != nil && sf.File != nil && sf.Hash != 1 { // 1: the same as no file
		key += fmt.Sprintf("|spec %x", sf.Hash)
	}
	return key
}

// runOptions are the options of a run with the specification.
func runOptions(opts analysis.Options, sf *SpecFile) analysis.Options {
	opts.Spec = nil
	if sf != nil {
		opts.Spec = sf.File
	}
	return opts
}

// retire stops the world's background work: a build replaced it.
func (w *world) retire() {
	if w.stopBG != nil {
		w.stopBG()
	}
}

// acquire takes a reference; it fails once the world is closed.
func (w *world) acquire() bool { return w.refs.Acquire() }

// release drops a reference and closes the index with the last one.
func (w *world) release() {
	if w.refs.Release() {
		if err := w.ix.Close(); err != nil {
			w.log.Warn("closing index", zap.Error(err))
		}
	}
}

// maxGraphs bounds the graphs a world keeps: a whole-JDK graph takes hundreds of
// megabytes, and switching back and forth between two levels is the common case.
const maxGraphs = 3

// ReportFunc reports a build's progress: a percentage and what is being done.
type ReportFunc func(pct uint32, msg string)

// graph returns the call graph for the options and specification, computing it once
// per distinct graph key, reporting the progress of an analysis it runs to report
// (when not nil), expecting about expect reachable methods (0: unknown), and the
// dynamic sites it finds meanwhile to sites (analysis.Options.Sites; when not nil).
// A computation cancelled by its caller is forgotten, so that the next caller starts
// afresh instead of inheriting the cancellation.
func (w *world) graph(ctx context.Context, opts analysis.Options, sf *SpecFile, report ReportFunc, expect int, sites func(*callgraph.Graph)) (*callgraph.Graph, error) {
	key := graphKey(opts, sf)
	for {
		w.mu.Lock()
		w.touch(key)
		c := w.graphs[key]
		if c == nil {
			c = &graphCall{done: make(chan struct{})}
			w.graphs[key] = c
			w.evict()
			w.mu.Unlock()
			var tr *analysis.Trace
			c.g, tr, c.err = w.compute(ctx, opts, sf, key, report, expect, sites)
			switch {
			case tr != nil:
				c.base.Store(&updateBase{c.g, tr, runOptions(opts, sf)})
			case c.err == nil:
				w.traceLater(c, key, runOptions(opts, sf))
			}
			w.mu.Lock()
			if c.err != nil && ctx.Err() != nil {
				delete(w.graphs, key)
			}
			if c.g != nil {
				w.unresolved[key] = UnresolvedSites(c.g, w.h.Methods())
			}
			w.mu.Unlock()
			close(c.done)
			return c.g, c.err
		}
		w.mu.Unlock()
		select {
		case <-c.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if c.err != nil && (errors.Is(c.err, context.Canceled) || errors.Is(c.err, context.DeadlineExceeded)) {
			continue // its caller gave up; try again
		}
		return c.g, c.err
	}
}

// finished returns the graph of key when the world has it computed, else nil: it
// never waits.
func (w *world) finished(key string) *callgraph.Graph {
	w.mu.Lock()
	c := w.graphs[key]
	w.mu.Unlock()
	if c == nil {
		return nil
	}
	select {
	case <-c.done:
		return c.g
	default:
		return nil
	}
}

// compute loads a graph from the disk cache or runs the analysis (and stores its
// graph there).
func (w *world) compute(ctx context.Context, opts analysis.Options, sf *SpecFile, key string, report ReportFunc, expect int, sites func(*callgraph.Graph)) (*callgraph.Graph, *analysis.Trace, error) {
	diskKey := w.diskKey(key, sf)
	if diskKey != "" {
		if g := w.cache.Load(diskKey, len(w.h.Methods())+1); g != nil {
			w.log.Info("call graph loaded from the cache", zap.String("dir", w.cache.Dir()))
			return g, nil, nil
		}
	}
	opts = runOptions(opts, sf)
	opts.Sites = sites
	if report != nil {
		if expect <= 0 {
			expect = len(w.h.Methods()) / 2 // a first guess: the JDK dominates
		}
		opts.Progress = func(reached int) {
			report(uint32(40+49*min(reached, expect)/expect), fmt.Sprintf("analysing: %d methods reached", reached))
		}
	}
	g, tr, err := w.run(ctx, opts)
	if err == nil && diskKey != "" {
		w.cache.Store(diskKey, g)
	}
	return g, tr, err
}

// traceDelay is how long a graph loaded from the disk cache must stay the published
// one before its trace is computed (traceLater).
const traceDelay = 2 * time.Second

// traceLater runs the analysis of a graph loaded from the disk cache again, in the
// background, for the trace that an update in place starts from: without it the
// first edit after a restart analyses the whole program while the user waits. It
// starts once the graph has been the published one for traceDelay, so that the
// requests after a restart come first and a run of level switches traces the last
// level only, and one at a time. It stops when the world is retired or the host
// closes (w.bg), and holds the world, whose index it reads.
func (w *world) traceLater(c *graphCall, key string, opts analysis.Options) {
	if !opts.Algorithm.UpdatesInPlace() {
		return // another algorithm's trace would go unused: its companion serves edits
	}
	w.later(func() {
		w.mu.Lock()
		published := w.pinned == key && w.graphs[key] == c
		w.mu.Unlock()
		if !published || c.base.Load() != nil {
			return
		}
		g, tr, err := w.run(w.bg, opts)
		if err != nil {
			w.log.Debug("trace of a cached graph", zap.Error(err))
			return
		}
		c.base.Store(&updateBase{g, tr, opts})
		w.log.Info("trace of the cached call graph computed: edits are updated in place")
	})
}

// later runs fn in the background once the published graph has stood for
// traceDelay, one such run at a time, unless the world is retired or the host
// closes first (w.bg); it holds the world, whose index fn reads.
func (w *world) later(fn func()) {
	if w.bg == nil || !w.acquire() {
		return
	}
	go func() {
		defer w.release()
		select {
		case <-time.After(traceDelay):
		case <-w.bg.Done():
			return
		}
		w.tracing.Lock()
		defer w.tracing.Unlock()
		fn()
	}()
}

// companionLater keeps, beside the published graph of an algorithm that cannot be
// updated in place (opts), the CHA graph of the same level and specification with
// its trace: an edit of method bodies updates it in place in a fraction of a second
// (Host.Build's Request.Interim), and its diagnostics stand, soundly, while the
// algorithm analyses anew. It is computed in the background as soon as the graph is
// published (the first build's: as soon as its analysis starts), unless the world
// has it already (an edit updated the previous world's in place), so that the
// first edit after opening a workspace finds it ready, or
// being computed (Host.interim then waits for it), rather than analysing anew
// without interim diagnostics. The graph is registered at once, so that such an edit
// finds it; the run waits for the world's other background run, if any (one at a
// time: they share the cores with the requests), and stops with the world.
func (w *world) companionLater(opts analysis.Options, sf *SpecFile) {
	if opts.Algorithm.UpdatesInPlace() {
		return
	}
	algo := opts.Algorithm
	opts = companionOptions(opts)
	key := graphKey(opts, sf)
	w.mu.Lock()
	w.companion = key
	if w.graphs[key] != nil || w.bg == nil || !w.acquire() {
		w.mu.Unlock()
		return
	}
	c := &graphCall{done: make(chan struct{})}
	w.graphs[key] = c
	w.touch(key)
	w.mu.Unlock()
	go func() {
		defer w.release()
		w.tracing.Lock()
		ropts := runOptions(opts, sf)
		t0 := time.Now()
		w.mu.Lock()
		stale := w.companion != key
		w.mu.Unlock()
		var g *callgraph.Graph
		var tr *analysis.Trace
		err := errStaleCompanion
		if !stale {
			g, tr, err = w.run(w.bg, ropts)
		}
		w.tracing.Unlock()
		w.mu.Lock()
		if err != nil {
			c.err = context.Canceled // its waiters try again, and analyse
			delete(w.graphs, key)
			w.log.Debug("companion CHA graph", zap.Error(err))
		} else {
			c.g = g
			c.base.Store(&updateBase{g, tr, ropts})
			w.unresolved[key] = UnresolvedSites(g, w.h.Methods())
		}
		w.mu.Unlock()
		close(c.done)
		if err == nil {
			w.log.Info("companion CHA graph computed: edits get diagnostics from its update in place while the published algorithm analyses anew", zap.Stringer("algorithm", algo), zap.Duration("took", time.Since(t0)))
		}
	}()
}

// errStaleCompanion: another graph was published (a level switch, say) while a
// companion waited for its turn; the new graph's own companion runs next.
var errStaleCompanion = errors.New("the companion's graph is no longer the published one")

// diskKey returns the disk-cache key of the graph of a graph key, "" without a
// cache.
func (w *world) diskKey(key string, sf *SpecFile) string {
	if w.cache == nil {
		return ""
	}
	path := ""
	if sf != nil {
		path = sf.Path
	}
	// The spec file's path is part of the graph: its problems name it.
	return w.cache.GraphKey(w.ix, fmt.Sprintf("%s\nspec %q", key, path))
}

// updateFrom gives w the graph for the options and specification sf as an update in
// place of prev's graph for the options and specification prevSF
// (analysis.Analyzer.Update), when w's index was rebuilt from prev's (classes
// changed, added or removed) or w is prev (the specification changed), and prev
// has that graph with its trace. It reports whether it did, or why not. The updated graph goes to the disk cache once the edits pause
// (deferredStore), unless it is the CHA companion (companionLater): a restart
// computes the companion anew, for its trace. prev's companion, computed in the
// background, is waited for (until ctx ends) when it is not ready yet: its update in
// place is the edit's interim graph.
func (w *world) updateFrom(ctx context.Context, prev *world, opts analysis.Options, prevSF, sf *SpecFile, companion bool) (bool, string) {
	// Classes or members added or removed are updates in place too: Update maps
	// the IDs.
	changed := w.ix.Changes(prev.ix)
	key := graphKey(opts, sf)
	prev.mu.Lock()
	pc := prev.graphs[graphKey(opts, prevSF)]
	prev.mu.Unlock()
	if pc == nil {
		return false, "no previous graph"
	}
	select {
	case <-pc.done:
	default:
		if !companion {
			return false, "the previous graph is still being computed"
		}
		t0 := time.Now()
		select {
		case <-pc.done:
			w.log.Info("waited for the companion CHA graph", zap.Duration("took", time.Since(t0)))
		case <-ctx.Done():
			return false, ctx.Err().Error()
		}
	}
	base := pc.base.Load()
	if base == nil {
		return false, "no previous graph with a trace (one loaded from the disk cache waits for its run in the background)"
	}
	nb, err := base.update(ctx, w, prev, runOptions(opts, sf), changed)
	if err != nil {
		return false, err.Error()
	}
	g := nb.g
	c := &graphCall{done: make(chan struct{}), g: g}
	c.base.Store(nb)
	close(c.done)
	w.mu.Lock()
	w.graphs[key] = c
	w.touch(key)
	w.unresolved[key] = UnresolvedSites(g, w.h.Methods())
	w.mu.Unlock()
	if k := w.diskKey(key, sf); !companion && k != "" && w.stores != nil {
		w.stores.later(w.cache, k, g)
	}
	return true, ""
}

// updateOthers updates in place, in the background, the other graphs prev keeps
// with a trace (the levels, algorithms or specifications the user looked at before
// the edit that made w from prev), so that switching to one of them after the edit
// costs an update instead of an analysis, and the status keeps counting their
// unresolved sites. A request for such a graph meanwhile waits for its update; one
// that cannot be done in place is left to be analysed on request. except is the key
// of the graph the build updated itself.
func (w *world) updateOthers(prev *world, except string) {
	if w.bg == nil || !w.acquire() {
		return
	}
	if !prev.acquire() {
		w.release()
		return
	}
	type job struct {
		key  string
		base *updateBase
		c    *graphCall
	}
	var jobs []job
	prev.mu.Lock()
	for _, key := range prev.recent {
		pc := prev.graphs[key]
		if key == except || pc == nil {
			continue
		}
		select {
		case <-pc.done:
		default:
			continue // still being computed
		}
		if base := pc.base.Load(); base != nil {
			jobs = append(jobs, job{key: key, base: base})
		}
	}
	prev.mu.Unlock()
	w.mu.Lock()
	for i := range jobs {
		if w.graphs[jobs[i].key] == nil {
			jobs[i].c = &graphCall{done: make(chan struct{})}
			w.graphs[jobs[i].key] = jobs[i].c
			w.recent = append([]string{jobs[i].key}, w.recent...) // least recently used
		}
	}
	w.mu.Unlock()
	go func() {
		defer w.release()
		defer prev.release()
		changed := w.ix.Changes(prev.ix)
		for _, j := range jobs {
			if j.c == nil {
				continue
			}
			var nb *updateBase
			err := w.bg.Err()
			if err == nil {
				nb, err = j.base.update(w.bg, w, prev, j.base.opts, changed)
			}
			w.mu.Lock()
			if err == nil {
				j.c.g = nb.g
				j.c.base.Store(nb)
				w.unresolved[j.key] = UnresolvedSites(nb.g, w.h.Methods())
			} else {
				// Its waiters try again, and analyse.
				j.c.err = context.Canceled
				delete(w.graphs, j.key)
				w.log.Debug("other graph not updated in place", zap.String("why", err.Error()))
			}
			w.mu.Unlock()
			close(j.c.done)
		}
	}()
}

// touch marks key as the most recently used graph.
func (w *world) touch(key string) {
	if i := slices.Index(w.recent, key); i >= 0 {
		w.recent = slices.Delete(w.recent, i, i+1)
	}
	w.recent = append(w.recent, key)
}

// evict forgets the least recently used finished graphs beyond maxGraphs (snapshots
// that use them keep them alive).
func (w *world) evict() {
	for i := 0; len(w.graphs) > maxGraphs && i < len(w.recent); {
		key := w.recent[i]
		c := w.graphs[key]
		finished := false
		if c != nil {
			select {
			case <-c.done:
				finished = true
			default:
			}
		}
		if key == w.pinned || key == w.companion {
			i++
			continue
		}
		if c == nil || finished {
			delete(w.graphs, key)
			w.recent = slices.Delete(w.recent, i, i+1)
			continue
		}
		i++
	}
}

// unresolvedByLevel returns, for each level whose graph under otherwise the same
// options and specification was computed, its number of unresolved or partially
// resolved sites.
func (w *world) unresolvedByLevel(opts analysis.Options, sf *SpecFile) map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]int{}
	for _, l := range callgraph.Levels {
		opts.Level = l
		if n, ok := w.unresolved[graphKey(opts, sf)]; ok {
			out[l.String()] = n
		}
	}
	return out
}

// pin keeps the graph of key (the published snapshot's) in the cache.
func (w *world) pin(key string) {
	w.mu.Lock()
	w.pinned = key
	w.mu.Unlock()
}

// storeDelay is how long the edits must pause before the graph of the latest update
// in place is written to the disk cache.
const storeDelay = 3 * time.Second

// deferredStore writes the graphs of updates in place to the disk cache once the
// edits pause, or when the host closes: a restart after a session of edits then
// starts from the cache instead of analysing again, and a burst of edits writes one
// graph, not one per edit. (A new analysis stores its graph at once: it costs
// seconds, the write a small part of it; an update costs less than the write.)
type deferredStore struct {
	mu      sync.Mutex
	timer   *time.Timer
	pending func()
}

// later replaces the pending write with g's under key, due after storeDelay.
func (d *deferredStore) later(c *GraphCache, key string, g *callgraph.Graph) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.pending = func() { c.Store(key, g) }
	d.timer = time.AfterFunc(storeDelay, d.flush)
}

// flush starts the pending write, if any, now. GraphCache.Close waits for it.
func (d *deferredStore) flush() {
	d.mu.Lock()
	store := d.pending
	d.pending = nil
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	d.mu.Unlock()
	if store != nil {
		store()
	}
}
