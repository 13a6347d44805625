package callgraph

import "math/bits"

// Bitset is a dense set of node IDs.
type Bitset []uint64

// NewBitset returns a set able to hold IDs below n.
func NewBitset(n int) Bitset { return make(Bitset, (n+63)/64) }

// Has reports whether id is in the set.
func (s Bitset) Has(id int32) bool {
	i := int(id) >> 6
	return id >= 0 && i < len(s) && s[i]&(1<<(uint(id)&63)) != 0
}

// Add adds id and reports whether it was new.
func (s Bitset) Add(id int32) bool {
	w, m := &s[int(id)>>6], uint64(1)<<(uint(id)&63)
	if *w&m != 0 {
		return false
	}
	*w |= m
	return true
}

// Count returns the number of IDs in the set.
func (s Bitset) Count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// SubsetOf reports whether every ID of s is in t.
func (s Bitset) SubsetOf(t Bitset) bool {
	for i, w := range s {
		var o uint64
		if i < len(t) {
			o = t[i]
		}
		if w&^o != 0 {
			return false
		}
	}
	return true
}

// ForEach calls fn for every ID in increasing order.
func (s Bitset) ForEach(fn func(id int32)) {
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			fn(int32(i<<6 | b))
			w &= w - 1
		}
	}
}
