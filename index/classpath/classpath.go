package classpath

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// Origin says where a class comes from; analyses use it to decide what is
// the user's code and what is a dependency.
type Origin uint8

const (
	Application Origin = iota // the user's own compiled classes
	Library                   // third-party dependencies
	JDK                       // the Java platform itself
)

func (o Origin) String() string {
	switch o {
	case Application:
		return "application"
	case Library:
		return "library"
	case JDK:
		return "jdk"
	}
	return fmt.Sprintf("Origin(%d)", uint8(o))
}

// Source is one class-path element: a class directory, a jar (or zip), a
// .jmod, a jimage file (lib/modules) or a JDK home. The kind is detected from
// the file's magic number, so a jar with a prepended launcher script works.
type Source struct {
	Path   string
	Origin Origin
}

// Config describes a class path.
type Config struct {
	// Sources in class-path order. They are searched after the JDK.
	Sources []Source
	// JDKHome is the JDK to use. When empty it is found from JAVA_HOME, then
	// from the java command on PATH (see [FindJDK]). A Source with Origin JDK
	// replaces the discovered JDK, so that no JDK is loaded twice.
	JDKHome string
	// NoJDK leaves the JDK out, e.g. for tests or analyses of a bare jar.
	NoJDK bool
	// Release picks the entries of multi-release jars. Zero means the JDK's
	// feature version (from its release file), or 17 when that is unknown.
	Release int
}

// Class is one class file found on the class path.
type Class struct {
	Name      string // internal form, e.g. "java/lang/String"
	Origin    Origin
	Container string // path of the directory, jar, jmod or jimage
	// Entry is the path inside Container: relative file path (with '/') for
	// a directory, zip entry name for jars and jmods (a versioned one for
	// multi-release jars), "/java.base/java/lang/String.class" for a jimage.
	Entry  string
	Module string // the module of jimage and jmod classes, else ""
	Hash   uint64 // xxhash64 of Data: cheap change detection for incremental indexing
	// Data is the class file. For the JDK image it points into a read-only
	// memory mapping: never modify it, and do not use it after Close.
	Data []byte

	inDir bool // Container is a directory, for Location
}

// Warning is a problem with one container or entry that did not stop the
// rest of the class path from loading.
type Warning struct {
	Container string
	Entry     string // "" when the problem concerns the whole container
	Offset    int64  // byte offset in Container, or -1 when meaningless
	Msg       string
	Err       error // underlying error for errors.Is/As, may be nil
}

func (w Warning) Error() string {
	var b strings.Builder
	b.WriteString("classpath: ")
	b.WriteString(w.Container)
	if w.Entry != "" {
		b.WriteString(": ")
		b.WriteString(w.Entry)
	}
	if w.Offset >= 0 {
		fmt.Fprintf(&b, ": at byte %#x", w.Offset)
	}
	b.WriteString(": ")
	b.WriteString(w.Msg)
	return b.String()
}

func (w Warning) Unwrap() error { return w.Err }

// ClassPath is an opened class path. Its fields must not be modified.
type ClassPath struct {
	// Classes in resolution order: JDK first, then the sources in order,
	// each class name once (the winner).
	Classes []*Class
	// Shadowed are the classes hidden by an earlier class of the same name.
	Shadowed []*Class
	Warnings []Warning
	JDKHome  string // the JDK loaded, discovered or given as a Source; may be ""
	Release  int    // the release used for multi-release jars
	// Containers are the directories, jars, jmods and images read, in
	// resolution order, for readers of what they hold besides classes
	// (module descriptors, META-INF/services; see index/config).
	Containers []Container
	// Nested are the archives read inside the jars of Containers (a Spring
	// Boot jar's or a WAR's libraries, an EAR's modules), in resolution
	// order, named "outer.war!/WEB-INF/lib/dep.jar". They are not files:
	// readers of Containers do not see them.
	Nested []Container

	byName     map[string]*Class
	mappings   []*mapping            // one reference on each
	containers map[string]*container // container files by path, for Reopen
}

// Container is one container of a class path.
type Container struct {
	Path   string
	Origin Origin
}

// Lookup returns the class with the given internal name, or nil.
func (cp *ClassPath) Lookup(name string) *Class { return cp.byName[name] }

