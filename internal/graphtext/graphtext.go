// Package graphtext compares call graphs computed in different ways (an update in
// place and a new run) for tests: up to the numbering of sets and reasons, which
// differs between them, and fast enough for graphs of the whole JDK.
package graphtext

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Compare returns "" when got and want, two graphs over h, have the same reachable
// methods, entry points, problems and, for every caller, the same bundles (site,
// reason, targets) and dynamic sites. Otherwise it lists what differs, as lines
// "+ ..." (only got has it) and "- ..." (only want has it), for the callers that
// differ.
func Compare(h *hierarchy.Hierarchy, got, want *callgraph.Graph) string {
	var b strings.Builder
	if !slices.Equal(got.Reachable, want.Reachable) {
		diffLines(&b, reachable(h, got), reachable(h, want))
	}
	diffLines(&b, entries(h, got), entries(h, want))
	diffLines(&b, got.Problems, want.Problems)
	gk, wk := newKeyer(got), newKeyer(want)
	for n := int32(0); n < int32(max(got.NumNodes, want.NumNodes)); n++ {
		if !slices.Equal(gk.caller(n), wk.caller(n)) {
			diffLines(&b, callerLines(h, got, n), callerLines(h, want, n))
		}
	}
	return b.String()
}

// keyer hashes a graph's bundles and sites by content, so that two graphs compare
// without rendering every set.
type keyer struct {
	g       *callgraph.Graph
	seed    maphash.Seed
	sets    map[int32]uint64
	reasons []string
}

var seed = maphash.MakeSeed() // a constant of the package: the same for both graphs

func newKeyer(g *callgraph.Graph) *keyer {
	k := &keyer{g: g, seed: seed, sets: map[int32]uint64{}}
	for _, r := range g.Reasons {
		k.reasons = append(k.reasons, fmt.Sprintf("%+v", r))
	}
	return k
}

func (k *keyer) set(i int32) uint64 {
	if i < 0 {
		return 0
	}
	if v, ok := k.sets[i]; ok {
		return v
	}
	var h maphash.Hash
	h.SetSeed(k.seed)
	var buf [4]byte
	for _, id := range k.g.Sets[i] {
		binary.LittleEndian.PutUint32(buf[:], uint32(id))
		h.Write(buf[:])
	}
	v := h.Sum64()
	k.sets[i] = v
	return v
}

// caller returns the sorted keys of n's bundles and sites.
func (k *keyer) caller(n int32) []string {
	var out []string
	for _, b := range k.g.Callees(n) {
		out = append(out, fmt.Sprintf("B %d %d %d %s %x", b.PC, b.Line, b.Call, k.reasons[b.Reason], k.set(b.Set)))
	}
	for _, s := range k.g.SitesOf(n) {
		st := s
		st.Targets = 0
		out = append(out, fmt.Sprintf("S %+v %x", st, k.set(s.Targets)))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func name(h *hierarchy.Hierarchy, g *callgraph.Graph, id int32) string {
	if id == g.Native || int(id) >= len(h.Methods()) {
		return "<native>"
	}
	return h.Methods()[id].String()
}

func reachable(h *hierarchy.Hierarchy, g *callgraph.Graph) []string {
	var out []string
	g.Reachable.ForEach(func(id int32) { out = append(out, "reachable "+name(h, g, id)) })
	return out
}

func entries(h *hierarchy.Hierarchy, g *callgraph.Graph) []string {
	var out []string
	for _, e := range g.Entries {
		out = append(out, "entry "+name(h, g, e))
	}
	return out
}

// callerLines renders n's bundles and sites with the names of their targets.
func callerLines(h *hierarchy.Hierarchy, g *callgraph.Graph, n int32) []string {
	names := func(set int32) string {
		if set < 0 {
			return "-"
		}
		var out []string
		for _, id := range g.Sets[set] {
			out = append(out, name(h, g, id))
		}
		return strings.Join(out, " ")
	}
	var out []string
	for _, b := range g.Callees(n) {
		out = append(out, fmt.Sprintf("%s pc=%d line=%d call=%d %+v -> %s", name(h, g, n), b.PC, b.Line, b.Call, g.Reasons[b.Reason], names(b.Set)))
	}
	for _, s := range g.SitesOf(n) {
		st := s
		st.Targets = 0
		out = append(out, fmt.Sprintf("site %s %+v -> %s", name(h, g, n), st, names(s.Targets)))
	}
	return out
}

// diffLines writes the lines only one of got and want has.
func diffLines(b *strings.Builder, got, want []string) {
	g, w := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	for _, l := range g {
		if _, ok := slices.BinarySearch(w, l); !ok {
			b.WriteString("+ " + l + "\n")
		}
	}
	for _, l := range w {
		if _, ok := slices.BinarySearch(g, l); !ok {
			b.WriteString("- " + l + "\n")
		}
	}
}

// Digest returns a hash of g's content up to the numbering of its sets and reasons:
// two graphs have the same digest when Compare finds nothing between them, in one
// process or in two (it does not depend on maphash's seed), so the graphs of two
// builds of the analysis can be compared without writing them out.
func Digest(g *callgraph.Graph) string {
	h := sha256.New()
	setHash := map[int32]uint64{}
	set := func(i int32) uint64 {
		if i < 0 {
			return 0
		}
		if v, ok := setHash[i]; ok {
			return v
		}
		d := xxhash.New()
		var buf [4]byte
		for _, id := range g.Sets[i] {
			binary.LittleEndian.PutUint32(buf[:], uint32(id))
			d.Write(buf[:])
		}
		setHash[i] = d.Sum64()
		return setHash[i]
	}
	reasons := make([]string, len(g.Reasons))
	for i, r := range g.Reasons {
		reasons[i] = fmt.Sprintf("%+v", r)
	}
	fmt.Fprintf(h, "%d %v %v %q\n", g.NumNodes, g.Reachable, slices.Sorted(slices.Values(g.Entries)), g.Problems)
	for n := int32(0); n < int32(g.NumNodes); n++ {
		var lines []string
		for _, b := range g.Callees(n) {
			lines = append(lines, fmt.Sprintf("B %d %d %d %s %x", b.PC, b.Line, b.Call, reasons[b.Reason], set(b.Set)))
		}
		for _, s := range g.SitesOf(n) {
			st := s
			st.Targets = 0
			lines = append(lines, fmt.Sprintf("S %+v %x", st, set(s.Targets)))
		}
		if len(lines) == 0 {
			continue
		}
		slices.Sort(lines)
		fmt.Fprintf(h, "%d %s\n", n, strings.Join(slices.Compact(lines), "\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}
