package facts

import "encoding/binary"

// setTable hash-conses the def sets with two or more members. Sets only ever grow by
// union at control-flow joins, and the same joins repeat on every pass of the fixed
// point, so unions are memoised by operand pair.
type setTable struct {
	elems []uint32 // members of every set, sorted within each set
	off   []uint32 // set i is elems[off[i]:off[i+1]]
	byKey map[string]uint32
	memo  map[uint64]uint32
	buf   []uint32
	key   []byte
}

func (t *setTable) init() {
	t.off = append(t.off[:0], 0)
}

// members returns the definitions in abstract value v; buf backs the result for
// single definitions.
func (t *setTable) members(v uint32, buf *[1]uint32) []uint32 {
	switch {
	case v == 0:
		return nil
	case v&setBit == 0:
		buf[0] = v
		return buf[:]
	}
	id := v &^ setBit
	return t.elems[t.off[id]:t.off[id+1]]
}

func (t *setTable) union(a, b uint32) uint32 {
	if a == b || b == 0 {
		return a
	}
	if a == 0 {
		return b
	}
	if a > b {
		a, b = b, a
	}
	pair := uint64(a)<<32 | uint64(b)
	if v, ok := t.memo[pair]; ok {
		return v
	}
	var ba, bb [1]uint32
	ma, mb := t.members(a, &ba), t.members(b, &bb)
	u := t.buf[:0]
	i, j := 0, 0
	for i < len(ma) && j < len(mb) {
		switch {
		case ma[i] < mb[j]:
			u = append(u, ma[i])
			i++
		case ma[i] > mb[j]:
			u = append(u, mb[j])
			j++
		default:
			u = append(u, ma[i])
			i++
			j++
		}
	}
	u = append(u, ma[i:]...)
	u = append(u, mb[j:]...)
	t.buf = u
	var v uint32
	switch len(u) {
	case len(ma):
		v = a
	case len(mb):
		v = b
	default:
		v = t.intern(u)
	}
	if t.memo == nil {
		t.memo = make(map[uint64]uint32)
	}
	t.memo[pair] = v
	return v
}

func (t *setTable) intern(u []uint32) uint32 {
	k := t.key[:0]
	for _, d := range u {
		k = binary.LittleEndian.AppendUint32(k, d)
	}
	t.key = k
	if v, ok := t.byKey[string(k)]; ok {
		return v
	}
	if t.byKey == nil {
		t.byKey = make(map[string]uint32)
	}
	id := uint32(len(t.off) - 1)
	t.elems = append(t.elems, u...)
	t.off = append(t.off, uint32(len(t.elems)))
	v := id | setBit
	t.byKey[string(k)] = v
	return v
}

// done drops the solver's scratch, leaving the table read-only.
func (t *setTable) done() {
	t.byKey, t.memo, t.buf, t.key = nil, nil, nil, nil
}