// Close releases the memory mappings; calling it again does nothing. Data of
// JDK image classes must not be used afterwards.
func (cp *ClassPath) Close() error {
	var errs []error
	for _, m := range cp.mappings {
		errs = append(errs, m.release())
	}
	cp.mappings = nil
	return errors.Join(errs...)
}

// DropPages tells the kernel that the mapped pages of the class path's files (the
// JDK image) are not needed for now. They leave the process's resident set and come
// back from the page cache, without a copy, when a class is read again. A server
// calls it once idle: an analysis reads every class of the image, and the pages would
// otherwise stay resident (about 115 MiB of the JDK 17 image) for nothing.
func (cp *ClassPath) DropPages() error {
	var errs []error
	for _, m := range cp.mappings {
		errs = append(errs, m.dropPages())
	}
	return errors.Join(errs...)
}

// defaultRelease is used for multi-release jars when neither the
// configuration nor the JDK says which release runs them.
const defaultRelease = 17

// maxWarningsPerContainer keeps one broken container (a truncated image
// yields one problem per entry) from drowning every other message.
const maxWarningsPerContainer = 100

// Open reads every class of the class path. Problems with single containers
// or entries end up in Warnings; the error is non-nil only when the JDK is
// required and cannot be found, or when ctx is cancelled.
func Open(ctx context.Context, cfg Config) (*ClassPath, error) {
	return open(ctx, cfg, nil)
}

func open(ctx context.Context, cfg Config, prev *ClassPath) (*ClassPath, error) {
	cp := &ClassPath{Release: cfg.Release, containers: map[string]*container{}}
	var units []unit
	wantJDK := !cfg.NoJDK && !slices.ContainsFunc(cfg.Sources, func(s Source) bool { return s.Origin == JDK })
	if wantJDK {
		home, skipped, err := findJDK(cfg.JDKHome)
		if err != nil {
			return nil, err
		}
		for _, e := range skipped {
			cp.Warnings = append(cp.Warnings, Warning{Container: home, Offset: -1, Msg: e.Error(), Err: e})
		}
		cp.JDKHome = home
		if cp.Release == 0 {
			cp.Release = jdkRelease(home)
		}
		units = append(units, unit{path: home, origin: JDK})
	}
	for _, s := range cfg.Sources {
		units = append(units, unit{path: s.Path, origin: s.Origin})
		if s.Origin == JDK && cp.JDKHome == "" && isJDKHome(s.Path) {
			cp.JDKHome = s.Path
			if cp.Release == 0 {
				cp.Release = jdkRelease(s.Path)
			}
		}
	}
	if cp.Release == 0 {
		cp.Release = defaultRelease
	}

	// Sources load concurrently; each also parallelises its own entries.
	// Goroutines are cheap, and the CPU work stays bounded by GOMAXPROCS.
	l := &loader{release: cp.Release, workers: runtime.GOMAXPROCS(0)}
	if prev != nil {
		l.prev = prev.containers
	}
	err := forEach(ctx, l.workers, len(units), func(i int) { l.loadUnit(ctx, &units[i]) })
	for _, u := range units {
		cp.mappings = append(cp.mappings, u.mappings...)
		for _, c := range u.containers {
			cp.containers[c.path] = c.c
		}
		cp.Containers = append(cp.Containers, u.opened...)
		cp.Nested = append(cp.Nested, u.nested...)
	}
	if err != nil {
		cp.Close()
		return nil, err
	}
	cp.merge(units)
	return cp, nil
}

// unit is one Source being loaded; a JDK home or a source that is one
// expands to several containers.
type unit struct {
	path     string
	origin   Origin
	classes  []*Class
	warns    []Warning
	mappings []*mapping // one reference on each
	// containers are the container files read or reused, for a later Reopen.
	containers []containerAt
	opened     []Container // every container whose kind was recognised
	nested     []Container // archives read inside the containers
}

