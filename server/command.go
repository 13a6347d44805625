package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/export"
	"github.com/jcg-lsp/jcg-lsp/ide"
	"github.com/jcg-lsp/jcg-lsp/incremental"
)

// Commands of workspace/executeCommand.
const (
	cmdSetLevel          = "jcg.setLevel"          // [level]: switch the assumption level; returns the new summary
	cmdStatistics        = "jcg.statistics"        // per-level statistics table (text)
	cmdExport            = ide.ExportCommand       // [{format, path, appOnly}]: write the graph
	cmdShowClassPath     = "jcg.showClassPath"     // the discovered class path and source roots (text)
	cmdReanalyze         = "jcg.reanalyze"         // re-read the class path and analyse again
	cmdOpenSpecFile      = "jcg.openSpecFile"      // open (creating it if needed) the specification file
	cmdShowSpecification = "jcg.showSpecification" // the specification entries read (text)
	cmdSetProperty       = ide.SetPropertyCommand  // [key, value]: analyse with env[key] = value
	cmdExplainCall       = "jcg.explainCall"       // [uri, position]: why the call there has its targets (Markdown)
)

// CommandExplainCallAt is the command of the "why this call has N targets" code
// action: the client asks the server's jcg.explainCall and shows the Markdown it
// returns. Arguments: the document's URI and the call's position. It is the
// client's to run (the VS Code extension registers it), as a caller lens's is.
const CommandExplainCallAt = "jcg.explainCallAt"

func commandNames() []string {
	return []string{cmdSetLevel, cmdStatistics, cmdExport, cmdShowClassPath, cmdReanalyze, cmdOpenSpecFile, cmdShowSpecification, cmdSetProperty, cmdExplainCall}
}

func (s *Server) executeCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	switch p.Command {
	case cmdSetLevel:
		return s.setLevel(ctx, p.Arguments)
	case cmdSetProperty:
		return s.setProperty(ctx, p.Arguments)
	case cmdExplainCall:
		return s.explainCall(ctx, p.Arguments)
	case cmdReanalyze:
		snap, err := s.Rebuild(ctx, incremental.ReasonCommand).Wait(ctx)
		if err != nil {
			return nil, err
		}
		return summary(snap), nil
	}
	if err := s.awaitEdits(ctx); err != nil {
		return nil, err
	}
	snap, release := s.current()
	defer release()
	if snap == nil {
		return nil, errNoSnapshot
	}
	switch p.Command {
	case cmdStatistics:
		return ide.Statistics(ctx, snap)
	case cmdExport:
		return s.export(ctx, snap, p.Arguments)
	case cmdShowClassPath:
		all, releaseAll := s.currentAll()
		defer releaseAll()
		var parts []string
		for i, p := range all {
			text := ide.ClassPathReport(p)
			if len(all) > 1 {
				text = fmt.Sprintf("Project %d of %d (analysed separately):\n%s", i+1, len(all), text)
			}
			parts = append(parts, text)
		}
		return strings.Join(parts, "\n"), nil
	case cmdOpenSpecFile:
		return s.openSpecFile(ctx, snap)
	case cmdShowSpecification:
		var probs []string
		if snap.Graph != nil {
			probs = snap.Graph.Problems
		}
		sf := snap.Spec
		// The file as it is now, when it means what the snapshot analysed: an edit of
		// comments, or a file of comments only created since, does not rebuild.
		if now := incremental.ReadSpecFile(sf.Path); now.Err == nil && now.Meaning() == sf.Meaning() {
			sf = now
		}
		return ide.DescribeSpec(sf, probs), nil
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q (known: %s)", p.Command, strings.Join(commandNames(), ", "))
}

// setLevel overrides the assumption level and waits for the new snapshot.
func (s *Server) setLevel(ctx context.Context, args []protocol.LSPAny) (any, error) {
	if len(args) != 1 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s wants one argument: a level's name (%s) or number 1-%d", cmdSetLevel, callgraph.LevelChoices(), callgraph.MaxLevel.Number())
	}
	// Like the command line, the command takes a level's number, used at once; the
	// override keeps the level's name, as settings name levels.
	var arg string
	if json.Unmarshal(args[0], &arg) != nil {
		arg = string(bytes.TrimSpace(args[0]))
	}
	raw := []byte(args[0])
	if lv, err := callgraph.ParseLevelOrNumber(arg); err == nil {
		raw, _ = json.Marshal(lv.String())
	}
	changed, problems := s.override("level", raw)
	return s.analyseOverridden(ctx, changed, problems, func(snap *Snapshot) string { return snap.Options.Level.Title() })
}

// analyseOverridden answers a command that overrode a setting: the problems, the
// current summary when nothing changed, else the summary of a new analysis after
// what the command names of it.
func (s *Server) analyseOverridden(ctx context.Context, changed bool, problems []string, what func(*Snapshot) string) (any, error) {
	if len(problems) > 0 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s", strings.Join(problems, "; "))
	}
	if !changed {
		snap, release := s.current()
		defer release()
		if snap != nil {
			return summary(snap), nil
		}
	}
	snap, err := s.Rebuild(ctx, incremental.ReasonConfig).Wait(ctx)
	if err != nil {
		return nil, err
	}
	return what(snap) + ": " + summary(snap), nil
}

