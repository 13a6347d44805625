// Package leveltable renders the per-level statistics of call graphs, as
// `jcg-lsp analyze` prints them and the server's jcg.statistics command returns them:
// one row per graph with its reachable methods, edges, the precision of application
// calls and the dynamic sites by feature, then the dynamic sites of application and
// library code alone, where users act, with how many the level could resolve.
package leveltable

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
)

// Row is one graph of the table and the time it took (negative: not shown).
type Row struct {
	Graph *callgraph.Graph
	Time  time.Duration
	// Edges is the graph's edge count when already known (0: counted here).
	Edges int
}

// Write prints the tables of rows and their legends. own selects the nodes of
// application and library code.
func Write(w io.Writer, rows []Row, own func(callgraph.NodeID) bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "level\tmethods\tedges\tapp calls <=1\t"
	for _, f := range callgraph.Features {
		header += f.String() + " t/r/u\t"
	}
	fmt.Fprintln(tw, header+"time\t")
	for _, r := range rows {
		g := r.Graph
		edges := r.Edges
		if edges == 0 {
			edges = g.NumEdges()
		}
		stats := callgraph.SiteStats(g)
		calls, single := callgraph.DispatchStats(g, own)
		row := fmt.Sprintf("%s\t%d\t%d\t%d/%d\t", g.Level.Title(), g.NumReachable(), edges, single, calls)
		for _, f := range callgraph.Features {
			s := stats[f]
			row += fmt.Sprintf("%d/%d/%d\t", s.Total, s.Resolved, s.Unresolved)
		}
		t := ""
		if r.Time >= 0 {
			t = r.Time.Round(time.Millisecond).String()
		}
		fmt.Fprintln(tw, row+t+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "app calls <=1: virtual and interface call sites of application and library code with at most one target / all of them.")
	fmt.Fprintln(w, "t/r/u: dynamic sites in reachable methods: total / resolved (incl. specified) / unresolved (incl. partially resolved).")

	// The JDK's own sites dominate the totals; users act on those of their code.
	fmt.Fprintln(w, "\nDynamic sites in application and library code:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header = "level\t"
	for _, f := range callgraph.Features {
		header += f.String() + " t/r/u/rv\t"
	}
	fmt.Fprintln(tw, header)
	for _, r := range rows {
		stats := callgraph.SiteStatsWhere(r.Graph, func(s *callgraph.Site) bool { return own(s.Caller) })
		row := r.Graph.Level.Title() + "\t"
		for _, f := range callgraph.Features {
			s := stats[f]
			row += fmt.Sprintf("%d/%d/%d/%d\t", s.Total, s.Resolved, s.Unresolved, s.Resolvable)
		}
		fmt.Fprintln(tw, row)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "rv: resolvable at the level: resolved, or (loading, newInstance and invoke from Correct-String on) unresolved with no\n"+
		"unknown value from a source the level does not license (public parameters, fields others may write, the environment,\n"+
		"collections, files, methods not followed).")
	return err
}
