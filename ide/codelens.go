package ide

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jcg-lsp/jcg-lsp/ide/javasrc"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Code lenses: above each method and constructor of application code, how many
// methods call it in the snapshot's graph and how many of those through a dynamic
// feature ("3 callers · 1 dynamic"). The list costs a scan of the file (mapped once
// per text); each count is asked for when the lens shows (ResolveLens).

// lensData is the data of a lens: the method and the document it is shown in.
type lensData struct {
	Path string    `json:"path"`
	M    methodRef `json:"method"`
}

// CodeLenses returns the unresolved lenses of a source file: one on the name of each
// method and constructor of application code with a body or native (an abstract
// method has no callers of its own: the graph's edges go to its implementations).
func (s *Session) CodeLenses(snap *Snapshot, doc Doc) []Lens {
	if doc.Path == "" || !s.Settings().CodeLens {
		return nil
	}
	fm := s.fileMap(snap, doc.Path)
	if fm == nil {
		return nil
	}
	var out []Lens
	for _, c := range fm.f.Codes {
		if c.Kind != javasrc.Method && c.Kind != javasrc.Constructor {
			continue
		}
		for _, m := range fm.codeMethods[c] {
			if m.Class.Origin != hierarchy.Application || m.IsAbstract() {
				continue
			}
			out = append(out, Lens{Range: fm.tokRange(c.NameTok), Data: mustJSON(lensData{Path: fm.path, M: refOf(m)})})
		}
	}
	return out
}

// LensPath returns the document a lens's data names ("" when it names none): the
// snapshot to resolve it in is that document's project's.
func LensPath(data json.RawMessage) string {
	var d lensData
	if json.Unmarshal(data, &d) != nil {
		return ""
	}
	return d.Path
}

// ResolveLens returns the title of a lens: "3 callers · 1 dynamic", a caller being a
// method with an edge to this one, dynamic when one of its edges to it is of a
// dynamic kind (reflection, a method handle, a lambda, a thread start, native code,
// ...). ok is false when the data names no method of the snapshot.
func (s *Session) ResolveLens(snap *Snapshot, data json.RawMessage) (title string, ok bool) {
	var d lensData
	if json.Unmarshal(data, &d) != nil {
		return "", false
	}
	n := d.M.node(snap)
	if n < 0 {
		return "", false
	}
	g := snap.Graph
	if g == nil {
		return "no call graph", true
	}
	callers, dynamic := 0, 0
	bs := g.Callers(n)
	for i := 0; i < len(bs); {
		c := g.Bundles[bs[i]].Caller
		dyn := false
		for ; i < len(bs) && g.Bundles[bs[i]].Caller == c; i++ {
			dyn = dyn || g.Reasons[g.Bundles[bs[i]].Reason].Kind.Dynamic()
		}
		callers++
		if dyn {
			dynamic++
		}
	}
	title = fmt.Sprintf("%d caller%s · %d dynamic", callers, plural(callers), dynamic)
	if slices.Contains(g.Entries, n) {
		title = "entry point · " + title
	}
	return title, true
}
