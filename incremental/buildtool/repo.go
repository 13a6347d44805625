package buildtool

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// repos are where artifacts are looked up: Maven local repositories (the layout
// group/as/dirs/artifact/version/artifact-version[-classifier].ext) and Gradle's
// module cache (group/artifact/version/<sha1>/file).
type repos struct {
	maven  []string // the first is the local repository builds write to
	gradle string   // ~/.gradle/caches/modules-2/files-2.1, "" for none
}

// fileName is the name of an artifact's file.
func fileName(c Coord, ext, classifier string) string {
	n := c.Artifact + "-" + c.Version
	if classifier != "" {
		n += "-" + classifier
	}
	return n + "." + ext
}

// mavenPath is where an artifact's file is in a Maven repository.
func mavenPath(repo string, c Coord, ext, classifier string) string {
	return filepath.Join(repo, filepath.FromSlash(strings.ReplaceAll(c.Group, ".", "/")), c.Artifact, c.Version, fileName(c, ext, classifier))
}

// find returns the path of an artifact's file, or "" when no repository has it.
func (r *repos) find(c Coord, ext, classifier string) string {
	for _, m := range r.maven {
		if p := mavenPath(m, c, ext, classifier); isFile(p) {
			return p
		}
	}
	if r.gradle != "" {
		ms, _ := filepath.Glob(filepath.Join(r.gradle, c.Group, c.Artifact, c.Version, "*", fileName(c, ext, classifier)))
		slices.Sort(ms)
		if len(ms) > 0 {
			return ms[0]
		}
	}
	return ""
}

// artifact returns the file of a dependency's artifact ("" when missing).
func (r *repos) artifact(c Coord) string {
	ext, cls := typeFile(c.Type, c.Classifier)
	return r.find(c, ext, cls)
}

// pom returns the path of an artifact's POM ("" when missing).
func (r *repos) pom(c Coord) string {
	return r.find(Coord{Group: c.Group, Artifact: c.Artifact, Version: c.Version}, "pom", "")
}

// expected is where the local repository would hold an artifact: what a message
// about a missing one names.
func (r *repos) expected(c Coord) string {
	if len(r.maven) == 0 {
		return ""
	}
	ext, cls := typeFile(c.Type, c.Classifier)
	return mavenPath(r.maven[0], c, ext, cls)
}

// versions lists the versions of group:artifact the repositories hold, newest
// first.
func (r *repos) versions(group, artifact string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(dir string) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if e.IsDir() && !seen[e.Name()] {
				seen[e.Name()] = true
				out = append(out, e.Name())
			}
		}
	}
	for _, m := range r.maven {
		add(filepath.Join(m, filepath.FromSlash(strings.ReplaceAll(group, ".", "/")), artifact))
	}
	if r.gradle != "" {
		add(filepath.Join(r.gradle, group, artifact))
	}
	slices.SortFunc(out, func(a, b string) int { return compareVersions(b, a) })
	return out
}

func isFile(p string) bool { fi, err := os.Stat(p); return err == nil && !fi.IsDir() }

func isDir(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }
