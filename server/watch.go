package server

// The class-file watcher: when the build tool rewrites class files or jars (or
// something else rewrites the specification file), the server re-analyses by itself.
//
// The watching itself (fsnotify, recursive class directories, debouncing, polling at
// the inotify limit, retrying half-written class files) is incremental.Watcher's; its
// debounced change sets come here instead of going to an incremental.Manager, because
// the server keeps its own snapshots (worlds shared across levels and specifications,
// source mapping, listings): a change set that really changes something becomes a
// Rebuild, like a didSave of the specification file or a configuration change does.
// The rebuild republishes the diagnostics of exactly the files whose diagnostics
// changed (publishDiagnostics compares with what it published last).

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// watchState is the server's class-file watcher.
type watchState struct {
	mu     sync.Mutex // serialises starting and stopping
	w      *incremental.Watcher
	key    string // watchKey of the watched workspace
	closed bool

	pendMu  sync.Mutex
	pending incremental.ChangeSet // kept while half-written class files defer it

	specs specMarks

	applied func(Reason) // test hook: a change set was handled ("" for no rebuild)
}

// specMarks remembers, per specification file, the meaning (specHash) that the
// latest build read, or that the didSave or the watcher event asking for a rebuild
// saw: a watcher event or a didSave of the same meaning is the same specification,
// not a new one. So the didSave of a file that the watcher rebuilt for already (on
// a slow client), and the watcher event of a file saved in the editor, rebuild
// nothing more.
type specMarks struct {
	mu   sync.Mutex
	seen map[string]uint64
}

func (m *specMarks) lastSeen(path string) uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen[path]
}

// see records the meaning h of path, and reports whether it is new.
func (m *specMarks) see(path string, h uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen == nil {
		m.seen = map[string]uint64{}
	}
	old := m.seen[path]
	m.seen[path] = h
	return old != h
}

// watchKey identifies what a watcher of the workspaces watches.
func watchKey(wss []*Workspace) string {
	var b strings.Builder
	for _, ws := range wss {
		for _, e := range ws.ClassPath {
			fmt.Fprintf(&b, "%d %s\n", e.Origin, e.Path)
		}
		fmt.Fprintf(&b, "spec %s\n", ws.SpecFile)
	}
	return b.String()
}

// ensureWatcher watches the class paths and specification files of the projects,
// replacing the watcher of other projects.
func (s *Server) ensureWatcher(wss []*Workspace) {
	ws := wss[0]
	var specs []string
	if len(wss) > 1 {
		union := *ws
		union.ClassPath = nil
		for _, p := range wss {
			union.ClassPath = append(union.ClassPath, p.ClassPath...)
			specs = append(specs, p.SpecFile)
		}
		ws = &union
	}
	key := watchKey(wss)
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	if s.watch.closed || s.watch.w != nil && s.watch.key == key {
		return
	}
	if s.watch.w != nil {
		if err := s.watch.w.Close(); err != nil {
			s.log.Debug("closing the watcher", zap.Error(err))
		}
		s.watch.w = nil
	}
	s.watch.pendMu.Lock()
	s.watch.pending = incremental.ChangeSet{}
	s.watch.pendMu.Unlock()
	st := incremental.Settings{Config: ws.config(), SpecPath: ws.SpecFile}
	w, err := incremental.WatchFunc(st, s.applyChanges, incremental.WatchOptions{Logger: s.log, Files: specs})
	if err != nil {
		s.log.Warn("cannot watch the class path; rebuild with the jcg.reanalyze command", zap.Error(err))
		return
	}
	s.watch.w, s.watch.key = w, key
}

// stopWatcher stops watching for good (the server ends).
func (s *Server) stopWatcher() {
	s.watch.mu.Lock()
	defer s.watch.mu.Unlock()
	s.watch.closed = true
	if s.watch.w != nil {
		if err := s.watch.w.Close(); err != nil {
			s.log.Debug("closing the watcher", zap.Error(err))
		}
		s.watch.w = nil
	}
}

// specHash returns the meaning of a specification file (never 0): 1 for a missing or
// unreadable file, or one without entries or problems.
//
// An empty file is the same specification as none, and telling them apart rebuilt
// twice for every quick fix that creates the file: the editor applies the fix's
// CreateFile (an empty file on disk) before it fills and saves the file, so the
// watcher saw the empty file as a change of its own and rebuilt for it, and didSave
// rebuilt again for the saved content.
func specHash(path string) uint64 { return specMeaning(readSpecFile(path)) }

