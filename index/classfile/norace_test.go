//go:build !race

package classfile_test

const raceEnabled = false
