package incremental

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
)

// Project is one unit of analysis: the class path and the source roots of a group of
// workspace folders, as configured or discovered. It is immutable.
type Project struct {
	Folders     []string
	ClassPath   []ClassPathEntry
	SourceRoots []string
	JDKHome     string // as configured; "" lets the class path find one
	NoJDK       bool
	Release     int
	SpecFile    string // absolute path of the specification file
	// ReflectionLogs are the TamiFlex refl.log files whose observed targets quick fixes
	// offer (absolute paths; they need not exist).
	ReflectionLogs []string
	// Notes say what was discovered or configured and why, for the log and the
	// jcg.showClassPath command.
	Notes []string
	// Builds are the Maven and Gradle builds whose dependencies discovery resolved
	// (DiscoverProjectsWith): their libraries are on ClassPath.
	Builds []*buildtool.Result

	paths fspath.Flavor // how Contains compares paths
}

// Discovery are the user's settings of what to analyse; empty fields let
// DiscoverProjects find the class path and source roots in the build output of the
// usual build tools.
type Discovery struct {
	// ClassPath and Libraries replace class-path discovery when either is set;
	// relative paths are relative to the first workspace folder.
	ClassPath   []string // application class directories and jars
	Libraries   []string
	SourceRoots []string // replace source-root discovery when set
	JDKHome     string   // default: $JAVA_HOME, then the java on $PATH
	NoJDK       bool
	Release     int
	SpecFile    string // relative to the first workspace folder
	// ReflectionLogs are TamiFlex refl.log files (relative to the first workspace
	// folder) whose observed targets quick fixes offer; default out/refl.log and
	// refl.log in each folder.
	ReflectionLogs []string
	// BuildTool says which build tools DiscoverProjectsWith asks for dependencies:
	// one of buildtool.Modes ("" is auto).
	BuildTool string
}

// ClassPathEntry is one element of the class path.
type ClassPathEntry struct {
	Path   string
	Origin classpath.Origin
	Why    string // "configured", "Maven target/classes", ...
}

// Config returns the index configuration.
func (ws *Project) Config() index.Config {
	cfg := index.Config{JDKHome: ws.JDKHome, NoJDK: ws.NoJDK, Release: ws.Release}
	for _, e := range ws.ClassPath {
		cfg.Sources = append(cfg.Sources, classpath.Source{Path: e.Path, Origin: e.Origin})
	}
	return cfg
}

// Key identifies what the index depends on: two projects with the same key share an
// index.
func (ws *Project) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "jdk=%q noJdk=%v release=%d\n", ws.JDKHome, ws.NoJDK, ws.Release)
	for _, e := range ws.ClassPath {
		fmt.Fprintf(&b, "%d %s\n", e.Origin, e.Path)
	}
	for _, r := range ws.SourceRoots {
		fmt.Fprintf(&b, "src %s\n", r)
	}
	return b.String()
}

// DiscoverProjects works out what to analyse: one Project (class path, source roots,
// specification file) per group of workspace folders that belong together. A folder
// inside another, and the modules of one multi-module build (folders under a common
// directory whose pom.xml lists modules, or whose settings.gradle(.kts) includes
// projects), are one class path; unrelated folders are analysed separately, so that
// two projects in one editor window neither see each other's classes nor shadow them.
// A configured class path is one analysis of every folder.
func DiscoverProjects(folders []string, st *Discovery) []*Project {
	return discoverProjects(fspath.Host(), folders, st)
}

// discoverProjects is DiscoverProjects on a platform whose paths are of flavour fl:
// on a case-insensitive file system two spellings of one folder are one folder, and
// a folder is inside another whatever the case of either.
func discoverProjects(fl fspath.Flavor, folders []string, st *Discovery) []*Project {
	var distinct []string
	for _, f := range folders {
		if !slices.ContainsFunc(distinct, func(g string) bool { return fl.Same(f, g) }) {
			distinct = append(distinct, f)
		}
	}
	var out []*Project
	if len(distinct) <= 1 || len(st.ClassPath) > 0 || len(st.Libraries) > 0 {
		out = []*Project{discover(distinct, st)}
	} else {
		for _, g := range groupFolders(fl, distinct) {
			out = append(out, discover(g, st))
		}
	}
	for _, p := range out {
		p.paths = fl
	}
	return out
}

