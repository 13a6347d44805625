package incremental

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// FuzzDecodeFacts: a facts cache file of any content (torn, bit-flipped, written by
// someone else) decodes to facts or an error, never a panic; the seeds are the real
// encodings of the mini JDK's classes, damaged.
func FuzzDecodeFacts(f *testing.F) {
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{{Path: minijdk.Dir(f), Origin: classpath.JDK}}}, nil)
	if err != nil {
		f.Fatal(err)
	}
	defer ix.Close()
	for _, c := range ix.Hierarchy().Classes() {
		fc, err := ix.ClassFacts(c)
		if err != nil || fc == nil {
			continue
		}
		var buf bytes.Buffer
		if err := encodeFacts(&buf, 7, fc); err != nil {
			f.Fatal(err)
		}
		data := buf.Bytes()
		if _, err := decodeFacts(data, 7); err != nil {
			f.Fatalf("%s: the seed does not decode: %v", c.Name, err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
		flipped := bytes.Clone(data)
		flipped[len(flipped)*2/3] ^= 0x55
		f.Add(flipped)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if fc, err := decodeFacts(data, 7); err == nil && fc == nil {
			t.Fatal("no facts and no error")
		}
	})
}

// FuzzDecodeCachedGraph: a graph cache file of any content decodes to a graph or an
// error, never a panic, and a decoded file had an intact checksum.
func FuzzDecodeCachedGraph(f *testing.F) {
	dir := f.TempDir()
	gc, err := OpenGraphCache(dir, nil)
	if err != nil {
		f.Fatal(err)
	}
	g := &callgraph.Graph{Level: callgraph.CorrectString, Algorithm: callgraph.CHA, NumNodes: 3, Reachable: callgraph.NewBitset(3),
		Entries: []int32{0}, Sets: [][]int32{{1, 2}}, Bundles: []callgraph.Bundle{{Caller: 0, Call: 0, Set: 0}},
		Reasons: []callgraph.Reason{{}}}
	for id := range int32(3) {
		g.Reachable.Add(id)
	}
	gc.Store("seed", g)
	if err := gc.Close(); err != nil {
		f.Fatal(err)
	}
	data, err := os.ReadFile(gc.path("seed"))
	if err != nil {
		f.Fatal(err)
	}
	if _, err := decodeCachedGraph(data); err != nil {
		f.Fatalf("the seed does not decode: %v", err)
	}
	f.Add(data)
	f.Add(data[:len(data)-3])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if g, err := decodeCachedGraph(data); err == nil && g == nil {
			t.Fatal("no graph and no error")
		}
	})
}
