package server

// The class-file watcher: when the build tool rewrites class files or jars (or
// something else rewrites the specification file), the server re-analyses by itself.
//
// The watching itself (fsnotify, recursive class directories, debouncing, polling at
// the inotify limit, retrying half-written class files) is incremental.Watcher's, and
// what a change set changes is the host's to tell (incremental.Host.Changed): a change
// set that really changes something becomes a Rebuild, like a didSave of the
// specification file or a configuration change does. The rebuild republishes the
// diagnostics of exactly the files whose diagnostics changed (publishDiagnostics
// compares with what it published last).

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/incremental"
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

	applied func(incremental.Reason) // test hook: a change set was handled ("" for no rebuild)
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
func watchKey(wss []*incremental.Project) string {
	var b strings.Builder
	for _, ws := range wss {
		for _, e := range ws.ClassPath {
			fmt.Fprintf(&b, "%d %s\n", e.Origin, e.Path)
		}
		fmt.Fprintf(&b, "spec %s\n", ws.SpecFile)
		for _, f := range ws.BuildFiles() {
			fmt.Fprintf(&b, "build %s\n", f)
		}
	}
	return b.String()
}

// ensureWatcher watches the class paths and specification files of the projects,
// replacing the watcher of other projects.
func (s *Server) ensureWatcher(wss []*incremental.Project) {
	ws := wss[0]
	var specs []string
	for _, p := range wss {
		specs = append(specs, p.BuildFiles()...) // a pom.xml edited resolves the build again
	}
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
	w, err := incremental.Watch(ws.Config(), []string{ws.SpecFile}, s.applyChanges, incremental.WatchOptions{Logger: s.log, Files: specs})
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
func specHash(path string) uint64 { return incremental.ReadSpecFile(path).Meaning() }

// specSaved reports whether a saved specification file needs a rebuild: not when it
// means what the latest build read, or what the watcher rebuilt for.
func (s *Server) specSaved(path string) bool { return s.watch.specs.see(path, specHash(path)) }

// noteSpec records the specification a build reads.
func (s *Server) noteSpec(sf *incremental.SpecFile) {
	switch {
	case sf.Exists:
		s.watch.specs.see(sf.Path, sf.Hash)
	case sf.Err == nil:
		s.watch.specs.see(sf.Path, 1)
	}
}

// applyChanges receives the watcher's debounced change sets. It rebuilds unless
// every changed class file has the bytes the current snapshot indexed and the
// specification file the content the latest build read (Host.Changed); class files
// that do not parse (still being written) defer the change set, which the watcher
// retries.
func (s *Server) applyChanges(ctx context.Context, cs incremental.ChangeSet) ([]string, error) {
	s.watch.pendMu.Lock()
	defer s.watch.pendMu.Unlock()
	s.watch.pending.Merge(cs)
	work := s.watch.pending
	ch := s.host.Changed(work, s.watch.specs.lastSeen)
	if len(ch.Deferred) > 0 {
		s.log.Debug("class files not parseable yet, deferring", zap.Strings("paths", ch.Deferred))
		return ch.Deferred, nil
	}
	s.watch.pending = incremental.ChangeSet{}
	var reason incremental.Reason
	for p, h := range ch.Specs {
		s.watch.specs.see(p, h) // the didSave that may follow is not a change
	}
	switch {
	case ch.Classes:
		reason = incremental.ReasonClassFiles
		s.log.Info("class path changed on disk: rebuilding", zap.Int("paths", len(work.Paths)), zap.Bool("full", work.Full))
	case ch.Builds:
		reason = incremental.ReasonBuildFiles
		s.log.Info("build files changed on disk: resolving the dependencies again")
	case len(ch.Specs) > 0:
		reason = incremental.ReasonSpec
		s.log.Info("specification file changed on disk: rebuilding", zap.Strings("paths", slices.Sorted(maps.Keys(ch.Specs))))
	}
	if reason != "" {
		s.Rebuild(ctx, reason)
	}
	if s.watch.applied != nil {
		s.watch.applied(reason)
	}
	return nil, nil
}
