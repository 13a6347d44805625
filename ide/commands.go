package ide

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/leveltable"
)

// Statistics renders the per-level tables of `jcg-lsp analyze` for the snapshot's
// program, computing (and caching) the graph of every level.
func Statistics(ctx context.Context, snap *Snapshot) (string, error) {
	var rows []leveltable.Row
	for _, l := range callgraph.Levels {
		opts := snap.Options
		opts.Level = l
		t0 := time.Now()
		g, err := snap.GraphWith(ctx, opts)
		if err != nil {
			return "", err
		}
		rows = append(rows, leveltable.Row{Graph: g, Time: time.Since(t0)})
	}
	ms := snap.Hierarchy().Methods()
	own := func(n callgraph.NodeID) bool { return int(n) < len(ms) && ms[n].Class.Origin != hierarchy.JDK }
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s call graphs (time 0s: cached)\n", snap.Options.Algorithm.String())
	if err := leveltable.Write(&b, rows, own); err != nil {
		return "", err
	}
	if len(snap.Options.Env) > 0 {
		fmt.Fprintln(&b, "Correct-Env is sound only for the environment configured in jcg.env.")
	}
	return b.String(), nil
}

// ClassPathReport describes a snapshot's project: what was configured or discovered,
// the JDK in use, the classes by origin, the source files mapped and the warnings of
// the index.
func ClassPathReport(snap *Snapshot) string {
	var b strings.Builder
	b.WriteString(snap.Project.Describe())
	ix := snap.Index()
	if ix.ClassPath.JDKHome != "" {
		fmt.Fprintf(&b, "JDK in use: %s (release %d)\n", ix.ClassPath.JDKHome, ix.ClassPath.Release)
	}
	counts := map[hierarchy.Origin]int{}
	for _, c := range snap.Hierarchy().Classes() {
		if !c.Phantom {
			counts[c.Origin]++
		}
	}
	fmt.Fprintf(&b, "Classes: %d application, %d library, %d JDK\n",
		counts[hierarchy.Application], counts[hierarchy.Library], counts[hierarchy.JDK])
	if r := snap.Missing(); r != nil {
		b.WriteString(r.Describe(true))
	}
	fmt.Fprintf(&b, "Source files mapped to classes: %d\n", len(sourcesOf(snap).classes))
	fmt.Fprintf(&b, "Index warnings: %d\n", len(ix.Warnings))
	for i, w := range ix.Warnings {
		if i == 20 {
			fmt.Fprintf(&b, "  ... %d more (see the log)\n", len(ix.Warnings)-i)
			break
		}
		fmt.Fprintf(&b, "  %s\n", w)
	}
	return b.String()
}

// ClassListing returns the read-only listing of a class of the snapshot; ok is false
// when the class is not on its class path.
func ClassListing(snap *Snapshot, name string) (text string, ok bool) {
	c := snap.Hierarchy().Class(name)
	if c == nil || c.Phantom {
		return "", false
	}
	return listingOf(snap, c).Text(), true
}

// ListingPositions returns the positions of the method declarations and call sites
// of a class's listing, for tools that visit every one (benchmarks).
func ListingPositions(snap *Snapshot, c *hierarchy.Class) (decls, calls []Position) {
	l := listingOf(snap, c)
	for _, m := range c.Methods {
		line, col, _ := l.methodRange(m)
		decls = append(decls, Position{Line: uint32(line), Character: uint32(col)})
		if f := snap.Index().Facts(m); f != nil {
			for k := range f.Calls {
				if ln, col, _, ok := l.callRange(m, k); ok {
					calls = append(calls, Position{Line: uint32(ln), Character: uint32(col)})
				}
			}
		}
	}
	return decls, calls
}

// ListingClassPosition returns the position of a class's name in its listing (for
// benchmarks of type features).
func ListingClassPosition(snap *Snapshot, c *hierarchy.Class) Position {
	line, col, _ := classRange(snap, c)
	return Position{Line: uint32(line), Character: uint32(col)}
}