// groupFolders groups folders by build root, keeping the order of first appearance.
func groupFolders(fl fspath.Flavor, folders []string) [][]string {
	var keys []string
	groups := map[string][]string{}
	for _, f := range folders {
		k := fl.Key(buildRoot(fl, f, folders))
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], f)
	}
	out := make([][]string, len(keys))
	for i, k := range keys {
		out[i] = groups[k]
	}
	return out
}

// buildRoot returns the directory that decides which analysis a folder belongs to:
// the outermost other folder containing it, else the nearest directory above it (up to
// three levels) that makes it a module of a multi-module build, else itself.
func buildRoot(fl fspath.Flavor, f string, folders []string) string {
	root := f
	for _, g := range folders {
		if !fl.Same(g, f) && fl.Within(g, f) && len(g) < len(root) {
			root = g
		}
	}
	if root != f {
		return buildRoot(fl, root, folders)
	}
	dir := f
	for range 3 {
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		if multiModule(parent) {
			return parent
		}
		dir = parent
	}
	return f
}

// multiModule reports whether dir holds the build file of a multi-module build.
func multiModule(dir string) bool {
	if b, err := os.ReadFile(filepath.Join(dir, "pom.xml")); err == nil && strings.Contains(string(b), "<modules>") {
		return true
	}
	for _, n := range []string{"settings.gradle", "settings.gradle.kts"} {
		if b, err := os.ReadFile(filepath.Join(dir, n)); err == nil && strings.Contains(string(b), "include") {
			return true
		}
	}
	return false
}

// Contains reports whether path is in one of the project's folders, source roots or
// class path entries.
func (ws *Project) Contains(path string) bool {
	in := func(dir string) bool { return ws.paths.Within(dir, path) }
	for _, f := range ws.Folders {
		if in(f) {
			return true
		}
	}
	for _, r := range ws.SourceRoots {
		if in(r) {
			return true
		}
	}
	for _, e := range ws.ClassPath {
		if in(e.Path) {
			return true
		}
	}
	return ws.paths.Same(path, ws.SpecFile)
}

