package config

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// Limits on what is read. Real services files are a few hundred bytes and module
// descriptors a few kilobytes (java.base's is 11 KB); these stop a hostile entry
// from making the reader allocate more.
const (
	maxEntry      = 1 << 20
	maxServices   = 10000 // services files per container
	maxWarnings   = 100   // per container
	servicesDir   = "META-INF/services/"
	versionsDir   = "META-INF/versions/"
	moduleInfo    = "module-info.class"
	jmodMagic     = "JM\x01\x00"
	jmodClasses   = "classes/"
	maxManifest   = 1 << 20
	imageMagicLE  = "\xDA\xDA\xFE\xCA"
	imageMagicBE  = "\xCA\xFE\xDA\xDA"
	releaseMaxLen = 1 << 20
)

// container is what readContainer needs to know of one class-path element.
// archiveClassDirs are the class directories inside Spring Boot jars and WARs.
var archiveClassDirs = []string{"BOOT-INF/classes/", "WEB-INF/classes/"}

type container struct {
	path   string
	origin classpath.Origin
	nwarn  int
}

func (r *reader) readContainer(ct classpath.Container) {
	c := &container{path: ct.Path, origin: ct.Origin}
	st, err := os.Stat(ct.Path)
	if err != nil {
		r.cwarn(c, "", 0, "%v", err)
		return
	}
	if st.IsDir() {
		r.readDir(c)
		return
	}
	if !st.Mode().IsRegular() {
		// Opening a named pipe would block until a writer comes.
		r.cwarn(c, "", 0, "not a regular file or directory")
		return
	}
	f, err := os.Open(ct.Path)
	if err != nil {
		r.cwarn(c, "", 0, "%v", err)
		return
	}
	defer f.Close()
	var m [4]byte
	n, _ := io.ReadFull(f, m[:])
	switch magic := string(m[:n]); {
	case magic == imageMagicLE || magic == imageMagicBE:
		r.readImage(c, f, st.Size())
	case magic == jmodMagic:
		r.readZip(c, io.NewSectionReader(f, 4, st.Size()-4), st.Size()-4, true)
	default:
		// A jar may start with a launcher script; the zip reader finds the
		// directory from the end, as the class-path reader does.
		r.readZip(c, f, st.Size(), false)
	}
}

// cwarn records a warning of a container, up to maxWarnings of them.
func (r *reader) cwarn(c *container, entry string, line int, format string, args ...any) {
	c.nwarn++
	switch {
	case c.nwarn < maxWarnings:
		r.warn(Source{Path: c.path, Entry: entry, Line: line}, format, args...)
	case c.nwarn == maxWarnings:
		r.warn(Source{Path: c.path}, "more problems not reported")
	}
}

// readImage reads the module descriptors of a jimage. Its META-INF/services
// resources (jdk.zipfs has one) are not read: they are in named modules, where
// ServiceLoader ignores them.
func (r *reader) readImage(c *container, f *os.File, size int64) {
	im, err := classpath.OpenImage(f, size)
	if err != nil {
		r.cwarn(c, "", 0, "%v", err)
		return
	}
	for _, m := range r.imageModules(c.path) {
		name := "/" + m + "/" + moduleInfo
		res, ok := im.Find(name)
		if !ok {
			r.cwarn(c, name, 0, "no descriptor of module %s in the image", m)
			continue
		}
		if res.Size > maxEntry {
			r.cwarn(c, name, 0, "module descriptor of %d bytes, over the %d-byte limit", res.Size, maxEntry)
			continue
		}
		data, err := im.Data(res)
		if err != nil {
			r.cwarn(c, name, 0, "%v", err)
			continue
		}
		r.moduleInfo(c, name, data)
	}
}

// imageModules lists the modules of an image: those the JDK's release file names
// (MODULES, which includes modules without classes such as java.se), then those of
// the class path's classes read from the image, in image order. Looking each
// descriptor up by name costs far less than decoding the image's 27,000 names.
func (r *reader) imageModules(path string) []string {
	var mods []string
	seen := map[string]bool{}
	add := func(m string) {
		if m != "" && !seen[m] {
			seen[m] = true
			mods = append(mods, m)
		}
	}
	var fromClasses []string
	last := ""
	for _, cl := range r.cp.Classes {
		if cl.Container == path && cl.Module != last {
			last = cl.Module
			fromClasses = append(fromClasses, cl.Module)
		}
	}
	for _, m := range fromClasses {
		add(m)
	}
	if r.cp.JDKHome != "" && filepath.Clean(path) == filepath.Join(r.cp.JDKHome, "lib", "modules") {
		for _, m := range strings.Fields(r.releaseFile()["MODULES"]) {
			add(m)
		}
	}
	return mods
}

