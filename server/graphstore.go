package server

import (
	"sync"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/incremental"
)

// storeDelay is how long the edits must pause before the graph of the latest update
// in place is written to the disk cache.
const storeDelay = 3 * time.Second

// deferredStore writes the graphs of updates in place to the disk cache once the
// edits pause, or when the server stops: a restart after a session of edits then
// starts from the cache instead of analysing again, and a burst of edits writes one
// graph, not one per edit. (A new analysis stores its graph at once: it costs
// seconds, the write a small part of it; an update costs less than the write.)
type deferredStore struct {
	mu      sync.Mutex
	timer   *time.Timer
	pending func()
}

// later replaces the pending write with g's under key, due after storeDelay.
func (d *deferredStore) later(c *incremental.GraphCache, key string, g *callgraph.Graph) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.pending = func() { c.Store(key, g) }
	d.timer = time.AfterFunc(storeDelay, d.flush)
}

// flush starts the pending write, if any, now. GraphCache.Close waits for it.
func (d *deferredStore) flush() {
	d.mu.Lock()
	store := d.pending
	d.pending = nil
	if d.timer != nil {
		d.timer.Stop()
		d.timer = nil
	}
	d.mu.Unlock()
	if store != nil {
		store()
	}
}
