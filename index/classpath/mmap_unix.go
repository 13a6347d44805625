//go:build unix

package classpath

import (
	"os"
	"syscall"
)

// mapFile maps f read-only. Pages come from the page cache on demand, so
// opening the 130 MB JDK image costs no copy; the returned func unmaps.
func mapFile(f *os.File, size int64) ([]byte, func() error, error) {
	if size <= 0 || int64(int(size)) != size {
		return readAll(f, size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readAll(f, size)
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
