package server

import (
	"github.com/jcg-lsp/jcg-lsp/incremental"
)

// Snapshot is what requests are answered from: one project's analysis, owned by the
// server's incremental.Host. The server reads snapshots; it never builds or changes
// them.
type Snapshot = incremental.Snapshot
