package server

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/ide"
)

func (s *Server) prepareCallHierarchy(ctx context.Context, p *protocol.CallHierarchyPrepareParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	items := s.ide.Prepare(snap, docOf(p.TextDocument.URI), fromPosition(p.Position))
	if len(items) == 0 {
		return nil, nil
	}
	out := make([]protocol.CallHierarchyItem, len(items))
	for i := range items {
		out[i] = toItem(&items[i])
	}
	return out, nil
}

func (s *Server) incomingCalls(ctx context.Context, p *protocol.CallHierarchyIncomingCallsParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.Item.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	calls, ok := s.ide.Incoming(ctx, snap, fromItem(&p.Item))
	if !ok {
		return nil, nil
	}
	out := make([]protocol.CallHierarchyIncomingCall, len(calls))
	for i := range calls {
		out[i] = protocol.CallHierarchyIncomingCall{From: toItem(&calls[i].From), FromRanges: toRanges(calls[i].FromRanges)}
	}
	return out, nil
}

func (s *Server) outgoingCalls(ctx context.Context, p *protocol.CallHierarchyOutgoingCallsParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.Item.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	calls, ok := s.ide.Outgoing(ctx, snap, fromItem(&p.Item))
	if !ok {
		return nil, nil
	}
	out := make([]protocol.CallHierarchyOutgoingCall, len(calls))
	for i := range calls {
		out[i] = protocol.CallHierarchyOutgoingCall{To: toItem(&calls[i].To), FromRanges: toRanges(calls[i].FromRanges)}
	}
	return out, nil
}

// toItem converts a call-hierarchy item to LSP's.
func toItem(it *ide.CallItem) protocol.CallHierarchyItem {
	detail := it.Detail
	return protocol.CallHierarchyItem{
		Name: it.Name, Kind: protocol.SymbolKind(it.Kind), Detail: &detail,
		URI: uriOf(it.Doc), Range: toRange(it.Range), SelectionRange: toRange(it.Selection),
		Data: protocol.LSPAny(it.Data),
	}
}

// fromItem converts an item a client sent back.
func fromItem(it *protocol.CallHierarchyItem) ide.CallItem {
	out := ide.CallItem{Name: it.Name, Kind: ide.SymbolKind(it.Kind), Doc: docOf(it.URI),
		Range: fromRange(it.Range), Selection: fromRange(it.SelectionRange), Data: []byte(it.Data)}
	if it.Detail != nil {
		out.Detail = *it.Detail
	}
	return out
}