// discover works out the workspace's class path and source roots. Configured entries
// replace discovery; otherwise every folder (and each of its direct sub-directories,
// for multi-module builds) is searched for the output directories of the usual build
// tools. The folders given form one class path: they are analysed together.
func discover(folders []string, st *Discovery) *Project {
	ws := &Project{Folders: folders, JDKHome: st.JDKHome, NoJDK: st.NoJDK, Release: st.Release}
	base := ""
	if len(folders) > 0 {
		base = folders[0]
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) || base == "" {
			return filepath.Clean(p)
		}
		return filepath.Join(base, p)
	}
	ws.SpecFile = abs(st.SpecFile)
	if len(st.ReflectionLogs) > 0 {
		for _, p := range st.ReflectionLogs {
			ws.ReflectionLogs = append(ws.ReflectionLogs, abs(p))
		}
	} else {
		// Where TamiFlex's play-out agent writes (out/refl.log of the working
		// directory), run from a folder, and a log copied next to the build file.
		for _, f := range folders {
			ws.ReflectionLogs = append(ws.ReflectionLogs, filepath.Join(f, "out", "refl.log"), filepath.Join(f, "refl.log"))
		}
	}
	seen := map[string]bool{}
	add := func(path string, o classpath.Origin, why string) {
		if seen[path] {
			return
		}
		seen[path] = true
		ws.ClassPath = append(ws.ClassPath, ClassPathEntry{Path: path, Origin: o, Why: why})
	}
	if len(st.ClassPath) > 0 || len(st.Libraries) > 0 {
		for _, p := range st.ClassPath {
			for _, m := range expand(abs(p)) {
				add(m, classpath.Application, "configured (jcg.classPath)")
			}
		}
		for _, p := range st.Libraries {
			for _, m := range expand(abs(p)) {
				add(m, classpath.Library, "configured (jcg.libraries)")
			}
		}
		ws.Notes = append(ws.Notes, fmt.Sprintf("class path configured: %d entries", len(ws.ClassPath)))
	} else {
		for _, f := range folders {
			for _, dir := range moduleDirs(f) {
				for _, e := range discoverClassPath(dir) {
					add(e.Path, e.Origin, e.Why)
				}
			}
		}
		if len(ws.ClassPath) == 0 {
			ws.Notes = append(ws.Notes, "no class directories or jars found in the workspace folders (build the project, or set jcg.classPath)")
		} else {
			ws.Notes = append(ws.Notes, fmt.Sprintf("class path discovered: %d entries", len(ws.ClassPath)))
		}
	}
	if len(st.SourceRoots) > 0 {
		for _, r := range st.SourceRoots {
			ws.SourceRoots = append(ws.SourceRoots, abs(r))
		}
		ws.Notes = append(ws.Notes, fmt.Sprintf("source roots configured: %d", len(ws.SourceRoots)))
	} else {
		for _, f := range folders {
			for _, dir := range moduleDirs(f) {
				ws.SourceRoots = append(ws.SourceRoots, discoverSourceRoots(dir)...)
			}
		}
		ws.Notes = append(ws.Notes, fmt.Sprintf("source roots discovered: %d", len(ws.SourceRoots)))
	}
	slices.Sort(ws.SourceRoots)
	ws.SourceRoots = slices.Compact(ws.SourceRoots)
	return ws
}

// expand returns the paths a configured entry names: itself, or the jars it matches
// when it is a glob ("lib/*.jar").
func expand(p string) []string {
	if !strings.ContainsAny(p, "*?[") {
		return []string{p}
	}
	ms, _ := filepath.Glob(p)
	slices.Sort(ms)
	return ms
}

// moduleDirs returns a folder and its direct sub-directories that look like build
// modules (they hold a build file or build output).
func moduleDirs(folder string) []string {
	dirs := []string{folder}
	ents, err := os.ReadDir(folder)
	if err != nil {
		return dirs
	}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		sub := filepath.Join(folder, e.Name())
		for _, marker := range []string{"pom.xml", "build.gradle", "build.gradle.kts", "target/classes", "build/classes"} {
			if exists(filepath.Join(sub, marker)) {
				dirs = append(dirs, sub)
				break
			}
		}
	}
	return dirs
}

