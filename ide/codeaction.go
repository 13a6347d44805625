package ide

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Limits on the "Add specification" quick fixes: one action per candidate when there
// are few, one action with all of them when a reviewer can still read the entry.
const (
	maxSingleCandidates = 8
	maxAllCandidates    = 50
)

// Fixes returns the quick fixes of the site a diagnostic's data names (nil when the
// snapshot has no such site): values of the analysed environment for the
// properties that decide the site, and "Add specification" entries with the targets
// a TamiFlex log observed at the site (preferred) and with the analysis's candidates.
func (s *Session) Fixes(snap *Snapshot, data json.RawMessage) []Fix {
	var sd siteData
	if snap.Graph == nil || json.Unmarshal(data, &sd) != nil {
		return nil
	}
	m, site := siteOf(snap, sd)
	if site == nil {
		return nil
	}
	return append(propertyFixes(snap, site), s.specActions(snap, m, site)...)
}

// specActions returns the "Add specification" quick fixes of a site.
func (s *Session) specActions(snap *Snapshot, m *hierarchy.Method, site *callgraph.Site) []Fix {
	if site.Feature == callgraph.FeatNative {
		return nil // native code is not specified by entries
	}
	cands := specCandidates(snap, site)
	observed, logPath := s.observedTargets(snap, m, site)
	ss := specSiteOf(snap, m, site)
	var out []Fix
	add := func(ts []specTarget, label string, preferred bool) {
		edit, err := s.specEdit(snap, ss, formatSpecEntry(ss, ts))
		if err != nil {
			s.bug("spec edit: %v", err)
			return
		}
		out = append(out, Fix{Title: fmt.Sprintf("Add specification: this site ⇒ %s", label), Preferred: preferred, Edit: edit})
	}
	if len(observed) > 0 {
		// What a real run did is the best guess: offered first, and preferred.
		add(observed, fmt.Sprintf("%s (observed in %s)", targetsLabel(observed), filepath.Base(logPath)), true)
	}
	if len(cands) == 0 || len(cands) > maxAllCandidates {
		return out
	}
	if len(cands) <= maxSingleCandidates {
		for _, c := range cands {
			add([]specTarget{c}, "{"+shortTarget(c)+"}", false)
		}
	}
	if len(cands) > 1 {
		add(cands, fmt.Sprintf("all %d candidates", len(cands)), false)
	}
	return out
}

// targetsLabel names a few targets, or counts many.
func targetsLabel(ts []specTarget) string {
	if len(ts) > 3 {
		return fmt.Sprintf("%d observed targets", len(ts))
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = shortTarget(t)
	}
	return "{" + strings.Join(names, ", ") + "}"
}

func shortTarget(t specTarget) string {
	n := t.Class[strings.LastIndexByte(t.Class, '.')+1:]
	if t.Member != "" {
		n += "." + t.Member
	}
	return n
}

// specSiteOf names a site the way specification entries do.
func specSiteOf(snap *Snapshot, m *hierarchy.Method, site *callgraph.Site) specSite {
	ord := 1
	if f := snap.Index().Facts(m); f != nil {
		for k := 0; k < int(site.Call) && k < len(f.Calls); k++ {
			if f.Calls[k].Line == site.Line {
				ord++
			}
		}
	}
	return newSpecSite(javaName(m.Class.Name), m.Name, m.Desc, int(site.Line), ord, int(site.PC))
}

// specCandidates returns what a specification entry for the site could name: the
// targets already known for a partially resolved site, else the application and
// library members among the fallback targets (JDK members are left out: a
// specification names the program's plugins, not the platform). Loading and
// instantiation sites name classes; invocation sites name methods.
func specCandidates(snap *Snapshot, site *callgraph.Site) []specTarget {
	g := snap.Graph
	knownSets, fallbackSets := siteSets(g, site)
	sets := fallbackSets
	if site.Status == callgraph.Partial && len(knownSets) > 0 {
		sets = knownSets
	}
	var ids []int32
	for _, si := range sets {
		ids = append(ids, g.Sets[si]...)
	}
	var out []specTarget
	seen := map[specTarget]bool{}
	if site.Feature == callgraph.FeatLoading && site.Status == callgraph.Unresolved {
		// A loading fallback may load any class, but its edges reach only the
		// classes with a static initialiser: every class of the program is a
		// candidate.
		for _, c := range snap.Hierarchy().Classes() {
			if c.Phantom || c.Origin == hierarchy.JDK {
				continue
			}
			out = append(out, specTarget{Class: javaName(c.Name)})
			if len(out) > maxAllCandidates {
				return out
			}
		}
		slices.SortFunc(out, func(a, b specTarget) int { return strings.Compare(targetString(a), targetString(b)) })
		return out
	}
	for _, id := range ids {
		m := snap.Method(id)
		if m == nil || m.Class.Origin == hierarchy.JDK {
			continue
		}
		t := specTarget{Class: javaName(m.Class.Name)}
		if site.Feature == callgraph.FeatInvocation || site.Feature == callgraph.FeatMethodHandle {
			if m.Name == "<init>" || m.Name == "<clinit>" {
				continue
			}
			t.Member, t.Desc = m.Name, m.Desc
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
			if len(out) > maxAllCandidates {
				return out
			}
		}
	}
	slices.SortFunc(out, func(a, b specTarget) int { return strings.Compare(targetString(a), targetString(b)) })
	return out
}

// specEdit returns the edit that adds an entry to the specification file: it
// creates the file when it does not exist, and otherwise inserts the entry where it
// keeps the file sorted, at the version the editor has (the client rejects the edit
// rather than clobber text changed since).
func (s *Session) specEdit(snap *Snapshot, site specSite, entry string) (SpecEdit, error) {
	path := snap.Project.SpecFile
	text, version, open, err := s.Docs.text(path)
	exists := err == nil
	if err != nil && !os.IsNotExist(err) {
		return SpecEdit{}, err
	}
	var pos Position
	insert := entry + "\n"
	switch {
	case !exists:
		insert = SpecHeader + insert
	default:
		line := insertionLine(text, site)
		if end := endPosition(text); line >= int(end.Line) && (end.Character > 0 || line > int(end.Line)) {
			// After the last line: append, ending an unterminated last line first.
			pos = end
			if end.Character > 0 {
				insert = "\n" + insert
			}
		} else {
			pos = Position{Line: uint32(line)}
		}
	}
	return SpecEdit{Path: path, Create: !exists, At: pos, Text: insert, Open: open, Version: version}, nil
}

// endPosition returns the position after the last character of a text.
func endPosition(text []byte) Position {
	line, col := 0, 0
	for _, r := range string(text) {
		switch {
		case r == '\n':
			line++
			col = 0
		case r >= 0x10000:
			col += 2
		default:
			col++
		}
	}
	return Position{Line: uint32(line), Character: uint32(col)}
}