// moduleOpen is ACC_OPEN in a Module attribute's module_flags (JVMS 4.7.25).
const moduleOpen = 0x0020

// moduleInfo records the provides and uses of a module descriptor, and for the
// JDK's modules the packages they export or open to every module.
func (r *reader) moduleInfo(c *container, entry string, data []byte) {
	f, err := classfile.Parse(data)
	if err != nil {
		r.cwarn(c, entry, 0, "%v", err)
		return
	}
	if f.Access&classfile.AccModule == 0 || f.Name != "module-info" {
		r.cwarn(c, entry, 0, "not a module descriptor (class %s, access %#x)", f.Name, f.Access)
		return
	}
	m, err := f.Module()
	if err != nil {
		r.cwarn(c, entry, 0, "%v", err)
		return
	}
	if m == nil {
		r.cwarn(c, entry, 0, "module descriptor without a Module attribute")
		return
	}
	// An open module (ACC_OPEN) opens every package: none is internal, as for a
	// module whose descriptor was not read.
	if c.origin == classpath.JDK && m.Flags&moduleOpen == 0 {
		open := map[string]bool{}
		for _, p := range slices.Concat(m.Exports, m.Opens) {
			if p.To == nil {
				open[p.Package] = true
			}
		}
		r.c.open[m.Name] = open
	}
	src := Source{Path: c.path, Entry: entry}
	for _, u := range m.Uses {
		r.c.uses[u] = append(r.c.uses[u], Use{Service: u, Module: m.Name, Origin: c.origin, Source: src})
	}
	for _, p := range m.Provides {
		for _, w := range p.With {
			r.c.providers[p.Service] = append(r.c.providers[p.Service], Provider{
				Service: p.Service, Class: w, Kind: Provides, Module: m.Name, Origin: c.origin, Source: src})
		}
	}
}

// readZip reads the module descriptor and services files of a jar, or the
// descriptor of a jmod (whose zip starts after the 4-byte magic).
func (r *reader) readZip(c *container, ra io.ReaderAt, size int64, jmod bool) {
	zr, err := zip.NewReader(ra, size)
	if errors.Is(err, zip.ErrInsecurePath) {
		err = nil // nothing is extracted; such names are no service names
	}
	if err != nil {
		r.cwarn(c, "", 0, "reading the zip directory: %v", err)
		return
	}
	if jmod {
		for _, f := range zr.File {
			if f.Name == jmodClasses+moduleInfo {
				if data, ok := r.zipEntry(c, f); ok {
					r.moduleInfo(c, f.Name, data)
				}
				break
			}
		}
		return
	}
	// As java.util.jar.JarFile with a runtime version: a multi-release jar's
	// META-INF/versions/N/module-info.class with the largest N up to the release
	// replaces the base descriptor.
	var desc *zip.File
	descVersion := -1
	var services, indexes []*zip.File
	mr := -1 // unknown until a versioned descriptor needs it
	for _, f := range zr.File {
		switch name := f.Name; {
		case name == moduleInfo:
			if descVersion < 0 {
				desc, descVersion = f, 0
			}
		case strings.HasPrefix(name, versionsDir) && strings.HasSuffix(name, "/"+moduleInfo):
			v, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, versionsDir), "/"+moduleInfo))
			if err != nil || v < 9 || v > r.c.release || v <= descVersion {
				continue
			}
			if mr < 0 {
				mr = 0
				if isMultiRelease(zr) {
					mr = 1
				}
			}
			if mr == 1 {
				desc, descVersion = f, v
			}
		default:
			// The class directory of a Spring Boot jar or a WAR is on the class path
			// with the jar's root (index/classpath/nested.go), so its services files
			// are the application's too.
			rel := archiveRel(name)
			if _, ok := indexFile(rel); ok {
				indexes = append(indexes, f)
				continue
			}
			if !strings.HasPrefix(rel, servicesDir) || len(rel) == len(servicesDir) || strings.HasSuffix(rel, "/") {
				continue
			}
			if strings.Contains(rel[len(servicesDir):], "/") {
				continue // ServiceLoader looks up META-INF/services/<binary name> only
			}
			services = append(services, f)
		}
	}
	if desc != nil {
		if data, ok := r.zipEntry(c, desc); ok {
			r.moduleInfo(c, desc.Name, data)
		}
	}
	if len(services) > maxServices {
		r.cwarn(c, "", 0, "%d services files, only the first %d read", len(services), maxServices)
		services = services[:maxServices]
	}
	r.readEntries(c, services, r.servicesFile)
	r.readEntries(c, indexes, func(c *container, entry string, data []byte) {
		kind, _ := indexFile(archiveRel(entry))
		r.containerIndex(c, kind, entry, data)
	})
}

