package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessCounts burns CPU until the reading has grown by 20 ms and checks that
// it took about that long: a reading stuck at zero or in too small a unit never
// gets there, one in too large a unit grows faster than the process's threads can
// use CPU.
func TestProcessCounts(t *testing.T) {
	before, err := Process()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	x := 0
	for {
		for i := range 100_000 {
			x += i
		}
		now, err := Process()
		if err != nil {
			t.Fatal(err)
		}
		wall := time.Since(start)
		if d := now - before; d >= 20*time.Millisecond {
			if limit := wall*time.Duration(runtime.NumCPU()) + 20*time.Millisecond; d > limit {
				t.Errorf("CPU time grew by %v in %v of wall time on %d CPUs", d, wall, runtime.NumCPU())
			}
			return
		}
		if wall > 30*time.Second {
			t.Fatalf("CPU time grew by %v in %v of a busy loop (x=%d)", now-before, wall, x)
		}
	}
}
