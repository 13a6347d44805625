package callgraph

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The binary form of a Graph is what a restarted server loads instead of analysing
// again, so it is built for decoding speed: fixed-width little-endian integers, the
// bundles as one flat block, no compression (the page cache is faster than any
// decompressor we could use). It is not a stable exchange format (that is the JCG
// JSON export): a new graphFormat makes old files unreadable, and caches drop them.
//
// Decoding treats the data as hostile: every count is bounded by the bytes left, every
// node, set and reason index is range-checked, and errors carry the byte offset.
//
// Levels and the algorithm are stored by name (Level.String, Algorithm.String), never
// by number: a level added or split would renumber the levels after it, and a graph
// cached before would silently mean another level.

const (
	graphMagic  = "jcg-lsp graph\n"
	graphFormat = 3 // 2: specification points say whether the level licenses them; 3: levels and the algorithm by name
	// lastNumberedFormat is the last format that stored levels by number.
	lastNumberedFormat = 2
)

// ErrNumberedLevels is the error of a graph of a format that stored levels by
// number: it is not decoded, as its numbers may name other levels now.
var ErrNumberedLevels = errors.New("callgraph: the graph names assumption levels by number (an older format), which may mean other levels now: analyse anew")

// MarshalBinary encodes the graph (everything but the lazily built callers index).
func (g *Graph) MarshalBinary() ([]byte, error) {
	members := 0
	for _, s := range g.Sets {
		members += len(s)
	}
	e := encoder{b: make([]byte, 0, 64+8*len(g.Reachable)+24*len(g.Bundles)+4*(len(g.Sets)+members))}
	e.b = append(e.b, graphMagic...)
	e.u32(graphFormat)
	e.level(g.Level)
	if g.Algorithm.Valid() {
		e.str(g.Algorithm.String())
	} else {
		e.str("")
	}
	e.u32(uint32(g.NumNodes))
	e.i32(g.Native)
	e.u32(uint32(len(g.Reachable)))
	for _, w := range g.Reachable {
		e.b = binary.LittleEndian.AppendUint64(e.b, w)
	}
	e.i32s(g.Entries)
	e.u32(uint32(len(g.Bundles)))
	for _, b := range g.Bundles {
		e.i32(b.Caller)
		e.i32(b.PC)
		e.i32(b.Line)
		e.i32(b.Call)
		e.i32(b.Set)
		e.i32(b.Reason)
	}
	e.u32(uint32(len(g.Sets)))
	for _, s := range g.Sets {
		e.i32s(s)
	}
	e.u32(uint32(len(g.Reasons)))
	for _, r := range g.Reasons {
		e.u32(uint32(r.Kind))
		e.str(r.Resolver)
		e.str(r.Evidence)
		e.level(r.Fallback)
	}
	e.u32(uint32(len(g.Sites)))
	for i := range g.Sites {
		s := &g.Sites[i]
		e.i32(s.Caller)
		e.i32(s.PC)
		e.i32(s.Line)
		e.i32(s.Call)
		e.u32(uint32(s.Feature))
		e.str(s.API)
		e.u32(uint32(s.Status))
		e.str(s.Evidence)
		e.i32(s.Targets)
		e.level(s.Fallback)
		e.u32(uint32(len(s.Points)))
		for _, p := range s.Points {
			e.i32(p.Method)
			e.i32(p.PC)
			e.i32(p.Line)
			e.str(p.Kind)
			beyond := uint32(0)
			if p.Beyond {
				beyond = 1
			}
			e.u32(beyond)
		}
	}
	e.u32(uint32(len(g.Problems)))
	for _, p := range g.Problems {
		e.str(p)
	}
	return e.b, nil
}

type encoder struct{ b []byte }

func (e *encoder) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) i32(v int32)  { e.u32(uint32(v)) }
func (e *encoder) str(s string) { e.u32(uint32(len(s))); e.b = append(e.b, s...) }

// level writes a level's name, "" for none.
func (e *encoder) level(l Level) {
	if l.Valid() {
		e.str(l.String())
	} else {
		e.str("")
	}
}
func (e *encoder) i32s(v []int32) {
	e.u32(uint32(len(v)))
	for _, x := range v {
		e.i32(x)
	}
}