// merge applies first-wins resolution and reports shadowing once per pair
// of containers: two versions of one library would otherwise produce a
// warning per class.
func (cp *ClassPath) merge(units []unit) {
	n := 0
	for _, u := range units {
		n += len(u.classes)
		cp.Warnings = append(cp.Warnings, u.warns...)
	}
	cp.byName = make(map[string]*Class, n)
	cp.Classes = make([]*Class, 0, n)
	type pair struct{ winner, loser string }
	type shadowing struct {
		first *Class
		n     int
	}
	var pairs []pair
	shadows := map[pair]*shadowing{}
	for _, u := range units {
		for _, c := range u.classes {
			prev, dup := cp.byName[c.Name]
			if !dup {
				cp.byName[c.Name] = c
				cp.Classes = append(cp.Classes, c)
				continue
			}
			cp.Shadowed = append(cp.Shadowed, c)
			k := pair{prev.Container, c.Container}
			s := shadows[k]
			if s == nil {
				s = &shadowing{first: c}
				shadows[k] = s
				pairs = append(pairs, k)
			}
			s.n++
		}
	}
	for _, k := range pairs {
		s := shadows[k]
		msg := fmt.Sprintf("class %s is shadowed by the one in %s, earlier on the class path", s.first.Name, k.winner)
		if s.n > 1 {
			msg = fmt.Sprintf("class %s and %d more are shadowed by the ones in %s, earlier on the class path", s.first.Name, s.n-1, k.winner)
		}
		cp.Warnings = append(cp.Warnings, Warning{Container: k.loser, Entry: s.first.Entry, Offset: -1, Msg: msg})
	}
}

// loader holds what every container reader needs.
type loader struct {
	release int
	workers int
	prev    map[string]*container // what an earlier Open read; nil for none
}

func (l *loader) loadUnit(ctx context.Context, u *unit) {
	if isJDKHome(u.path) {
		if paths, err := jdkContainers(u.path); err == nil {
			for _, p := range paths {
				l.loadContainer(ctx, u, p)
			}
			return
		}
	}
	l.loadContainer(ctx, u, u.path)
}

// containerKind is detected from content rather than file names: jars come
// as .jar, .zip, .war or extensionless cache files.
type containerKind int

const (
	kindUnknown containerKind = iota
	kindDir
	kindZip
	kindJmod
	kindImage
)

func detectKind(path string) (containerKind, error) {
	// Stat before opening: opening a named pipe for reading blocks until a
	// writer comes, and a device may never deliver an end of file.
	st, err := os.Stat(path)
	if err != nil {
		// The warning names the container already: keep the reason ("no such file or
		// directory"), which still matches os.ErrNotExist.
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == path {
			return kindUnknown, pe.Err
		}
		return kindUnknown, err
	}
	if st.IsDir() {
		return kindDir, nil
	}
	if !st.Mode().IsRegular() {
		return kindUnknown, fmt.Errorf("not a regular file or directory (%s): skipped", fileType(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return kindUnknown, err
	}
	defer f.Close()
	var m [4]byte
	n, err := io.ReadFull(f, m[:])
	switch {
	case n == 4 && string(m[:]) == jmodMagic:
		return kindJmod, nil
	case n == 4 && (string(m[:]) == "\xDA\xDA\xFE\xCA" || string(m[:]) == "\xCA\xFE\xDA\xDA"):
		return kindImage, nil
	case n >= 2 && string(m[:2]) == "PK":
		return kindZip, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jar", ".zip", ".war", ".ear":
		// Executable jars start with a launcher script; the zip reader
		// finds the archive from its end.
		return kindZip, nil
	case ".jmod":
		return kindJmod, nil
	}
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return kindUnknown, err
	}
	return kindUnknown, fmt.Errorf("not a directory, jar, jmod or jimage (starts with %q)", m[:n])
}

// fileType names the kind of a file that is neither regular nor a directory.
func fileType(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeCharDevice != 0:
		return "character device"
	case m&os.ModeDevice != 0:
		return "device"
	}
	return "mode " + m.String()
}

