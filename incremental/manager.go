package incremental

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// ChangeSet is what changed on disk since the last update.
type ChangeSet struct {
	// Paths are the files created, written, renamed or removed (class files, jars,
	// the specification file). Directories stand for everything below them.
	Paths []string
	// Full asks for a rescan of everything (event overflow, configuration change).
	Full bool
}

func (c *ChangeSet) merge(o ChangeSet) {
	c.Full = c.Full || o.Full
	c.Paths = append(c.Paths, o.Paths...)
}

func (c ChangeSet) empty() bool { return !c.Full && len(c.Paths) == 0 }

// Event reports the result of an update.
type Event struct {
	// Snapshot is the published snapshot's ID; 0 when the update published none
	// (nothing changed, or it was cancelled or deferred).
	Snapshot uint64
	Previous uint64
	// Added, Changed and Removed are internal class names, sorted.
	Added, Changed, Removed []string
	SpecChanged             bool
	// Files are the source files ("pkg/dir/Foo.java") whose diagnostics must be
	// republished: those of added, changed and removed classes and those whose
	// dynamic sites changed at an eager level. Sorted.
	Files []string
	// Deferred are changed class files that could not be parsed (probably still being
	// written): nothing was published, the change set is kept for the next update,
	// which should come once the writer is done. The Watcher retries by itself.
	Deferred []string
}

// Published reports whether the update published a snapshot.
func (e Event) Published() bool { return e.Snapshot != 0 }

// Manager holds the current snapshot and produces new ones. Safe for concurrent use.
type Manager struct {
	settings Settings
	cache    *index.FactsCache
	graphs   *GraphCache
	log      *zap.Logger

	current atomic.Pointer[Snapshot]
	seq     atomic.Uint64

	buildMu sync.Mutex // held by the one update that runs

	mu      sync.Mutex
	pending ChangeSet
	cancel  context.CancelFunc
	subs    []chan Event
	closed  bool

	analyses atomic.Int64
	updates  atomic.Int64

	beforeAnalysis func(ctx context.Context) // test hook
}

// Options configure a Manager.
type Options struct {
	Cache  *index.FactsCache // shared facts; nil for a new in-memory cache
	Graphs *GraphCache       // analysed graphs on disk, for warm restarts; nil for none
	Logger *zap.Logger       // nil for none
}

// NewManager builds the first snapshot.
func NewManager(ctx context.Context, st Settings, opts Options) (*Manager, error) {
	m := &Manager{settings: st, cache: opts.Cache, graphs: opts.Graphs, log: opts.Logger}
	if m.cache == nil {
		m.cache = index.NewFactsCache()
	}
	if m.log == nil {
		m.log = zap.NewNop()
	}
	if _, err := m.Update(ctx, ChangeSet{Full: true}); err != nil {
		return nil, err
	}
	return m, nil
}

// Acquire returns the current snapshot and a release function, which must be called
// once the snapshot is no longer used. The snapshot's resources (memory mappings) are
// freed when it is no longer current and every acquirer has released it.
func (m *Manager) Acquire() (*Snapshot, func()) {
	for {
		s := m.current.Load()
		if s == nil {
			return nil, func() {}
		}
		if s.tryRef() {
			var once sync.Once
			return s, func() { once.Do(s.unref) }
		}
	}
}

// Analyses returns how many snapshots were analysed (built and run at the eager
// levels), including cancelled ones.
func (m *Manager) Analyses() int64 { return m.analyses.Load() }

// Updates returns how many snapshots had every eager level's graph updated in place
// rather than analysed anew (see analysis.Analyzer.Update).
func (m *Manager) Updates() int64 { return m.updates.Load() }

// Subscribe returns a channel receiving the Event of every update that publishes a
// snapshot or defers one, and a function ending the subscription. Events are
// dropped, with a log message, when the subscriber falls 64 events behind.
func (m *Manager) Subscribe() (<-chan Event, func()) {
	ch := make(chan Event, 64)
	m.mu.Lock()
	m.subs = append(m.subs, ch)
	m.mu.Unlock()
	return ch, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if i := slices.Index(m.subs, ch); i >= 0 {
			m.subs = slices.Delete(m.subs, i, i+1)
			close(ch)
		}
	}
}

// Close releases the current snapshot (once every acquirer has released it).
func (m *Manager) Close() {
	m.mu.Lock()
	if m.cancel != nil {
		m.cancel()
	}
	m.closed = true
	m.mu.Unlock()
	m.buildMu.Lock()
	defer m.buildMu.Unlock()
	if s := m.current.Swap(nil); s != nil {
		s.unref()
	}
}

