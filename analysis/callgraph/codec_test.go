package callgraph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// sampleGraph has every field set, including the optional ones (site points,
// problems) and a set shared by two bundles.
func sampleGraph() *Graph {
	g := &Graph{Level: CorrectString, Algorithm: RTA, NumNodes: 70, Native: 69,
		Reachable: NewBitset(70), Entries: []int32{0},
		Bundles: []Bundle{{Caller: 0, PC: 3, Line: 10, Call: 0, Set: 0, Reason: 0},
			{Caller: 0, PC: 9, Line: 11, Call: 1, Set: 1, Reason: 1},
			{Caller: 65, PC: -1, Line: -1, Call: -1, Set: 1, Reason: 0}},
		Sets:    [][]int32{{1, 65}, {69}},
		Reasons: []Reason{{Kind: KindVirtual}, {Kind: KindReflection, Resolver: "reflection", Evidence: `string constant "p.A"`, Fallback: EncapRespect}},
		Sites: []Site{{Caller: 0, PC: 9, Line: 11, Call: 1, Feature: FeatLoading, API: "Class.forName", Status: Partial,
			Evidence: "prefix", Targets: 1, Fallback: EncapRespect, Points: []SpecPoint{{Method: 1, PC: 0, Line: 4, Kind: "public parameter 0", Beyond: true}, {Method: 1, PC: 2, Line: 5, Kind: "loop"}}},
			{Caller: 65, PC: 2, Line: 7, Call: 0, Feature: FeatNative, API: "native", Targets: -1}},
		Problems: []string{"spec.txt:3:1: unknown class p.Q"},
	}
	for _, id := range []int32{0, 1, 65, 69} {
		g.Reachable.Add(id)
	}
	return g
}

func TestGraphCodecRoundTrip(t *testing.T) {
	g := sampleGraph()
	data, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalGraph(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, g) {
		t.Errorf("round trip changed the graph:\n got %+v\nwant %+v", got, g)
	}
	if got.NumEdges() != g.NumEdges() || len(got.Callers(65)) != 1 {
		t.Errorf("decoded graph answers differently: %d edges, callers of 65 %v", got.NumEdges(), got.Callers(65))
	}
}

// TestGraphCodecRejects: every kind of damage is an error with the offset, never a
// panic or a graph with out-of-range indices.
func TestGraphCodecRejects(t *testing.T) {
	data, _ := sampleGraph().MarshalBinary()
	for n := 0; n < len(data); n++ {
		if _, err := UnmarshalGraph(data[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: accepted", n, len(data))
		}
	}
	if _, err := UnmarshalGraph(append(bytes.Clone(data), 0)); err == nil || !strings.Contains(err.Error(), "trailing") {
		t.Errorf("trailing byte: %v", err)
	}
	// The first bundle's set index is the 5th int32 of the bundle block: point it
	// past the sets.
	g := sampleGraph()
	g.Bundles[0].Set = 7
	bad, _ := g.MarshalBinary()
	if _, err := UnmarshalGraph(bad); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("bundle with a missing set: %v", err)
	}
	g = sampleGraph()
	g.Sets[0][1] = 70
	bad, _ = g.MarshalBinary()
	if _, err := UnmarshalGraph(bad); err == nil || !strings.Contains(err.Error(), "node 70 out of range") {
		t.Errorf("set member out of range: %v", err)
	}
	// A hostile count must not allocate: the bundle count says 2^31.
	bad = bytes.Clone(data)
	off := bytes.Index(bad, []byte("RTA")) + 3 + 4 + 4 + 4 + 8*2 + 4 + 4
	binary.LittleEndian.PutUint32(bad[off:], 1<<31)
	if _, err := UnmarshalGraph(bad); err == nil || !strings.Contains(err.Error(), "exceeds the data left") {
		t.Errorf("huge bundle count: %v", err)
	}
	if _, err := UnmarshalGraph([]byte("jcg-lsp facts v1\n")); err == nil {
		t.Error("foreign file accepted")
	}
	for _, name := range []string{"Correct-String", "4", "correct"} {
		bad = bytes.Replace(bytes.Clone(data), []byte("correct-string"), []byte(name), 1)
		binary.LittleEndian.PutUint32(bad[len(graphMagic)+4:], uint32(len(name)))
		if _, err := UnmarshalGraph(bad); err == nil || !strings.Contains(err.Error(), "unknown assumption level") {
			t.Errorf("level %q: %v", name, err)
		}
	}
}

// TestGraphCodecRefusesNumberedLevels: a graph of the format that stored levels by
// number is refused, and says why, whatever its numbers would decode to.
func TestGraphCodecRefusesNumberedLevels(t *testing.T) {
	old := binary.LittleEndian.AppendUint32([]byte(graphMagic), lastNumberedFormat)
	old = binary.LittleEndian.AppendUint32(old, uint32(CorrectString))
	if _, err := UnmarshalGraph(old); !errors.Is(err, ErrNumberedLevels) || !strings.Contains(err.Error(), "by number") {
		t.Errorf("format %d: %v", lastNumberedFormat, err)
	}
	data, _ := sampleGraph().MarshalBinary()
	if !bytes.Contains(data, []byte("correct-string")) || !bytes.Contains(data, []byte("encap-respect")) {
		t.Error("the encoding does not name the graph's and the fallbacks' levels")
	}
}

func FuzzUnmarshalGraph(f *testing.F) {
	data, _ := sampleGraph().MarshalBinary()
	f.Add(data)
	empty, _ := (&Graph{Level: BehavedCLs, NumNodes: 1, Reachable: NewBitset(1)}).MarshalBinary()
	f.Add(empty)
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := UnmarshalGraph(data)
		if err != nil {
			return
		}
		// Whatever decodes must be safe to query and encode back to the same bytes.
		g.NumEdges()
		g.Callers(g.Native)
		again, err := g.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
	})
}
