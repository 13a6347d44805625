// Package ide answers the editor's questions about a snapshot of the analysis (the
// feature layer between incremental's snapshots and the language server, as gopls'
// golang and rust-analyzer's ide packages are): what a position of a source file or
// class listing designates, hovers, call hierarchies, diagnostics and the quick fixes
// that write specification entries. Its answers are plain data (types.go) in LSP's
// coordinates; the server turns them into protocol messages.
//
// The mapping between source text and bytecode (source.go, javasrc/) is the base of
// every feature: a .java file holds the classes whose package and SourceFile match
// it; declarations, lambdas and initialisers are matched to methods by name,
// parameter types and LineNumberTable lines; a call instruction's token is the n-th
// token with its name on its line. Classes without source get a javap-style listing
// (listing.go). Both are kept with the snapshot's index (incremental.Snapshot.Derived).
package ide

import (
	"fmt"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/incremental"
)

// Snapshot is the analysis features read.
type Snapshot = incremental.Snapshot

// Session is what features read besides a snapshot: the editor's open documents,
// the reflection logs seen so far and the presentation settings. Safe for
// concurrent use.
type Session struct {
	Docs *Documents
	// settings returns the current presentation settings.
	settings  func() Settings
	log       *zap.Logger
	reportBug func(msg string)
	reflLogs  reflLogs
}

// NewSession returns a session whose features present with the settings that
// settings returns at the time of each request; bug is told what should not happen.
func NewSession(settings func() Settings, bug func(msg string), log *zap.Logger) *Session {
	if log == nil {
		log = zap.NewNop()
	}
	return &Session{Docs: NewDocuments(), settings: settings, reportBug: bug, log: log}
}

// Settings returns the current presentation settings.
func (s *Session) Settings() Settings { return s.settings() }

// bug reports what should not happen.
func (s *Session) bug(format string, args ...any) { s.reportBug(fmt.Sprintf(format, args...)) }
