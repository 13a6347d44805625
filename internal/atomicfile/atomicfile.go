// Package atomicfile writes files that readers never see half-written: the caches on
// disk (facts, graphs, build class paths), which other servers may share.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// WriteFile writes a file through a temporary file renamed into place, creating its
// directory, so that a concurrent reader sees the old file or the new one, never a
// partial one.
func WriteFile(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
