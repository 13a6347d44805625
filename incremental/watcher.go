package incremental

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/config"
	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
)

// WatchOptions configure a Watcher.
type WatchOptions struct {
	// Quiet is the debounce period: a change set is applied once no event arrived
	// for this long. Default 150 ms.
	Quiet time.Duration
	// PollInterval is the period of the mtime/size scan of directories that could not
	// be watched (inotify watch limit). Default 2 s.
	PollInterval time.Duration
	// MaxRetries bounds how often an unparseable class file defers an update before
	// it is indexed anyway (and reported as a warning). Default 5.
	MaxRetries int
	Logger     *zap.Logger
	// Files are more files to watch, such as the specification files of the
	// projects.
	Files []string

	// addWatch replaces fsnotify's Add in tests (to simulate the watch limit);
	// errs replaces its Errors channel (to simulate an overflow).
	addWatch func(string) error
	errs     <-chan error
	// paths replaces the host's way of comparing paths in tests (to check a
	// case-insensitive file system's on Linux).
	paths *fspath.Flavor
}

// Watcher watches the class directories and jars of a class path and a few more
// files (the specification files) and hands debounced change sets to a function
// (the server's: Host.Changed tells what they change). The JDK is not watched.
type Watcher struct {
	apply ApplyFunc
	opts  WatchOptions
	log   *zap.Logger
	fsw   *fsnotify.Watcher

	// Paths are compared as the file system does (paths): an event names a file as
	// the directory listing spells it, which on a case-insensitive file system need
	// not be how the class path or the settings spell it.
	paths  fspath.Flavor
	roots  []string          // class directories (absolute)
	files  map[string]string // jars and the specification file: key -> path as configured
	parent map[string]string // parents of roots and files, watched for create/remove: key -> path

	// owned by the loop goroutine
	pending  ChangeSet
	retries  map[string]int
	polled   map[string]bool                 // directories scanned instead of watched
	pollSeen map[string]map[string]fileStamp // polled directory -> entry path -> last stamp
	warned   bool
	timer    *time.Timer
	ticker   *time.Ticker

	results chan []string // deferred paths of an applied change set
	cancel  context.CancelFunc
	done    chan struct{}
	updates sync.WaitGroup
}

// ancestorDepth is how many directories above a watched directory's parent are
// watched for its re-creation.
const ancestorDepth = 2

type fileStamp struct {
	mod  time.Time
	size int64
}

// ApplyFunc takes a debounced change set. It returns the changed class files it
// could not parse (probably still being written): the watcher hands them again once
// they are quiet, and apply must keep the rest of the change set itself until then.
// A newer change set cancels ctx; a context.Canceled error is not logged.
type ApplyFunc func(ctx context.Context, cs ChangeSet) (deferred []string, err error)

// Watch starts watching the non-JDK entries of cfg's class path and files, handing
// their debounced change sets to apply. Stop it with Close.
func Watch(cfg index.Config, files []string, apply ApplyFunc, opts WatchOptions) (*Watcher, error) {
	if opts.Quiet <= 0 {
		opts.Quiet = 150 * time.Millisecond
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = 2 * time.Second
	}
	if opts.MaxRetries <= 0 {
		opts.MaxRetries = 5
	}
	fsw, err := fsnotify.NewBufferedWatcher(1024)
	if err != nil {
		return nil, err
	}
	w := &Watcher{apply: apply, opts: opts, log: opts.Logger, fsw: fsw, paths: fspath.Host(),
		files: map[string]string{}, parent: map[string]string{},
		retries: map[string]int{}, polled: map[string]bool{}, pollSeen: map[string]map[string]fileStamp{},
		results: make(chan []string, 16), done: make(chan struct{})}
	if w.log == nil {
		w.log = zap.NewNop()
	}
	if w.opts.addWatch == nil {
		w.opts.addWatch = fsw.Add
	}
	if w.opts.errs == nil {
		w.opts.errs = fsw.Errors
	}
	if opts.paths != nil {
		w.paths = *opts.paths
	}
	for _, src := range cfg.Sources {
		if src.Origin == classpath.JDK {
			continue
		}
		abs, err := filepath.Abs(src.Path)
		if err != nil {
			continue
		}
		if st, err := os.Stat(abs); err == nil && !st.IsDir() {
			w.files[w.paths.Key(abs)] = abs
		} else {
			w.roots = append(w.roots, abs) // a missing directory may appear later
		}
		w.addParent(filepath.Dir(abs))
	}
	for _, f := range append(files, opts.Files...) {
		if abs, err := filepath.Abs(f); f != "" && err == nil {
			w.files[w.paths.Key(abs)] = abs
			w.addParent(filepath.Dir(abs))
		}
	}
	// Watch a few ancestors too: a clean build often deletes the folder above the
	// class directory (target/ of target/classes), taking the parent's watch with it.
	for _, p := range slices.Collect(maps.Values(w.parent)) {
		for i, a := 0, p; i < ancestorDepth && filepath.Dir(a) != a; i, a = i+1, filepath.Dir(a) {
			w.addParent(a)
		}
	}
	for _, p := range w.parent {
		w.add(p)
	}
	for _, r := range w.roots {
		w.addTree(r, false)
	}
	w.timer = time.NewTimer(time.Hour)
	w.timer.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	go w.loop(ctx)
	return w, nil
}

