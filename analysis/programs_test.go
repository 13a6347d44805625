package analysis

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/internal/testindex"
)

// programsIndex compiles test programs of testdata/java (Java 17) and indexes them as
// one application over the JDK; the index is closed when the test ends.
func programsIndex(t *testing.T, programs ...string) *index.Index {
	return testindex.Programs(t, nil, programs...)
}
