package server

import (
	"cmp"
	"context"
	"slices"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/ide"
)

// earlyPublisher publishes, during the server's first build, the diagnostics of the
// dynamic sites the analysis reports while it runs (analysis.Options.Sites), so that
// the first diagnostics come right after indexing instead of after the fixed point.
//
// They are exactly those the final snapshot publishes for the same sites: the same
// functions (sitesByFile, fileDiagnostics) compute them, on a graph of the reported
// sites and the edges resolved at their instructions, which the analysis hands out
// only once they are as they will be in the final graph, and the only other thing a
// diagnostic reads, NativeMethod's fan-out, is final from the report that carries
// its edges (native sites wait for it). A file's sites only accumulate, so each
// publish adds diagnostics to the file's, and the final publish adds the rest (sites
// reported settled late or never): nothing shown early is changed or retracted.
//
// Only the first build publishes early. Later builds start with the previous
// snapshot's diagnostics on screen: a subset published early would retract the ones
// not reported yet, and requests during the build still read the previous snapshot.
type earlyPublisher struct {
	s     *Server
	ctx   context.Context
	st    ide.Settings     // the build's presentation settings
	base  *Snapshot        // the project's snapshot without a graph
	start time.Time        // of the build, for the log
	graph *callgraph.Graph // the reported sites of source files so far, with their edges
	mine  map[uri.URI]bool // files this publisher published
}

// earlyDiagnostics returns the analysis.Options.Sites callback of the first build's
// analysis of a project.
func (s *Server) earlyDiagnostics(ctx context.Context, st *Settings, base *Snapshot, start time.Time) func(*callgraph.Graph) {
	e := &earlyPublisher{s: s, ctx: ctx, st: st.present(), base: base, start: start, mine: map[uri.URI]bool{}}
	return e.found
}

// found takes one report. It runs on the analysis's goroutine, so reports without
// sites of source files (most of them: the JDK's) cost one map look-up per site; the
// others are published at once, which also orders them before the final publish.
func (e *earlyPublisher) found(p *callgraph.Graph) {
	var keep []int
	for i := range p.Sites {
		if _, ok := e.s.ide.DiagnosticFile(&e.st, e.base, &p.Sites[i]); ok {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 && len(p.Callees(p.Native)) == 0 {
		return
	}
	e.merge(p, keep)
	e.publish()
}

// merge adds the kept sites of a report, the edges at their instructions and
// NativeMethod's edges to e.graph, renumbering the report's sets after the ones
// merged before.
func (e *earlyPublisher) merge(p *callgraph.Graph, keep []int) {
	g := e.graph
	if g == nil {
		g = &callgraph.Graph{Level: p.Level, Algorithm: p.Algorithm, NumNodes: p.NumNodes, Native: p.Native}
		e.graph = g
	}
	g.Reasons = p.Reasons // reasons are only appended: a later report's extend the earlier ones
	off := int32(len(g.Sets))
	g.Sets = append(g.Sets, p.Sets...)
	type at struct{ caller, call int32 }
	kept := map[at]bool{}
	for _, i := range keep {
		site := p.Sites[i]
		if site.Targets >= 0 {
			site.Targets += off
		}
		g.Sites = append(g.Sites, site)
		kept[at{site.Caller, site.Call}] = true
	}
	for _, b := range p.Bundles {
		if b.Caller == p.Native || kept[at{b.Caller, b.Call}] {
			b.Set += off
			g.Bundles = append(g.Bundles, b)
		}
	}
	// The final graph's order of sites, which fileDiagnostics keeps for sites on the
	// same position; bundles by caller, for Callees.
	slices.SortStableFunc(g.Sites, func(a, b callgraph.Site) int {
		return cmp.Or(cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.PC, b.PC))
	})
	slices.SortStableFunc(g.Bundles, func(a, b callgraph.Bundle) int { return cmp.Compare(a.Caller, b.Caller) })
}

// publish publishes the diagnostics of every file with reported sites that shows
// nothing yet or only what this publisher published.
func (e *earlyPublisher) publish() {
	snap := e.base.WithGraph(e.graph)
	native := len(e.graph.Callees(e.graph.Native)) > 0
	next := map[uri.URI][]protocol.Diagnostic{}
	sites := 0
	for path, ss := range e.s.ide.SitesByFile(&e.st, snap) {
		if !native {
			// Their message counts NativeMethod's targets, not reported yet.
			ss = slices.DeleteFunc(ss, func(s *callgraph.Site) bool { return s.Feature == callgraph.FeatNative })
		}
		if len(ss) > 0 && e.ctx.Err() == nil {
			next[fileURI(path)] = toDiagnostics(e.s.ide.FileDiagnostics(&e.st, snap, path, ss))
			sites += len(ss)
		}
	}
	us := make([]uri.URI, 0, len(next))
	for u := range next {
		us = append(us, u)
	}
	slices.Sort(us)
	e.s.pubMu.Lock()
	defer e.s.pubMu.Unlock()
	first := len(e.mine) == 0
	for _, u := range us {
		if _, shown := e.s.published[u]; shown && !e.mine[u] {
			continue // an earlier (cancelled) build's: the final publish replaces it
		}
		e.s.publishLocked(e.ctx, u, next[u])
		e.mine[u] = true
	}
	if first && len(e.mine) > 0 {
		e.s.log.Info("first diagnostics published during the analysis", zap.Int("files", len(e.mine)), zap.Int("sites", sites),
			zap.Duration("after", time.Since(e.start)))
	}
}