func (l *loader) loadContainer(ctx context.Context, u *unit, path string) {
	w := &warnList{container: path}
	defer func() { u.warns = append(u.warns, w.done()...) }()
	kind, err := detectKind(path)
	if err != nil {
		w.add("", -1, err)
		return
	}
	u.opened = append(u.opened, Container{Path: path, Origin: u.origin})
	var st os.FileInfo
	if kind != kindDir {
		if old, ok := l.reuse(u, path); ok {
			u.classes = append(u.classes, old.classes...)
			u.warns = append(u.warns, old.warns...)
			if old.mapping != nil {
				u.mappings = append(u.mappings, old.mapping)
			}
			u.nested = append(u.nested, old.nested...)
			u.containers = append(u.containers, containerAt{path, old})
			return
		}
		st, _ = os.Stat(path)
	}
	opt := ReadOptions{Container: path, Origin: u.origin, Release: l.release, Workers: l.workers}
	var classes []*Class
	var warns []Warning
	var mp *mapping
	var nested []Container
	defer func() {
		if err == nil {
			l.record(u, path, st, classes, warns, nested, mp)
		}
	}()
	switch kind {
	case kindDir:
		classes, warns, err = readDir(ctx, path, opt)
	case kindImage:
		classes, warns, mp, err = readImageFile(ctx, path, opt)
		if mp != nil {
			u.mappings = append(u.mappings, mp)
		}
	case kindZip, kindJmod:
		read := ReadJar
		if kind == kindJmod {
			read = ReadJmod
			opt.Module = strings.TrimSuffix(filepath.Base(path), ".jmod")
		} else {
			read = func(ctx context.Context, r io.ReaderAt, size int64, opt ReadOptions) ([]*Class, []Warning, error) {
				var cs []*Class
				var ws []Warning
				var err error
				cs, ws, nested, err = readJar(ctx, r, size, opt)
				return cs, ws, err
			}
		}
		classes, warns, err = readFile(ctx, path, opt, read)
		u.nested = append(u.nested, nested...)
	}
	// Readers cap their own lists; only the container-level error is added.
	u.warns = append(u.warns, warns...)
	if err != nil {
		w.add("", -1, err)
	}
	u.classes = append(u.classes, classes...)
}

func readFile(ctx context.Context, path string, opt ReadOptions,
	read func(context.Context, io.ReaderAt, int64, ReadOptions) ([]*Class, []Warning, error)) ([]*Class, []Warning, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	return read(ctx, f, st.Size(), opt)
}

// warnList collects the warnings of one container, up to a limit.
type warnList struct {
	container string
	base      int64 // added to offsets: where the data read starts in the file
	list      []Warning
	dropped   int
}

func (w *warnList) add(entry string, off int64, err error) {
	var fe *FormatError
	msg := err.Error()
	if errors.As(err, &fe) {
		if entry == "" {
			entry = fe.Entry
		}
		off, msg = fe.Offset, fe.Err.Error()
	}
	if off >= 0 {
		off += w.base
	}
	w.addWarnings([]Warning{{Container: w.container, Entry: entry, Offset: off, Msg: msg, Err: err}})
}

func (w *warnList) addWarnings(ws []Warning) {
	for _, x := range ws {
		if len(w.list) < maxWarningsPerContainer {
			w.list = append(w.list, x)
		} else {
			w.dropped++
		}
	}
}

func (w *warnList) done() []Warning {
	if w.dropped > 0 {
		w.list = append(w.list, Warning{Container: w.container, Offset: -1,
			Msg: fmt.Sprintf("%d more problems not reported", w.dropped)})
	}
	return w.list
}

// checkClass rejects entries that cannot be class files, so that consumers
// can rely on the magic number and the version fields being present.
func checkClass(b []byte) error {
	if len(b) < 10 {
		return fmt.Errorf("truncated class file (%d bytes)", len(b))
	}
	if m := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]); m != 0xCAFEBABE {
		return fmt.Errorf("not a class file (magic %#08x)", m)
	}
	return nil
}

func hashClass(b []byte) uint64 { return xxhash.Sum64(b) }

// validClassName rejects names that no class loader would accept as a
// binary name; they come from stray files, not from compilers.
func validClassName(name string) bool {
	prev := byte('/') // so that a leading '/' makes an empty segment
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '.', ';', '[', '\\':
			return false
		case '/':
			if prev == '/' {
				return false
			}
		}
		prev = name[i]
	}
	return prev != '/'
}

// skipEntry says whether a class-named entry is not a class for analysis.
func skipEntry(name string) bool {
	return name == "module-info" || strings.HasSuffix(name, "/module-info")
}
