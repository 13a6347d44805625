package server

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/jcg-lsp/jcg-lsp/ide"
)

func (s *Server) codeAction(ctx context.Context, p *protocol.CodeActionParams) (any, error) {
	snap, release, err := s.snapshotFor(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	defer release()
	if snap.Graph == nil {
		return nil, nil
	}
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	var out []protocol.CommandOrCodeAction
	if title := s.ide.ExplainOffer(snap, docOf(p.TextDocument.URI), fromPosition(p.Range.Start)); title != "" {
		out = append(out, &protocol.CodeAction{Title: title, Command: protocol.Command{Title: title, Command: CommandExplainCallAt,
			Arguments: []protocol.LSPAny{jsonValue(string(p.TextDocument.URI)), jsonValue(p.Range.Start)}}})
	}
	ours := false
	for i := range p.Context.Diagnostics {
		d := &p.Context.Diagnostics[i]
		src, _ := d.Source.Get()
		if src != diagnosticSource || len(d.Data) == 0 {
			continue
		}
		ours = true
		for _, f := range s.ide.Fixes(snap, []byte(d.Data)) {
			kind := protocol.CodeActionKindQuickFix
			a := &protocol.CodeAction{Title: f.Title, Kind: &kind, Diagnostics: []protocol.Diagnostic{*d}}
			if f.Property != nil {
				a.Command = protocol.Command{Title: f.Title, Command: cmdSetProperty, Arguments: []protocol.LSPAny{jsonString(f.Property.Key), jsonString(f.Property.Value)}}
			} else {
				a.Edit = specEdit(&f.Edit, caps)
			}
			if f.Preferred {
				yes := true
				a.IsPreferred = &yes
			}
			out = append(out, a)
		}
	}
	if ours {
		title := "Open specification file"
		kind := protocol.CodeActionKindQuickFix
		out = append(out, &protocol.CodeAction{
			Title: title, Kind: &kind,
			Command: protocol.Command{Title: title, Command: cmdOpenSpecFile},
		})
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// specEdit returns the workspace edit of a specification entry: a versioned document
// change (creating the file first when needed) for clients that take document
// changes, else a plain text edit.
func specEdit(e *ide.SpecEdit, caps clientCaps) *protocol.WorkspaceEdit {
	u := fileURI(e.Path)
	pos := toPosition(e.At)
	edit := protocol.TextEdit{Range: protocol.Range{Start: pos, End: pos}, NewText: e.Text}
	if !caps.docChanges {
		return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: {edit}}}
	}
	var changes []protocol.DocumentChange
	if e.Create {
		yes := true
		changes = append(changes, &protocol.CreateFile{Kind: "create", URI: u, Options: &protocol.CreateFileOptions{IgnoreIfExists: &yes}})
	}
	id := protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}}
	if e.Open {
		version := e.Version
		id.Version = &version
	}
	changes = append(changes, &protocol.TextDocumentEdit{TextDocument: id, Edits: []protocol.TextDocumentEditElement{&edit}})
	return &protocol.WorkspaceEdit{DocumentChanges: changes}
}

// jsonString is s as a JSON value.
func jsonString(s string) protocol.LSPAny {
	raw, _ := json.Marshal(s) // a string always marshals
	return raw
}
