//go:build windows

package cputime

import (
	"fmt"
	"syscall"
	"time"
)

// Process returns the CPU time the process has used so far.
func Process() (time.Duration, error) {
	h, err := syscall.GetCurrentProcess()
	if err != nil {
		return 0, fmt.Errorf("cputime: GetCurrentProcess: %w", err)
	}
	var creation, exit, kernel, user syscall.Filetime
	if err := syscall.GetProcessTimes(h, &creation, &exit, &kernel, &user); err != nil {
		return 0, fmt.Errorf("cputime: GetProcessTimes: %w", err)
	}
	// Kernel and user times are durations in 100 ns units, not dates: Filetime's
	// Nanoseconds would subtract the 1601 epoch.
	ticks := func(f syscall.Filetime) time.Duration {
		return time.Duration(int64(f.HighDateTime)<<32|int64(f.LowDateTime)) * 100
	}
	return ticks(kernel) + ticks(user), nil
}
