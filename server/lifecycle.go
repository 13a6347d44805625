package server

//lint:file-ignore SA1019 clients without workspace folders send only the deprecated rootUri or rootPath

import (
	"context"
	"fmt"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"
)

func (s *Server) initialize(ctx context.Context, p *protocol.InitializeParams) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.folders = workspaceFolders(p)
	if c := p.Capabilities.Window; c != nil {
		s.caps.progress = c.WorkDoneProgress != nil && *c.WorkDoneProgress
		s.caps.showDocument = c.ShowDocument != nil && c.ShowDocument.Support
	}
	if c := p.Capabilities.Workspace; c != nil {
		s.caps.configuration = c.Configuration != nil && *c.Configuration
		s.caps.codeLensRefresh = c.CodeLens != nil && c.CodeLens.RefreshSupport != nil && *c.CodeLens.RefreshSupport
		if e := c.WorkspaceEdit; e != nil {
			s.caps.docChanges = e.DocumentChanges != nil && *e.DocumentChanges
			s.caps.createFiles = slices.Contains(e.ResourceOperations, protocol.ResourceOperationKindCreate)
		}
	}
	layer, err := parseLayer(p.InitializationOptions)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions: %v", err)
	}
	s.takeTrust(layer)
	s.layers[0] = layer
	s.state = stateRunning
	s.log.Info("initialize", zap.Strings("folders", s.folders), zap.String("client", p.ClientInfo.Name),
		zap.Bool("progress", s.caps.progress), zap.Bool("configuration", s.caps.configuration))

	yes := true
	full := protocol.TextDocumentSyncKindFull
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: protocol.PositionEncodingKindUTF16,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: &yes,
				Change:    &full,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider:          protocol.Boolean(true),
			CallHierarchyProvider:  protocol.Boolean(true),
			ImplementationProvider: protocol.Boolean(true),
			TypeHierarchyProvider:  protocol.Boolean(true),
			CodeLensProvider:       &protocol.CodeLensOptions{ResolveProvider: &yes},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix},
			},
			ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: commandNames()},
			Workspace: &protocol.WorkspaceOptions{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
				Supported: &yes, ChangeNotifications: protocol.Boolean(true),
			}},
		},
		ServerInfo: protocol.ServerInfo{Name: "jcg-lsp", Version: protocol.NewOptional(s.version)},
	}, nil
}

// workspaceFolders returns the paths of the workspace folders, falling back to the
// deprecated rootUri and rootPath.
func workspaceFolders(p *protocol.InitializeParams) []string {
	var out []string
	if fs, ok := p.WorkspaceFolders.Get(); ok {
		for _, f := range fs {
			if f.URI.IsFile() {
				out = append(out, filePath(f.URI))
			}
		}
	}
	if len(out) == 0 && p.RootURI != nil && p.RootURI.IsFile() {
		out = append(out, filePath(*p.RootURI))
	}
	if len(out) == 0 {
		if rp, ok := p.RootPath.Get(); ok && rp != "" {
			out = append(out, fspath.Host().Clean(rp))
		}
	}
	return out
}

func (s *Server) initializedNote(ctx context.Context, _ *protocol.InitializedParams) error {
	s.mu.Lock()
	select {
	case <-s.initialized:
		s.mu.Unlock()
		return nil // sent twice
	default:
	}
	close(s.initialized)
	pull := s.caps.configuration
	s.mu.Unlock()
	// The first build waits for the client's configuration (one round trip) rather
	// than indexing with the initialization options and starting over when the
	// configuration differs.
	s.goBackground(func(ctx context.Context) {
		if pull {
			s.pullConfiguration(ctx)
		}
		s.Rebuild(ctx, incremental.ReasonInitial)
	})
	return nil
}

func (s *Server) shutdown(ctx context.Context, _ *struct{}) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.shutdownAsked = true
	s.mu.Unlock()
	s.cancelBuild()
	return nil, nil
}

func (s *Server) exit(ctx context.Context, _ *struct{}) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.exited:
	default:
		close(s.exited)
	}
	return nil
}

// settings returns the effective settings: the defaults overlaid with every layer.
func (s *Server) settings() (Settings, []string) {
	s.mu.Lock()
	layers := s.layers
	s.mu.Unlock()
	st := DefaultSettings()
	var problems []string
	for _, l := range layers {
		problems = append(problems, st.apply(l)...)
	}
	return st, problems
}

