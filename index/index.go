// Package index is what the workspace contains: it opens a class path, parses every
// class header, builds the class hierarchy and extracts per-method facts, caching them
// by class content hash. It knows nothing of call graphs or editors.
package index

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/config"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Config says what to index.
type Config = classpath.Config

// Index is an indexed class path. It is immutable once built, except for the facts it
// extracts lazily, which it does safely for concurrent callers.
type Index struct {
	ClassPath *classpath.ClassPath
	Warnings  []string // class path, parse and hierarchy problems, each naming its file
	Timings   Timings

	h       *hierarchy.Hierarchy
	sources []*classpath.Class // by hierarchy class ID; nil for phantoms
	facts   []classFacts       // by hierarchy class ID
	cache   *FactsCache
	flows   sync.Map // method ID -> *flowResult

	configOnce sync.Once
	config     *config.Config
}

// Timings records how long each stage took.
type Timings struct {
	Open, Parse, Hierarchy, Facts time.Duration
}

type classFacts struct {
	once sync.Once
	f    *facts.Class
	err  error
}

type flowResult struct {
	once sync.Once
	flow *facts.Flow
	err  error
}

// FactsCache keeps extracted facts by class content hash, so a rebuilt index (after a
// change on disk) re-extracts only classes whose bytes changed. Safe for concurrent use.
type FactsCache struct {
	mu    sync.Mutex
	m     map[uint64]*facts.Class
	store FactsStore
	// strs is the table of strings the indexes built with the cache parse their
	// classes with: their members and facts share one copy of each name,
	// descriptor and string constant (18 of the 99 MB the JDK's decode to are
	// distinct). It lives with the cache, as the facts do; ReleaseStrings empties
	// it when no build runs.
	strs *classfile.Strings
}

// FactsStore is a second level behind a FactsCache, such as an on-disk cache that
// survives restarts. Implementations must be safe for concurrent use.
type FactsStore interface {
	// Load returns the facts stored for a class content hash, or nil.
	Load(hash uint64) *facts.Class
	// Store records the facts of a class content hash.
	Store(hash uint64, f *facts.Class)
}

// NewFactsCache returns an empty cache.
func NewFactsCache() *FactsCache { return NewFactsCacheWithStore(nil) }

// NewFactsCacheWithStore returns an empty cache that consults store on a miss and
// hands it every newly extracted class.
func NewFactsCacheWithStore(store FactsStore) *FactsCache {
	return &FactsCache{m: map[uint64]*facts.Class{}, store: store, strs: classfile.NewStrings()}
}

func (c *FactsCache) get(h uint64) *facts.Class {
	c.mu.Lock()
	f := c.m[h]
	c.mu.Unlock()
	if f == nil && c.store != nil {
		if f = c.store.Load(h); f != nil {
			c.mu.Lock()
			c.m[h] = f
			c.mu.Unlock()
		}
	}
	return f
}

func (c *FactsCache) put(h uint64, f *facts.Class) {
	c.mu.Lock()
	c.m[h] = f
	c.mu.Unlock()
	if c.store != nil {
		c.store.Store(h, f)
	}
}

