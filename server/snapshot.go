package server

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/refcount"
)

// Snapshot is one immutable state of the server: the workspace, its index, the call
// graph at the configured level and the settings it was computed with. Requests are
// answered from the latest snapshot; a rebuild publishes a new one atomically, so a
// request never sees a half-built graph.
type Snapshot struct {
	ID        uint64
	Reason    Reason
	Settings  Settings
	Workspace *Workspace
	Graph     *callgraph.Graph // nil when the analysis failed
	InPlace   bool             // Graph is the previous snapshot's updated in place (analysis.Analyzer.Update)
	Err       error            // why Graph is nil
	Spec      *specFile        // the specification the graph was computed with
	Built     time.Time
	Took      time.Duration

	w *world

	pathsOnce sync.Once
	paths     []int32 // BFS tree from the entry points: bundle index that reached a node, -1 for entries, -2 unreached
}

// world is what snapshots over the same index share: the index, the analyzer (with
// its level-independent caches), graphs by analysis settings, the mapping between
// source files and classes and the class listings. It is reference counted because
// closing the index unmaps the JDK image: it is closed only when no snapshot a
// request holds uses it.
type world struct {
	key  string
	ix   *index.Index
	an   *analysis.Analyzer
	run  func(context.Context, analysis.Options, reportFunc) (*callgraph.Graph, *analysis.Trace, error) // an.RunTrace; tests replace it
	h    *hierarchy.Hierarchy
	src  *sourceIndex
	log  *zap.Logger
	refs refcount.Count
	// cache keeps graphs on disk across server restarts; nil for none.
	cache *incremental.GraphCache
	// stores writes the graphs of updates in place to cache, later; nil for none.
	stores *deferredStore
	// bg is the context of work the world does in the background (traceLater); it
	// ends when a build replaces the world (retire) or the server stops. nil: no
	// such work.
	bg     context.Context
	stopBG context.CancelFunc

	mu     sync.Mutex
	graphs map[string]*graphCall
	recent []string // graph keys, most recently used last
	pinned string   // the key of the published snapshot's graph: never evicted
	// unresolved counts the unresolved or partially resolved sites in application
	// and library code of every graph computed, by analysis key. It outlives evicted graphs (a number each), so the
	// status can tell the counts of every level computed so far.
	unresolved map[string]int

	prepare  sync.Once
	tracing  sync.Mutex // one traceLater run at a time
	listings sync.Map   // class ID -> *listing
	files    sync.Map   // source path -> *fileMap
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
	g  *callgraph.Graph
	tr *analysis.Trace
}

