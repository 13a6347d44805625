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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cespare/xxhash/v2"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
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

	// spec is the specHash of the specification file that the latest build, or the
	// didSave that asked for it, saw (0 for none): a watcher event for the same
	// meaning is the same specification, not a new one.
	spec atomic.Uint64
	// bySpec is the hash of the specification content a rebuild the watcher started
	// reads: the didSave of that content that comes after the watcher's event (on a
	// slow client) does not rebuild once more.
	bySpec atomic.Uint64

	applied func(Reason) // test hook: a change set was handled ("" for no rebuild)
}

// watchKey identifies what a workspace's watcher watches.
func (ws *Workspace) watchKey() string {
	var b strings.Builder
	for _, e := range ws.ClassPath {
		fmt.Fprintf(&b, "%d %s\n", e.Origin, e.Path)
	}
	fmt.Fprintf(&b, "spec %s\n", ws.SpecFile)
	return b.String()
}

// ensureWatcher watches the class paths of the projects and the first project's
// specification file (the others' are saved in the editor, or re-read by the next
// build), replacing the watcher of other projects. A change in another project's
// class path is compared with the first project's classes only: it rebuilds.
func (s *Server) ensureWatcher(wss []*Workspace) {
	ws := wss[0]
	if len(wss) > 1 {
		union := *ws
		union.ClassPath = nil
		for _, p := range wss {
			union.ClassPath = append(union.ClassPath, p.ClassPath...)
		}
		ws = &union
	}
	key := ws.watchKey()
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
	w, err := incremental.WatchFunc(st, s.applyChanges, incremental.WatchOptions{Logger: s.log})
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
func specHash(path string) uint64 {
	sf := readSpecFile(path)
	if sf.file == nil {
		return 1
	}
	return sf.hash
}

// specSaved reports whether a saved specification file needs a rebuild: not when it
// means what the latest build read or the latest rebuild asked for, nor when the
// watcher already started one for the same content.
func (s *Server) specSaved(path string) bool {
	h := specHash(path)
	if s.watch.bySpec.CompareAndSwap(h, 0) || s.watch.spec.Load() == h {
		return false
	}
	s.watch.spec.Store(h) // the watcher sees the same write: no rebuild from it
	return true
}

// noteSpec records the specification content a build reads.
func (s *Server) noteSpec(sf *specFile) {
	switch {
	case sf.exists:
		s.watch.spec.Store(sf.hash)
	case sf.err == nil:
		s.watch.spec.Store(1)
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

	snap, release := s.current()
	defer release()
	classes, spec := work.Full, false
	if !work.Full {
		var deferred []string
		classes, spec, deferred = s.changed(snap, work.Paths)
		if len(deferred) > 0 {
			s.log.Debug("class files not parseable yet, deferring", zap.Strings("paths", deferred))
			return incremental.Event{Deferred: deferred}, nil
		}
	}
	s.watch.pending = incremental.ChangeSet{}
	var reason Reason
	if spec && snap != nil {
		h := specHash(snap.Workspace.SpecFile)
		s.watch.spec.Store(h)
		s.watch.bySpec.Store(h)
	}
	switch {
	case classes:
		reason = ReasonClassFiles
		s.log.Info("class path changed on disk: rebuilding", zap.Int("paths", len(work.Paths)), zap.Bool("full", work.Full))
	case spec:
		reason = ReasonSpec
		s.log.Info("specification file changed on disk: rebuilding")
	}
	if reason != "" {
		s.Rebuild(ctx, reason)
	}
	if s.watch.applied != nil {
		s.watch.applied(reason)
	}
	return incremental.Event{}, nil
}

// changed compares the paths of a change set with a snapshot (nil before the first
// build ends: every change counts). It reports whether the class path and the
// specification file changed, and the changed class files that do not parse.
func (s *Server) changed(snap *Snapshot, paths []string) (classes, spec bool, deferred []string) {
	var known map[[2]string]uint64 // class directory and entry -> content hash
	specPath := ""
	if snap != nil {
		specPath = snap.Workspace.SpecFile
		known = map[[2]string]uint64{}
		for _, c := range snap.w.h.Classes() {
			if src := snap.w.ix.Source(c); src != nil && src.Origin != classpath.JDK {
				known[[2]string{src.Container, src.Entry}] = src.Hash
			}
		}
	}
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		if specPath != "" && p == specPath {
			if specHash(p) != s.watch.spec.Load() {
				spec = true
			}
			continue
		}
		if !strings.HasSuffix(p, ".class") {
			classes = true // a jar or a directory
			continue
		}
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			if _, ok := s.entryHash(snap, known, p); ok || snap == nil {
				classes = true
			}
			continue
		}
		if err != nil {
			classes = true
			continue
		}
		if h, ok := s.entryHash(snap, known, p); ok && h == xxhash.Sum64(data) {
			continue
		}
		classes = true
		if _, err := classfile.Parse(data); err != nil {
			deferred = append(deferred, p)
		}
	}
	return classes, spec, deferred
}

// entryHash returns the hash of the class file p as the snapshot indexed it.
func (s *Server) entryHash(snap *Snapshot, known map[[2]string]uint64, p string) (uint64, bool) {
	if snap == nil {
		return 0, false
	}
	for _, e := range snap.Workspace.ClassPath {
		rel, err := filepath.Rel(e.Path, p)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			continue
		}
		h, ok := known[[2]string{e.Path, filepath.ToSlash(rel)}]
		return h, ok
	}
	return 0, false
}
