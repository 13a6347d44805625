// Package incremental keeps the analysis of a workspace current while its class files,
// jars and specification file change on disk.
//
// A Manager publishes immutable Snapshots, each with a sequence ID one higher than the
// one before. An update rebuilds the index from scratch but shares extracted facts
// through an index.FactsCache keyed by class content hash, so only classes whose bytes
// changed are re-extracted; the hierarchy and the call graphs are recomputed from the
// cached facts. A rewrite that leaves every class's bytes and the specification file
// as they were is no change: no snapshot is published and nothing is analysed.
//
// A Watcher turns fsnotify events into debounced change sets for a Manager.
//
// Use:
//
//	m, err := incremental.NewManager(ctx, settings, incremental.Options{Logger: log})
//	w, err := incremental.Watch(m, incremental.WatchOptions{Logger: log})
//	events, unsubscribe := m.Subscribe() // republish ev.Files on each event
//	...
//	s, release := m.Acquire() // in a request handler
//	defer release()
//	g, err := s.Graph(ctx, level)
//
// Warm restarts: pass Options{Cache: index.NewFactsCacheWithStore(diskCache)} with a
// DiskCache (but see its measurements).
//
// Invariant: readers never see a half-built snapshot; a Snapshot never changes after
// it is published, except for graphs of levels computed lazily (once) on request.
package incremental

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Settings say what to analyse and how.
type Settings struct {
	Config index.Config
	// SpecPath is the specification file; "" for none. A missing file is an empty one.
	SpecPath string
	// Levels are computed eagerly for every snapshot, before it is published, and
	// their dynamic sites decide which files' diagnostics change. Other levels are
	// computed on request (Snapshot.Graph). Empty means callgraph.CorrectEnv.
	Levels []callgraph.Level
	// Options is the template of every run; Level and Spec are set per run.
	Options analysis.Options
	// Prepare runs analysis.Analyzer.Prepare (planning every method on every core)
	// before the eager levels.
	Prepare bool
}

func (s Settings) levels() []callgraph.Level {
	if len(s.Levels) == 0 {
		return []callgraph.Level{callgraph.CorrectEnv}
	}
	return s.Levels
}

// ClassInfo describes one class of a snapshot.
type ClassInfo struct {
	Hash      uint64
	Origin    classpath.Origin
	Container string
	Entry     string
	// SourcePath is the source file relative to a source root ("pkg/dir/Foo.java"),
	// from the package and the SourceFile attribute (or the outermost class name).
	SourcePath string
}

// Snapshot is one immutable analysis of the workspace.
type Snapshot struct {
	id       uint64
	settings Settings
	ix       *index.Index
	an       *analysis.Analyzer
	spec     *spec.File
	specData []byte
	classes  map[string]ClassInfo // by internal class name

	graphs map[callgraph.Level]*lazyGraph
	cache  *GraphCache // nil for none

	mu     sync.Mutex
	refs   int // the manager's reference while current, plus Acquire's
	closed bool
}

type lazyGraph struct {
	mu  sync.Mutex
	g   *callgraph.Graph
	tr  *analysis.Trace // nil for graphs loaded from the cache
	err error
}

// ID is the sequence number of the snapshot: 1 for the first, +1 for each published.
func (s *Snapshot) ID() uint64 { return s.id }

// Index returns the indexed class path.
func (s *Snapshot) Index() *index.Index { return s.ix }

// Analyzer returns the analyzer shared by the snapshot's runs.
func (s *Snapshot) Analyzer() *analysis.Analyzer { return s.an }

// Spec returns the parsed specification file (empty when there is none).
func (s *Snapshot) Spec() *spec.File { return s.spec }

// Settings returns the settings the snapshot was built with.
func (s *Snapshot) Settings() Settings { return s.settings }

// Classes returns the classes of the snapshot by internal name. Do not modify.
func (s *Snapshot) Classes() map[string]ClassInfo { return s.classes }

// Graph returns the call graph at level, computing it once on first request. A run
// cancelled through ctx is not remembered: the next call computes it again.
func (s *Snapshot) Graph(ctx context.Context, level callgraph.Level) (*callgraph.Graph, error) {
	lg := s.graphs[level]
	if lg == nil {
		return nil, fmt.Errorf("incremental: invalid level %d", level)
	}
	lg.mu.Lock()
	defer lg.mu.Unlock()
	if lg.g != nil || lg.err != nil {
		return lg.g, lg.err
	}
	key := s.cacheKey(level)
	if lg.g = s.cache.load(key, s.numNodes()); lg.g != nil {
		return lg.g, nil
	}
	g, tr, err := s.an.RunTrace(ctx, s.runOptions(level))
	if err != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return nil, err
	}
	lg.g, lg.tr, lg.err = g, tr, err
	if err == nil {
		s.cache.store(key, g)
	}
	return g, err
}

func (s *Snapshot) runOptions(level callgraph.Level) analysis.Options {
	opts := s.settings.Options
	opts.Level = level
	opts.Spec = s.spec
	return opts
}

// updateFrom sets the graph of level to an update in place of old's (see
// analysis.Analyzer.Update) when old has one with a trace and the update can be
// proved equal to a new run; it reports whether it did, and otherwise why not.
func (s *Snapshot) updateFrom(ctx context.Context, old *Snapshot, level callgraph.Level, changed []string) (bool, string) {
	olg := old.graphs[level]
	olg.mu.Lock()
	og, otr := olg.g, olg.tr
	olg.mu.Unlock()
	if og == nil || otr == nil {
		return false, "no previous graph with a trace"
	}
	g, tr, err := s.an.Update(ctx, s.runOptions(level), analysis.Previous{Analyzer: old.an, Graph: og, Trace: otr}, changed)
	if err != nil {
		return false, err.Error()
	}
	lg := s.graphs[level]
	lg.mu.Lock()
	lg.g, lg.tr = g, tr
	lg.mu.Unlock()
	return true, ""
}

