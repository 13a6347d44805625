package classfile

import (
	"hash/maphash"
	"sync"
)

// Strings is a table of the strings of many constant pools, shared by the class
// files parsed with it (ParseShared) so that each distinct string is stored once,
// and of the references their facts keep (Pool.SharedRef).
// The names and descriptors of a class path repeat across its classes: the JDK's
// class files decode about 4 million strings (99 MB) of which 525 thousand (18
// MB) are distinct, and an index keeps nearly all of them (in the members it
// parsed and the facts it extracted) for as long as it lives.
//
// The table keeps every string it has given out until Release, so it belongs to
// something that lives as long as its class files (the FactsCache of an index and
// of the indexes rebuilt from it, which share their unchanged classes). A Strings
// is safe for concurrent use.
type Strings struct {
	seed   maphash.Seed
	shards [stringShards]stringShard
}

// stringShards spreads the table's lock: class files are parsed and their facts
// extracted on every core.
const stringShards = 64

type stringShard struct {
	mu sync.Mutex
	// m maps the raw bytes of a Utf8 constant to its decoded string (the same
	// string for ASCII, nearly all of them).
	m map[string]string
	// refs holds the shared references (Pool.SharedRef) by value; they are
	// allocated from refChunk, refChunkSize at a time.
	refs     map[Ref]*Ref
	refChunk []Ref
}

// refChunkSize is how many references a shard allocates at once. References live
// as long as the facts that point to them, and a build makes them among many
// objects of their size that die with it: packed into chunks they do not pin the
// pages those share (the idle server kept 23 MiB more resident with the
// references allocated one by one; packing the strings as well saved 6 more, not
// worth the unsafe code).
const refChunkSize = 128

// NewStrings returns an empty table.
func NewStrings() *Strings {
	t := &Strings{seed: maphash.MakeSeed()}
	for i := range t.shards {
		t.shards[i].m, t.shards[i].refs = map[string]string{}, map[Ref]*Ref{}
	}
	return t
}

// Len returns the number of distinct strings and references in the table.
func (t *Strings) Len() (strs, refs int) {
	for i := range t.shards {
		sh := &t.shards[i]
		sh.mu.Lock()
		strs, refs = strs+len(sh.m), refs+len(sh.refs)
		sh.mu.Unlock()
	}
	return strs, refs
}

// utf8 returns the string of the Utf8 constant whose raw bytes are b, from the
// table when it has it. decode is called only for a string the table lacks.
func (t *Strings) utf8(b []byte, ascii bool) string {
	sh := &t.shards[maphash.Bytes(t.seed, b)%stringShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if s, ok := sh.m[string(b)]; ok { // the conversion does not allocate
		return s
	}
	key := string(b)
	s := key
	if !ascii {
		s, _ = decodeModifiedUTF8(b)
	}
	sh.m[key] = s
	return s
}

// ref returns the table's copy of r.
func (t *Strings) ref(r Ref) *Ref {
	sh := &t.shards[maphash.Comparable(t.seed, r)%stringShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if p, ok := sh.refs[r]; ok {
		return p
	}
	if len(sh.refChunk) == cap(sh.refChunk) {
		sh.refChunk = make([]Ref, 0, refChunkSize)
	}
	sh.refChunk = append(sh.refChunk, r)
	p := &sh.refChunk[len(sh.refChunk)-1]
	sh.refs[r] = p
	return p
}

// Release empties the table, keeping the strings and references it gave out: it
// is an index (about 40 bytes per string) that only parsing and extraction use,
// and a server drops it between builds. Later calls fill a new table, so the
// strings of classes parsed after a Release are shared among themselves but not
// with earlier ones.
func (t *Strings) Release() {
	for i := range t.shards {
		sh := &t.shards[i]
		sh.mu.Lock()
		sh.m, sh.refs = map[string]string{}, map[Ref]*Ref{}
		sh.mu.Unlock()
	}
}