// specSaved reports whether a saved specification file needs a rebuild: not when it
// means what the latest build read, or what the watcher rebuilt for.
func (s *Server) specSaved(path string) bool { return s.watch.specs.see(path, specHash(path)) }

// noteSpec records the specification a build reads.
func (s *Server) noteSpec(sf *specFile) {
	switch {
	case sf.exists:
		s.watch.specs.see(sf.path, sf.hash)
	case sf.err == nil:
		s.watch.specs.see(sf.path, 1)
	}
}

// applyChanges receives the watcher's debounced change sets. It rebuilds unless
// every changed class file has the bytes the current snapshot indexed and the
// specification file the content the latest build read; class files that do not
// parse (still being written) defer the change set, which the watcher retries.
func (s *Server) applyChanges(ctx context.Context, cs incremental.ChangeSet) (incremental.Event, error) {
	s.watch.pendMu.Lock()
	defer s.watch.pendMu.Unlock()
	s.watch.pending.Full = s.watch.pending.Full || cs.Full
	s.watch.pending.Paths = append(s.watch.pending.Paths, cs.Paths...)
	work := s.watch.pending

	snaps, release := s.currentAll()
	defer release()
	classes, specs := work.Full, map[string]uint64(nil)
	if !work.Full {
		var deferred []string
		classes, specs, deferred = s.changed(snaps, work.Paths)
		if len(deferred) > 0 {
			s.log.Debug("class files not parseable yet, deferring", zap.Strings("paths", deferred))
			return incremental.Event{Deferred: deferred}, nil
		}
	}
	s.watch.pending = incremental.ChangeSet{}
	var reason Reason
	for p, h := range specs {
		s.watch.specs.see(p, h) // the didSave that may follow is not a change
	}
	switch {
	case classes:
		reason = ReasonClassFiles
		s.log.Info("class path changed on disk: rebuilding", zap.Int("paths", len(work.Paths)), zap.Bool("full", work.Full))
	case len(specs) > 0:
		reason = ReasonSpec
		s.log.Info("specification file changed on disk: rebuilding", zap.Strings("paths", slices.Sorted(maps.Keys(specs))))
	}
	if reason != "" {
		s.Rebuild(ctx, reason)
	}
	if s.watch.applied != nil {
		s.watch.applied(reason)
	}
	return incremental.Event{}, nil
}

// changed compares the paths of a change set with the snapshots of the projects
// (none before the first build ends: every change counts). It reports whether the
// class path changed, the specification files whose meaning changed (with the new
// meaning), and the changed class files that do not parse.
func (s *Server) changed(snaps []*Snapshot, paths []string) (classes bool, specs map[string]uint64, deferred []string) {
	known := map[[2]string]uint64{} // class directory and entry -> content hash
	isSpec := map[string]bool{}
	for _, snap := range snaps {
		isSpec[snap.Workspace.SpecFile] = true
		for _, c := range snap.w.h.Classes() {
			if src := snap.w.ix.Source(c); src != nil && src.Origin != classpath.JDK {
				known[[2]string{src.Container, src.Entry}] = src.Hash
			}
		}
	}
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		if isSpec[p] {
			if h := specHash(p); h != s.watch.specs.lastSeen(p) {
				if specs == nil {
					specs = map[string]uint64{}
				}
				specs[p] = h
			}
			continue
		}
		if !strings.HasSuffix(p, ".class") {
			classes = true // a jar or a directory
			continue
		}
		// Before the first snapshot every class file is news.
		h, ok := entryHash(snaps, known, p)
		changed, unparsed := incremental.ClassFileChanged(p, h, ok || len(snaps) == 0)
		classes = classes || changed
		if unparsed {
			deferred = append(deferred, p)
		}
	}
	return classes, specs, deferred
}

// entryHash returns the hash of the class file p as the snapshots indexed it.
func entryHash(snaps []*Snapshot, known map[[2]string]uint64, p string) (uint64, bool) {
	for _, snap := range snaps {
		for _, e := range snap.Workspace.ClassPath {
			rel, err := filepath.Rel(e.Path, p)
			if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
				continue
			}
			if h, ok := known[[2]string{e.Path, filepath.ToSlash(rel)}]; ok {
				return h, true
			}
		}
	}
	return 0, false
}