// Retain drops the cached facts of every class that is in none of ixs, so that a
// long-running server whose classes keep changing does not keep the facts of every
// version it has seen. The second level (FactsStore) is not affected.
func (c *FactsCache) Retain(ixs ...*Index) {
	keep := map[uint64]bool{}
	for _, ix := range ixs {
		for _, src := range ix.sources {
			if src != nil {
				keep[src.Hash] = true
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for h := range c.m {
		if !keep[h] {
			delete(c.m, h)
		}
	}
}

// ReleaseStrings empties the table of strings that the cache's indexes parse
// with (classfile.Strings.Release): between builds it is memory that nothing
// reads.
func (c *FactsCache) ReleaseStrings() { c.strs.Release() }

// Len returns the number of classes whose facts are cached.
func (c *FactsCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Build opens the class path, parses every class header and builds the hierarchy.
// Facts are extracted on demand (Facts) or all at once (ExtractAll). cache may be nil.
func Build(ctx context.Context, cfg Config, cache *FactsCache) (*Index, error) {
	return Rebuild(ctx, cfg, cache, nil)
}

// Rebuild is Build after a change: container files (the JDK image, jars) unchanged
// since prev was built are not read again (classpath.Reopen), and their classes are
// not parsed again. prev may be nil, and may be closed before or after the new index.
func Rebuild(ctx context.Context, cfg Config, cache *FactsCache, prev *Index) (*Index, error) {
	if cache == nil {
		cache = NewFactsCache()
	}
	ix := &Index{cache: cache}
	t0 := time.Now()
	var prevCP *classpath.ClassPath
	// A class shared with prev (same *classpath.Class: its container was reused, so
	// its bytes are still there) keeps its parsed form.
	var parsed map[*classpath.Class]*classfile.File
	if prev != nil {
		prevCP = prev.ClassPath
		parsed = make(map[*classpath.Class]*classfile.File, len(prev.sources))
		for _, c := range prev.h.Classes() {
			if src := prev.sources[c.ID]; src != nil && prev.h.File(c) != nil {
				parsed[src] = prev.h.File(c)
			}
		}
	}
	cp, err := classpath.Reopen(ctx, cfg, prevCP)
	if err != nil {
		return nil, err
	}
	ix.ClassPath = cp
	for _, w := range cp.Warnings {
		ix.Warnings = append(ix.Warnings, w.Error())
	}
	for _, sh := range cp.Shadowed {
		if w := cp.Lookup(sh.Name); w != nil {
			ix.Warnings = append(ix.Warnings, fmt.Sprintf("%s: %s is shadowed by %s: %s", sh.Container, sh.Name, w.Container, w.Entry))
		}
	}
	t1 := time.Now()
	ix.Timings.Open = t1.Sub(t0)

	files := make([]*classfile.File, len(cp.Classes))
	errs := make([]error, len(cp.Classes))
	if err := parallel(ctx, len(cp.Classes), func(i int) {
		if f := parsed[cp.Classes[i]]; f != nil {
			files[i] = f
			return
		}
		files[i], errs[i] = classfile.ParseShared(cp.Classes[i].Data, cache.strs)
	}); err != nil {
		cp.Close()
		return nil, err
	}
	inputs := make([]hierarchy.Input, 0, len(files))
	srcs := make([]*classpath.Class, 0, len(files))
	for i, f := range files {
		c := cp.Classes[i]
		if errs[i] != nil {
			ix.Warnings = append(ix.Warnings, fmt.Sprintf("%s: %s: %v", c.Container, c.Entry, errs[i]))
			continue
		}
		if f.Name != c.Name {
			ix.Warnings = append(ix.Warnings, fmt.Sprintf("%s: %s: declares class %s, not %s; skipped", c.Container, c.Entry, f.Name, c.Name))
			continue
		}
		if f.Access&classfile.AccModule != 0 {
			continue
		}
		inputs = append(inputs, hierarchy.Input{File: f, Origin: origin(c.Origin)})
		srcs = append(srcs, c)
	}
	t2 := time.Now()
	ix.Timings.Parse = t2.Sub(t1)

	if prev != nil {
		ix.h = sameClasses(prev.h, inputs)
	}
	if ix.h == nil {
		ix.h = hierarchy.New(inputs)
	}
	for _, p := range ix.h.Problems() {
		if p.Kind == hierarchy.Missing {
			continue // phantoms are counted, and listed on request
		}
		ix.Warnings = append(ix.Warnings, p.String())
	}
	ix.sources = make([]*classpath.Class, len(ix.h.Classes()))
	byName := make(map[string]*classpath.Class, len(srcs))
	for _, s := range srcs {
		byName[s.Name] = s
	}
	for _, c := range ix.h.Classes() {
		if !c.Phantom {
			ix.sources[c.ID] = byName[c.Name]
		}
	}
	ix.facts = make([]classFacts, len(ix.h.Classes()))
	if prev != nil && ix.h.SameClasses(prev.h) {
		// A method of a class with the same bytes (by content hash, as the facts
		// cache keys them) keeps its flow, which holds no bytes of its own: the
		// value analyses of an edit's run ask for those of the same JDK methods
		// again.
		ms := ix.h.Methods()
		prev.flows.Range(func(k, v any) bool {
			id := ms[k.(int32)].Class.ID
			if a, b := prev.sources[id], ix.sources[id]; a != nil && b != nil && a.Hash == b.Hash {
				ix.flows.Store(k, v)
			}
			return true
		})
	}
	ix.Timings.Hierarchy = time.Since(t2)
	return ix, nil
}

// sameClasses returns prev with the class files of inputs when inputs declare the
// same classes in the same order as prev's and differ from them in method bodies
// only (hierarchy.WithBodies), so that a rebuild after editing code keeps the
// hierarchy and every ID; else nil.
func sameClasses(prev *hierarchy.Hierarchy, inputs []hierarchy.Input) *hierarchy.Hierarchy {
	classes := prev.Classes()
	if len(inputs) > len(classes) {
		return nil
	}
	var changed []*classfile.File
	for i, in := range inputs {
		// A duplicate (which New skips) shifts the inputs off the classes: New then.
		c := classes[i]
		if c.Phantom || c.Name != in.File.Name || c.Origin != in.Origin {
			return nil
		}
		if prev.File(c) != in.File {
			changed = append(changed, in.File)
		}
	}
	if len(inputs) < len(classes) && !classes[len(inputs)].Phantom {
		return nil // classes were removed
	}
	return prev.WithBodies(changed)
}

func origin(o classpath.Origin) hierarchy.Origin {
	switch o {
	case classpath.Application:
		return hierarchy.Application
	case classpath.Library:
		return hierarchy.Library
	}
	return hierarchy.JDK
}

// Hierarchy returns the class hierarchy.
func (ix *Index) Hierarchy() *hierarchy.Hierarchy { return ix.h }

// Config returns the configuration the class path ships (service providers, the
// JDK's conf/ files, default system properties; see package config), read on first
// use. Its problems are in its Warnings, not in ix.Warnings. Must not be called
// after Close.
func (ix *Index) Config() *config.Config {
	ix.configOnce.Do(func() { ix.config, _ = config.Read(ix.ClassPath) })
	return ix.config
}

// Close releases the class path's memory mappings.
func (ix *Index) Close() error { return ix.ClassPath.Close() }

// Source returns where a class was read from, or nil for phantoms.
func (ix *Index) Source(c *hierarchy.Class) *classpath.Class { return ix.sources[c.ID] }

// ClassFacts returns the facts of a class, extracting them on first use.
func (ix *Index) ClassFacts(c *hierarchy.Class) (*facts.Class, error) {
	if c.Phantom || ix.h.File(c) == nil {
		return nil, nil
	}
	cf := &ix.facts[c.ID]
	cf.once.Do(func() {
		src := ix.sources[c.ID]
		if f := ix.cache.get(src.Hash); f != nil {
			cf.f = f
			return
		}
		cf.f, cf.err = facts.Extract(ix.h.File(c))
		if cf.err != nil {
			cf.err = fmt.Errorf("%s: %s: %w", src.Container, src.Entry, cf.err)
			return
		}
		ix.cache.put(src.Hash, cf.f)
	})
	return cf.f, cf.err
}

// Facts returns the facts of a method, or nil when it has no code or its class's code
// is malformed (ExtractAll reports those).
func (ix *Index) Facts(m *hierarchy.Method) *facts.Method {
	cf, err := ix.ClassFacts(m.Class)
	if err != nil || cf == nil || int(m.Index) >= len(cf.Methods) {
		return nil
	}
	return &cf.Methods[m.Index]
}

// Flow returns the def-use and post-dominance facts of a method, computed once.
func (ix *Index) Flow(m *hierarchy.Method) (*facts.Flow, error) {
	v, _ := ix.flows.LoadOrStore(m.ID, &flowResult{})
	fr := v.(*flowResult)
	fr.once.Do(func() {
		f := ix.h.File(m.Class)
		if f == nil {
			fr.err = errors.New("no class file")
			return
		}
		fr.flow, fr.err = facts.Analyze(f, &f.Methods[m.Index])
	})
	return fr.flow, fr.err
}

// ExtractAll extracts the facts of every class in parallel and returns the problems
// found, each naming its container and entry.
func (ix *Index) ExtractAll(ctx context.Context) []error {
	t0 := time.Now()
	classes := ix.h.Classes()
	var mu sync.Mutex
	var errs []error
	err := parallel(ctx, len(classes), func(i int) {
		if _, err := ix.ClassFacts(classes[i]); err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	})
	if err != nil {
		errs = append(errs, err)
	}
	ix.Timings.Facts = time.Since(t0)
	return errs
}

// parallel runs fn(0..n-1) on GOMAXPROCS workers, in chunks to keep scheduling cheap.
func parallel(ctx context.Context, n int, fn func(i int)) error {
	const chunk = 64
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				start := int(next.Add(chunk)) - chunk
				if start >= n {
					return
				}
				for i := start; i < min(start+chunk, n); i++ {
					fn(i)
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// ChangedSince returns the classes of ix whose bytes or container differ from prev's,
// by name and sorted, when ix was rebuilt from prev keeping its hierarchy (Rebuild
// after a change of method bodies only: the same classes with the same IDs); ok is
// false otherwise.
func (ix *Index) ChangedSince(prev *Index) (changed []string, ok bool) {
	oc, nc := prev.h.Classes(), ix.h.Classes()
	if len(oc) != len(nc) || len(nc) == 0 || &oc[0] != &nc[0] {
		return nil, false
	}
	for _, c := range nc {
		src, old := ix.sources[c.ID], prev.sources[c.ID]
		if src == old || src == nil || old == nil {
			continue // a phantom, or the same entry of a reused container
		}
		if src.Hash != old.Hash || src.Container != old.Container {
			changed = append(changed, c.Name)
		}
	}
	sort.Strings(changed)
	return changed, true
}

// Changes returns the classes whose bytes or container differ between prev and ix,
// by name and sorted, whatever their hierarchies: those of ChangedSince when ix
// kept prev's, else also the classes that only one of them has (analysis.Analyzer.Update
// then maps the IDs).
func (ix *Index) Changes(prev *Index) []string {
	if changed, ok := ix.ChangedSince(prev); ok {
		return changed
	}
	sources := func(x *Index) map[string]*classpath.Class {
		m := make(map[string]*classpath.Class, len(x.sources))
		for _, s := range x.sources {
			if s != nil {
				m[s.Name] = s
			}
		}
		return m
	}
	olds, news := sources(prev), sources(ix)
	var changed []string
	for name, src := range news {
		if old := olds[name]; old == nil || src.Hash != old.Hash || src.Container != old.Container {
			changed = append(changed, name)
		}
	}
	for name := range olds {
		if news[name] == nil {
			changed = append(changed, name)
		}
	}
	sort.Strings(changed)
	return changed
}
