package ide

import (
	"encoding/json"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/ide/javasrc"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// target is what a document position designates in a snapshot.
type target struct {
	// caller and call name the call instruction whose token is at the position
	// (call is -1 when there is none); tok is the token's range.
	caller *hierarchy.Method
	call   int
	tok    Range
	// methods are the methods whose declaration or code is at the position; decl is
	// set when the position is on a declaration's name.
	methods []*hierarchy.Method
	decl    bool
}

// resolve finds what a position of a source file or class listing designates.
func (s *Session) resolve(snap *Snapshot, doc Doc, pos Position) target {
	t := target{call: -1}
	if doc.Class != "" {
		c := snap.Hierarchy().Class(doc.Class)
		if c == nil || c.Phantom {
			return t
		}
		l := listingOf(snap, c)
		m, k := l.at(int(pos.Line))
		if m == nil {
			return t
		}
		if k < 0 {
			t.methods, t.decl = []*hierarchy.Method{m}, true
			return t
		}
		line, col, end, _ := l.callRange(m, k)
		t.caller, t.call = m, k
		t.tok = lineRange(line, col, end)
		return t
	}
	fm := s.fileMap(snap, doc.Path)
	if fm == nil {
		return t
	}
	off := fm.f.Offset(int(pos.Line), int(pos.Character))
	if m, k, tok := fm.callAt(off); m != nil {
		t.caller, t.call = m, k
		t.tok = fm.tokRange(tok.Tok)
		return t
	}
	if d := fm.f.DeclAt(off); d != nil {
		t.methods, t.decl = fm.codeMethods[d], true
		return t
	}
	t.methods = fm.methodsAt(off)
	return t
}

func lineRange(line, col, end int) Range {
	return Range{
		Start: Position{Line: uint32(line), Character: uint32(col)},
		End:   Position{Line: uint32(line), Character: uint32(end)},
	}
}

// offRange converts a byte extent of the file to a protocol range.
func (fm *fileMap) offRange(start, end int32) Range {
	sl, sc := fm.f.Position(start)
	el, ec := fm.f.Position(end)
	return Range{
		Start: Position{Line: uint32(sl), Character: uint32(sc)},
		End:   Position{Line: uint32(el), Character: uint32(ec)},
	}
}

func (fm *fileMap) tokRange(t javasrc.Token) Range { return fm.offRange(t.Off, t.End) }

// lineRange returns the range of a 1-based source line's text.
func (fm *fileMap) lineRange(line int32) Range {
	s, e := fm.f.LineRange(int(line) - 1)
	return fm.offRange(s, e)
}

// location is where a method is shown: its document, its whole extent and its name.
type location struct {
	doc      Doc
	rng, sel Range
}

// methodLocation returns where a method is: its declaration in a source file, or its
// line in its class's listing.
func (s *Session) methodLocation(snap *Snapshot, m *hierarchy.Method) location {
	if fm := s.sourceOf(snap, m.Class); fm != nil {
		if code := fm.methodCode[m.ID]; code != nil {
			return location{Doc{Path: fm.path}, fm.offRange(code.Start, code.End), fm.tokRange(code.NameTok)}
		}
		// No declaration of its own (implicit constructors, accessors of records,
		// bridges, lambdas javac makes for method references): the line its code
		// starts on, else the class's name.
		if lo, _ := span(snap.Index(), m); lo > 0 {
			r := fm.lineRange(lo)
			return location{Doc{Path: fm.path}, r, r}
		}
		if t := fm.classType[m.Class.ID]; t != nil {
			r := fm.tokRange(t.NameTok)
			return location{Doc{Path: fm.path}, r, r}
		}
	}
	l := listingOf(snap, m.Class)
	line, col, end := l.methodRange(m)
	r := lineRange(line, 0, end)
	return location{Doc{Class: m.Class.Name}, r, lineRange(line, col, end)}
}

// sourceOf returns the mapping of the source file of a class, or nil.
func (s *Session) sourceOf(snap *Snapshot, c *hierarchy.Class) *fileMap {
	path, ok := sourcesOf(snap).pathOf[c.ID]
	if !ok {
		return nil
	}
	return s.fileMap(snap, path)
}

// bundleRange returns the range, in the caller's document, of the instruction a
// bundle comes from: the call's token, else its line, else the caller's name.
func (s *Session) bundleRange(snap *Snapshot, caller *hierarchy.Method, b *callgraph.Bundle) Range {
	return s.siteRange(snap, caller, int(b.Call), b.Line)
}

func (s *Session) siteRange(snap *Snapshot, m *hierarchy.Method, call int, line int32) Range {
	if fm := s.sourceOf(snap, m.Class); fm != nil {
		if call >= 0 {
			if tok, ok := fm.callToken(m, call); ok {
				return fm.tokRange(tok)
			}
		}
		if line > 0 {
			return fm.lineRange(line)
		}
		return s.methodLocation(snap, m).sel
	}
	l := listingOf(snap, m.Class)
	if ln, col, end, ok := l.callRange(m, call); ok {
		return lineRange(ln, col, end)
	}
	ln, col, end := l.methodRange(m)
	return lineRange(ln, col, end)
}

// methodRef identifies a method across snapshots (IDs change when the index does):
// it is the data of call-hierarchy items and diagnostics.
type methodRef struct {
	Class  string `json:"class"`
	Name   string `json:"name,omitempty"`
	Desc   string `json:"desc,omitempty"`
	Native bool   `json:"native,omitempty"` // the synthetic NativeMethod node
}

func refOf(m *hierarchy.Method) methodRef {
	return methodRef{Class: m.Class.Name, Name: m.Name, Desc: m.Desc}
}

// node returns the graph node of a method reference, or -1.
func (r methodRef) node(snap *Snapshot) int32 {
	if r.Native {
		if snap.Graph != nil {
			return snap.Graph.Native
		}
		return -1
	}
	c := snap.Hierarchy().Class(r.Class)
	if c == nil {
		return -1
	}
	m := c.Method(r.Name, r.Desc)
	if m == nil {
		return -1
	}
	return m.ID
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain structs are marshalled here
	}
	return b
}