// setProperty sets one key of the analysed environment over the settings' env, for
// the rest of the session (as setLevel's level), and analyses again.
func (s *Server) setProperty(ctx context.Context, args []protocol.LSPAny) (any, error) {
	var key, value string
	if len(args) != 2 || json.Unmarshal(args[0], &key) != nil || json.Unmarshal(args[1], &value) != nil || key == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, `%s wants two strings: a system property's key (or "env.NAME" for an environment variable) and its value`, cmdSetProperty)
	}
	changed, problems := s.overrideFrom("env", func(st Settings) ([]byte, error) {
		env := maps.Clone(st.Env)
		if env == nil {
			env = map[string]string{}
		}
		env[key] = value
		return json.Marshal(env)
	})
	return s.analyseOverridden(ctx, changed, problems, func(*Snapshot) string { return key + "=" + value })
}

type exportArgs struct {
	Format  string `json:"format"`
	Path    string `json:"path"`
	AppOnly bool   `json:"appOnly"`
}

type exportResult struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
}

func (s *Server) export(ctx context.Context, snap *Snapshot, args []protocol.LSPAny) (any, error) {
	var a exportArgs
	if len(args) != 1 || json.Unmarshal(args[0], &a) != nil || a.Path == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, `%s wants one argument {"format": "jcg"|"dot"|"json", "path": "...", "appOnly": false}`, cmdExport)
	}
	var write func(io.Writer, *callgraph.Graph, analysis.Program, export.Options) error
	switch a.Format {
	case "jcg", "":
		write = export.WriteJCG
	case "dot":
		write = export.WriteDOT
	case "json":
		write = export.WriteJSON
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown format %q (want jcg, dot or json)", a.Format)
	}
	if snap.Graph == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "no call graph: %v", snap.Err)
	}
	path := a.Path
	if !filepath.IsAbs(path) && len(snap.Project.Folders) > 0 {
		path = filepath.Join(snap.Project.Folders[0], path)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%v", err)
	}
	werr := write(f, snap.Graph, snap.Index(), export.Options{AppOnly: a.AppOnly})
	fi, _ := f.Stat()
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "writing %s: %v", path, werr)
	}
	return &exportResult{Path: path, Bytes: fi.Size()}, nil
}

// openSpecFile asks the client to show the specification file, creating it with its
// header first when it does not exist.
func (s *Server) openSpecFile(ctx context.Context, snap *Snapshot) (any, error) {
	path := snap.Project.SpecFile
	if _, err := os.Stat(path); os.IsNotExist(err) {
		if err := os.WriteFile(path, []byte(ide.SpecHeader), 0o666); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "creating %s: %v", path, err)
		}
	}
	u := fileURI(path)
	s.mu.Lock()
	show := s.caps.showDocument
	s.mu.Unlock()
	if show {
		// Requests run released from the read loop, so waiting for the client's
		// answer here cannot deadlock.
		yes := true
		if _, err := s.client.ShowDocument(ctx, &protocol.ShowDocumentParams{URI: u, TakeFocus: &yes}); err != nil {
			return nil, err
		}
	}
	return string(u), nil
}

// classContentParams and classContentResult are the jcg/classContent request's.
type classContentParams struct {
	URI string `json:"uri"`
}

type classContentResult struct {
	Text string `json:"text"`
}

// classContent returns the listing of a jcg-class: URI (for the VS Code extension's
// TextDocumentContentProvider and for other clients).
func (s *Server) classContent(ctx context.Context, p *classContentParams) (any, error) {
	name, ok := classOfURI(uri.URI(p.URI))
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "not a %s: URI: %q", ClassScheme, p.URI)
	}
	if name == ide.NativeNodeClass {
		return &classContentResult{Text: ide.NativeListing}, nil
	}
	if err := s.awaitEdits(ctx); err != nil {
		return nil, err
	}
	snap, release := s.currentFor(uri.URI(p.URI))
	defer release()
	if snap == nil {
		return nil, errNoSnapshot
	}
	text, ok := ide.ClassListing(snap, name)
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "class %s is not on the class path", strings.ReplaceAll(name, "/", "."))
	}
	return &classContentResult{Text: text}, nil
}

// explainCall runs jcg.explainCall: [uri, position] of a call with several targets.
func (s *Server) explainCall(ctx context.Context, args []protocol.LSPAny) (any, error) {
	var u uri.URI
	var pos protocol.Position
	if len(args) != 2 || json.Unmarshal(args[0], &u) != nil || json.Unmarshal(args[1], &pos) != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: want [uri, position]", cmdExplainCall)
	}
	snap, release, err := s.snapshotFor(ctx, u)
	if err != nil {
		return nil, err
	}
	defer release()
	md, err := s.ide.ExplainCall(ctx, snap, docOf(u), fromPosition(pos))
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", cmdExplainCall, err)
	}
	return md, nil
}
