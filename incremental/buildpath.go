package incremental

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// BuildTools lets discovery ask the workspace's build tools for the dependencies of
// its builds (incremental/buildtool): Maven's and Gradle's class paths, with the
// libraries from the local repositories.
type BuildTools struct {
	Resolver *buildtool.Resolver
	// Trusted says the workspace is trusted: the build tools may run (they run the
	// project's build logic). Untrusted, the build files are read.
	Trusted bool
}

// DiscoverProjectsWith is DiscoverProjects that also resolves the dependencies of the
// builds it finds with bt (nil for none), as the Discovery's BuildTool allows. A
// configured class path (ClassPath or Libraries) is used as it is. The error is
// ctx's: what a build tool could not resolve is in the projects' Builds.
func DiscoverProjectsWith(ctx context.Context, folders []string, st *Discovery, bt *BuildTools) ([]*Project, error) {
	wss := DiscoverProjects(folders, st)
	if bt == nil || bt.Resolver == nil || st.BuildTool == buildtool.ModeOff || len(st.ClassPath) > 0 || len(st.Libraries) > 0 {
		return wss, nil
	}
	java := javaVersion(st.JDKHome, st.NoJDK)
	for _, ws := range wss {
		if err := ws.resolveBuilds(ctx, st, bt, java); err != nil {
			return nil, err
		}
	}
	return wss, nil
}

// resolveBuilds resolves the builds of the project's folders (a folder's own, or
// those of its direct sub-directories when it has none) and adds their modules'
// output directories and source roots, and their libraries, to the project.
func (ws *Project) resolveBuilds(ctx context.Context, st *Discovery, bt *BuildTools, java string) error {
	var roots []string
	for _, f := range ws.Folders {
		// A module of a multi-module build is resolved with its reactor: alone, its
		// sibling modules would be missing artifacts.
		if r := buildRoot(ws.paths, f, ws.Folders); r != f && buildtool.Tool(r, st.BuildTool) != "" {
			roots = append(roots, r)
			continue
		}
		if buildtool.Tool(f, st.BuildTool) != "" {
			roots = append(roots, f)
			continue
		}
		for _, d := range moduleDirs(f)[1:] {
			if buildtool.Tool(d, st.BuildTool) != "" {
				roots = append(roots, d)
			}
		}
	}
	seen := map[string]bool{}
	for _, e := range ws.ClassPath {
		seen[e.Path] = true
	}
	add := func(e ClassPathEntry) {
		if !seen[e.Path] {
			seen[e.Path] = true
			ws.ClassPath = append(ws.ClassPath, e)
		}
	}
	covered := map[string]bool{} // module directories of builds resolved so far
	for _, root := range roots {
		if covered[root] {
			continue
		}
		res, err := bt.Resolver.Resolve(ctx, buildtool.Request{Dir: root, Mode: st.BuildTool, Trusted: bt.Trusted, JavaVersion: java})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			ws.Notes = append(ws.Notes, fmt.Sprintf("build at %s: %v", root, err))
			continue
		}
		if res == nil {
			continue
		}
		ws.Builds = append(ws.Builds, res)
		for _, m := range res.Modules {
			if m.Dir == "" || covered[m.Dir] {
				continue
			}
			covered[m.Dir] = true
			// Modules below the folders' direct sub-directories, which discovery does
			// not search.
			for _, e := range discoverClassPath(m.Dir) {
				if e.Origin == classpath.Application {
					add(e)
				}
			}
			if len(st.SourceRoots) == 0 {
				ws.SourceRoots = append(ws.SourceRoots, discoverSourceRoots(m.Dir)...)
			}
		}
		for _, d := range res.Libraries() {
			add(ClassPathEntry{Path: d.Path, Origin: classpath.Library, Why: libraryWhy(res, &d)})
		}
		src := ""
		if res.FromCache {
			src = ", from the cache"
		}
		ws.Notes = append(ws.Notes, fmt.Sprintf("%s build at %s: %d libraries, %d missing (%s%s)", res.Tool, root, len(res.Libraries()), len(res.MissingDeps()), res.How, src))
	}
	// The copies dependency:copy-dependencies made are the resolved jars again: they
	// would shadow them class by class.
	ws.ClassPath = slices.DeleteFunc(ws.ClassPath, func(e ClassPathEntry) bool {
		return e.Why == whyMavenDependency && covered[filepath.Dir(filepath.Dir(filepath.Dir(e.Path)))]
	})
	slices.Sort(ws.SourceRoots)
	ws.SourceRoots = slices.Compact(ws.SourceRoots)
	return nil
}

// whyMavenDependency is the Why of target/dependency/*.jar.
const whyMavenDependency = "Maven target/dependency"

// libraryWhy says where a library of the class path comes from.
func libraryWhy(res *buildtool.Result, d *buildtool.Dep) string {
	tool := strings.ToUpper(res.Tool[:1]) + res.Tool[1:]
	why := fmt.Sprintf("%s %s", tool, d.Coord)
	if d.Scope != "" {
		why += " (" + d.Scope + ")"
	}
	if d.Via != d.Coord {
		why += " through " + d.Via.String()
	}
	return why
}

// javaVersion is the version of the JDK discovery will use (its release file's
// JAVA_VERSION), for Maven profiles activated by the JDK; "" when unknown.
func javaVersion(jdkHome string, noJDK bool) string {
	if noJDK {
		return ""
	}
	home, err := classpath.FindJDK(jdkHome)
	if err != nil {
		return ""
	}
	f, err := os.Open(filepath.Join(home, "release"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "JAVA_VERSION="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// BuildFiles are the files the project's resolved builds depend on (build files,
// settings): a change of one resolves the build again.
func (ws *Project) BuildFiles() []string {
	var out []string
	for _, b := range ws.Builds {
		for _, in := range b.Inputs {
			out = append(out, in.Path)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// buildFileHashes returns the content hash of every build file the projects'
// builds read, by path.
func buildFileHashes(wss []*Project) map[string]string {
	out := map[string]string{}
	for _, ws := range wss {
		for _, b := range ws.Builds {
			for _, in := range b.Inputs {
				out[in.Path] = in.Hash
			}
		}
	}
	return out
}