// Update applies a change set: it cancels the update in progress (whose changes are
// carried over to this one), rebuilds the index with the shared facts cache, and,
// when a class or the specification file really changed, analyses the eager levels
// and publishes a new snapshot. The error is context.Canceled when a newer update
// cancelled this one.
func (m *Manager) Update(ctx context.Context, cs ChangeSet) (Event, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return Event{}, errors.New("incremental: manager closed")
	}
	m.pending.merge(cs)
	if m.cancel != nil {
		m.cancel()
	}
	m.mu.Unlock()

	m.buildMu.Lock()
	defer m.buildMu.Unlock()
	m.mu.Lock()
	work := m.pending
	m.pending = ChangeSet{}
	bctx, cancel := context.WithCancel(ctx)
	m.cancel = cancel
	m.mu.Unlock()
	defer cancel()

	if work.empty() {
		return Event{}, nil
	}
	ev, err := m.rebuild(bctx, work)
	if err != nil || len(ev.Deferred) > 0 {
		// Cancelled, failed or deferred: the changes are applied with the next update.
		m.mu.Lock()
		work.merge(m.pending)
		m.pending = work
		m.mu.Unlock()
		if err != nil {
			return Event{}, err
		}
	}
	if ev.Published() || len(ev.Deferred) > 0 {
		m.mu.Lock()
		for _, ch := range m.subs {
			select {
			case ch <- ev:
			default:
				m.log.Warn("incremental: subscriber too slow, event dropped", zap.Uint64("snapshot", ev.Snapshot))
			}
		}
		m.mu.Unlock()
	}
	return ev, nil
}

func (m *Manager) rebuild(ctx context.Context, cs ChangeSet) (Event, error) {
	old := m.current.Load()
	specData, specChanged := m.readSpec(old)
	if old != nil && !cs.Full {
		same, deferred := m.unchanged(old, cs.Paths)
		if len(deferred) > 0 {
			m.log.Debug("incremental: class files not parseable yet, deferring", zap.Strings("paths", deferred))
			return Event{Deferred: deferred}, nil
		}
		if same && !specChanged {
			return Event{}, nil
		}
	}
	var prevIx *index.Index
	if old != nil {
		prevIx = old.ix // alive: old stays current (and open) until replaced below
	}
	ix, err := index.Rebuild(ctx, m.settings.Config, m.cache, prevIx)
	if err != nil {
		return Event{}, err
	}
	m.cache.Retain(ix)
	var sp *spec.File
	if old != nil && !specChanged {
		sp = old.spec
	} else {
		sp = spec.Parse(m.settings.SpecPath, specData)
	}
	ev := Event{SpecChanged: old != nil && specChanged}
	var classes map[string]ClassInfo
	kept := false
	if old != nil {
		classes, ev.Changed, kept = classInfosFrom(old, ix)
	}
	if !kept {
		classes = classInfos(ix)
	}
	s := newSnapshot(0, m.settings, ix, sp, specData, classes)
	s.cache = m.graphs
	if old != nil {
		if !kept {
			diffClasses(old, s, &ev)
		}
		if len(ev.Added)+len(ev.Changed)+len(ev.Removed) == 0 && !ev.SpecChanged {
			_ = ix.Close()
			return Event{}, nil
		}
	}
	m.analyses.Add(1)
	if m.beforeAnalysis != nil {
		m.beforeAnalysis(ctx)
	}
	// A change of method bodies only is first tried in place; graphs found on disk
	// need no planning: prepare only when one is still missing.
	updated := old != nil && !ev.SpecChanged && len(ev.Added)+len(ev.Removed) == 0
	for _, l := range m.settings.levels() {
		if !updated {
			break
		}
		ok, why := s.updateFrom(ctx, old, l, ev.Changed)
		if !ok {
			m.log.Debug("incremental: analysing anew", zap.Stringer("level", l), zap.String("why", why))
		}
		updated = ok
	}
	if updated {
		m.updates.Add(1)
	} else if m.settings.Prepare && !s.loadCached(m.settings.levels()) {
		if err := s.an.Prepare(ctx); err != nil {
			_ = ix.Close()
			return Event{}, err
		}
	}
	for _, l := range m.settings.levels() {
		if _, err := s.Graph(ctx, l); err != nil && ctx.Err() != nil {
			_ = ix.Close()
			return Event{}, ctx.Err()
		}
	}
	if err := ctx.Err(); err != nil {
		_ = ix.Close()
		return Event{}, err
	}
	files := map[string]bool{}
	for _, names := range [][]string{ev.Added, ev.Changed} {
		for _, n := range names {
			if c := s.classes[n]; c.Origin != classpath.JDK {
				files[c.SourcePath] = true
			}
		}
	}
	// Updated in place, only the changed classes' sites can differ: their files are in.
	if old != nil && !updated {
		for _, n := range ev.Removed {
			if c := old.classes[n]; c.Origin != classpath.JDK {
				files[c.SourcePath] = true
			}
		}
		for _, l := range m.settings.levels() {
			og, _ := old.Graph(ctx, l) // computed eagerly: no work
			ng, _ := s.Graph(ctx, l)
			osum, ns := siteSummaries(old, og), siteSummaries(s, ng)
			for f, t := range ns {
				if osum[f] != t {
					files[f] = true
				}
			}
			for f := range osum {
				if _, ok := ns[f]; !ok {
					files[f] = true
				}
			}
		}
	}
	for f := range files {
		ev.Files = append(ev.Files, f)
	}
	sort.Strings(ev.Files)

	s.id = m.seq.Add(1)
	ev.Snapshot = s.id
	if prev := m.current.Swap(s); prev != nil {
		ev.Previous = prev.id
		prev.unref()
	}
	m.log.Debug("incremental: snapshot published", zap.Uint64("id", s.id),
		zap.Int("added", len(ev.Added)), zap.Int("changed", len(ev.Changed)),
		zap.Int("removed", len(ev.Removed)), zap.Int("files", len(ev.Files)))
	return ev, nil
}

