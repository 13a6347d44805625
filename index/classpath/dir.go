package classpath

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// readDir lists the classes under a class directory. Symbolic links to
// files are followed, links to directories are not (they could loop).
// Unreadable directories and files become warnings.
func readDir(ctx context.Context, root string, opt ReadOptions) ([]*Class, []Warning, error) {
	w := &warnList{container: root}
	var entries []string
	done := ctx.Done()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		select {
		case <-done:
			return ctx.Err()
		default:
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if err != nil {
			if path == root {
				return err
			}
			w.add(rel, -1, err)
			return nil
		}
		if d.IsDir() {
			// META-INF of an exploded jar holds no loadable classes.
			if rel == "META-INF" {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, ".class") && (d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) {
			entries = append(entries, rel)
		}
		return nil
	})
	if err != nil {
		return nil, w.done(), err
	}
	classes := make([]*Class, len(entries))
	problems := make([]error, len(entries))
	err = forEach(ctx, opt.workers(), len(entries), func(i int) {
		entry := entries[i]
		name := strings.TrimSuffix(entry, ".class")
		if skipEntry(name) {
			return
		}
		if !validClassName(name) {
			problems[i] = fmt.Errorf("invalid class name %q", name)
			return
		}
		data, err := readClassFile(filepath.Join(root, filepath.FromSlash(entry)))
		if err == nil {
			err = checkClass(data)
		}
		if err != nil {
			problems[i] = err
			return
		}
		classes[i] = &Class{Name: name, Origin: opt.Origin, Container: opt.Container, Entry: entry,
			Module: opt.Module, Hash: hashClass(data), Data: data, inDir: true}
	})
	if err != nil {
		return nil, nil, err
	}
	out := classes[:0]
	for i, c := range classes {
		switch {
		case c != nil:
			out = append(out, c)
		case problems[i] != nil:
			w.add(entries[i], -1, problems[i])
		}
	}
	return out, w.done(), nil
}

// readClassFile reads a file of at most MaxEntrySize bytes.
func readClassFile(path string) ([]byte, error) { return ReadRegularFile(path, MaxEntrySize) }

// ReadRegularFile reads a regular file of at most limit bytes; a file that grows
// while being read is cut there, which its reader will then report. Anything else
// (a directory, a named pipe, a device) is an error, found before the file is
// opened: opening a named pipe, or a symbolic link to one, blocks until a writer
// comes.
func ReadRegularFile(path string, limit int64) ([]byte, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file (%s)", fileType(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("file of %d bytes, over the %d-byte limit", st.Size(), limit)
	}
	b := make([]byte, 0, st.Size()+1)
	b, err = readAllInto(b, io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("file over the %d-byte limit", limit)
	}
	return b, nil
}

func readAllInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
