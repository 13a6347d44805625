package server

import (
	"context"

	"go.lsp.dev/protocol"
)

// implementation answers textDocument/implementation from the graph (ide.Implementations).
func (s *Server) implementation(ctx context.Context, p *protocol.ImplementationParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	locs := s.ide.Implementations(ctx, snap, docOf(p.TextDocument.URI), fromPosition(p.Position))
	if len(locs) == 0 {
		return nil, nil
	}
	out := make([]protocol.Location, len(locs))
	for i, l := range locs {
		out[i] = protocol.Location{URI: uriOf(l.Doc), Range: toRange(l.Range)}
	}
	return out, nil
}
