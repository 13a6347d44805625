//go:build race

package classfile_test

// raceEnabled: the race detector instruments allocations, so allocation counts mean
// nothing under it.
const raceEnabled = true