// UnmarshalGraph decodes a graph written by MarshalBinary.
func UnmarshalGraph(data []byte) (*Graph, error) {
	d := decoder{b: data}
	if len(data) < len(graphMagic) || string(data[:len(graphMagic)]) != graphMagic {
		return nil, errors.New("callgraph: not an encoded graph (bad magic)")
	}
	d.off = len(graphMagic)
	if v := d.u32(); d.err == nil && v != graphFormat {
		if v <= lastNumberedFormat {
			return nil, fmt.Errorf("%w (graph format %d, want %d)", ErrNumberedLevels, v, graphFormat)
		}
		return nil, fmt.Errorf("callgraph: graph format %d, want %d", v, graphFormat)
	}
	g := &Graph{}
	g.Level = d.level(false)
	if s := d.str(); d.err == nil {
		a, ok := algorithmNamed(s)
		if !ok {
			d.fail("unknown algorithm %q", s)
		}
		g.Algorithm = a
	}
	nodes := d.u32()
	if d.err == nil && (nodes == 0 || nodes > math.MaxInt32) {
		d.fail("%d nodes", nodes)
	}
	g.NumNodes = int(nodes)
	g.Native = d.node(nodes)
	if words := d.count(8); d.err == nil {
		if words != (int(nodes)+63)/64 {
			d.fail("reachable set of %d words for %d nodes", words, nodes)
		} else {
			g.Reachable = make(Bitset, words)
			for i := range g.Reachable {
				g.Reachable[i] = binary.LittleEndian.Uint64(d.b[d.off:])
				d.off += 8
			}
		}
	}
	g.Entries = d.nodes(nodes)
	if n := d.count(24); d.err == nil {
		g.Bundles = make([]Bundle, n)
		for i := range g.Bundles {
			b := &g.Bundles[i]
			b.Caller, b.PC, b.Line, b.Call, b.Set, b.Reason = d.node(nodes), d.i32(), d.i32(), d.i32(), d.i32(), d.i32()
		}
	}
	if n := d.count(4); d.err == nil {
		g.Sets = make([][]int32, n)
		for i := range g.Sets {
			g.Sets[i] = d.nodes(nodes)
		}
	}
	if n := d.count(16); d.err == nil {
		g.Reasons = make([]Reason, n)
		for i := range g.Reasons {
			r := &g.Reasons[i]
			r.Kind = Kind(d.small(len(kindNames) - 1))
			r.Resolver, r.Evidence = d.str(), d.str()
			r.Fallback = d.level(true)
		}
	}
	for i := range g.Bundles {
		if b := g.Bundles[i]; d.err == nil && (b.Set < 0 || int(b.Set) >= len(g.Sets) || b.Reason < 0 || int(b.Reason) >= len(g.Reasons)) {
			d.fail("bundle %d: set %d or reason %d out of range", i, b.Set, b.Reason)
		}
	}
	if n := d.count(48); d.err == nil {
		g.Sites = make([]Site, n)
		for i := range g.Sites {
			s := &g.Sites[i]
			s.Caller, s.PC, s.Line, s.Call = d.node(nodes), d.i32(), d.i32(), d.i32()
			s.Feature = Feature(d.small(int(numFeatures) - 1))
			s.API = d.str()
			s.Status = Status(d.small(len(statusNames) - 1))
			s.Evidence = d.str()
			s.Targets = d.i32()
			if d.err == nil && (s.Targets < -1 || int(s.Targets) >= len(g.Sets)) {
				d.fail("site %d: target set %d out of range", i, s.Targets)
			}
			s.Fallback = d.level(true)
			if np := d.count(20); d.err == nil && np > 0 {
				s.Points = make([]SpecPoint, np)
				for j := range s.Points {
					p := &s.Points[j]
					p.Method, p.PC, p.Line, p.Kind = d.node(nodes), d.i32(), d.i32(), d.str()
					p.Beyond = d.small(1) == 1
				}
			}
		}
	}
	if n := d.count(4); d.err == nil && n > 0 {
		g.Problems = make([]string, n)
		for i := range g.Problems {
			g.Problems[i] = d.str()
		}
	}
	if d.err == nil && d.off != len(d.b) {
		d.fail("%d bytes of trailing data", len(d.b)-d.off)
	}
	if d.err != nil {
		return nil, d.err
	}
	return g, nil
}

// decoder reads the encoding; after the first error every read returns zero.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("callgraph: decoding graph at byte %d: %s", d.off, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) u32() uint32 {
	if d.err != nil {
		return 0
	}
	if len(d.b)-d.off < 4 {
		d.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint32(d.b[d.off:])
	d.off += 4
	return v
}

func (d *decoder) i32() int32 { return int32(d.u32()) }

// level reads a level's name; "" is no level where none may be.
func (d *decoder) level(none bool) Level {
	s := d.str()
	if d.err != nil || (none && s == "") {
		return 0
	}
	l, ok := levelNamed(s)
	if !ok {
		d.fail("unknown assumption level %q", s)
	}
	return l
}

// small reads an enumeration value, at most max.
func (d *decoder) small(max int) uint8 {
	v := d.u32()
	if d.err == nil && v > uint32(max) {
		d.fail("value %d out of range (at most %d)", v, max)
	}
	return uint8(v)
}

// count reads an element count and checks that the data left can hold that many
// elements of at least min bytes each, so a hostile count cannot make us allocate.
func (d *decoder) count(min int) int {
	n := d.u32()
	if d.err == nil && uint64(n)*uint64(min) > uint64(len(d.b)-d.off) {
		d.fail("count %d exceeds the data left", n)
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.count(1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[d.off : d.off+n])
	d.off += n
	return s
}

func (d *decoder) node(nodes uint32) int32 {
	v := d.u32()
	if d.err == nil && v >= nodes {
		d.fail("node %d out of range (%d nodes)", v, nodes)
	}
	return int32(v)
}

func (d *decoder) nodes(nodes uint32) []int32 {
	n := d.count(4)
	if d.err != nil || n == 0 {
		return nil
	}
	out := make([]int32, n)
	for i := range out {
		v := binary.LittleEndian.Uint32(d.b[d.off:])
		if v >= nodes {
			d.fail("node %d out of range (%d nodes)", v, nodes)
			return nil
		}
		out[i] = int32(v)
		d.off += 4
	}
	return out
}
