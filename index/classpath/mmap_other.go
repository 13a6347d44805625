//go:build !unix

package classpath

import "os"

func mapFile(f *os.File, size int64) ([]byte, bool, func() error, error) { return readAll(f, size) }

func dropPages([]byte) error { return nil }
