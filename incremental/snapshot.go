package incremental

import (
	"context"
	"sync"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"go.uber.org/zap"
)

// Snapshot is one immutable analysis of a project: its index, the call graph of the
// build's options and the specification it was computed with. Requests are answered
// from the latest snapshots; a build publishes new ones atomically, so a request
// never sees a half-built graph.
type Snapshot struct {
	ID      uint64
	Reason  Reason
	Options analysis.Options // of the graph, without the specification (Spec)
	Project *Project
	Graph   *callgraph.Graph // nil when the analysis failed
	InPlace bool             // Graph is the previous snapshot's updated in place (analysis.Analyzer.Update)
	Err     error            // why Graph is nil
	Spec    *SpecFile        // the specification the graph was computed with
	Built   time.Time
	Took    time.Duration

	w *world
	// partial: Graph is a partial graph (WithGraph), not the graph of the options.
	partial bool

	pathsOnce sync.Once
	paths     []int32 // BFS tree from the entry points: bundle index that reached a node, -1 for entries, -2 unreached
}

// Hierarchy returns the snapshot's class hierarchy.
func (s *Snapshot) Hierarchy() *hierarchy.Hierarchy { return s.w.h }

// Index returns the snapshot's index.
func (s *Snapshot) Index() *index.Index { return s.w.ix }

// Analyzer returns the analyzer of the snapshot's index (its CHA dispatch, for
// comparisons with other algorithms).
func (s *Snapshot) Analyzer() *analysis.Analyzer { return s.w.an }

// Method returns the method with the given node ID, or nil for the synthetic
// NativeMethod node and out-of-range IDs.
func (s *Snapshot) Method(id int32) *hierarchy.Method {
	ms := s.w.h.Methods()
	if id < 0 || int(id) >= len(ms) {
		return nil
	}
	return ms[id]
}

// WithGraph returns a snapshot of the same index and settings with another graph:
// the partial graph of the sites an analysis reported so far (Request.Early).
func (s *Snapshot) WithGraph(g *callgraph.Graph) *Snapshot {
	return &Snapshot{ID: s.ID, Reason: s.Reason, Options: s.Options, Project: s.Project, Graph: g, Spec: s.Spec, w: s.w, partial: true}
}

// RunOptions are the options of the run that computed the snapshot's graph (its
// specification included): a new analysis with them gives the same graph.
func (s *Snapshot) RunOptions() analysis.Options { return runOptions(s.Options, s.Spec) }

// Updatable reports whether an edit of method bodies can update the snapshot's graph
// in place, or, under an algorithm that analyses anew, its CHA companion
// (Request.Interim): false until the trace of a graph loaded from the disk cache, or
// the companion, has been computed in the background.
func (s *Snapshot) Updatable() bool {
	s.w.mu.Lock()
	c := s.w.graphs[graphKey(companionOptions(s.Options), s.Spec)]
	s.w.mu.Unlock()
	if c == nil {
		return false
	}
	select {
	case <-c.done:
		return c.base.Load() != nil
	default:
		return false
	}
}

// Open returns a snapshot of an index its caller built and closes, without a graph:
// for tools and tests that map an index's classes without analysing it.
func Open(p *Project, ix *index.Index) *Snapshot {
	w := newWorld(p.Key(), ix, zap.NewNop())
	return &Snapshot{Project: p, w: w}
}

// GraphWith returns the graph of the snapshot's index and specification under other
// options (another level, for the statistics), computing it once per options.
func (s *Snapshot) GraphWith(ctx context.Context, opts analysis.Options) (*callgraph.Graph, error) {
	return s.w.graph(ctx, opts, s.Spec, nil, 0, nil)
}

// UnresolvedByLevel returns, for each level whose graph under otherwise the snapshot's
// options and specification was computed, its number of unresolved or partially
// resolved sites in application and library code.
func (s *Snapshot) UnresolvedByLevel() map[string]int {
	return s.w.unresolvedByLevel(s.Options, s.Spec)
}

// Derived returns the value of key derived from the snapshot's index, calling
// build the first time: what features compute from an index (class listings, the
// mapping of source files to classes) is kept once for every snapshot sharing the
// index. build may run more than once when callers race; the first value stored
// wins.
func (s *Snapshot) Derived(key any, build func() any) any {
	if v, ok := s.w.derived.Load(key); ok {
		return v
	}
	v, _ := s.w.derived.LoadOrStore(key, build())
	return v
}

// GraphDerived returns the value of key derived from the snapshot's graph and index,
// calling build the first time: what features compute from a graph (which classes
// it reaches, what lower levels say of the methods it does not reach) is kept once
// for every snapshot of the same index and graph settings, the graph of a world
// being a function of them. A partial graph's (WithGraph) is never kept.
func (s *Snapshot) GraphDerived(key any, build func() any) any {
	if s.partial || s.Graph == nil {
		return build()
	}
	return s.Derived(graphDerivedKey{graphKey(s.Options, s.Spec), key}, build)
}

type graphDerivedKey struct {
	graph string
	key   any
}

// GraphAtLevel returns the graph of the snapshot's index, options and specification
// at another level: the one the index's graphs include when it was computed (the
// user looked at that level), else a new analysis, which is not kept (its caller
// wants what it says of a few methods, and keeping it would cost the memory of a
// whole-program graph). One such analysis runs at a time beside the index's other
// background runs (world.later); ctx cancels it.
func (s *Snapshot) GraphAtLevel(ctx context.Context, l callgraph.Level) (*callgraph.Graph, error) {
	opts := s.Options
	opts.Level = l
	if g := s.w.finished(graphKey(opts, s.Spec)); g != nil {
		return g, nil
	}
	s.w.tracing.Lock()
	defer s.w.tracing.Unlock()
	if g := s.w.finished(graphKey(opts, s.Spec)); g != nil {
		return g, nil
	}
	g, _, err := s.w.run(ctx, runOptions(opts, s.Spec))
	return g, err
}

// acquire takes a reference to the snapshot's index; it fails once it is closed.
func (s *Snapshot) acquire() bool { return s.w.acquire() }

// release drops a reference taken by acquire.
func (s *Snapshot) release() { s.w.release() }

// PathTree returns the graph's shortest-path tree (callgraph.Graph.PathTree), built
// once per snapshot: hovers then find a shortest path from an entry point by
// walking it back.
func (s *Snapshot) PathTree() []int32 {
	s.pathsOnce.Do(func() {
		if s.Graph != nil {
			s.paths = s.Graph.PathTree()
		}
	})
	return s.paths
}

// UnresolvedSites counts the unresolved and partially resolved dynamic sites of a
// graph; with the hierarchy's methods, only those in application and library code
// (the JDK's own sites outnumber a program's by thousands, and users act on theirs).
func UnresolvedSites(g *callgraph.Graph, ms []*hierarchy.Method) int {
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

// BeyondSites counts the unresolved or partially resolved sites of application and
// library code whose unknown values include one from a source the level does not
// license.
func BeyondSites(g *callgraph.Graph, ms []*hierarchy.Method) int {
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