// readEntries reads zip entries in name order (zip order is the packer's; sorting
// makes the result independent of it), the first of duplicates only.
func (r *reader) readEntries(c *container, files []*zip.File, read func(c *container, entry string, data []byte)) {
	slices.SortFunc(files, func(a, b *zip.File) int { return strings.Compare(a.Name, b.Name) })
	for i, f := range files {
		if i > 0 && files[i-1].Name == f.Name {
			r.cwarn(c, f.Name, 0, "duplicate entry, the first one is used")
			continue
		}
		if data, ok := r.zipEntry(c, f); ok {
			read(c, f.Name, data)
		}
	}
}

// archiveRel is an entry's name relative to the class directory it is in: the
// jar's root, or a Spring Boot jar's or a WAR's class directory.
func archiveRel(name string) string {
	for _, dir := range archiveClassDirs {
		if r, ok := strings.CutPrefix(name, dir); ok {
			return r
		}
	}
	return name
}

// zipEntry reads an entry of at most maxEntry bytes.
func (r *reader) zipEntry(c *container, f *zip.File) ([]byte, bool) {
	if f.UncompressedSize64 > maxEntry {
		r.cwarn(c, f.Name, 0, "entry of %d bytes, over the %d-byte limit", f.UncompressedSize64, maxEntry)
		return nil, false
	}
	rc, err := f.Open()
	if err != nil {
		r.cwarn(c, f.Name, 0, "%v", err)
		return nil, false
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxEntry+1))
	switch {
	case err != nil:
		r.cwarn(c, f.Name, 0, "%v", err)
		return nil, false
	case len(data) > maxEntry:
		r.cwarn(c, f.Name, 0, "entry longer than the %d-byte limit", maxEntry)
		return nil, false
	}
	return data, true
}

// isMultiRelease reads the main section of the manifest as JarFile does.
func isMultiRelease(zr *zip.Reader) bool {
	for _, f := range zr.File {
		if !strings.EqualFold(f.Name, "META-INF/MANIFEST.MF") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return false
		}
		defer rc.Close()
		sc := bufio.NewScanner(io.LimitReader(rc, maxManifest))
		sc.Buffer(nil, maxManifest)
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if line == "" {
				return false
			}
			name, value, ok := strings.Cut(line, ":")
			if ok && strings.EqualFold(strings.TrimSpace(name), "Multi-Release") && strings.EqualFold(strings.TrimSpace(value), "true") {
				return true
			}
		}
		return false
	}
	return false
}

// readDir reads a class directory's module-info.class, container indexes and
// META-INF/services.
// dirIndexFiles are the containers' index files read from a class directory.
var dirIndexFiles = []string{SisuIndexFile, SpringFactoriesFile}

// ReadsDirEntry reports whether the configuration of a class directory depends on
// its entry (a slash-separated path below the directory) other than a class file:
// a services file or a container's index file. A watcher of class directories
// must report changes to them as it does to class files.
func ReadsDirEntry(entry string) bool {
	if name, ok := strings.CutPrefix(entry, servicesDir); ok {
		return name != "" && !strings.Contains(name, "/")
	}
	return slices.Contains(dirIndexFiles, entry)
}

func (r *reader) readDir(c *container) {
	if data, ok := r.dirFile(c, moduleInfo, true); ok {
		r.moduleInfo(c, moduleInfo, data)
	}
	for _, entry := range dirIndexFiles {
		if data, ok := r.dirFile(c, entry, true); ok {
			kind, _ := indexFile(entry)
			r.containerIndex(c, kind, entry, data)
		}
	}
	ents, err := os.ReadDir(filepath.Join(c.path, filepath.FromSlash(servicesDir)))
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			r.cwarn(c, servicesDir, 0, "%v", err)
		}
		return
	}
	if len(ents) > maxServices {
		r.cwarn(c, servicesDir, 0, "%d services files, only the first %d read", len(ents), maxServices)
		ents = ents[:maxServices]
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		entry := servicesDir + e.Name()
		if data, ok := r.dirFile(c, entry, false); ok {
			r.servicesFile(c, entry, data)
		}
	}
}

