package classpath

import (
	"archive/zip"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
)

// Limits for zip entries. A class file over 64 MiB does not exist in
// practice (the JVM's own limits make even 10 MiB rare); these exist so that
// a hostile or corrupt archive cannot exhaust memory.
const (
	// MaxEntrySize is the largest entry, uncompressed, that is read.
	MaxEntrySize = 64 << 20
	// maxRatio is the largest compression ratio accepted for entries over
	// ratioFloor bytes. Class files deflate about 2–4×; 100× is a bomb.
	maxRatio   = 100
	ratioFloor = 1 << 20
	// maxManifest bounds the part of META-INF/MANIFEST.MF that is read; the
	// main section comes first and is short.
	maxManifest = 1 << 20
)

// ReadOptions says what to record on the classes of one container.
type ReadOptions struct {
	Container string // recorded in Class.Container and in warnings
	Origin    Origin
	Module    string // recorded in Class.Module
	// Release selects the entries of a multi-release jar; below 9 only the
	// base entries are used.
	Release int
	Workers int // entries decompressed in parallel; 0 means GOMAXPROCS
}

func (o ReadOptions) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// ReadJar lists the classes of the jar (or zip) held in r. A multi-release
// jar (manifest main attribute "Multi-Release: true") contributes, for each
// class, the entry META-INF/versions/N/... with the largest N between 9 and
// opt.Release, else the base entry. Problems with single entries become
// warnings; the error is for an unreadable archive or a cancelled ctx.
//
// Archives nested in the jar are read too (see nested.go): the classes and
// libraries of Spring Boot jars, WAR and EAR files and jars inside plain jars;
// their classes name the nested archive in Container ("app.war!/WEB-INF/lib/x.jar").
func ReadJar(ctx context.Context, r io.ReaderAt, size int64, opt ReadOptions) ([]*Class, []Warning, error) {
	classes, warns, _, err := readJar(ctx, r, size, opt)
	return classes, warns, err
}

// readJar is ReadJar that also lists the nested archives it read.
func readJar(ctx context.Context, r io.ReaderAt, size int64, opt ReadOptions) ([]*Class, []Warning, []Container, error) {
	t := newNestTree(size)
	classes, warns, err := readZip(ctx, r, size, 0, opt, false, t, 0)
	return classes, warns, t.nested, err
}

// readZip reads a zip that starts at byte base of the container (4 for a
// jmod), so that warnings give offsets in the container's file. t is shared
// by all the archives nested in one container file, depth is how deep this
// one is nested (0 for the file itself).
func readZip(ctx context.Context, r io.ReaderAt, size, base int64, opt ReadOptions, jmod bool, t *nestTree, depth int) ([]*Class, []Warning, error) {
	w := &warnList{container: opt.Container, base: base}
	zr, err := zip.NewReader(r, size)
	if errors.Is(err, zip.ErrInsecurePath) {
		// Names like "../x" are irrelevant here: nothing is extracted, and
		// such names fail validClassName below.
		err = nil
	}
	if err != nil {
		// The directory is at the end: a truncated archive fails here.
		return nil, nil, &FormatError{Offset: base + size, Err: fmt.Errorf("reading the zip directory at the end of the file: %w", err)}
	}
	var picks []pick
	var jars []nestedJar
	if jmod {
		picks = pickJmodEntries(zr, w)
		for i := range picks {
			picks[i].origin = opt.Origin
		}
	} else {
		if depth > 0 {
			if err := t.enter(len(zr.File)); err != nil {
				return nil, nil, err
			}
			t.nested = append(t.nested, Container{Path: opt.Container, Origin: opt.Origin})
		}
		picks, jars = pickLayout(zr, opt, w)
	}

	classes := make([]*Class, len(picks))
	problems := make([]error, len(picks))
	// The total bound stops archives whose entries all point at one small
	// compressed bomb, which per-entry limits alone would let through. Nested
	// archives share their container file's budget (see nestTree).
	total := &t.total
	err = forEach(ctx, opt.workers(), len(picks), func(i int) {
		p := picks[i]
		data, err := readEntry(p.f, size, total)
		if err == nil {
			err = checkClass(data)
		}
		if err != nil {
			problems[i] = err
			return
		}
		classes[i] = &Class{Name: p.name, Origin: p.origin, Container: opt.Container,
			Entry: p.f.Name, Module: opt.Module, Hash: hashClass(data), Data: data}
	})
	if err != nil {
		return nil, nil, err
	}
	out := classes[:0]
	for i, c := range classes {
		if c != nil {
			out = append(out, c)
			continue
		}
		w.add(picks[i].f.Name, dataOffset(picks[i].f), problems[i])
	}
	out, err = t.readNested(ctx, r, size, opt, jars, depth, w, out)
	if err != nil {
		return nil, nil, err
	}
	return out, w.done(), nil
}

// pick is the entry chosen for one class name.
type pick struct {
	f       *zip.File
	name    string
	version int    // multi-release version, 0 for the base entry
	origin  Origin // a Spring Boot jar's launcher classes are not the application
}

// versionsDir holds the versioned entries of a multi-release jar.
const versionsDir = "META-INF/versions/"

