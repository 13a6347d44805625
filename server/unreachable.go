package server

import (
	"context"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// explainDelay is how long a build's snapshots must stand before the graphs of lower
// levels are computed for the messages of unreachable code (explainLater): the
// requests after a build, and the next edit of a burst, come first.
const explainDelay = 2 * time.Second

// explainLater learns, in the background, what the graphs of lower levels say of
// the unreachable methods of the files open in the editor (ide.NextLevel,
// LearnLevel), and republishes the diagnostics after each level, so that an
// unreachable method's message names the highest level that reaches it and the edge
// there. Each level is one analysis of the snapshot's settings at that level
// (Snapshot.GraphAtLevel, which uses the graph of a level the user looked at when
// the index keeps it), one at a time. It starts when a build has published its
// snapshots and when a file is opened, unless a run is under way; a build stops it,
// and a publish never overwrites a later build's.
func (s *Server) explainLater() {
	st := s.shownSettings()
	if st.Unreachable == 0 {
		return
	}
	idle := func() (uint64, bool) {
		s.build.mu.Lock()
		defer s.build.mu.Unlock()
		// Not under way, and no build runs (its end starts one).
		return s.build.gen, s.build.explaining == nil && s.build.shownGen == s.build.gen
	}
	gen, ok := idle()
	if !ok {
		return
	}
	snaps, release := s.currentAll()
	if !slices.ContainsFunc(snaps, func(p *Snapshot) bool { return s.ide.NextLevel(p) != 0 }) {
		release()
		return
	}
	ctx, cancel := context.WithCancel(s.bg)
	job := &explainJob{cancel: cancel}
	s.build.mu.Lock()
	if s.build.explaining != nil || s.build.shownGen != gen || s.build.gen != gen {
		s.build.mu.Unlock()
		release()
		cancel()
		return
	}
	s.build.explaining = job
	s.build.mu.Unlock()
	current := func() bool {
		s.build.mu.Lock()
		defer s.build.mu.Unlock()
		return s.build.gen == gen
	}
	s.goBackground(func(context.Context) {
		done := false // every snapshot's files open then said all there is to say
		defer func() {
			release()
			cancel()
			s.build.mu.Lock()
			if s.build.explaining == job {
				s.build.explaining = nil
			}
			s.build.mu.Unlock()
			if done {
				// A file opened after the last look at the open files found this
				// run under way and left it to it.
				s.explainLater()
			}
		}()
		select {
		case <-time.After(explainDelay):
		case <-ctx.Done():
			return
		}
		for _, p := range snaps {
			for i, l := 0, s.ide.NextLevel(p); l != 0; i, l = i+1, s.ide.NextLevel(p) {
				if i == len(callgraph.Levels) {
					s.bug("NextLevel keeps asking for level %v", l)
					return
				}
				t0 := time.Now()
				g, err := p.GraphAtLevel(ctx, l)
				if err != nil {
					s.log.Debug("a lower level's graph for unreachable code", zap.Error(err))
					return
				}
				s.ide.LearnLevel(p, l, g)
				s.log.Info("learnt what a lower level reaches of unreachable methods", zap.String("level", l.Title()), zap.Duration("took", time.Since(t0)))
				s.publishDiagnosticsIf(ctx, st, snaps, current)
			}
		}
		done = true
	})
}

// explainJob is a run of explainLater.
type explainJob struct{ cancel context.CancelFunc }
