//go:build unix

package classpath

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps f read-only. Pages come from the page cache on demand, so
// opening the 130 MB JDK image costs no copy; the returned func unmaps. mapped
// is false when the file could not be mapped and was read instead.
func mapFile(f *os.File, size int64) (data []byte, mapped bool, unmap func() error, err error) {
	if size <= 0 || int64(int(size)) != size {
		return readAll(f, size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readAll(f, size)
	}
	return b, true, func() error { return syscall.Munmap(b) }, nil
}

// dropPages drops the pages of a read-only shared mapping from the resident set;
// a later read faults them in again from the page cache. (On private or anonymous
// memory MADV_DONTNEED would discard data: only mappings of files get here.)
func dropPages(b []byte) error {
	if err := syscall.Madvise(b, syscall.MADV_DONTNEED); err != nil {
		return fmt.Errorf("madvise: %w", err)
	}
	return nil
}
