package incremental

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/internal/atomicfile"
)

// GraphCache keeps analysed call graphs on disk, so that a restarted server whose
// workspace did not change loads its graphs instead of analysing again: the analysis,
// not fact extraction, is what a restart mostly pays for (javacc + JDK 17: ~1.2 CPU-s
// of extraction, several seconds of analysis).
//
// A graph is stored under a key (GraphKey) that hashes everything it depends on: the
// program that computes it (its executable's bytes), every class of the class path in
// order with its content hash and origin, and the caller's analysis settings
// (level, algorithm, entry points, environment, specification). Any change gives a
// new key; unused files age out (at most maxGraphFiles are kept, least recently used
// first).
//
// Files are written to a temporary file and renamed into place, so concurrent
// servers sharing the directory never read a partial file; a file whose checksum or
// content does not decode is ignored (and removed).
type GraphCache struct {
	dir     string
	log     *zap.Logger
	program [32]byte // hash of the executable: graphs of another build are not reused
	max     int

	wg   sync.WaitGroup
	hits atomic.Int64
}

const (
	graphCacheVersion = "v1"
	maxGraphFiles     = 12
	graphSuffix       = ".graph"
)

// DefaultGraphCacheDir returns os.UserCacheDir()/jcg-lsp/graphs/<version>.
func DefaultGraphCacheDir() (string, error) { return userCacheDir("graphs", graphCacheVersion) }

// OpenGraphCache opens (creating) a graph cache directory; "" means
// DefaultGraphCacheDir. Writes happen in the background; Close waits for them.
func OpenGraphCache(dir string, log *zap.Logger) (*GraphCache, error) {
	dir, err := makeCacheDir(dir, DefaultGraphCacheDir)
	if err != nil {
		return nil, fmt.Errorf("graph cache: %w", err)
	}
	if log == nil {
		log = zap.NewNop()
	}
	c := &GraphCache{dir: dir, log: log, max: maxGraphFiles}
	exe, err := os.Executable()
	if err == nil {
		c.program, err = hashFile(exe)
	}
	if err != nil {
		return nil, fmt.Errorf("graph cache: identifying the running program: %w", err)
	}
	return c, nil
}

func hashFile(path string) ([32]byte, error) {
	var sum [32]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// Dir returns the cache directory.
func (c *GraphCache) Dir() string { return c.dir }

// Hits returns how many graphs were loaded.
func (c *GraphCache) Hits() int64 { return c.hits.Load() }

// Close waits for pending writes.
func (c *GraphCache) Close() error {
	c.wg.Wait()
	return nil
}

// GraphKey identifies a graph of the program ix (its classes and the configuration
// its class path declares) under analysis settings described by settings (any text
// that differs whenever the analysis would: level, algorithm, entry points,
// environment values, the specification file's path and content).
func (c *GraphCache) GraphKey(ix *index.Index, settings string) string {
	h := sha256.New()
	h.Write([]byte(graphCacheVersion))
	h.Write(c.program[:])
	var b [8]byte
	for _, cl := range ix.ClassPath.Classes {
		h.Write([]byte(cl.Name))
		binary.LittleEndian.PutUint64(b[:], cl.Hash)
		h.Write(b[:])
		h.Write([]byte{byte(cl.Origin), '\n'})
	}
	// Services files, conf files and container indexes: they may change where
	// no class does.
	fp := ix.Config().Fingerprint()
	h.Write(fp[:])
	h.Write([]byte(settings))
	return hex.EncodeToString(h.Sum(nil)[:20])
}

func (c *GraphCache) path(key string) string { return filepath.Join(c.dir, key+graphSuffix) }

// Load returns the graph stored under key, or nil. numNodes is the node count the
// caller's hierarchy gives graphs; a stored graph of another size is ignored.
func (c *GraphCache) Load(key string, numNodes int) *callgraph.Graph {
	p := c.path(key)
	data, err := os.ReadFile(p)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			c.log.Debug("graph cache: reading", zap.String("file", p), zap.Error(err))
		}
		return nil
	}
	g, err := decodeCachedGraph(data)
	if err == nil && g.NumNodes != numNodes {
		err = fmt.Errorf("graph of %d nodes, the program has %d", g.NumNodes, numNodes)
	}
	if err != nil {
		what := "graph cache: ignoring a damaged file"
		if errors.Is(err, callgraph.ErrNumberedLevels) {
			what = "graph cache: ignoring a graph of an older format"
		}
		c.log.Warn(what, zap.String("file", p), zap.Error(err))
		os.Remove(p)
		return nil
	}
	now := time.Now()
	os.Chtimes(p, now, now) // least recently used files age out first
	c.hits.Add(1)
	return g
}

// Store writes g under key in the background.
func (c *GraphCache) Store(key string, g *callgraph.Graph) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		data, err := g.MarshalBinary()
		if err == nil {
			data = binary.LittleEndian.AppendUint64(data, xxhash.Sum64(data))
			err = atomicfile.WriteFile(c.path(key), data)
		}
		if err != nil {
			c.log.Warn("graph cache: writing", zap.String("dir", c.dir), zap.Error(err))
			return
		}
		c.prune()
	}()
}

// decodeCachedGraph checks the trailing checksum (a torn or bit-flipped file is not
// decoded at all) and decodes the graph.
func decodeCachedGraph(data []byte) (*callgraph.Graph, error) {
	if len(data) < 8 {
		return nil, errors.New("truncated")
	}
	body, sum := data[:len(data)-8], binary.LittleEndian.Uint64(data[len(data)-8:])
	if xxhash.Sum64(body) != sum {
		return nil, errors.New("checksum mismatch")
	}
	return callgraph.UnmarshalGraph(body)
}

// prune removes the least recently used graphs beyond the limit.
func (c *GraphCache) prune() {
	ents, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), graphSuffix) {
			continue
		}
		if info, err := e.Info(); err == nil {
			files = append(files, file{e.Name(), info.ModTime()})
		}
	}
	if len(files) <= c.max {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	for _, f := range files[c.max:] {
		os.Remove(filepath.Join(c.dir, f.name))
	}
}
