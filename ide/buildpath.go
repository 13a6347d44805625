package ide

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// What the build and the class path lack, where the user sees it: a warning on the
// line of a build file that declares a dependency the local repository does not
// have, and, in the call hierarchy, the calls of a method into classes that are on
// no class path (the graph has no edge for them: without a note they would look
// like no call at all).

// buildDiagnostics adds the problems of the snapshot's builds (incremental/buildtool)
// to out, as warnings at their lines of the build files.
func buildDiagnostics(snap *Snapshot, out map[string][]Diagnostic) {
	lines := map[string][]string{}
	for _, b := range snap.Project.Builds {
		for _, p := range b.Problems {
			if p.Pos.File == "" {
				continue
			}
			ls, ok := lines[p.Pos.File]
			if !ok {
				data, _ := os.ReadFile(p.Pos.File)
				ls = strings.Split(string(data), "\n")
				lines[p.Pos.File] = ls
			}
			r := lineRange(0, 0, 0)
			if l := p.Pos.Line - 1; l >= 0 && l < len(ls) {
				text := strings.TrimRight(ls[l], "\r")
				r = lineRange(l, min(max(p.Pos.Col-1, 0), len(text)), len(text))
			}
			d := Diagnostic{Range: r, Severity: SeverityWarning, Code: "build", Message: p.Msg}
			if !slices.ContainsFunc(out[p.Pos.File], func(o Diagnostic) bool { return o.Range == d.Range && o.Message == d.Message }) {
				out[p.Pos.File] = append(out[p.Pos.File], d)
			}
		}
	}
}

// missingClass reports whether no class path has the class of an internal name.
func missingClass(h *hierarchy.Hierarchy, name string) bool {
	if strings.HasPrefix(name, "[") {
		return false
	}
	c := h.Class(name)
	return c == nil || c.Phantom
}

// missingCallItems are the notes of outgoing calls that the method n makes into
// classes on no class path: one per called method, at its call sites, saying which
// dependency should have provided the class when the build says.
func (s *Session) missingCallItems(snap *Snapshot, n int32) []OutgoingCall {
	m := snap.Method(n)
	if m == nil {
		return nil
	}
	f := snap.Index().Facts(m)
	if f == nil {
		return nil
	}
	h := snap.Hierarchy()
	type callee struct{ class, name, desc string }
	var order []callee
	ranges := map[callee][]Range{}
	for k := range f.Calls {
		c := &f.Calls[k]
		if c.Op == bytecode.Invokedynamic || !missingClass(h, c.Ref.Class) {
			continue
		}
		key := callee{c.Ref.Class, c.Ref.Name, c.Ref.Desc}
		if _, ok := ranges[key]; !ok {
			order = append(order, key)
		}
		r := s.siteRange(snap, m, k, c.Line)
		if !slices.Contains(ranges[key], r) {
			ranges[key] = append(ranges[key], r)
		}
	}
	var out []OutgoingCall
	for _, c := range order {
		it := s.missingItem(snap, m, c.class, c.name, c.desc)
		out = append(out, OutgoingCall{To: it, FromRanges: ranges[c]})
	}
	return out
}

// missingCallee is the note item of a call instruction into a missing class (ok
// false for any other call).
func (s *Session) missingCallee(snap *Snapshot, caller *hierarchy.Method, k int) (CallItem, bool) {
	f := snap.Index().Facts(caller)
	if f == nil || k >= len(f.Calls) {
		return CallItem{}, false
	}
	c := &f.Calls[k]
	if c.Op == bytecode.Invokedynamic || !missingClass(snap.Hierarchy(), c.Ref.Class) {
		return CallItem{}, false
	}
	return s.missingItem(snap, caller, c.Ref.Class, c.Ref.Name, c.Ref.Desc), true
}

// missingItem is the note standing for a method of a missing class, located at the
// method that calls it.
func (s *Session) missingItem(snap *Snapshot, caller *hierarchy.Method, class, name, desc string) CallItem {
	it := s.Item(snap, caller.ID)
	simple := class[strings.LastIndexByte(class, '/')+1:]
	it.Name = fmt.Sprintf("%s.%s — missing class", simple, name)
	it.Kind = KindMethod
	it.Detail = javaName(class) + " · " + desc + " — not on the class path, so the graph ends here" + missingFrom(snap, class)
	it.Data = mustJSON(moreData{methodRef: refOf(caller), Note: true})
	return it
}

// missingFrom says which dependency should have provided a missing class, from the
// snapshot's missing-class report.
func missingFrom(snap *Snapshot, class string) string {
	r := snap.Missing()
	if r == nil {
		return ""
	}
	pkg := strings.ReplaceAll(hierarchy.Package(class), "/", ".")
	for _, p := range r.Packages {
		if p.Name == pkg && p.Dep != "" {
			return "; it should come from " + p.Dep + ", " + p.Why
		}
	}
	return ""
}
