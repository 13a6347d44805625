package incremental

import (
	"errors"
	"io/fs"
	"os"

	"github.com/cespare/xxhash/v2"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// ClassFileChanged reports whether the class file at p differs from the bytes a
// snapshot indexed for it (their hash, when known) and, if it does, whether the new
// bytes fail to parse: a writer is still at work, so the change should wait. A file
// absent now changed only if it was known; a file that cannot be read changed.
func ClassFileChanged(p string, hash uint64, known bool) (changed, unparsed bool) {
	data, err := os.ReadFile(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return known, false
	case err != nil:
		return true, false
	case known && xxhash.Sum64(data) == hash:
		return false, false
	}
	_, err = classfile.Parse(data)
	return true, err != nil
}