func newWorld(key string, ix *index.Index, src *sourceIndex, log *zap.Logger) *world {
	w := &world{key: key, ix: ix, an: analysis.New(ix), h: ix.Hierarchy(), src: src, log: log, graphs: map[string]*graphCall{}, unresolved: map[string]int{}}
	w.run = func(ctx context.Context, opts analysis.Options, report reportFunc) (*callgraph.Graph, *analysis.Trace, error) {
		// Planning every method's calls (and CHA dispatch) runs beside the first run,
		// on the cores the run (which is serial) leaves idle: the run uses the plans
		// that are ready and makes the others itself, and later runs find them all.
		// It ends with the build that started it (ctx), and holds the world so that
		// the index it reads stays open.
		w.prepare.Do(func() {
			if !w.acquire() {
				return
			}
			prep := w.an.PrepareCalls
			if opts.Algorithm == "" || opts.Algorithm == analysis.CHA {
				prep = w.an.Prepare
			}
			go func() {
				defer w.release()
				if err := prep(ctx); err != nil {
					w.log.Debug("prepare", zap.Error(err))
				}
			}()
		})
		return w.an.RunTrace(ctx, opts)
	}
	w.refs.Init()
	return w
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

// graph returns the call graph for the settings, computing it once per distinct
// analysis key. A computation cancelled by its caller is forgotten, so that the next
// caller starts afresh instead of inheriting the cancellation.
func (w *world) graph(ctx context.Context, st *Settings, sf *specFile) (*callgraph.Graph, error) {
	return w.graphReporting(ctx, st, sf, nil, 0, nil)
}

// reportFunc reports a build's progress: a percentage and what is being done.
type reportFunc func(pct uint32, msg string)

// graphReporting is graph that reports the progress of an analysis it runs to report
// (when not nil), expecting about expect reachable methods (0: unknown), and the
// dynamic sites it finds meanwhile to sites (analysis.Options.Sites; when not nil).
func (w *world) graphReporting(ctx context.Context, st *Settings, sf *specFile, report reportFunc, expect int, sites func(*callgraph.Graph)) (*callgraph.Graph, error) {
	key := st.analysisKey(sf)
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
			c.g, tr, c.err = w.compute(ctx, st, sf, key, report, expect, sites)
			switch {
			case tr != nil:
				c.base.Store(&updateBase{c.g, tr})
			case c.err == nil:
				w.traceLater(c, key, st.options(sf))
			}
			w.mu.Lock()
			if c.err != nil && ctx.Err() != nil {
				delete(w.graphs, key)
			}
			if c.g != nil {
				w.unresolved[key] = unresolvedSites(c.g, w.h.Methods())
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
		if c.err != nil && (c.err == context.Canceled || c.err == context.DeadlineExceeded) {
			continue // its caller gave up; try again
		}
		return c.g, c.err
	}
}

// compute loads a graph from the disk cache or runs the analysis (and stores its
// graph there).
func (w *world) compute(ctx context.Context, st *Settings, sf *specFile, key string, report reportFunc, expect int, sites func(*callgraph.Graph)) (*callgraph.Graph, *analysis.Trace, error) {
	diskKey := w.diskKey(key, sf)
	if diskKey != "" {
		if g := w.cache.Load(diskKey, len(w.h.Methods())+1); g != nil {
			w.log.Info("call graph loaded from the cache", zap.String("dir", w.cache.Dir()))
			return g, nil, nil
		}
	}
	opts := st.options(sf)
	opts.Sites = sites
	if report != nil {
		if expect <= 0 {
			expect = len(w.h.Methods()) / 2 // a first guess: the JDK dominates
		}
		opts.Progress = func(reached int) {
			report(uint32(40+49*min(reached, expect)/expect), fmt.Sprintf("analysing: %d methods reached", reached))
		}
	}
	g, tr, err := w.run(ctx, opts, report)
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
// level only, and one at a time. It stops when the world is retired or the server
// stops (w.bg), and holds the world, whose index it reads.
func (w *world) traceLater(c *graphCall, key string, opts analysis.Options) {
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
		w.mu.Lock()
		published := w.pinned == key && w.graphs[key] == c
		w.mu.Unlock()
		if !published || c.base.Load() != nil {
			return
		}
		g, tr, err := w.run(w.bg, opts, nil)
		if err != nil {
			w.log.Debug("trace of a cached graph", zap.Error(err))
			return
		}
		c.base.Store(&updateBase{g, tr})
		w.log.Info("trace of the cached call graph computed: edits are updated in place")
	}()
}

// diskKey returns the disk-cache key of the graph of an analysis key, "" without a
// cache.
func (w *world) diskKey(key string, sf *specFile) string {
	if w.cache == nil {
		return ""
	}
	path := ""
	if sf != nil {
		path = sf.path
	}
	// The spec file's path is part of the graph: its problems name it.
	return w.cache.GraphKey(w.ix, fmt.Sprintf("%s\nspec %q", key, path))
}

// updateFrom gives w the graph for the settings as an update in place of prev's
// (analysis.Analyzer.Update), when w's index was rebuilt from prev's keeping its
// hierarchy and prev has that graph with its trace. It reports whether it did, or why
// not. The updated graph goes to the disk cache once the edits pause (deferredStore).
func (w *world) updateFrom(ctx context.Context, prev *world, st *Settings, sf *specFile) (bool, string) {
	changed, ok := w.ix.ChangedSince(prev.ix)
	if !ok {
		return false, "the hierarchy changed"
	}
	key := st.analysisKey(sf)
	prev.mu.Lock()
	pc := prev.graphs[key]
	prev.mu.Unlock()
	if pc == nil {
		return false, "no previous graph"
	}
	select {
	case <-pc.done:
	default:
		return false, "the previous graph is still being computed"
	}
	base := pc.base.Load()
	if base == nil {
		return false, "no previous graph with a trace (one loaded from the disk cache waits for its run in the background)"
	}
	g, tr, err := w.an.Update(ctx, st.options(sf), analysis.Previous{Analyzer: prev.an, Graph: base.g, Trace: base.tr}, changed)
	if err != nil {
		return false, err.Error()
	}
	c := &graphCall{done: make(chan struct{}), g: g}
	c.base.Store(&updateBase{g, tr})
	close(c.done)
	w.mu.Lock()
	w.graphs[key] = c
	w.touch(key)
	w.unresolved[key] = unresolvedSites(g, w.h.Methods())
	w.mu.Unlock()
	if k := w.diskKey(key, sf); k != "" && w.stores != nil {
		w.stores.later(w.cache, k, g)
	}
	return true, ""
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
		if key == w.pinned {
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
// settings and specification was computed, its number of unresolved or partially
// resolved sites.
func (w *world) unresolvedByLevel(st Settings, sf *specFile) map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string]int{}
	for _, l := range callgraph.Levels {
		st.Level = l
		if n, ok := w.unresolved[st.analysisKey(sf)]; ok {
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

// Hierarchy returns the snapshot's class hierarchy.
func (s *Snapshot) Hierarchy() *hierarchy.Hierarchy { return s.w.h }

// Index returns the snapshot's index.
func (s *Snapshot) Index() *index.Index { return s.w.ix }

// method returns the method with the given node ID, or nil for the synthetic
// NativeMethod node and out-of-range IDs.
func (s *Snapshot) method(id int32) *hierarchy.Method {
	ms := s.w.h.Methods()
	if id < 0 || int(id) >= len(ms) {
		return nil
	}
	return ms[id]
}

// pathTree returns, for every node, the bundle through which a breadth-first search
// from the entry points first reached it. Built once per snapshot: hovers then find a
// shortest path from an entry point by walking it back.
func (s *Snapshot) pathTree() []int32 {
	s.pathsOnce.Do(func() {
		g := s.Graph
		if g == nil {
			return
		}
		parent := make([]int32, g.NumNodes)
		for i := range parent {
			parent[i] = -2
		}
		queue := make([]int32, 0, 1024)
		for _, e := range g.Entries {
			if parent[e] == -2 {
				parent[e] = -1
				queue = append(queue, e)
			}
		}
		// A set shared by many bundles adds nothing after its first expansion.
		expanded := make([]bool, len(g.Sets))
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			for i := firstBundle(g, n); i < len(g.Bundles) && g.Bundles[i].Caller == n; i++ {
				b := &g.Bundles[i]
				if expanded[b.Set] {
					continue
				}
				expanded[b.Set] = true
				for _, t := range g.Sets[b.Set] {
					if parent[t] == -2 {
						parent[t] = int32(i)
						queue = append(queue, t)
					}
				}
			}
		}
		s.paths = parent
	})
	return s.paths
}

// firstBundle returns the index of the first bundle of caller n (bundles are sorted
// by caller).
func firstBundle(g *callgraph.Graph, n int32) int {
	return sort.Search(len(g.Bundles), func(i int) bool { return g.Bundles[i].Caller >= n })
}
