package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/ide"
)

// CommandShowCallers is the command of a caller lens: the client opens the incoming
// call hierarchy of the method at a position. Arguments: the document's URI and the
// position of the method's name. It is the client's to run (the VS Code extension
// registers it), not a workspace/executeCommand of the server.
const CommandShowCallers = "jcg.showCallersAt"

// codeLens answers textDocument/codeLens: one unresolved lens per method (ide.CodeLenses).
func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	lenses := s.ide.CodeLenses(snap, docOf(p.TextDocument.URI))
	out := make([]protocol.CodeLens, len(lenses))
	for i, l := range lenses {
		out[i] = protocol.CodeLens{Range: toRange(l.Range), Data: protocol.LSPAny(l.Data)}
	}
	return out, nil
}

// resolveCodeLens answers codeLens/resolve: the lens's title, from the latest
// snapshot of its document's project, and the command that opens the callers.
func (s *Server) resolveCodeLens(ctx context.Context, p *protocol.CodeLens) (any, error) {
	path := ide.LensPath([]byte(p.Data))
	if path == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "codeLens/resolve: a lens this server did not make (no data)")
	}
	u := fileURI(path)
	snap, release, err := s.snapshotFor(ctx, u)
	if err != nil {
		return nil, err
	}
	defer release()
	title, ok := s.ide.ResolveLens(snap, []byte(p.Data))
	if !ok {
		title = "not in the current analysis"
	}
	out := *p
	out.Command = protocol.Command{Title: title, Command: CommandShowCallers,
		Arguments: []protocol.LSPAny{jsonValue(string(u)), jsonValue(p.Range.Start)}}
	return &out, nil
}

// jsonValue encodes a plain value (a string, a position) as an LSPAny.
func jsonValue(v any) protocol.LSPAny {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain values are encoded here
	}
	return protocol.LSPAny(b)
}
