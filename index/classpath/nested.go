package classpath

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// Archives nested in a jar are how applications ship: a Spring Boot
// executable jar holds its classes under BOOT-INF/classes/ and its
// dependencies as jars under BOOT-INF/lib/, a WAR under WEB-INF/classes/ and
// WEB-INF/lib/, an EAR holds its modules (jars, WARs, RARs) at the root and
// its libraries under lib/. Their classes are named after the nested archive:
// Container is "app.war!/WEB-INF/lib/dep.jar" (the '!/' separator of jar
// URLs), Entry the entry in it. Classes of a class directory inside an
// archive keep the archive as Container and the full entry name
// ("BOOT-INF/classes/com/x/Y.class"), so that Location gives the same form.
//
// A stored (uncompressed) nested archive, the form Spring Boot requires, is
// read in place through a window on its container: it costs no memory. A
// compressed one must be inflated into memory, up to MaxNestedJarSize.

// Limits on the archives nested in one container file. Real applications
// nest at most two deep (an EAR's WAR's library) and hold a few hundred
// libraries; these keep a hostile file from making the reader recurse,
// allocate or work without bound.
const (
	// MaxNestedJarSize is the largest compressed nested archive inflated
	// into memory; at most one per nesting level is in memory at a time.
	MaxNestedJarSize = 512 << 20
	// maxNestingDepth is how deep archives are opened: 1 is a library of a
	// Spring Boot jar or WAR, 2 a library of a WAR inside an EAR.
	maxNestingDepth = 3
	// maxNestedJars and maxNestedEntries bound the nested archives of one
	// container file and their zip directory entries. Entries of a stored
	// archive may all point at the same bytes, so the file's size alone
	// does not bound them.
	maxNestedJars    = 10000
	maxNestedEntries = 1 << 21
)

// nestTree is what the archives nested in one container file share. Nested
// archives are read one after the other (their entries in parallel), so
// only total is touched concurrently.
type nestTree struct {
	// total is the budget of bytes the file and every archive in it may
	// read, shared so that entries pointing at the same stored archive
	// again and again cannot multiply the work.
	total    atomic.Int64
	jars     int // nested archives still allowed
	entries  int // directory entries of nested archives still allowed
	exceeded bool
	nested   []Container // the nested archives read, in class-path order
}

func newNestTree(size int64) *nestTree {
	t := &nestTree{jars: maxNestedJars, entries: maxNestedEntries}
	t.total.Store(maxRatio*size + MaxEntrySize)
	return t
}

// enter accounts for a nested archive of n directory entries.
func (t *nestTree) enter(n int) error {
	if n > t.entries {
		t.entries = 0
		return fmt.Errorf("%d zip entries, over what is left of the limit of %d entries in nested archives", n, maxNestedEntries)
	}
	t.entries -= n
	return nil
}

// nestedJar is an entry of an archive that is an archive on the class path.
type nestedJar struct {
	f      *zip.File
	origin Origin
}

// layout is the kind of archive, found from its entries.
type layout int

const (
	plainJar layout = iota
	bootJar         // Spring Boot executable jar
	warFile
	earFile
)

// detectLayout looks for the class and library directories, not just
// BOOT-INF/ or WEB-INF/: a plain jar may carry a WEB-INF/ of resources, and
// then its classes at the root must stay the application's.
func detectLayout(zr *zip.Reader, container string) layout {
	war := false
	ear := hasExt(container, ".ear")
	for _, f := range zr.File {
		switch {
		case strings.HasPrefix(f.Name, "BOOT-INF/classes/"), strings.HasPrefix(f.Name, "BOOT-INF/lib/"):
			return bootJar
		case strings.HasPrefix(f.Name, "WEB-INF/classes/"), strings.HasPrefix(f.Name, "WEB-INF/lib/"), f.Name == "WEB-INF/web.xml":
			war = true
		case strings.EqualFold(f.Name, "META-INF/application.xml"),
			!strings.Contains(f.Name, "/") && hasExt(f.Name, ".war"):
			ear = true
		}
	}
	switch {
	case war:
		return warFile
	case ear:
		return earFile
	}
	return plainJar
}

// libraryOrigin is the origin of what an archive of origin o ships as its
// dependencies (and of a Spring Boot jar's launcher).
func libraryOrigin(o Origin) Origin {
	if o == Application {
		return Library
	}
	return o
}