// pullConfiguration asks the client for the "jcg" section and makes it the
// configuration layer. It reports whether the effective settings changed.
func (s *Server) pullConfiguration(ctx context.Context) bool {
	s.configMu.Lock()
	defer s.configMu.Unlock()
	before, _ := s.settings()
	section := ConfigSection
	var scope *uri.URI
	if fs := s.folderList(); len(fs) > 0 {
		u := fileURI(fs[0])
		scope = &u
	}
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{
		Items: []protocol.ConfigurationItem{{ScopeURI: scope, Section: &section}},
	})
	if err != nil {
		s.log.Warn("workspace/configuration failed", zap.Error(err))
		return false
	}
	if len(res) == 0 {
		return false
	}
	layer, err := parseLayer(res[0])
	if err != nil {
		s.log.Warn("workspace/configuration", zap.Error(err))
		return false
	}
	s.setConfigLayer(layer)
	after, _ := s.settings()
	return !before.equal(&after)
}

// setConfigLayer replaces the configuration layer. A command's override of a setting
// that the new configuration changes is dropped: the latest choice wins.
func (s *Server) setConfigLayer(layer settingsLayer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.layers[1]
	for k := range s.layers[2] {
		if string(old[k]) != string(layer[k]) {
			delete(s.layers[2], k)
		}
	}
	s.layers[1] = layer
}

func (s *Server) folderList() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.folders)
}

// didChangeWorkspaceFolders re-discovers the class path of the new set of folders.
func (s *Server) didChangeWorkspaceFolders(ctx context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	// Two spellings of one folder (c:\Work and C:\work) are one folder.
	fl := fspath.Host()
	for _, f := range p.Event.Removed {
		if path := filePath(f.URI); path != "" {
			s.folders = slices.DeleteFunc(s.folders, func(x string) bool { return fl.Same(x, path) })
		}
	}
	for _, f := range p.Event.Added {
		if path := filePath(f.URI); path != "" && !slices.ContainsFunc(s.folders, func(x string) bool { return fl.Same(x, path) }) {
			s.folders = append(s.folders, path)
		}
	}
	s.mu.Unlock()
	s.Rebuild(ctx, incremental.ReasonFolders)
	return nil
}

func (s *Server) didChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	pull := s.caps.configuration
	s.mu.Unlock()
	settings := p.Settings
	// A client that supports pulling sends null (VS Code) or a stale copy: pull. One
	// that does not sends the settings themselves.
	s.goBackground(func(ctx context.Context) {
		changed := false
		if pull {
			changed = s.pullConfiguration(ctx)
		} else {
			layer, err := parseLayer(settings)
			if err != nil {
				s.log.Warn("didChangeConfiguration", zap.Error(err))
				return
			}
			s.configMu.Lock()
			before, _ := s.settings()
			s.setConfigLayer(layer)
			after, _ := s.settings()
			s.configMu.Unlock()
			changed = !before.equal(&after)
		}
		if changed {
			s.Rebuild(ctx, incremental.ReasonConfig)
		}
	})
	return nil
}

// override sets a command's override of one setting (layer 2) and reports whether the
// effective settings changed.
func (s *Server) override(key string, raw []byte) (bool, []string) {
	return s.overrideFrom(key, func(Settings) ([]byte, error) { return raw, nil })
}

// overrideFrom is override with the value computed from the effective settings
// under the same lock, so that concurrent overrides of one key lose nothing.
func (s *Server) overrideFrom(key string, value func(Settings) ([]byte, error)) (bool, []string) {
	s.configMu.Lock()
	defer s.configMu.Unlock()
	before, _ := s.settings()
	raw, err := value(before)
	if err != nil {
		return false, []string{fmt.Sprintf("%s: %v", key, err)}
	}
	scratch := DefaultSettings()
	if problems := scratch.apply(settingsLayer{key: raw}); len(problems) > 0 {
		return false, problems
	}
	s.mu.Lock()
	if s.layers[2] == nil {
		s.layers[2] = settingsLayer{}
	}
	s.layers[2][key] = raw
	s.mu.Unlock()
	after, _ := s.settings()
	return !before.equal(&after), nil
}