func (m *Manager) readSpec(old *Snapshot) ([]byte, bool) {
	var data []byte
	if m.settings.SpecPath != "" {
		b, err := os.ReadFile(m.settings.SpecPath)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			m.log.Warn("incremental: reading the specification file", zap.Error(err))
			if old != nil {
				return old.specData, false
			}
		}
		data = b
	}
	if old == nil {
		return data, true
	}
	return data, !bytes.Equal(data, old.specData)
}

// unchanged reports whether every path is a class file of a class directory whose
// bytes equal those of the old snapshot (or that is absent from both), so that no
// rebuild is needed; deferred lists changed class files that fail to parse.
func (m *Manager) unchanged(old *Snapshot, paths []string) (same bool, deferred []string) {
	byEntry := map[[2]string]uint64{}
	for _, c := range old.classes {
		if c.Origin != classpath.JDK {
			byEntry[[2]string{c.Container, c.Entry}] = c.Hash
		}
	}
	same = true
	for _, p := range dedup(paths) {
		if m.settings.SpecPath != "" && samePath(p, m.settings.SpecPath) {
			continue // compared by readSpec
		}
		if !strings.HasSuffix(p, ".class") {
			return false, nil // a jar, a directory, something else: rebuild and compare
		}
		container, entry, ok := m.classDirEntry(p)
		if !ok {
			return false, nil
		}
		h, known := byEntry[[2]string{container, entry}]
		changed, unparsed := ClassFileChanged(p, h, known)
		same = same && !changed
		if unparsed {
			deferred = append(deferred, p)
		}
	}
	return same, deferred
}

// classDirEntry finds the class directory holding p and p's entry in it.
func (m *Manager) classDirEntry(p string) (container, entry string, ok bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", "", false
	}
	for _, src := range m.settings.Config.Sources {
		root, err := filepath.Abs(src.Path)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		return src.Path, filepath.ToSlash(rel), true
	}
	return "", "", false
}

func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

func dedup(ps []string) []string {
	out := slices.Clone(ps)
	slices.Sort(out)
	return slices.Compact(out)
}

func diffClasses(old, s *Snapshot, ev *Event) {
	for n, c := range s.classes {
		oc, ok := old.classes[n]
		switch {
		case !ok:
			ev.Added = append(ev.Added, n)
		case oc.Hash != c.Hash || oc.Container != c.Container:
			ev.Changed = append(ev.Changed, n)
		}
	}
	for n := range old.classes {
		if _, ok := s.classes[n]; !ok {
			ev.Removed = append(ev.Removed, n)
		}
	}
	sort.Strings(ev.Added)
	sort.Strings(ev.Changed)
	sort.Strings(ev.Removed)
}
