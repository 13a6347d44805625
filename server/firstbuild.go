package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// defaultFirstBuildWait bounds how long a request waits for the workspace's first
// snapshot: long enough for the first analysis of a large workspace with the JDK,
// short enough that a client is told, rather than left waiting, when it hangs.
const defaultFirstBuildWait = 2 * time.Minute

// codeRequestFailed is LSP's RequestFailed: clients show its message, where they drop
// ContentModified and RequestCancelled silently.
const codeRequestFailed jsonrpc2.Code = jsonrpc2.Code(protocol.LSPErrorCodesRequestFailed)

// snapshotFor returns the latest snapshot of document u's project, waiting for the
// first one while the first build runs. An empty answer before it exists would mean
// "no callers" or "nothing here" to the user, which is false; so a request waits until
// the build publishes, the client cancels it ($/cancelRequest cancels ctx), the wait
// exceeds its bound, or the build ends without a snapshot, and answers with an error
// the client shows in the last two cases. After the first snapshot, requests during a
// rebuild answer at once from the previous one, unless the rebuild is an edit's
// (awaitEdits).
func (s *Server) snapshotFor(ctx context.Context, u uri.URI) (*Snapshot, func(), error) {
	if err := s.awaitEdits(ctx); err != nil {
		return nil, nil, err
	}
	if snap, release := s.currentFor(u); snap != nil {
		return snap, release, nil
	}
	start := time.Now()
	bound := time.NewTimer(s.firstBuildWait)
	defer bound.Stop()
	poll := time.NewTicker(50 * time.Millisecond)
	defer poll.Stop()
	for {
		s.build.mu.Lock()
		b := s.build.last
		s.build.mu.Unlock()
		var ended <-chan struct{} // the latest build's end; nil before the first starts
		if b != nil {
			ended = b.done
			select {
			case <-b.done:
				if snap, release := s.currentFor(u); snap != nil {
					return snap, release, nil
				}
				s.build.mu.Lock()
				newer := s.build.last != b
				s.build.mu.Unlock()
				if newer {
					continue
				}
				why := "it was cancelled"
				if b.err != nil && !errors.Is(b.err, context.Canceled) {
					why = "it failed: " + b.err.Error()
				}
				return nil, nil, jsonrpc2.NewError(codeRequestFailed, "jcg-lsp has no analysis of this workspace yet: its build ended without one ("+why+")")
			default:
			}
		}
		select {
		case <-ended:
		case <-poll.C: // no build yet (the first starts after the configuration arrives), or a newer one
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-bound.C:
			return nil, nil, jsonrpc2.NewError(codeRequestFailed,
				fmt.Sprintf("jcg-lsp is still analysing the workspace (%s so far); ask again when its status shows the analysis is done", time.Since(start).Round(time.Second)))
		}
		if snap, release := s.currentFor(u); snap != nil {
			return snap, release, nil
		}
	}
}

// awaitEdits waits until the snapshots requests read include the latest edit the
// server has seen when it is called (a class file the watcher reported, a saved
// specification file: isEdit): the edit's interim snapshots (publishInterim), its
// final ones, or a newer build's. A call hierarchy, a hover or a listing never
// answers from a snapshot older than an edit the server has seen, and so never
// contradicts the edit's diagnostics. It returns at once when no edit is pending or
// when the latest build ended without publishing (a failed build leaves the
// previous snapshots, the best there are); else when the client cancels the request
// (ctx), or with an error the client shows after the first build's bound.
func (s *Server) awaitEdits(ctx context.Context) error {
	var bound <-chan time.Time
	for {
		s.build.mu.Lock()
		want, have, last := s.build.edit, s.build.viewGen, s.build.last
		if have >= want || last == nil {
			s.build.mu.Unlock()
			return nil
		}
		if s.build.viewed == nil {
			s.build.viewed = make(chan struct{})
		}
		viewed := s.build.viewed
		s.build.mu.Unlock()
		select {
		case <-last.done:
			s.build.mu.Lock()
			newer := s.build.last != last
			s.build.mu.Unlock()
			if !newer {
				// It published (setView ran before it ended) or failed: nothing
				// newer is coming.
				return nil
			}
			continue
		default:
		}
		if bound == nil {
			t := time.NewTimer(s.firstBuildWait)
			defer t.Stop()
			bound = t.C
		}
		select {
		case <-viewed:
		case <-last.done:
		case <-ctx.Done():
			return ctx.Err()
		case <-bound:
			return jsonrpc2.NewError(codeRequestFailed, "jcg-lsp is still analysing the latest change; ask again when its status shows the analysis is done")
		}
	}
}
