package classpath

import (
	"context"
	"sync"
	"sync/atomic"
)

// forEach calls fn(i) for every i in [0, n) on at most workers goroutines
// and returns ctx.Err(). Indices are handed out one at a time, so uneven
// work (a 2 MB class next to a 200-byte one) balances itself; callers with
// tiny items pass chunks instead.
func forEach(ctx context.Context, workers, n int, fn func(i int)) error {
	done := ctx.Done()
	cancelled := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			if cancelled() {
				break
			}
			fn(i)
		}
		return ctx.Err()
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for !cancelled() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

// forEachChunk is forEach over [0, n) in chunks of size chunk.
func forEachChunk(ctx context.Context, workers, n, chunk int, fn func(lo, hi int)) error {
	chunks := (n + chunk - 1) / chunk
	return forEach(ctx, workers, chunks, func(c int) {
		lo := c * chunk
		fn(lo, min(lo+chunk, n))
	})
}