// addParent records a directory to watch for the creation and removal of what is
// watched below it; of two spellings the first stays.
func (w *Watcher) addParent(dir string) {
	if k := w.paths.Key(dir); w.parent[k] == "" {
		w.parent[k] = dir
	}
}

// Close stops watching and waits for the updates it started.
func (w *Watcher) Close() error {
	w.cancel()
	<-w.done
	w.updates.Wait()
	return w.fsw.Close()
}

// add watches one directory, falling back to polling at the watch limit.
func (w *Watcher) add(dir string) {
	err := w.opts.addWatch(dir)
	switch {
	case err == nil:
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE):
		if !w.warned {
			w.warned = true
			w.log.Warn("incremental: inotify watch limit reached; polling the directories that cannot be watched (raise fs.inotify.max_user_watches)",
				zap.String("dir", dir), zap.Error(err))
		}
		if !w.polled[dir] {
			w.polled[dir] = true
			w.scanPolled(dir, false)
		}
		if w.ticker == nil {
			w.ticker = time.NewTicker(w.opts.PollInterval)
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		w.log.Warn("incremental: cannot watch", zap.String("dir", dir), zap.Error(err))
	}
}

// addTree watches dir and every directory below it; with report, every file found is
// added to the pending change set (files created before the watch was in place).
func (w *Watcher) addTree(dir string, report bool) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			w.add(p)
		} else if report {
			w.pending.Paths = append(w.pending.Paths, p)
		}
		return nil
	})
}

func (w *Watcher) inTree(p string) bool {
	for _, r := range w.roots {
		if w.paths.Within(r, p) {
			return true
		}
	}
	return false
}

// configEntry reports whether p is a file of a class directory that the class
// path's configuration reads (a services file, a container's index file): a change
// to it changes the graph as a class file's would (Host.Changed re-reads the class
// path for any path that is not a class file).
func (w *Watcher) configEntry(p string) bool {
	for _, r := range w.roots {
		if w.below(r, p) {
			if rel, err := filepath.Rel(r, p); err == nil && config.ReadsDirEntry(filepath.ToSlash(rel)) {
				return true
			}
		}
	}
	return false
}

// below reports whether p is below dir (not dir itself).
func (w *Watcher) below(dir, p string) bool { return w.paths.Within(dir, p) && !w.paths.Same(dir, p) }

// aboveRoot reports whether p is a directory above a watched root or file.
func (w *Watcher) aboveRoot(p string) bool {
	for _, r := range w.roots {
		if w.below(p, r) {
			return true
		}
	}
	for _, f := range w.files {
		if w.below(p, f) {
			return true
		}
	}
	return false
}

func (w *Watcher) isRoot(p string) bool {
	for _, r := range w.roots {
		if w.paths.Same(p, r) {
			return true
		}
	}
	return false
}