// pickLayout picks the classes of a jar, WAR or EAR and lists the archives
// nested in it that are on its class path, in the order a class loader
// would search them: the archive's root (a Spring Boot launcher loaded by
// the system class loader), its class directory, then the libraries.
func pickLayout(zr *zip.Reader, opt ReadOptions, w *warnList) ([]pick, []nestedJar) {
	mr := isMultiRelease(zr, w)
	lib := libraryOrigin(opt.Origin)
	taken := map[string]bool{}
	var jars []nestedJar
	switch kind := detectLayout(zr, opt.Container); kind {
	case bootJar, warFile:
		inf := "BOOT-INF/"
		if kind == warFile {
			inf = "WEB-INF/"
		}
		var root, classes []*zip.File
		for _, f := range zr.File {
			rest, in := strings.CutPrefix(f.Name, inf)
			switch {
			case !in:
				root = append(root, f)
			case strings.HasPrefix(rest, "classes/"):
				classes = append(classes, f)
			case isJarIn(rest, "lib/"), kind == warFile && isJarIn(rest, "lib-provided/"):
				// lib-provided/ is a Spring Boot executable WAR's: the
				// servlet container's API, on the class path when run.
				jars = append(jars, nestedJar{f, lib})
			}
		}
		if kind == bootJar {
			jars = orderByIndex(zr, jars, w)
		}
		picks := pickJarEntries(root, "", mr, opt.Release, lib, taken, w)
		picks = append(picks, pickJarEntries(classes, inf+"classes/", mr, opt.Release, opt.Origin, taken, w)...)
		return picks, jars
	case earFile:
		// The library directory is the parent of the modules' class loaders.
		var modules []nestedJar
		for _, f := range zr.File {
			switch {
			case isJarIn(f.Name, "lib/"):
				jars = append(jars, nestedJar{f, lib})
			case !strings.Contains(f.Name, "/") && (hasExt(f.Name, ".jar") || hasExt(f.Name, ".war") || hasExt(f.Name, ".rar")):
				modules = append(modules, nestedJar{f, opt.Origin})
			}
		}
		jars = append(jars, modules...)
	default:
		// Jars in a plain jar are loaded by its own launcher (One-JAR,
		// Eclipse's jar-in-jar loader) or not at all; reading them as
		// libraries errs on the side of more classes.
		for _, f := range zr.File {
			if hasExt(f.Name, ".jar") && !strings.HasPrefix(f.Name, "META-INF/") {
				jars = append(jars, nestedJar{f, lib})
			}
		}
	}
	return pickJarEntries(zr.File, "", mr, opt.Release, opt.Origin, taken, w), jars
}

// bootIndex is where Spring Boot (2.3 and later) records the order of a
// jar's libraries, which its launcher follows, in lines such as
// `- "BOOT-INF/lib/dep.jar"` (2.3 wrote the file name alone).
const bootIndex = "BOOT-INF/classpath.idx"