// QualifiedName renders a method for humans: "example.Main.main".
func QualifiedName(m *hierarchy.Method) string {
	return javaName(m.Class.Name) + "." + displayName(m)
}

// shortSignature renders a method with simple parameter type names: "run(String, int)".
func shortSignature(m *hierarchy.Method) string {
	name := displayName(m)
	if m.Name == "<clinit>" {
		return name
	}
	if strings.HasPrefix(m.Name, "lambda$") {
		return lambdaName(m)
	}
	params, _, err := parseParams(m.Desc)
	if err != nil {
		return name + m.Desc
	}
	return name + "(" + strings.Join(params, ", ") + ")"
}

// lambdaName renders a synthetic lambda method: "lambda in main".
func lambdaName(m *hierarchy.Method) string {
	parts := strings.Split(m.Name, "$")
	if len(parts) >= 3 {
		switch parts[1] {
		case "new":
			return "lambda in constructor"
		case "static":
			return "lambda in static initializer"
		}
		return "lambda in " + parts[1]
	}
	return m.Name
}

// parseParams returns the simple type names of a descriptor's parameters.
func parseParams(desc string) ([]string, string, error) {
	ps, ret, err := classfile.ParseMethodDescriptor(desc)
	if err != nil {
		return nil, "", err
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = simpleType(p)
	}
	return out, simpleType(ret), nil
}

// simpleType renders a field descriptor with the simple class name: "String[]".
func simpleType(d string) string {
	t := typeName(d)
	base := strings.TrimRight(t, "[]")
	dims := t[len(base):]
	if i := strings.LastIndexAny(base, ".$"); i >= 0 {
		base = base[i+1:]
	}
	return base + dims
}
