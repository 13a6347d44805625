package ide

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// marker is one expectation written in a test program: "//@name(args)" on a line.
type marker struct {
	path string
	line int // 0-based
	name string
	args []string
}

var (
	markerRE = regexp.MustCompile(`@(\w+)\(((?:\s*"(?:[^"\\]|\\.)*"\s*,?)*)\)`)
	argRE    = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// readMarkers returns the markers of the .java files under dir.
func readMarkers(t *testing.T, dir string) []marker {
	t.Helper()
	var out []marker
	javatest.Sources(t, dir, func(p string, text []byte) {
		for i, line := range strings.Split(string(text), "\n") {
			_, comment, ok := strings.Cut(line, "//@")
			if !ok {
				continue
			}
			for _, m := range markerRE.FindAllStringSubmatch("@"+comment, -1) {
				mk := marker{path: p, line: i, name: m[1]}
				for _, a := range argRE.FindAllStringSubmatch(m[2], -1) {
					s, err := strconv.Unquote(`"` + a[1] + `"`)
					if err != nil {
						t.Fatalf("%s:%d: bad argument %s", p, i+1, a[0])
					}
					mk.args = append(mk.args, s)
				}
				if len(mk.args) == 0 {
					t.Fatalf("%s:%d: @%s without a token", p, i+1, mk.name)
				}
				out = append(out, mk)
			}
		}
	})
	return out
}

// TestMarkers checks the features on the marked lines of the programs of
// testdata/ide: each marker asks the feature at its token and compares with what the
// comment says, which comes from reading the program. Each program is analysed by an
// incremental.Host, as the server has it analysed (Correct-String, CHA, the mini
// JDK); what lower levels say of unreachable methods is learnt as the server learns
// it.
func TestMarkers(t *testing.T) {
	for _, p := range []struct{ dir, main string }{
		{"markers", "mk.Main"}, // hovers, call hierarchies, diagnostics, quick fixes
		{"reach", "rc.Main"},   // implementations, type hierarchies, unreachable code, lenses
	} {
		t.Run(p.dir, func(t *testing.T) { checkMarkers(t, p.dir, p.main) })
	}
}

func checkMarkers(t *testing.T, dir, main string) {
	src, err := filepath.Abs(filepath.Join("..", "testdata", "ide", dir, "src"))
	if err != nil {
		t.Fatal(err)
	}
	classes := javatest.Compile(t, src, javatest.Release(17))
	snap := analyse(t, &incremental.Project{
		ClassPath: []incremental.ClassPathEntry{
			{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: classes, Origin: classpath.Application}},
		SourceRoots: []string{src},
	}, analysis.Options{Level: callgraph.CorrectString, Algorithm: callgraph.CHA, Mains: []string{main}})
	st := Settings{Severity: SeverityWarning, NativeSeverity: SeverityInformation, HoverTargets: 10, MaxCallItems: 100,
		Unreachable: SeverityHint, CodeLens: true}
	s := NewSession(func() Settings { return st }, func(msg string) { t.Errorf("bug: %s", msg) }, nil)
	// What the lower levels say of the unreachable methods of the files open in the
	// editor (all of them), as the server learns it in the background.
	javatest.Sources(t, src, func(p string, text []byte) { s.Docs.Open(p, 1, text) })
	for i, l := 0, s.NextLevel(snap); l != 0; i, l = i+1, s.NextLevel(snap) {
		if i == len(callgraph.Levels) {
			t.Fatalf("NextLevel keeps asking: %v", l)
		}
		g, err := snap.GraphAtLevel(context.Background(), l)
		if err != nil {
			t.Fatal(err)
		}
		s.LearnLevel(snap, l, g)
	}

	markers := readMarkers(t, src)
	if len(markers) < 8 {
		t.Fatalf("%d markers: the program lost its expectations", len(markers))
	}
	// Diagnostics of every file, by line: each must be claimed by a @diag marker.
	diags := map[string]map[int][]Diagnostic{}
	for path, ds := range s.Diagnostics(context.Background(), &st, snap) {
		diags[path] = map[int][]Diagnostic{}
		for _, d := range ds {
			diags[path][int(d.Range.Start.Line)] = append(diags[path][int(d.Range.Start.Line)], d)
		}
	}
	claimed := map[*Diagnostic]bool{}
	for _, mk := range markers {
		where := filepath.Base(mk.path) + ":" + strconv.Itoa(mk.line+1) + ": @" + mk.name
		text, err := os.ReadFile(mk.path)
		if err != nil {
			t.Fatal(err)
		}
		line := strings.Split(string(text), "\n")[mk.line]
		code, _, _ := strings.Cut(line, "//@")
		col := strings.Index(code, mk.args[0])
		if col < 0 {
			t.Errorf("%s: token %q not on the line", where, mk.args[0])
			continue
		}
		pos := Position{Line: uint32(mk.line), Character: uint32(col)} // the line is ASCII
		doc := Doc{Path: mk.path}
		want := mk.args[1:]
		switch mk.name {
		case "hover":
			md, _ := s.Hover(snap, doc, pos)
			for _, w := range want {
				if !strings.Contains(md, w) {
					t.Errorf("%s: hover lacks %q:\n%s", where, w, md)
				}
			}
		case "calls", "callers":
			items := s.Prepare(snap, doc, pos)
			if len(items) != 1 {
				t.Errorf("%s: %d items at %q", where, len(items), mk.args[0])
				continue
			}
			var got []string
			if mk.name == "calls" {
				calls, _ := s.Outgoing(context.Background(), snap, items[0])
				for _, c := range calls {
					got = append(got, itemName(t, s, snap, c.To))
				}
			} else {
				calls, _ := s.Incoming(context.Background(), snap, items[0])
				for _, c := range calls {
					got = append(got, itemName(t, s, snap, c.From))
				}
			}
			checkNames(t, where, got, want)
		case "impl":
			var got []string
			for _, loc := range s.Implementations(context.Background(), snap, doc, pos) {
				got = append(got, locationName(t, s, snap, loc))
			}
			checkNames(t, where, got, want)
		case "subtypes", "supertypes":
			items := s.PrepareTypeHierarchy(snap, doc, pos)
			if len(items) != 1 {
				t.Errorf("%s: %d items at %q", where, len(items), mk.args[0])
				continue
			}
			var its []TypeItem
			if mk.name == "subtypes" {
				its, _ = s.Subtypes(context.Background(), snap, items[0])
			} else {
				its, _ = s.Supertypes(snap, items[0])
			}
			var got []string
			for _, it := range its {
				c, _, ok := s.itemClass(snap, it)
				if !ok {
					t.Errorf("%s: item %q names nothing", where, it.Name)
					continue
				}
				got = append(got, className(c))
			}
			checkNames(t, where, got, want)
		case "lens":
			var title string
			for _, l := range s.CodeLenses(snap, doc) {
				if l.Range.Start == pos {
					title, _ = s.ResolveLens(snap, l.Data)
				}
			}
			if len(want) != 1 || title != want[0] {
				t.Errorf("%s: lens %q, want %q", where, title, want)
			}
		case "diag", "fix", "unreachable":
			var d *Diagnostic
			for i, cand := range diags[mk.path][mk.line] {
				if int(cand.Range.Start.Character) == col && (cand.Code == "unreachable") == (mk.name == "unreachable") {
					d = &diags[mk.path][mk.line][i]
				}
			}
			if d == nil {
				t.Errorf("%s: no diagnostic at %q", where, mk.args[0])
				continue
			}
			if mk.name == "unreachable" && (!d.Unnecessary || d.Severity != SeverityHint) {
				t.Errorf("%s: unreachable code not marked unnecessary with a hint: %+v", where, d)
			}
			if mk.name != "fix" {
				claimed[d] = true
				for _, w := range want {
					if !strings.Contains(d.Message, w) {
						t.Errorf("%s: diagnostic lacks %q: %s", where, w, d.Message)
					}
				}
				continue
			}
			var titles []string
			for _, f := range s.Fixes(snap, d.Data) {
				titles = append(titles, f.Title)
			}
			for _, w := range want {
				if !slices.ContainsFunc(titles, func(title string) bool { return strings.Contains(title, w) }) {
					t.Errorf("%s: no fix titled %q among %q", where, w, titles)
				}
			}
		default:
			t.Errorf("%s: unknown marker", where)
		}
	}
	for path, byLine := range diags {
		for line, ds := range byLine {
			for i := range ds {
				if !claimed[&byLine[line][i]] {
					t.Errorf("%s:%d: diagnostic no marker expects: %s", filepath.Base(path), line+1, ds[i].Message)
				}
			}
		}
	}
}

// itemName names an item's method as markers do (Class.method, without the
// package); "" for the JDK's methods and the NativeMethod node.
func itemName(t *testing.T, s *Session, snap *Snapshot, it CallItem) string {
	t.Helper()
	n, ok := s.ItemNode(snap, it)
	if !ok {
		t.Errorf("item %q names nothing", it.Name)
		return ""
	}
	m := snap.Method(n)
	if m == nil || className(m.Class) == "" {
		return ""
	}
	return className(m.Class) + "." + m.Name
}

// checkNames compares the names an answer gives with those a marker expects, in any
// order; the JDK's are left out ("").
func checkNames(t *testing.T, where string, got, want []string) {
	t.Helper()
	got = slices.DeleteFunc(got, func(n string) bool { return n == "" })
	slices.Sort(got)
	want = slices.Clone(want)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s: got %q, want %q", where, got, want)
	}
}

