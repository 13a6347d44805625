package incremental

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// ChangeSet is what changed on disk since the last build.
type ChangeSet struct {
	// Paths are the files created, written, renamed or removed (class files, jars,
	// specification files). Directories stand for everything below them.
	Paths []string
	// Full asks for a rescan of everything (event overflow, configuration change).
	Full bool
}

// Merge adds o's changes to c.
func (c *ChangeSet) Merge(o ChangeSet) {
	c.Full = c.Full || o.Full
	c.Paths = append(c.Paths, o.Paths...)
}

func (c ChangeSet) empty() bool { return !c.Full && len(c.Paths) == 0 }

// Changes is what a change set changes for the current snapshots (Host.Changed).
type Changes struct {
	// Classes: the class path changed (a class file's bytes, a jar, a directory), or
	// the change set asks for a rescan.
	Classes bool
	// Specs are the specification files whose meaning differs from the one last
	// seen, with their new meaning (SpecFile.Meaning).
	Specs map[string]uint64
	// Deferred are changed class files that do not parse (probably still being
	// written): the change set should wait for them.
	Deferred []string
	// Builds: a build file (pom.xml, settings.xml, a Gradle script) the projects'
	// builds read has other content now: discovery must resolve them again.
	Builds bool
}

// Changed tells what the change set cs changes for the current snapshots (none
// before the first build ends: every change counts). A class file changes when its
// bytes differ from those its project's snapshot indexed; a specification file when
// its meaning differs from lastSpec's (the meaning the caller last saw for the path).
func (h *Host) Changed(cs ChangeSet, lastSpec func(path string) uint64) Changes {
	if cs.Full {
		return Changes{Classes: true}
	}
	snaps, release := h.Current()
	defer release()
	var out Changes
	known := map[[2]string]uint64{} // class directory and entry -> content hash
	isSpec := map[string]bool{}
	for _, snap := range snaps {
		isSpec[snap.Project.SpecFile] = true
		for _, c := range snap.w.h.Classes() {
			if src := snap.w.ix.Source(c); src != nil && src.Origin != classpath.JDK {
				known[[2]string{src.Container, src.Entry}] = src.Hash
			}
		}
	}
	var projects []*Project
	for _, snap := range snaps {
		projects = append(projects, snap.Project)
	}
	builds := buildFileHashes(projects)
	paths := slices.Clone(cs.Paths)
	slices.Sort(paths)
	for _, p := range slices.Compact(paths) {
		if h, ok := builds[p]; ok {
			out.Builds = out.Builds || buildtool.HashFile(p) != h
			continue
		}
		if isSpec[p] {
			if m := ReadSpecFile(p).Meaning(); m != lastSpec(p) {
				if out.Specs == nil {
					out.Specs = map[string]uint64{}
				}
				out.Specs[p] = m
			}
			continue
		}
		if !strings.HasSuffix(p, ".class") {
			out.Classes = true // a jar or a directory
			continue
		}
		// Before the first snapshot every class file is news.
		hash, ok := entryHash(snaps, known, p)
		changed, unparsed := ClassFileChanged(p, hash, ok || len(snaps) == 0)
		out.Classes = out.Classes || changed
		if unparsed {
			out.Deferred = append(out.Deferred, p)
		}
	}
	return out
}

// entryHash returns the hash of the class file p as the snapshots indexed it.
func entryHash(snaps []*Snapshot, known map[[2]string]uint64, p string) (uint64, bool) {
	for _, snap := range snaps {
		for _, e := range snap.Project.ClassPath {
			rel, err := filepath.Rel(e.Path, p)
			if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
				continue
			}
			if h, ok := known[[2]string{e.Path, filepath.ToSlash(rel)}]; ok {
				return h, true
			}
		}
	}
	return 0, false
}

// ClassFileChanged reports whether the class file at p differs from the bytes a
// snapshot indexed for it (their hash, when known) and, if it does, whether the new
// bytes fail to parse: a writer is still at work, so the change should wait. A file
// absent now changed only if it was known; a file that cannot be read changed.
func ClassFileChanged(p string, hash uint64, known bool) (changed, unparsed bool) {
	data, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return known, false
	case err != nil:
		return true, false
	case known && xxhash.Sum64(data) == hash:
		return false, false
	}
	_, err = classfile.Parse(data)
	return true, err != nil
}