func (w *Watcher) loop(ctx context.Context) {
	defer close(w.done)
	defer func() {
		if w.ticker != nil {
			w.ticker.Stop()
		}
		w.timer.Stop()
	}()
	for {
		var tick <-chan time.Time
		if w.ticker != nil {
			tick = w.ticker.C
		}
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if w.event(ev) {
				w.timer.Reset(w.opts.Quiet)
			}
		case err, ok := <-w.opts.errs:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.log.Warn("incremental: file event overflow; rescanning")
				for _, r := range w.roots {
					w.addTree(r, false)
				}
				w.pending.Full = true
				w.timer.Reset(w.opts.Quiet)
			} else {
				w.log.Warn("incremental: watcher error", zap.Error(err))
			}
		case <-tick:
			changed := false
			for d := range w.polled {
				if w.scanPolled(d, true) {
					changed = true
				}
			}
			if changed {
				w.timer.Reset(w.opts.Quiet)
			}
		case <-w.timer.C:
			w.flush(ctx)
		case deferred := <-w.results:
			if len(deferred) == 0 {
				break
			}
			var again []string
			for _, p := range deferred {
				w.retries[p]++
				if w.retries[p] > w.opts.MaxRetries {
					w.log.Warn("incremental: class file still unparseable; indexing it anyway", zap.String("path", p))
					delete(w.retries, p)
					w.pending.Full = true
					continue
				}
				again = append(again, p)
			}
			w.pending.Paths = append(w.pending.Paths, again...)
			w.timer.Reset(w.opts.Quiet)
		}
	}
}

// event records one fsnotify event; it reports whether it is relevant.
func (w *Watcher) event(ev fsnotify.Event) bool {
	p := filepath.Clean(ev.Name)
	k := w.paths.Key(p)
	switch {
	case w.files[k] != "":
		// As configured: the specification file is known by that spelling.
		w.pending.Paths = append(w.pending.Paths, w.files[k])
		return true
	case w.parent[k] != "" && !w.inTree(p) && w.aboveRoot(p):
		// A folder above a class directory, jar or the specification file was created
		// or removed: re-watch what exists now and rescan.
		if ev.Has(fsnotify.Create) {
			for _, a := range w.parent {
				w.add(a)
			}
			for _, r := range w.roots {
				if w.below(p, r) {
					w.addTree(r, false)
				}
			}
		}
		w.pending.Full = true
		return true
	case w.isRoot(p):
		// The output folder itself was created, removed or renamed.
		if ev.Has(fsnotify.Create) {
			w.addTree(p, true)
		}
		w.pending.Full = true
		return true
	case w.inTree(p):
		if ev.Has(fsnotify.Create) {
			if st, err := os.Lstat(p); err == nil && st.IsDir() {
				w.addTree(p, true)
				w.pending.Paths = append(w.pending.Paths, p)
				return true
			}
		}
		// A removed or renamed directory takes its classes with it; other files
		// (temporaries of a temp+rename write) do not matter.
		gone := (ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)) && filepath.Ext(p) == ""
		if strings.HasSuffix(p, ".class") || gone || w.configEntry(p) {
			w.pending.Paths = append(w.pending.Paths, p)
			return true
		}
	}
	return false
}

// scanPolled compares the files directly in dir (and below, for directories that are
// polled too) with the last scan; with report, differences go to the change set.
func (w *Watcher) scanPolled(dir string, report bool) bool {
	changed := false
	last := w.pollSeen[dir]
	if last == nil {
		last = map[string]fileStamp{}
		w.pollSeen[dir] = last
	}
	seen := map[string]bool{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if e.IsDir() {
			if report && !w.polled[p] {
				if _, ok := last[p]; !ok {
					last[p] = fileStamp{}
					w.add(p) // a new directory: watch (or poll) it
					w.addTree(p, true)
					changed = true
				}
			}
			seen[p] = true
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		seen[p] = true
		st := fileStamp{info.ModTime(), info.Size()}
		if old, ok := last[p]; !ok || old != st {
			last[p] = st
			if report {
				w.pending.Paths = append(w.pending.Paths, p)
				changed = true
			}
		}
	}
	for p := range last {
		if !seen[p] {
			delete(last, p)
			if report {
				w.pending.Paths = append(w.pending.Paths, p)
				changed = true
			}
		}
	}
	return changed
}

// flush applies the pending change set in the background; a newer one cancels it.
func (w *Watcher) flush(ctx context.Context) {
	if w.pending.empty() {
		return
	}
	cs := w.pending
	w.pending = ChangeSet{}
	w.updates.Add(1)
	go func() {
		defer w.updates.Done()
		deferred, err := w.apply(ctx, cs)
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				w.log.Warn("incremental: update failed", zap.Error(err))
			}
			return
		}
		if len(deferred) > 0 {
			select {
			case w.results <- deferred:
			case <-ctx.Done():
			}
		}
	}()
}
