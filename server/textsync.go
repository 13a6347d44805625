package server

import (
	"context"
	"path/filepath"

	"github.com/jcg-lsp/jcg-lsp/incremental"
	"go.lsp.dev/protocol"
)

func (s *Server) didOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	path := filePath(p.TextDocument.URI)
	if path == "" {
		return nil
	}
	s.ide.Docs.Open(path, p.TextDocument.Version, []byte(p.TextDocument.Text))
	// What lower levels say of the file's unreachable methods is learnt for the
	// files the user looks at (off the read loop: it may map the file).
	s.goBackground(func(context.Context) { s.explainLater() })
	return nil
}

func (s *Server) didChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	path := filePath(p.TextDocument.URI)
	if path == "" || len(p.ContentChanges) == 0 {
		return nil
	}
	// Full synchronisation: the last change holds the whole text.
	var text string
	switch c := p.ContentChanges[len(p.ContentChanges)-1].(type) {
	case *protocol.TextDocumentContentChangeWholeDocument:
		text = c.Text
	case *protocol.TextDocumentContentChangePartial:
		return nil // not negotiated: the server asked for full synchronisation
	default:
		return nil
	}
	s.ide.Docs.Open(path, p.TextDocument.Version, []byte(text))
	return nil
}

func (s *Server) didClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	path := filePath(p.TextDocument.URI)
	s.ide.Docs.Close(path)
	return nil
}

// didSave re-analyses when the specification file is saved. A saved .java file only
// moves its diagnostics to the new text: its class files change when the build runs,
// which the class-file watcher reports (watch.go).
func (s *Server) didSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	path := filePath(p.TextDocument.URI)
	if path == "" {
		return nil
	}
	snap, release := s.currentFor(p.TextDocument.URI)
	defer release()
	if snap == nil {
		return nil
	}
	if path == snap.Project.SpecFile {
		if s.specSaved(path) {
			s.Rebuild(ctx, incremental.ReasonSpec)
		}
		return nil
	}
	if filepath.Ext(path) == ".java" {
		s.goBackground(func(ctx context.Context) {
			snap, release := s.currentFor(p.TextDocument.URI)
			defer release()
			if snap != nil {
				s.publishFileDiagnostics(ctx, snap, path)
			}
		})
	}
	return nil
}
