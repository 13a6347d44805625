package server

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/ide"
)

func (s *Server) prepareTypeHierarchy(ctx context.Context, p *protocol.TypeHierarchyPrepareParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	return toTypeItems(s.ide.PrepareTypeHierarchy(snap, docOf(p.TextDocument.URI), fromPosition(p.Position))), nil
}

func (s *Server) supertypes(ctx context.Context, p *protocol.TypeHierarchySupertypesParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.Item.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	items, ok := s.ide.Supertypes(snap, fromTypeItem(&p.Item))
	if !ok {
		return nil, nil
	}
	return toTypeItems(items), nil
}

func (s *Server) subtypes(ctx context.Context, p *protocol.TypeHierarchySubtypesParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.Item.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	items, ok := s.ide.Subtypes(ctx, snap, fromTypeItem(&p.Item))
	if !ok {
		return nil, nil
	}
	return toTypeItems(items), nil
}

// toTypeItems converts type-hierarchy items to LSP's; none is null, which prepare
// answers when the position names no type.
func toTypeItems(items []ide.TypeItem) []protocol.TypeHierarchyItem {
	if items == nil {
		return nil
	}
	out := make([]protocol.TypeHierarchyItem, len(items))
	for i := range items {
		it := &items[i]
		detail := it.Detail
		out[i] = protocol.TypeHierarchyItem{
			Name: it.Name, Kind: protocol.SymbolKind(it.Kind), Detail: &detail,
			URI: uriOf(it.Doc), Range: toRange(it.Range), SelectionRange: toRange(it.Selection),
			Data: protocol.LSPAny(it.Data),
		}
	}
	return out
}

// fromTypeItem converts an item a client sent back.
func fromTypeItem(it *protocol.TypeHierarchyItem) ide.TypeItem {
	out := ide.TypeItem{Name: it.Name, Kind: ide.TypeKind(it.Kind), Doc: docOf(it.URI),
		Range: fromRange(it.Range), Selection: fromRange(it.SelectionRange), Data: []byte(it.Data)}
	if it.Detail != nil {
		out.Detail = *it.Detail
	}
	return out
}
