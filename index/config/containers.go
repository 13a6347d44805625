package config

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// Index files of dependency-injection containers: class-path resources in which a
// container finds the classes it will instantiate, as ServiceLoader finds providers
// in META-INF/services.
const (
	// SisuIndexFile is Sisu's index of @Named components (written by its annotation
	// processor, org.eclipse.sisu.space.SisuIndexAPT6), read by IndexedClassFinder.
	SisuIndexFile = "META-INF/sisu/javax.inject.Named"
	// SpringFactoriesFile is what Spring's SpringFactoriesLoader reads: a
	// properties file from factory types to comma-separated implementations.
	SpringFactoriesFile = "META-INF/spring.factories"
)

// IndexKind says which container reads an index file.
type IndexKind uint8

const (
	// SisuIndex is a line of META-INF/sisu/javax.inject.Named.
	SisuIndex IndexKind = iota
	// SpringFactories is an implementation listed in META-INF/spring.factories.
	SpringFactories
)

func (k IndexKind) String() string {
	if k == SisuIndex {
		return SisuIndexFile
	}
	return SpringFactoriesFile
}

// Indexed is one class a container's index file names.
type Indexed struct {
	Kind IndexKind
	// Key is the factory type a spring.factories entry is listed under (internal
	// name); "" for Sisu's index.
	Key    string
	Class  string // internal name
	Origin classpath.Origin
	Source Source
}

// Indexed returns the classes the index files of one kind name, in class-path
// order, then file order. A class named twice (by two files, or under two keys) is
// listed for each.
func (c *Config) Indexed(kind IndexKind) []Indexed { return clip(c.indexed[kind]) }

// indexFile returns the kind of container index an entry (relative to a class
// directory or a jar's root) is, if it is one.
func indexFile(rel string) (IndexKind, bool) {
	switch rel {
	case SisuIndexFile:
		return SisuIndex, true
	case SpringFactoriesFile:
		return SpringFactories, true
	}
	return 0, false
}

// containerIndex records the classes an index file names.
func (r *reader) containerIndex(c *container, kind IndexKind, entry string, data []byte) {
	if kind == SisuIndex {
		r.sisuIndex(c, entry, data)
	} else {
		r.springFactories(c, entry, data)
	}
}

// sisuIndex reads Sisu's index as IndexedClassFinder does: UTF-8 lines, of which
// those matching \s*([^#\s]+).* name a class by its binary name (the rest of the
// line, from white space or '#', is ignored; so are lines that start with '#').
// A name that is not a legal binary name cannot be a class's: a warning, skipped.
func (r *reader) sisuIndex(c *container, entry string, data []byte) {
	name := func(s string) string {
		s = strings.TrimLeft(s, " \t\f\v")
		if end := strings.IndexAny(s, "# \t\f\v"); end >= 0 {
			s = s[:end]
		}
		return s
	}
	r.classLines(c, entry, data, name, "illegal class name %q", func(cls string, line int) {
		r.c.indexed[SisuIndex] = append(r.c.indexed[SisuIndex], Indexed{Kind: SisuIndex, Class: cls,
			Origin: c.origin, Source: Source{Path: c.path, Entry: entry, Line: line}})
	})
}

// springFactories reads spring.factories as SpringFactoriesLoader does: a
// java.util.Properties file (the last value of a key wins) whose values are lists
// of implementation classes separated by commas, each trimmed. A name that is not a
// legal binary name makes loadFactories fail; it is a warning here, and skipped.
func (r *reader) springFactories(c *container, entry string, data []byte) {
	props, problems := parseProperties(data)
	for _, p := range problems {
		r.cwarn(c, entry, p.line, "%s", p.msg)
	}
	last := map[string]int{}
	for i, p := range props {
		last[p.key] = i
	}
	for i, p := range props {
		if last[p.key] != i {
			continue
		}
		if !legalBinaryName(p.key) {
			r.cwarn(c, entry, p.line, "factory type %q is not a binary class name", p.key)
			continue
		}
		key := strings.ReplaceAll(p.key, ".", "/")
		for _, name := range strings.Split(p.value, ",") {
			name = strings.TrimSpace(name)
			if !legalBinaryName(name) {
				r.cwarn(c, entry, p.line, "illegal implementation-class name %q under %s (SpringFactoriesLoader fails here)", name, p.key)
				continue
			}
			r.c.indexed[SpringFactories] = append(r.c.indexed[SpringFactories], Indexed{Kind: SpringFactories, Key: key,
				Class: strings.ReplaceAll(name, ".", "/"), Origin: c.origin, Source: Source{Path: c.path, Entry: entry, Line: p.line}})
		}
	}
}
