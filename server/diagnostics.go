package server

import (
	"context"
	"fmt"
	"sort"

	"github.com/cespare/xxhash/v2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/ide"
)

// publishDiagnostics publishes the diagnostics of new snapshots (one per project) for
// every file whose diagnostics changed, clearing those of files that have none any
// more.
func (s *Server) publishDiagnostics(ctx context.Context, st *Settings, snaps []*Snapshot) {
	s.publishDiagnosticsIf(ctx, st, snaps, nil)
}

// publishDiagnosticsIf is publishDiagnostics when still (nil: always) holds at the
// time of the publish: a publish from the background that a build's must not
// overwrite checks that no build started since (Server.explainLater).
func (s *Server) publishDiagnosticsIf(ctx context.Context, st *Settings, snaps []*Snapshot, still func() bool) {
	pst := st.present()
	next := map[uri.URI][]protocol.Diagnostic{}
	for _, snap := range snaps {
		ds := s.ide.Diagnostics(ctx, &pst, snap)
		if ctx.Err() != nil {
			return
		}
		for path, d := range ds {
			next[fileURI(path)] = toDiagnostics(d)
		}
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if still != nil && !still() {
		return
	}
	for u := range s.published {
		if _, ok := next[u]; !ok {
			next[u] = nil
		}
	}
	us := make([]uri.URI, 0, len(next))
	for u := range next {
		us = append(us, u)
	}
	sort.Slice(us, func(i, j int) bool { return us[i] < us[j] })
	for _, u := range us {
		s.publishLocked(ctx, u, next[u])
	}
}

// publishFileDiagnostics republishes one file's diagnostics (its text changed).
func (s *Server) publishFileDiagnostics(ctx context.Context, snap *Snapshot, path string) {
	st := s.shownSettings().present()
	sites := s.ide.SitesByFile(&st, snap)[path]
	ds := toDiagnostics(ide.MergeDiagnostics(s.ide.FileDiagnostics(&st, snap, path, sites), s.ide.FileUnreachable(&st, snap, path)))
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	s.publishLocked(ctx, fileURI(path), ds)
}

func (s *Server) publishLocked(ctx context.Context, u uri.URI, ds []protocol.Diagnostic) {
	raw, err := protocol.Marshal(ds)
	if err != nil {
		s.bug("marshal diagnostics: %v", err)
		return
	}
	fp := fmt.Sprintf("%x", xxhash.Sum64(raw))
	if len(ds) == 0 {
		fp = ""
	}
	if s.published[u] == fp {
		return
	}
	if ds == nil {
		ds = []protocol.Diagnostic{}
	}
	if err := s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: ds}); err != nil {
		s.log.Debug("publishDiagnostics", zap.Error(err))
		return
	}
	if fp == "" {
		delete(s.published, u)
	} else {
		s.published[u] = fp
	}
}