// orderByIndex puts the libraries the index lists first, in its order, as
// the launcher does; that order decides which of two copies of a class wins.
func orderByIndex(zr *zip.Reader, jars []nestedJar, w *warnList) []nestedJar {
	var idx *zip.File
	for _, f := range zr.File {
		if f.Name == bootIndex {
			idx = f
			break
		}
	}
	if idx == nil {
		return jars
	}
	rc, err := idx.Open()
	if err != nil {
		w.add(idx.Name, dataOffset(idx), fmt.Errorf("opening the class path index: %w", err))
		return jars
	}
	defer rc.Close()
	// Real indexes list a few hundred jars; a longer one is cut, which only
	// leaves the rest in entry order.
	sc := bufio.NewScanner(io.LimitReader(rc, maxManifest))
	rank := map[string]int{}
	for sc.Scan() {
		name, quoted := strings.CutPrefix(strings.TrimSpace(sc.Text()), "- \"")
		name, closed := strings.CutSuffix(name, "\"")
		if !quoted || !closed {
			continue
		}
		if !strings.Contains(name, "/") {
			name = "BOOT-INF/lib/" + name
		}
		if _, dup := rank[name]; !dup {
			rank[name] = len(rank)
		}
	}
	if err := sc.Err(); err != nil {
		w.add(idx.Name, dataOffset(idx), fmt.Errorf("reading the class path index: %w", err))
	}
	slices.SortStableFunc(jars, func(a, b nestedJar) int {
		ra, oka := rank[a.f.Name]
		rb, okb := rank[b.f.Name]
		switch {
		case oka && okb:
			return ra - rb
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return jars
}

// isJarIn says whether name is a jar directly in dir ("lib/"): class
// loaders of these layouts do not search subdirectories.
func isJarIn(name, dir string) bool {
	rest, ok := strings.CutPrefix(name, dir)
	return ok && !strings.Contains(rest, "/") && hasExt(rest, ".jar")
}

func hasExt(name, ext string) bool {
	return len(name) > len(ext) && strings.EqualFold(name[len(name)-len(ext):], ext)
}

// readNested reads the nested archives jars of the archive in r (of size
// bytes, named opt.Container), appending their classes to out. Problems
// become warnings in w naming the nested archive; only a cancelled ctx is
// an error.
func (t *nestTree) readNested(ctx context.Context, r io.ReaderAt, size int64, opt ReadOptions, jars []nestedJar,
	depth int, w *warnList, out []*Class) ([]*Class, error) {
	for _, j := range jars {
		path := opt.Container + "!/" + j.f.Name
		if depth+1 > maxNestingDepth {
			w.addWarnings([]Warning{{Container: path, Offset: -1,
				Msg: fmt.Sprintf("archive nested %d deep, over the limit of %d: skipped", depth+1, maxNestingDepth)}})
			continue
		}
		if t.jars == 0 || t.entries == 0 {
			if !t.exceeded {
				t.exceeded = true
				w.addWarnings([]Warning{{Container: path, Offset: -1,
					Msg: fmt.Sprintf("over %d nested archives or %d entries in them: this and later nested archives skipped", maxNestedJars, maxNestedEntries)}})
			}
			continue
		}
		t.jars--
		nr, nsize, err := openNested(j.f, r, size, &t.total)
		if err != nil {
			w.add(j.f.Name, dataOffset(j.f), fmt.Errorf("nested archive %s: %w", path, err))
			continue
		}
		nopt := opt
		nopt.Container, nopt.Origin, nopt.Module = path, j.origin, ""
		classes, warns, err := readZip(ctx, nr, nsize, 0, nopt, false, t, depth+1)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			nw := &warnList{container: path}
			nw.add("", -1, err)
			w.addWarnings(nw.done())
			continue
		}
		w.addWarnings(warns)
		out = append(out, classes...)
	}
	return out, nil
}

// openNested returns the bytes of the nested archive f of the archive in r.
// A stored one is a window on r: nothing is copied, and its entries are
// read from r when their classes are. Its CRC is not checked, as that would
// read it whole; the CRCs of the entries in it are.
func openNested(f *zip.File, r io.ReaderAt, size int64, total *atomic.Int64) (io.ReaderAt, int64, error) {
	if f.Method != zip.Store {
		b, err := readEntryLimit(f, size, total, MaxNestedJarSize)
		if err != nil {
			return nil, 0, err
		}
		return bytes.NewReader(b), int64(len(b)), nil
	}
	n := f.UncompressedSize64
	if f.CompressedSize64 != n {
		return nil, 0, fmt.Errorf("stored entry with compressed size %d but size %d", f.CompressedSize64, n)
	}
	off, err := f.DataOffset()
	if err != nil {
		return nil, 0, fmt.Errorf("reading the local header: %w", err)
	}
	if n > uint64(size) || off < 0 || off > size-int64(n) {
		return nil, 0, fmt.Errorf("stored entry of %d bytes at byte %d runs past the end of the archive (%d bytes)", n, off, size)
	}
	if total.Add(-int64(n)) < 0 {
		return nil, 0, fmt.Errorf("archive and its nested archives read over %d times its size", maxRatio)
	}
	return io.NewSectionReader(r, off, int64(n)), int64(n), nil
}

// Location is where the class file is, in the form of jar URLs:
// "app.war!/WEB-INF/lib/dep.jar!/com/x/Y.class" for a class of a nested jar,
// "lib/modules!/java.base/java/lang/Object.class" for the JDK's image, a file
// path for a class directory's.
func (c *Class) Location() string {
	switch {
	case c.inDir:
		return filepath.Join(c.Container, filepath.FromSlash(c.Entry))
	case strings.HasPrefix(c.Entry, "/"):
		return c.Container + "!" + c.Entry
	}
	return c.Container + "!/" + c.Entry
}