// discoverClassPath finds the class directories and jars of one module directory.
func discoverClassPath(dir string) []ClassPathEntry {
	var out []ClassPathEntry
	app := func(rel, why string) {
		if p := filepath.Join(dir, rel); isDir(p) {
			out = append(out, ClassPathEntry{Path: p, Origin: classpath.Application, Why: why})
		}
	}
	jars := func(rel string, o classpath.Origin, why string) {
		ms, _ := filepath.Glob(filepath.Join(dir, rel, "*.jar"))
		slices.Sort(ms)
		for _, m := range ms {
			out = append(out, ClassPathEntry{Path: m, Origin: o, Why: why})
		}
	}
	// The archives a build made (a Spring Boot jar, a WAR) are the project's own
	// classes, nested libraries included (index/classpath reads BOOT-INF/ and
	// WEB-INF/): they are used only when the class directories they were built from
	// are absent. Sources, javadoc and test jars are not the application, and Spring
	// Boot's Gradle plugin writes the classes again as *-plain.jar beside the
	// executable jar.
	artifacts := func(rel, why string) {
		var ms []string
		for _, ext := range []string{"*.jar", "*.war", "*.ear"} {
			m, _ := filepath.Glob(filepath.Join(dir, rel, ext))
			ms = append(ms, m...)
		}
		slices.Sort(ms)
		ms = slices.DeleteFunc(ms, func(m string) bool {
			b := strings.TrimSuffix(filepath.Base(m), filepath.Ext(m))
			return strings.HasSuffix(b, "-sources") || strings.HasSuffix(b, "-javadoc") || strings.HasSuffix(b, "-tests") || strings.HasSuffix(b, "-test-sources")
		})
		if plain := slices.DeleteFunc(slices.Clone(ms), func(m string) bool { return !strings.HasSuffix(m, "-plain.jar") }); len(plain) > 0 && len(plain) < len(ms) {
			ms = slices.DeleteFunc(ms, func(m string) bool { return strings.HasSuffix(m, "-plain.jar") })
		}
		for _, m := range ms {
			out = append(out, ClassPathEntry{Path: m, Origin: classpath.Application, Why: why})
		}
	}
	// Maven.
	n := len(out)
	app("target/classes", "Maven target/classes")
	app("target/test-classes", "Maven target/test-classes")
	if len(out) == n {
		artifacts("target", "Maven target/ archive")
	}
	jars("target/dependency", classpath.Library, whyMavenDependency)
	// Gradle.
	n = len(out)
	app("build/classes/java/main", "Gradle build/classes/java/main")
	app("build/classes/java/test", "Gradle build/classes/java/test")
	if len(out) == n {
		artifacts("build/libs", "Gradle build/libs")
	}
	// IntelliJ: one directory per module.
	for _, kind := range []string{"production", "test"} {
		ms, _ := filepath.Glob(filepath.Join(dir, "out", kind, "*"))
		slices.Sort(ms)
		for _, m := range ms {
			if isDir(m) {
				out = append(out, ClassPathEntry{Path: m, Origin: classpath.Application, Why: "IntelliJ out/" + kind})
			}
		}
	}
	// Eclipse.
	if exists(filepath.Join(dir, ".classpath")) || !exists(filepath.Join(dir, "src/main/java")) {
		app("bin", "Eclipse bin/")
	}
	jars("lib", classpath.Library, "lib/*.jar")
	return out
}

// discoverSourceRoots finds the Java source roots of one module directory.
func discoverSourceRoots(dir string) []string {
	var out []string
	for _, rel := range []string{"src/main/java", "src/test/java"} {
		if p := filepath.Join(dir, rel); isDir(p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		if p := filepath.Join(dir, "src"); isDir(p) {
			out = append(out, p)
		}
	}
	return out
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func isDir(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }

// Describe renders the project for the log and jcg.showClassPath.
func (ws *Project) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Workspace folders:\n")
	for _, f := range ws.Folders {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	fmt.Fprintf(&b, "Class path:\n")
	if len(ws.ClassPath) == 0 {
		fmt.Fprintf(&b, "  (empty)\n")
	}
	for _, e := range ws.ClassPath {
		fmt.Fprintf(&b, "  %-11s %s  (%s)\n", e.Origin, e.Path, e.Why)
	}
	fmt.Fprintf(&b, "Source roots:\n")
	if len(ws.SourceRoots) == 0 {
		fmt.Fprintf(&b, "  (none)\n")
	}
	for _, r := range ws.SourceRoots {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	switch {
	case ws.NoJDK:
		fmt.Fprintf(&b, "JDK: none (jcg.noJdk)\n")
	case ws.JDKHome != "":
		fmt.Fprintf(&b, "JDK: %s (configured)\n", ws.JDKHome)
	}
	fmt.Fprintf(&b, "Specification file: %s\n", ws.SpecFile)
	for _, l := range ws.ReflectionLogs {
		state := "not present"
		if _, err := os.Stat(l); err == nil {
			state = "present"
		}
		fmt.Fprintf(&b, "Reflection log (TamiFlex): %s (%s)\n", l, state)
	}
	for _, n := range ws.Notes {
		fmt.Fprintf(&b, "Note: %s\n", n)
	}
	for _, r := range ws.Builds {
		b.WriteString(r.Describe())
	}
	return b.String()
}
