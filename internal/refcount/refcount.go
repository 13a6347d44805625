// Package refcount counts the users of a resource that is released with the last
// one, such as a memory mapping shared by several snapshots.
package refcount

import "sync/atomic"

// Count is a reference count. The zero value has no references: call Init for the
// creator's.
type Count struct{ n atomic.Int64 }

// Init gives the count its creator's reference.
func (c *Count) Init() { c.n.Store(1) }

// Acquire takes a reference; it fails once the count has dropped to zero, so that a
// released resource is never revived.
func (c *Count) Acquire() bool {
	for {
		n := c.n.Load()
		if n <= 0 {
			return false
		}
		if c.n.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// Release drops a reference and reports whether it was the last.
func (c *Count) Release() bool { return c.n.Add(-1) == 0 }

// Load returns the number of references.
func (c *Count) Load() int64 { return c.n.Load() }
