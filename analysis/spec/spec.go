// Package spec reads and writes specification files: plain-text, diffable lists of
// dynamic sites and the classes, constructors or methods each may reach. A specified
// site uses exactly those targets at every assumption level.
//
// One entry per line, sorted by site, so a quick fix adds one line and a review shows
// one line per decision:
//
//	# comments start with '#'; blank lines are ignored
//	example.plugin.PluginLoader.loadConfigured()Lexample/plugin/Plugin; @ 31 #1 pc=12 => example.plugin.builtin.AuditPlugin
//	example.Main.run @ 40 => example.Task.execute()V, example.Other.<init>(I)V
//
// The site is the calling method (binary class name, method name and, optionally, its
// descriptor), the source line, the ordinal of the call among the call instructions on
// that line (every dynamic site of the line when omitted) and, optionally, the bytecode offset as a hint used when
// the line cannot be matched. Naming a site by line and ordinal rather than by offset
// lets an entry survive recompilation of unrelated code. A target is a class
// (pkg.Name, nested classes with '$'), or a member pkg.Name.method followed by an
// optional descriptor.
//
// The analysis never rewrites the file; bad entries are reported with file:line:col and
// skipped, and the rest of the file still applies.
package spec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// DefaultName is the file name used when the configuration names none.
const DefaultName = "jcg-spec.txt"

// Site names a call instruction in a method.
type Site struct {
	Class   string // binary name with dots, e.g. "example.plugin.PluginLoader"
	Method  string
	Desc    string // "" matches every overload
	Line    int
	Ordinal int // 1-based among the call instructions on Line; 0: every dynamic site on Line
	PC      int // -1 when not given
}

// Target is a class (Member == "") or a constructor or method.
type Target struct {
	Class  string // binary name with dots
	Member string
	Desc   string // "" matches every overload
}

// Entry is one line of a specification file.
type Entry struct {
	Site    Site
	Targets []Target
	Line    int // line in the specification file, 0 for entries not read from a file
}

// Problem is a bad line, reported with its position and skipped.
type Problem struct {
	File      string
	Line, Col int // 1-based
	Msg       string
}

func (p Problem) Error() string { return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Msg) }

// File is a parsed specification file.
type File struct {
	Name     string
	Entries  []Entry
	Problems []Problem

	lines int    // lines in the text read: where the next file of a Concat starts
	parts []part // the files a Concat joined, in order; nil for a file read by Parse
}

