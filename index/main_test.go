package index

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// TestMain removes the class directory minijdk.Dir writes once per test binary.
func TestMain(m *testing.M) { minijdk.Main(m) }
