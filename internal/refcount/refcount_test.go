package refcount

import (
	"sync"
	"testing"
)

func TestCount(t *testing.T) {
	var c Count
	if c.Acquire() {
		t.Fatal("acquired a count that was never initialised")
	}
	c.Init()
	var wg sync.WaitGroup
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if c.Acquire() && c.Release() {
				t.Error("a borrowed reference was the last")
			}
		}()
	}
	wg.Wait()
	if c.Load() != 1 || !c.Release() || c.Acquire() {
		t.Errorf("count %d after balanced use; release or revival wrong", c.Load())
	}
}
