package server

// Conversions between the feature layer's plain data (package ide) and LSP's types.

import (
	"go.lsp.dev/protocol"

	"github.com/jcg-lsp/jcg-lsp/ide"
)

func fromPosition(p protocol.Position) ide.Position {
	return ide.Position{Line: p.Line, Character: p.Character}
}

func toPosition(p ide.Position) protocol.Position {
	return protocol.Position{Line: p.Line, Character: p.Character}
}

func fromRange(r protocol.Range) ide.Range {
	return ide.Range{Start: fromPosition(r.Start), End: fromPosition(r.End)}
}

func toRange(r ide.Range) protocol.Range {
	return protocol.Range{Start: toPosition(r.Start), End: toPosition(r.End)}
}

func toRanges(rs []ide.Range) []protocol.Range {
	out := make([]protocol.Range, len(rs))
	for i, r := range rs {
		out[i] = toRange(r)
	}
	return out
}

// diagnosticSource is the source of the server's diagnostics: code actions act on
// these only.
const diagnosticSource = "jcg-lsp"

func toDiagnostic(d *ide.Diagnostic) protocol.Diagnostic {
	out := protocol.Diagnostic{
		Range:    toRange(d.Range),
		Severity: protocol.DiagnosticSeverity(d.Severity),
		Code:     protocol.String(d.Code),
		Source:   protocol.NewOptional(diagnosticSource),
		Message:  protocol.String(d.Message),
		Data:     protocol.LSPAny(d.Data),
	}
	if d.Unnecessary {
		out.Tags = protocol.NewDiagnosticTags(protocol.DiagnosticTagUnnecessary)
	}
	for _, r := range d.Related {
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uriOf(r.Location.Doc), Range: toRange(r.Location.Range)},
			Message:  r.Message,
		})
	}
	return out
}

func toDiagnostics(ds []ide.Diagnostic) []protocol.Diagnostic {
	if ds == nil {
		return nil
	}
	out := make([]protocol.Diagnostic, len(ds))
	for i := range ds {
		out[i] = toDiagnostic(&ds[i])
	}
	return out
}

// toSeverity converts a diagnostic severity setting.
func toSeverity(s protocol.DiagnosticSeverity) ide.Severity { return ide.Severity(s) }