// Parse reads a specification file. It never fails: bad lines become Problems.
func Parse(name string, data []byte) *File {
	f := &File{Name: name}
	rows := strings.Split(string(data), "\n")
	f.lines = len(rows)
	if strings.HasSuffix(string(data), "\n") || len(data) == 0 {
		f.lines-- // a final newline ends the last line; it starts none
	}
	for i, raw := range rows {
		line := strings.TrimRight(raw, "\r")
		text := line
		for j := 0; j < len(text); j++ {
			if text[j] == '#' && !ordinalAt(text, j) {
				text = text[:j]
				break
			}
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		e, col, err := parseEntry(text)
		if err != nil {
			f.Problems = append(f.Problems, Problem{File: name, Line: i + 1, Col: col, Msg: err.Error()})
			continue
		}
		e.Line = i + 1
		f.Entries = append(f.Entries, e)
	}
	return f
}

// ordinalAt reports whether the '#' at j starts a call ordinal ("#2") rather than a
// comment: an ordinal follows the line number of a site.
func ordinalAt(s string, j int) bool {
	return j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' && strings.Contains(s[:j], "@")
}

func parseEntry(text string) (Entry, int, error) {
	var e Entry
	arrow := strings.Index(text, "=>")
	if arrow < 0 {
		return e, len(strings.TrimRight(text, " \t")) + 1, fmt.Errorf("missing '=>' between the site and its targets")
	}
	at := strings.IndexByte(text[:arrow], '@')
	if at < 0 {
		return e, arrow + 1, fmt.Errorf("missing '@ LINE' after the calling method")
	}
	caller := strings.TrimSpace(text[:at])
	col := strings.Index(text, caller) + 1
	cls, name, desc, err := splitMember(caller)
	if err != nil {
		return e, col, err
	}
	e.Site = Site{Class: cls, Method: name, Desc: desc, PC: -1}
	fields := strings.Fields(text[at+1 : arrow])
	if len(fields) == 0 {
		return e, at + 2, fmt.Errorf("missing line number after '@'")
	}
	pos := func(tok string) int { return at + 1 + strings.Index(text[at+1:], tok) + 1 }
	if e.Site.Line, err = strconv.Atoi(fields[0]); err != nil || e.Site.Line <= 0 {
		return e, pos(fields[0]), fmt.Errorf("bad line number %q", fields[0])
	}
	for _, f := range fields[1:] {
		switch {
		case strings.HasPrefix(f, "#"):
			if e.Site.Ordinal, err = strconv.Atoi(f[1:]); err != nil || e.Site.Ordinal <= 0 {
				return e, pos(f), fmt.Errorf("bad call ordinal %q (want #1, #2, ...)", f)
			}
		case strings.HasPrefix(f, "pc="):
			if e.Site.PC, err = strconv.Atoi(f[3:]); err != nil || e.Site.PC < 0 {
				return e, pos(f), fmt.Errorf("bad bytecode offset %q", f)
			}
		default:
			return e, pos(f), fmt.Errorf("unexpected %q in the site (want #ORDINAL or pc=OFFSET)", f)
		}
	}
	rest := text[arrow+2:]
	off := arrow + 2
	for _, part := range strings.Split(rest, ",") {
		t := strings.TrimSpace(part)
		tcol := off + strings.Index(part, t) + 1
		if t == "" {
			return e, off + len(part) + 1, fmt.Errorf("empty target")
		}
		off += len(part) + 1
		tg, err := parseTarget(t)
		if err != nil {
			return e, tcol, err
		}
		e.Targets = append(e.Targets, tg)
	}
	return e, 0, nil
}

// splitMember splits "pkg.Class.name(desc)" into class, name and descriptor.
func splitMember(s string) (cls, name, desc string, err error) {
	if i := strings.IndexByte(s, '('); i >= 0 {
		s, desc = s[:i], s[i:]
		if !strings.Contains(desc, ")") {
			return "", "", "", fmt.Errorf("bad descriptor %q", desc)
		}
	}
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || dot == len(s)-1 || strings.ContainsAny(s, " \t;/") {
		return "", "", "", fmt.Errorf("bad method %q (want pkg.Class.method or pkg.Class.method(descriptor))", s)
	}
	return s[:dot], s[dot+1:], desc, nil
}

// parseTarget reads a class or a member. A member is recognised by a descriptor, or by
// a last segment that starts with a lower-case letter or '<' (Java naming conventions;
// write the descriptor to name an upper-case method).
func parseTarget(t string) (Target, error) {
	if strings.ContainsAny(t, " \t;") && !strings.Contains(t, "(") {
		return Target{}, fmt.Errorf("bad target %q", t)
	}
	if strings.Contains(t, "(") {
		cls, name, desc, err := splitMember(t)
		return Target{Class: cls, Member: name, Desc: desc}, err
	}
	dot := strings.LastIndexByte(t, '.')
	if dot == len(t)-1 || strings.ContainsAny(t, "/") {
		return Target{}, fmt.Errorf("bad target %q (want pkg.Class or pkg.Class.method)", t)
	}
	last := t[dot+1:]
	if dot > 0 && last != "" && (last[0] == '<' || (last[0] >= 'a' && last[0] <= 'z')) {
		return Target{Class: t[:dot], Member: last}, nil
	}
	return Target{Class: t}, nil
}

// Format writes an entry in the file's syntax, without a newline.
func Format(e Entry) string {
	var b strings.Builder
	b.WriteString(e.Site.Class)
	b.WriteByte('.')
	b.WriteString(e.Site.Method)
	b.WriteString(e.Site.Desc)
	fmt.Fprintf(&b, " @ %d", e.Site.Line)
	if e.Site.Ordinal > 0 {
		fmt.Fprintf(&b, " #%d", e.Site.Ordinal)
	}
	if e.Site.PC >= 0 {
		fmt.Fprintf(&b, " pc=%d", e.Site.PC)
	}
	b.WriteString(" =>")
	for i, t := range e.Targets {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte(' ')
		b.WriteString(t.Class)
		if t.Member != "" {
			b.WriteByte('.')
			b.WriteString(t.Member)
			b.WriteString(t.Desc)
		}
	}
	return b.String()
}

// Compare orders sites: by class, method, descriptor, line and ordinal.
func Compare(a, b Site) int {
	for _, c := range []int{strings.Compare(a.Class, b.Class), strings.Compare(a.Method, b.Method),
		strings.Compare(a.Desc, b.Desc), a.Line - b.Line, a.Ordinal - b.Ordinal} {
		if c != 0 {
			return c
		}
	}
	return 0
}

// InsertionLine returns the 0-based line of data before which a new entry for site
// keeps the file sorted: after the last entry that sorts before it. A file that was
// not sorted gets the entry after the last smaller one, which is still a one-line edit.
func InsertionLine(data []byte, site Site) int {
	f := Parse("", data)
	after := -1
	for _, e := range f.Entries {
		if Compare(e.Site, site) <= 0 {
			after = max(after, e.Line)
		}
	}
	if after >= 0 {
		return after // e.Line is 1-based: the next line's 0-based index
	}
	if len(f.Entries) > 0 {
		return slices.MinFunc(f.Entries, func(a, b Entry) int { return a.Line - b.Line }).Line - 1
	}
	lines := strings.Count(string(data), "\n")
	if len(data) > 0 && !strings.HasSuffix(string(data), "\n") {
		lines++
	}
	return lines
}

// Header is written at the top of a new specification file.
const Header = `# jcg-lsp specification: what dynamic sites may reach, one site per line.
# <caller class>.<method>[<descriptor>] @ <line> [#<call ordinal on the line>] [pc=<offset>] => <class or member>, ...
# A specified site uses exactly these targets at every assumption level.
`
