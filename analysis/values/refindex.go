package values

import (
	"hash/maphash"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// refIndex tells which classes may call a method or name it in a method handle:
// those whose constant pool holds a Methodref or InterfaceMethodref of its name and
// descriptor. It reads the constant pools and no code, so that the first caller
// look-up of a run, which the first application site makes at levels 3-5, does not
// wait for the facts of the whole JDK.
//
// The references are hashed into buckets (a power of two at least their number)
// whose class lists are stored one after another: a hash collision only adds a
// class to look at, and the table is two slices of integers, which build (in
// parallel) in less than half the time of a map of slices over the JDK's million
// references.
type refIndex struct {
	seed    maphash.Seed
	mask    uint64
	start   []int32 // bucket b's classes are classes[start[b]:start[b+1]]
	classes []int32 // class IDs
}

func newRefIndex(h *hierarchy.Hierarchy) *refIndex {
	r := &refIndex{seed: maphash.MakeSeed()}
	cs := h.Classes()
	// The hashes of each class's references, deduplicated, computed in parallel.
	hashes := make([][]uint64, len(cs))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(cs); i += workers {
				f := h.File(cs[i])
				if f == nil {
					continue
				}
				var hs []uint64
				for name, desc := range f.Pool.MethodRefs() {
					hs = append(hs, r.hash(name, desc))
				}
				slices.Sort(hs)
				hashes[i] = slices.Compact(hs)
			}
		})
	}
	wg.Wait()

	n := 0
	for _, hs := range hashes {
		n += len(hs)
	}
	nb := 1 << bits.Len(uint(n)) // > n
	r.mask = uint64(nb - 1)
	r.start = make([]int32, nb+1)
	for _, hs := range hashes {
		for _, x := range hs {
			r.start[x&r.mask+1]++
		}
	}
	for b := range nb {
		r.start[b+1] += r.start[b]
	}
	r.classes = make([]int32, n)
	next := slices.Clone(r.start[:nb])
	for id, hs := range hashes { // in ID order, so that each bucket lists classes by ID
		for _, x := range hs {
			b := x & r.mask
			r.classes[next[b]] = int32(id)
			next[b]++
		}
	}
	return r
}

// lookup returns the IDs of the classes that may name a method of this name and
// descriptor, in increasing order, possibly with others and with repetitions.
func (r *refIndex) lookup(name, desc string) []int32 {
	b := r.hash([]byte(name), []byte(desc)) & r.mask
	return r.classes[r.start[b]:r.start[b+1]]
}

func (r *refIndex) hash(name, desc []byte) uint64 {
	var h maphash.Hash
	h.SetSeed(r.seed)
	h.Write(name)
	h.WriteByte(0)
	h.Write(desc)
	return h.Sum64()
}
