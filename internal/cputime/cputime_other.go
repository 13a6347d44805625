//go:build !unix && !windows

package cputime

import (
	"fmt"
	"runtime"
	"time"
)

// Process cannot read the CPU time on this platform.
func Process() (time.Duration, error) {
	return 0, fmt.Errorf("cputime: no process CPU time on %s", runtime.GOOS)
}
