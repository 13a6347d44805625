package classpath

import (
	"context"
	"os"
	"time"

	"github.com/jcg-lsp/jcg-lsp/internal/refcount"
)

// Reopen is Open for a class path that was opened before: a container file (the
// JDK's image, a jar, a jmod) whose path, size and modification time are those prev
// read is not read again; the new class path shares its classes, and the memory
// mapping they live in, with prev. Directories are always read again: they are what
// build tools rewrite. prev may be nil, and may be closed before or after the new
// class path (a shared mapping is unmapped when the last class path using it closes).
//
// This is what makes re-indexing after a change to one class cheap: the JDK's image
// index is not decoded and library jars are not inflated again.
func Reopen(ctx context.Context, cfg Config, prev *ClassPath) (*ClassPath, error) {
	return open(ctx, cfg, prev)
}

// container is one container file as it was read, kept for Reopen.
type container struct {
	origin  Origin
	release int
	size    int64
	mod     time.Time
	classes []*Class
	warns   []Warning
	nested  []Container // archives read inside the file
	mapping *mapping    // the memory mapping of classes' Data; nil for heap data
}

// mapping is a memory mapping shared by the class paths that use it.
type mapping struct {
	refs  refcount.Count
	data  []byte // the mapped pages; nil when the file was read onto the heap
	unmap func() error
}

func newMapping(data []byte, mapped bool, unmap func() error) *mapping {
	m := &mapping{unmap: unmap}
	if mapped {
		m.data = data
	}
	m.refs.Init()
	return m
}

// dropPages drops the mapped pages from the resident set (see ClassPath.DropPages).
// It holds a reference meanwhile, so that the pages are not unmapped under it.
func (m *mapping) dropPages() error {
	if m.data == nil || !m.refs.Acquire() {
		return nil
	}
	defer m.release()
	return dropPages(m.data)
}

// release drops a reference, unmapping with the last one.
func (m *mapping) release() error {
	if m.refs.Release() {
		return m.unmap()
	}
	return nil
}

// reuse returns what prev read from the container file at path when the file is
// unchanged since, taking a reference on its mapping; ok is false otherwise.
func (l *loader) reuse(u *unit, path string) (c *container, ok bool) {
	old := l.prev[path]
	if old == nil || old.origin != u.origin || old.release != l.release {
		return nil, false
	}
	st, err := os.Stat(path)
	if err != nil || st.Size() != old.size || !st.ModTime().Equal(old.mod) {
		return nil, false
	}
	if old.mapping != nil && !old.mapping.refs.Acquire() {
		return nil, false
	}
	return old, true
}

// record remembers a container file read for a later Reopen; the file's size and
// time are taken before reading it, so a file rewritten meanwhile is read again.
func (l *loader) record(u *unit, path string, st os.FileInfo, classes []*Class, warns []Warning, nested []Container, m *mapping) {
	if st == nil {
		return
	}
	u.containers = append(u.containers, containerAt{path, &container{origin: u.origin, release: l.release,
		size: st.Size(), mod: st.ModTime(), classes: classes, warns: warns, nested: nested, mapping: m}})
}

type containerAt struct {
	path string
	c    *container
}