// loadCached loads the graphs of levels from the graph cache and reports whether
// all of them were there.
func (s *Snapshot) loadCached(levels []callgraph.Level) bool {
	if s.cache == nil {
		return false
	}
	all := true
	for _, l := range levels {
		lg := s.graphs[l]
		lg.mu.Lock()
		if lg.g == nil {
			lg.g = s.cache.load(s.cacheKey(l), s.numNodes())
		}
		all = all && lg.g != nil
		lg.mu.Unlock()
	}
	return all
}

func (s *Snapshot) numNodes() int { return len(s.ix.Hierarchy().Methods()) + 1 }

// cacheKey is the graph cache key of a level's graph; "" without a cache.
func (s *Snapshot) cacheKey(level callgraph.Level) string {
	if s.cache == nil {
		return ""
	}
	opts := s.settings.Options
	opts.Level = level
	return s.cache.GraphKey(s.ix, fmt.Sprintf("%s\nspec %q %x", opts.Key(), s.settings.SpecPath, xxhash.Sum64(s.specData)))
}

func (s *Snapshot) tryRef() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.refs++
	return true
}

func (s *Snapshot) unref() {
	s.mu.Lock()
	s.refs--
	last := s.refs == 0 && !s.closed
	if last {
		s.closed = true
	}
	s.mu.Unlock()
	if last {
		_ = s.ix.Close()
	}
}

func newSnapshot(id uint64, st Settings, ix *index.Index, sp *spec.File, specData []byte, classes map[string]ClassInfo) *Snapshot {
	s := &Snapshot{id: id, settings: st, ix: ix, an: analysis.New(ix), spec: sp, specData: specData,
		classes: classes, graphs: map[callgraph.Level]*lazyGraph{}, refs: 1}
	for _, l := range callgraph.Levels {
		s.graphs[l] = &lazyGraph{}
	}
	return s
}

func classInfos(ix *index.Index) map[string]ClassInfo {
	h := ix.Hierarchy()
	m := make(map[string]ClassInfo, len(h.Classes()))
	for _, c := range h.Classes() {
		if src := ix.Source(c); src != nil {
			m[c.Name] = classInfo(h, c, src)
		}
	}
	return m
}

func classInfo(h *hierarchy.Hierarchy, c *hierarchy.Class, src *classpath.Class) ClassInfo {
	sf := ""
	if f := h.File(c); f != nil {
		sf = f.SourceFile
	}
	return ClassInfo{Hash: src.Hash, Origin: src.Origin, Container: src.Container,
		Entry: src.Entry, SourcePath: SourcePath(c.Name, sf)}
}

// classInfosFrom is classInfos of ix for an index rebuilt from old's that kept its
// hierarchy (same classes: only some were read again), with the names of the classes
// whose bytes or container changed, sorted; ok is false when the hierarchy is new.
func classInfosFrom(old *Snapshot, ix *index.Index) (m map[string]ClassInfo, changed []string, ok bool) {
	if changed, ok = ix.ChangedSince(old.ix); !ok {
		return nil, nil, false
	}
	m = maps.Clone(old.classes)
	h := ix.Hierarchy()
	for _, n := range changed {
		c := h.Class(n)
		m[n] = classInfo(h, c, ix.Source(c))
	}
	return m, changed, true
}

// SourcePath returns the source file of a class relative to its source root:
// the package directory and the SourceFile attribute, or the outermost class name
// with ".java" when the attribute is missing.
func SourcePath(className, sourceFile string) string {
	dir, base := path.Split(className)
	if sourceFile == "" || strings.ContainsAny(sourceFile, "/\\") {
		if i := strings.IndexByte(base, '$'); i > 0 {
			base = base[:i]
		}
		sourceFile = base + ".java"
	}
	return dir + sourceFile
}

// siteSummaries returns, per source file, a canonical text of the dynamic sites of its
// classes' methods at level: two snapshots whose summaries for a file are equal show
// the same diagnostics for it.
func siteSummaries(s *Snapshot, g *callgraph.Graph) map[string]string {
	if g == nil {
		return nil
	}
	ms := s.ix.Hierarchy().Methods()
	lines := map[string][]string{}
	for i := range g.Sites {
		st := &g.Sites[i]
		if int(st.Caller) >= len(ms) {
			continue
		}
		m := ms[st.Caller]
		info, ok := s.classes[m.Class.Name]
		if !ok || info.Origin == classpath.JDK {
			continue
		}
		targets := ""
		if st.Targets >= 0 && int(st.Targets) < len(g.Sets) {
			for _, t := range g.Sets[st.Targets] {
				targets += nodeName(ms, t) + ","
			}
		}
		lines[info.SourcePath] = append(lines[info.SourcePath], fmt.Sprintf("%d %s.%s%s pc=%d line=%d %s %s %s fb=%d [%s] %s",
			g.Level, m.Class.Name, m.Name, m.Desc, st.PC, st.Line, st.Feature, st.API, st.Status, st.Fallback, targets, st.Evidence))
	}
	out := make(map[string]string, len(lines))
	for f, ls := range lines {
		sort.Strings(ls)
		out[f] = strings.Join(ls, "\n")
	}
	return out
}

func nodeName(ms []*hierarchy.Method, id int32) string {
	if int(id) < len(ms) && id >= 0 {
		m := ms[id]
		return m.Class.Name + "." + m.Name + m.Desc
	}
	return "<native>"
}