// className names a class of the program as markers do, without its package:
// "Main"; "" for the JDK's.
func className(c *hierarchy.Class) string {
	if c.Origin != hierarchy.Application {
		return ""
	}
	return c.Name[strings.LastIndexByte(c.Name, '/')+1:]
}

// locationName names what an implementation's location shows: the method declared
// there, else the class.
func locationName(t *testing.T, s *Session, snap *Snapshot, loc Location) string {
	t.Helper()
	if tg := s.resolve(snap, loc.Doc, loc.Range.Start); tg.decl && len(tg.methods) == 1 {
		m := tg.methods[0]
		if n := className(m.Class); n != "" {
			return n + "." + m.Name
		}
		return ""
	}
	if c := s.typeAt(snap, loc.Doc, loc.Range.Start); c != nil {
		return className(c)
	}
	t.Errorf("location %+v names nothing", loc)
	return ""
}

// analyse has a project analysed by an incremental.Host, as the server has it, and
// returns its snapshot.
func analyse(tb testing.TB, p *incremental.Project, opts analysis.Options) *Snapshot {
	tb.Helper()
	h := incremental.NewHost(context.Background(), incremental.HostOptions{})
	tb.Cleanup(h.Close)
	p.SpecFile = filepath.Join(tb.TempDir(), "jcg-spec.txt")
	snaps, err := h.Build(context.Background(), incremental.Request{Reason: incremental.ReasonInitial, Projects: []*incremental.Project{p}, Options: opts})
	if err != nil || snaps[0].Err != nil {
		tb.Fatalf("build: %v %v", err, snaps[0].Err)
	}
	return snaps[0]
}