// dirFile reads a regular file of at most maxEntry bytes under a directory; a
// missing file is no problem when optional.
func (r *reader) dirFile(c *container, entry string, optional bool) ([]byte, bool) {
	data, err := classpath.ReadRegularFile(filepath.Join(c.path, filepath.FromSlash(entry)), maxEntry)
	if err != nil {
		if !(optional && errors.Is(err, os.ErrNotExist)) {
			r.cwarn(c, entry, 0, "%v", err)
		}
		return nil, false
	}
	return data, true
}

// servicesFile records the providers a META-INF/services file lists, parsed as
// ServiceLoader does: UTF-8, '#' starts a comment, spaces and tabs around a name are
// ignored, one binary name per line, duplicates within a file ignored. A line that is
// not a legal class name makes ServiceLoader fail (ServiceConfigurationError) when
// iteration reaches it; it is a warning here, and skipped.
func (r *reader) servicesFile(c *container, entry string, data []byte) {
	svcName := entry[strings.Index(entry, servicesDir)+len(servicesDir):]
	if !legalBinaryName(svcName) {
		r.cwarn(c, entry, 0, "file name %q is not a binary class name", svcName)
		return
	}
	service := strings.ReplaceAll(svcName, ".", "/")
	name := func(s string) string {
		if k := strings.IndexByte(s, '#'); k >= 0 {
			s = s[:k]
		}
		return strings.Trim(s, " \t")
	}
	r.classLines(c, entry, data, name, "illegal provider-class name %q (ServiceLoader fails here)", func(cls string, line int) {
		r.c.providers[service] = append(r.c.providers[service], Provider{
			Service: service, Class: cls, Kind: ServicesFile, Origin: c.origin,
			Source: Source{Path: c.path, Entry: entry, Line: line}})
	})
}

// classLines calls fn once for each class a UTF-8 file of one class name a line
// names (in file order, with its internal name and line): name extracts the binary
// name from a line ("" for none), and a name that is not a legal binary name is a
// warning, with msg as its format, and skipped.
func (r *reader) classLines(c *container, entry string, data []byte, name func(string) string, msg string, fn func(cls string, line int)) {
	if !utf8.Valid(data) {
		r.cwarn(c, entry, 0, "not valid UTF-8")
	}
	seen := map[string]bool{}
	for i, line := range bytes.Split(data, []byte("\n")) {
		s := name(string(bytes.TrimSuffix(line, []byte("\r"))))
		if s == "" {
			continue
		}
		if !legalBinaryName(s) {
			r.cwarn(c, entry, i+1, msg, s)
			continue
		}
		if cls := strings.ReplaceAll(s, ".", "/"); !seen[cls] {
			seen[cls] = true
			fn(cls, i+1)
		}
	}
}

// legalBinaryName is ServiceLoader's check of a provider name: a Java identifier
// start, then identifier parts and dots.
func legalBinaryName(s string) bool {
	for i, c := range s {
		switch {
		case i == 0 && !javaIdentifierStart(c):
			return false
		case i > 0 && c != '.' && !javaIdentifierPart(c):
			return false
		}
	}
	return s != ""
}

// javaIdentifierStart and javaIdentifierPart approximate Character's methods of
// the same names with Go's Unicode tables.
func javaIdentifierStart(c rune) bool {
	return unicode.IsLetter(c) || c == '_' || c == '$' || unicode.Is(unicode.Sc, c) || unicode.Is(unicode.Pc, c) || unicode.Is(unicode.Nl, c)
}

func javaIdentifierPart(c rune) bool {
	ignorable := c <= 0x08 || (c >= 0x0E && c <= 0x1B) || (c >= 0x7F && c <= 0x9F) || unicode.Is(unicode.Cf, c)
	return javaIdentifierStart(c) || unicode.IsDigit(c) || unicode.Is(unicode.Mn, c) || unicode.Is(unicode.Mc, c) || ignorable
}

// releaseFile returns the JDK's release file, read once.
func (r *reader) releaseFile() map[string]string {
	if r.release == nil {
		r.release = readRelease(r.cp.JDKHome)
	}
	return r.release
}

// readRelease reads the KEY="value" lines of a JDK's release file.
func readRelease(home string) map[string]string {
	out := map[string]string{}
	data, err := classpath.ReadRegularFile(filepath.Join(home, "release"), releaseMaxLen)
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok {
			out[k] = strings.Trim(v, `"`)
		}
	}
	return out
}
