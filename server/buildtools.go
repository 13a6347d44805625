package server

// The build tools (incremental/buildtool): discovery asks Maven or Gradle for the
// dependencies of the workspace's builds, as jcg.buildTool says, and only where the
// workspace is trusted, because running a build tool runs the project's build logic.
// Without trust the build files are read instead, and the status says so.
//
// Trust comes from the client: VS Code's workspace trust, which the extension sends
// as workspaceTrusted in the initialization options and as a jcg/workspaceTrust
// notification when the user grants it. A client that says nothing about trust
// trusts the workspace it opened, as other language servers (gopls' go list,
// jdt.ls' Maven and Gradle import) assume; jcg.buildTool "off" keeps build tools out.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/incremental"
)

// MethodWorkspaceTrust is the notification by which the client says whether the
// workspace is trusted ({"trusted": true}).
const MethodWorkspaceTrust = "jcg/workspaceTrust"

// initTrustKey is the key of the initialization options that carries the client's
// trust; it is not a setting (workspace settings could set it).
const initTrustKey = "workspaceTrusted"

// takeTrust removes the client's trust from the initialization options' layer and
// records it.
func (s *Server) takeTrust(layer settingsLayer) {
	raw, ok := layer[initTrustKey]
	if !ok {
		return
	}
	delete(layer, initTrustKey)
	var trusted bool
	if err := json.Unmarshal(raw, &trusted); err != nil {
		s.log.Warn("initializationOptions: workspaceTrusted: want true or false; not trusting the workspace", zap.Error(err))
	}
	s.untrusted.Store(!trusted)
}

type trustParams struct {
	Trusted bool `json:"trusted"`
}

// workspaceTrust records a change of the client's trust and, when it changes
// anything, discovers the class path again.
func (s *Server) workspaceTrust(ctx context.Context, p *trustParams) error {
	if s.untrusted.Swap(!p.Trusted) == !p.Trusted {
		return nil
	}
	s.log.Info("workspace trust changed", zap.Bool("trusted", p.Trusted))
	s.Rebuild(ctx, incremental.ReasonConfig)
	return nil
}

// buildTools is what discovery may do with the build tools.
func (s *Server) buildTools() *incremental.BuildTools {
	return &incremental.BuildTools{Resolver: s.resolver, Trusted: !s.untrusted.Load()}
}

// buildStatus describes in one line how the projects' builds were resolved, for
// jcg/status ("" when there is no build), and how long resolving took (not counting
// results from the cache).
func buildStatus(snaps []*Snapshot) (string, int64) {
	var parts []string
	var took int64
	for _, p := range snaps {
		for _, b := range p.Project.Builds {
			if !b.FromCache {
				took += b.Took.Milliseconds()
			}
			tool := strings.ToUpper(b.Tool[:1]) + b.Tool[1:]
			how := "ran"
			if !b.Ran {
				how = "build files only"
				if i := strings.LastIndex(b.How, "("); i >= 0 {
					how += " " + b.How[i:]
				}
			}
			parts = append(parts, fmt.Sprintf("%s: %d libraries, %d missing (%s)", tool, len(b.Libraries()), len(b.MissingDeps()), how))
		}
	}
	return strings.Join(parts, "; "), took
}
