package server

import (
	"context"

	"go.lsp.dev/protocol"
)

func (s *Server) hover(ctx context.Context, p *protocol.HoverParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	md, rng := s.ide.Hover(snap, docOf(p.TextDocument.URI), fromPosition(p.Position))
	if md == "" {
		return nil, nil
	}
	h := &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: md}}
	if rng != nil {
		r := toRange(*rng)
		h.Range = &r
	}
	return h, nil
}
