package buildtool

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Result is the class path of one build (a Maven reactor or a Gradle build), as
// its build tool computes it or, where the tool may not or cannot run, as far as the
// build files and the local repositories tell.
type Result struct {
	Tool string `json:"tool"` // "maven" or "gradle"
	Root string `json:"root"` // the directory of the root build file
	// How says how the class path was obtained, for the class-path report:
	// "mvn dependency:tree (offline)", "the POM files and the local repository
	// (workspace not trusted)", ...
	How string `json:"how"`
	// Ran says the build tool ran (now or for the cached result).
	Ran     bool     `json:"ran"`
	Modules []Module `json:"modules"`
	// Problems are what could not be resolved (a declared dependency missing from
	// the local repository, a parent POM not found), at the build file's line.
	Problems []Problem `json:"problems,omitempty"`
	Notes    []string  `json:"notes,omitempty"`
	// Inputs are the files the result depends on (build files, settings) with the
	// hash of their content when read; the watcher watches them.
	Inputs []Input `json:"inputs"`
	// Took is how long resolving took (not loading from the cache).
	Took time.Duration `json:"took"`
	// FromCache says the result was loaded from the cache.
	FromCache bool `json:"-"`
}

// Module is one module (Maven project, Gradle project) of a build.
type Module struct {
	Coord Coord  `json:"coord"` // Type is the packaging
	Dir   string `json:"dir"`
	File  string `json:"file"` // its build file
	Deps  []Dep  `json:"deps"` // in class-path order
}

// Dep is one dependency of a module's class path.
type Dep struct {
	Coord    Coord  `json:"coord"`
	Scope    string `json:"scope,omitempty"`
	Optional bool   `json:"optional,omitempty"`
	// Path is the artifact's file; "" when the local repositories do not have it.
	Path string `json:"path,omitempty"`
	// Depth is 1 for a declared dependency, more for what dependencies bring.
	Depth int `json:"depth"`
	// Via is the declared dependency that brings this one (itself when declared).
	Via Coord `json:"via"`
	// Declared is where Via is declared (a module's or a parent's build file).
	Declared Pos `json:"declared"`
	// Module says the dependency is a module of the same build: its classes are the
	// application's, not a library's.
	Module bool `json:"module,omitempty"`
	// Packages are, for a missing dependency, the packages another version of it
	// in the local repository holds (OtherVersion): where the missing classes the
	// analysis finds may come from.
	Packages     []string `json:"packages,omitempty"`
	OtherVersion string   `json:"otherVersion,omitempty"`
	// Expected is where the local repository would hold a missing dependency: a
	// cached result is stale once it is there.
	Expected string `json:"expected,omitempty"`
}

// Missing reports whether the dependency is missing from the local repositories.
func (d *Dep) Missing() bool { return d.Path == "" && !d.Module && holdsClasses(d.Coord.Type) }

// Problem is something of a build that could not be resolved, at its place.
type Problem struct {
	Pos Pos    `json:"pos"`
	Dep Coord  `json:"dep"`
	Msg string `json:"msg"`
}

func (p Problem) String() string { return p.Pos.String() + ": " + p.Msg }

// Input is a file a result depends on, with the hash of its content ("" when it
// did not exist).
type Input struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// Libraries returns the artifacts of every module's class path that are not modules
// of the build, each once, in class-path order.
func (r *Result) Libraries() []Dep {
	seen := map[string]bool{}
	var out []Dep
	for _, m := range r.Modules {
		for _, d := range m.Deps {
			if d.Module || d.Path == "" || seen[d.Path] {
				continue
			}
			seen[d.Path] = true
			out = append(out, d)
		}
	}
	return out
}

// MissingDeps returns the dependencies of the modules that the local repositories
// do not have, each once.
func (r *Result) MissingDeps() []Dep {
	seen := map[string]bool{}
	var out []Dep
	for _, m := range r.Modules {
		for _, d := range m.Deps {
			if d.Missing() && !seen[d.Coord.String()] {
				seen[d.Coord.String()] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// Describe renders the result for the class-path report.
func (r *Result) Describe() string {
	var b strings.Builder
	src := ""
	if r.FromCache {
		src = ", from the cache"
	}
	fmt.Fprintf(&b, "Build: %s at %s: %s (%d modules, %d libraries%s)\n", r.Tool, r.Root, r.How, len(r.Modules), len(r.Libraries()), src)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	missing := r.MissingDeps()
	if len(missing) > 0 {
		fmt.Fprintf(&b, "  Dependencies not in the local repository: %d\n", len(missing))
		for _, d := range missing {
			via := ""
			if d.Via != d.Coord {
				via = " (through " + d.Via.String() + ")"
			}
			fmt.Fprintf(&b, "    %s%s, declared at %s\n", d.Coord, via, d.Declared)
		}
	}
	probs := slices.Clone(r.Problems)
	if len(probs) > 0 {
		fmt.Fprintf(&b, "  Problems: %d\n", len(probs))
		for _, p := range probs {
			fmt.Fprintf(&b, "    %s\n", p)
		}
	}
	return b.String()
}
