package ide

// Observed targets: TamiFlex (Bodden et al., ICSE'11) records the reflective calls a
// run of the program made in a refl.log. A quick fix on a dynamic site offers what
// the log saw at that site: the targets most likely to be right, since a real run
// used them.

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// reflLogs caches parsed logs by path, re-reading a file when its size or time
// changes (the log is rewritten by each traced run).
type reflLogs struct {
	mu     sync.Mutex
	byPath map[string]*reflLog
}

type reflLog struct {
	size  int64
	mod   time.Time
	sites map[observedKey][]spec.Target
}

// observedKey is how TamiFlex names a site: the caller and the source line.
type observedKey struct {
	class, method string
	line          int
}

// load returns the parsed log at path, or nil when there is none.
func (r *reflLogs) load(path string, log *zap.Logger) *reflLog {
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.byPath[path]; l != nil && l.size == info.Size() && l.mod.Equal(info.ModTime()) {
		return l
	}
	data, err := os.ReadFile(path)
	if err != nil {
		log.Warn("reading the reflection log", zap.String("path", path), zap.Error(err))
		return nil
	}
	entries, problems := spec.ImportTamiFlex(filepath.Base(path), bytes.NewReader(data))
	for _, p := range problems {
		log.Debug("reflection log: " + p.Error())
	}
	l := &reflLog{size: info.Size(), mod: info.ModTime(), sites: map[observedKey][]spec.Target{}}
	for _, e := range entries {
		k := observedKey{e.Site.Class, e.Site.Method, e.Site.Line}
		l.sites[k] = append(l.sites[k], e.Targets...)
	}
	if r.byPath == nil {
		r.byPath = map[string]*reflLog{}
	}
	r.byPath[path] = l
	return l
}

// observedTargets returns the targets the workspace's reflection logs saw at a site,
// of the kind the site's specification entry names (classes for loading and
// instantiation, methods for invocation), and the log they come from.
func (s *Session) observedTargets(snap *Snapshot, m *hierarchy.Method, site *callgraph.Site) ([]specTarget, string) {
	k := observedKey{javaName(m.Class.Name), m.Name, int(site.Line)}
	for _, path := range snap.Project.ReflectionLogs {
		l := s.reflLogs.load(path, s.log)
		if l == nil {
			continue
		}
		var out []specTarget
		for _, t := range l.sites[k] {
			switch site.Feature {
			case callgraph.FeatInvocation, callgraph.FeatMethodHandle:
				if t.Member == "" || t.Member == "<init>" {
					continue
				}
			default:
				t = specTarget{Class: t.Class} // a constructor observed: its class is the target
			}
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
		if len(out) > 0 {
			return out, path
		}
	}
	return nil, ""
}
