package incremental

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// TestGraphCacheWarmRestart: a restarted host over the same classes loads its
// graph instead of analysing; the loaded graph is the analysed one. A changed class,
// a changed services file or other settings miss the cache; a damaged file is
// ignored, removed and rewritten.
func TestGraphCacheWarmRestart(t *testing.T) {
	out, dir := t.TempDir(), t.TempDir()
	javac(t, map[string]string{"p/A.java": baseA, "p/B.java": baseB}, out)
	st := testSettings(t, out, "")
	level := st.Options.Level

	// start runs a host to its first snapshot and returns the graph's text and how
	// many graphs came from the cache.
	start := func(st Settings) (string, int64) {
		t.Helper()
		gc, err := OpenGraphCache(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := NewHost(context.Background(), HostOptions{Graphs: gc})
		snaps, err := h.Build(context.Background(), Request{Reason: ReasonInitial, Options: st.Options, Projects: []*Project{st.project()}})
		if err != nil {
			t.Fatal(err)
		}
		text := snapshotText(t, snaps[0], level)
		h.Close()
		gc.Close()
		return text, gc.Hits()
	}
	cold, hits := start(st)
	if hits != 0 {
		t.Fatalf("empty cache: %d hits", hits)
	}
	if want := scratchText(t, st, level); cold != want {
		t.Fatalf("cold graph differs from scratch:\n%s\nwant\n%s", cold, want)
	}
	warm, hits := start(st)
	if hits != 1 || warm != cold {
		t.Fatalf("warm restart: %d hits, graph equal %v", hits, warm == cold)
	}

	files, _ := filepath.Glob(filepath.Join(dir, "*"+graphSuffix))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	data, _ := os.ReadFile(files[0])
	data[len(data)/2] ^= 0x40
	os.WriteFile(files[0], data, 0o644)
	if again, hits := start(st); hits != 0 || again != cold {
		t.Errorf("damaged file: %d hits, graph equal %v", hits, again == cold)
	}
	if _, hits := start(st); hits != 1 {
		t.Errorf("damaged file not rewritten: %d hits", hits)
	}

	other := st
	other.Options.LibraryMode = false
	other.Options.Mains = []string{"p.A"}
	if _, hits := start(other); hits != 0 {
		t.Errorf("other entry points hit the cache")
	}
	javac(t, map[string]string{"p/A.java": strings.Replace(baseA, "class A", "class A implements java.io.Serializable", 1), "p/B.java": baseB}, out)
	changed, hits := start(st)
	if hits != 0 {
		t.Errorf("changed class hit the cache")
	}
	if want := scratchText(t, st, level); changed != want {
		t.Errorf("graph after a change differs from scratch")
	}

	// A services file added where no class changes: ServiceLoader's sites may
	// reach the provider it names, so the graph is not the cached one.
	services := filepath.Join(out, "META-INF", "services")
	if err := os.MkdirAll(services, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(services, "java.lang.Runnable"), []byte("p.B\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withServices, hits := start(st)
	if hits != 0 {
		t.Errorf("a new services file hit the cache")
	}
	if want := scratchText(t, st, level); withServices != want {
		t.Errorf("graph after a new services file differs from scratch")
	}
}

// TestGraphCachePrunes keeps the most recently used files.
func TestGraphCachePrunes(t *testing.T) {
	gc, err := OpenGraphCache(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	gc.max = 2
	g := &callgraph.Graph{Level: callgraph.BehavedCLs, NumNodes: 1, Reachable: callgraph.NewBitset(1)}
	for i, k := range []string{"a", "b", "c"} {
		gc.Store(k, g)
		gc.Close() // wait: stores run in the background
		old := time.Now().Add(time.Duration(i-3) * time.Hour)
		os.Chtimes(gc.path(k), old, old)
	}
	if gc.Load("a", 1) != nil || gc.Load("b", 1) == nil || gc.Load("c", 1) == nil {
		t.Errorf("pruning kept the wrong files")
	}
}

// TestGraphCacheRefusesNumberedLevels: a cached graph of the format that named
// levels by number (intact, its checksum right) is not loaded, since its numbers may
// mean other levels now; the log says why, and the file goes.
func TestGraphCacheRefusesNumberedLevels(t *testing.T) {
	core, logs := observer.New(zap.WarnLevel)
	gc, err := OpenGraphCache(t.TempDir(), zap.New(core))
	if err != nil {
		t.Fatal(err)
	}
	// Format 2: the magic, the format, then the level as a number (4).
	old := binary.LittleEndian.AppendUint32([]byte("jcg-lsp graph\n"), 2)
	old = binary.LittleEndian.AppendUint32(old, 4)
	old = binary.LittleEndian.AppendUint64(old, xxhash.Sum64(old))
	if err := os.WriteFile(gc.path("old"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	if g := gc.Load("old", 1); g != nil {
		t.Fatalf("loaded a graph that names levels by number: level %v", g.Level)
	}
	if _, err := os.Stat(gc.path("old")); !os.IsNotExist(err) {
		t.Errorf("the old file stays: %v", err)
	}
	if e := logs.FilterMessage("graph cache: ignoring a graph of an older format").All(); len(e) != 1 || !strings.Contains(fmt.Sprint(e[0].ContextMap()["error"]), "by number") {
		t.Errorf("log %v", logs.All())
	}
}