// pickJarEntries picks the classes of files, entries whose names start
// with prefix (a class directory such as "BOOT-INF/classes/", or ""); mr says
// whether the jar is a multi-release one. Names in taken were picked from
// another part of the jar, which wins; the names picked are added to it.
func pickJarEntries(files []*zip.File, prefix string, mr bool, release int, origin Origin, taken map[string]bool, w *warnList) []pick {
	var picks []pick
	index := map[string]int{}
	for _, f := range files {
		entry := f.Name
		if !strings.HasSuffix(entry, ".class") {
			continue
		}
		path, version := strings.TrimPrefix(entry, prefix), 0
		if strings.HasPrefix(path, "META-INF/") {
			// Outside versions/, META-INF holds no loadable classes; inside,
			// only multi-release jars give it a meaning.
			rest, ok := strings.CutPrefix(path, versionsDir)
			if !ok || !mr {
				continue
			}
			v, p, ok := strings.Cut(rest, "/")
			n, err := strconv.Atoi(v)
			if !ok || err != nil || v[0] < '0' || v[0] > '9' || n < 9 || n > release || strings.HasPrefix(p, "META-INF/") {
				continue
			}
			path, version = p, n
		}
		name := strings.TrimSuffix(path, ".class")
		if skipEntry(name) {
			continue
		}
		if !validClassName(name) {
			w.add(entry, dataOffset(f), fmt.Errorf("invalid class name %q", name))
			continue
		}
		i, seen := index[name]
		switch {
		case taken[name]:
			w.add(entry, dataOffset(f), fmt.Errorf("class %s is also elsewhere in the archive, the first one is used", name))
		case !seen:
			index[name] = len(picks)
			picks = append(picks, pick{f: f, name: name, version: version, origin: origin})
		case picks[i].version == version:
			w.add(entry, dataOffset(f), fmt.Errorf("duplicate entry, the first one is used"))
		case picks[i].version < version:
			picks[i].f, picks[i].version = f, version
		}
	}
	for _, p := range picks {
		taken[p.name] = true
	}
	return picks
}

// isMultiRelease reads the main section of the manifest, as
// java.util.jar.JarFile does: names are case-insensitive, as is "true".
func isMultiRelease(zr *zip.Reader, w *warnList) bool {
	var mf *zip.File
	for _, f := range zr.File {
		if strings.EqualFold(f.Name, "META-INF/MANIFEST.MF") {
			mf = f
			break
		}
	}
	if mf == nil {
		return false
	}
	rc, err := mf.Open()
	if err != nil {
		w.add(mf.Name, dataOffset(mf), fmt.Errorf("opening manifest: %w", err))
		return false
	}
	defer rc.Close()
	sc := bufio.NewScanner(io.LimitReader(rc, maxManifest))
	sc.Buffer(nil, maxManifest)
	var attr string // the current attribute, with continuation lines
	found := false
	check := func() {
		name, value, ok := strings.Cut(attr, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Multi-Release") && strings.EqualFold(strings.TrimSpace(value), "true") {
			found = true
		}
	}
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			break // end of the main section
		}
		if line[0] == ' ' {
			attr += line[1:]
			continue
		}
		check()
		attr = line
	}
	check()
	if err := sc.Err(); err != nil && !errors.Is(err, bufio.ErrTooLong) {
		w.add(mf.Name, dataOffset(mf), fmt.Errorf("reading manifest: %w", err))
	}
	return found
}

// readEntry reads one entry of an archive of size bytes within the limits.
// total is the remaining budget of uncompressed bytes for the whole archive.
// The checks come before the buffer is allocated, so that the allocation is
// bounded by what the file could really hold.
func readEntry(f *zip.File, size int64, total *atomic.Int64) ([]byte, error) {
	return readEntryLimit(f, size, total, MaxEntrySize)
}

// readEntryLimit is readEntry for entries of up to limit bytes.
func readEntryLimit(f *zip.File, size int64, total *atomic.Int64, limit uint64) ([]byte, error) {
	declared := f.UncompressedSize64
	switch {
	case declared > limit:
		return nil, fmt.Errorf("entry declares %d bytes, over the %d-byte limit", declared, limit)
	case f.CompressedSize64 > uint64(size):
		return nil, fmt.Errorf("compressed size %d larger than the archive", f.CompressedSize64)
	case f.Method == zip.Store && f.CompressedSize64 != declared:
		return nil, fmt.Errorf("stored entry with compressed size %d but size %d", f.CompressedSize64, declared)
	case declared > ratioFloor && declared/max(f.CompressedSize64, 1) > maxRatio:
		return nil, fmt.Errorf("compression ratio %d:1 over %d:1 (zip bomb?)", declared/max(f.CompressedSize64, 1), maxRatio)
	}
	if total.Add(-int64(declared)) < 0 {
		return nil, fmt.Errorf("archive inflates to over %d times its size", maxRatio)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b := make([]byte, declared)
	if _, err := io.ReadFull(rc, b); err != nil {
		return nil, fmt.Errorf("reading %d bytes: %w", declared, err)
	}
	// One more read lets archive/zip verify the CRC and notice data beyond
	// the declared size, without inflating any of it into memory.
	var extra [1]byte
	switch n, err := io.ReadFull(io.LimitReader(rc, 1), extra[:]); {
	case n > 0:
		return nil, fmt.Errorf("entry longer than its declared %d bytes", declared)
	case errors.Is(err, zip.ErrFormat):
		// archive/zip's verdict on data beyond the declared size.
		return nil, fmt.Errorf("entry longer than its declared %d bytes: %w", declared, err)
	case err != io.EOF:
		return nil, fmt.Errorf("after %d bytes: %w", declared, err)
	}
	return b, nil
}

// dataOffset is where the entry's data start, for error messages; -1 when
// even the local header cannot be read.
func dataOffset(f *zip.File) int64 {
	off, err := f.DataOffset()
	if err != nil {
		return -1
	}
	return off
}
