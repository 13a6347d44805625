// Package missing finds the classes that the reachable code of a call graph refers
// to but that are on no class path: what a call, an allocation, a cast or type test,
// a field access or a class constant names, and the missing supertypes of the
// classes whose methods are reachable (the hierarchy's phantoms). Calls into them
// end nowhere in the graph: counting and naming them tells the user that the class
// path, not the program, is why.
package missing

import (
	"slices"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index/facts"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// Kind is a set of the ways code refers to a class.
type Kind uint8

// Ways to refer to a class.
const (
	Call  Kind = 1 << iota // the owner of a called method
	New                    // allocated (new, or an array of it)
	Cast                   // checkcast or instanceof
	Field                  // the owner of an accessed field
	Const                  // a class constant (C.class)
	Super                  // a supertype of a class whose methods are reachable
)

var kindNames = []string{"call", "new", "cast", "field", "constant", "supertype"}

func (k Kind) String() string {
	var out []string
	for i, n := range kindNames {
		if k&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, ", ")
}

// Class is a missing class and how the reachable code refers to it.
type Class struct {
	Name  string // internal name (pkg/Outer$Inner)
	Kinds Kind
	Refs  int // references from reachable methods (supertype links count once per class)
	// From is the first reachable method (in method ID order) that refers to it,
	// and Line the reference's source line (-1 when unknown or a supertype).
	From *hierarchy.Method
	Line int32
}

// Package is the class's package, dotted ("" for the unnamed package).
func (c *Class) Package() string {
	if i := strings.LastIndexByte(c.Name, '/'); i >= 0 {
		return strings.ReplaceAll(c.Name[:i], "/", ".")
	}
	return ""
}

// Program is what Find reads: the hierarchy and the facts of method bodies.
type Program interface {
	Hierarchy() *hierarchy.Hierarchy
	Facts(m *hierarchy.Method) *facts.Method
}

// Find returns the classes missing from the program that the graph's reachable
// methods refer to, sorted by name. The JDK's own methods are not read: what the JDK
// refers to is in its image (on javacc's graph with JDK 17, reading them too finds
// no more and takes 177 ms instead of 3.5 ms: BenchmarkFindMissing in incremental).
func Find(p Program, g *callgraph.Graph) []Class {
	h := p.Hierarchy()
	found := map[string]*Class{}
	absent := map[string]bool{} // names looked up, and whether missing
	isMissing := func(name string) bool {
		m, ok := absent[name]
		if !ok {
			c := h.Class(name)
			m = c == nil || c.Phantom
			absent[name] = m
		}
		return m
	}
	note := func(name string, k Kind, from *hierarchy.Method, line int32) {
		name = elementClass(name)
		if name == "" || !isMissing(name) {
			return
		}
		c := found[name]
		if c == nil {
			c = &Class{Name: name, From: from, Line: line}
			found[name] = c
		}
		c.Kinds |= k
		c.Refs++
	}
	supersDone := map[*hierarchy.Class]bool{}
	for id, m := range h.Methods() {
		if !g.Reachable.Has(int32(id)) || m.Class.Origin == hierarchy.JDK {
			continue
		}
		if !supersDone[m.Class] {
			supersDone[m.Class] = true
			var walk func(c *hierarchy.Class)
			walk = func(c *hierarchy.Class) {
				for _, s := range append([]*hierarchy.Class{c.Super}, c.Interfaces...) {
					if s == nil {
						continue
					}
					if s.Phantom {
						note(s.Name, Super, m, -1)
					} else if !supersDone[s] {
						supersDone[s] = true
						walk(s)
					}
				}
			}
			walk(m.Class)
		}
		f := p.Facts(m)
		if f == nil {
			continue
		}
		for i := range f.Calls {
			if c := &f.Calls[i]; c.Indy == nil {
				note(c.Ref.Class, Call, m, c.Line)
			}
		}
		for i := range f.Allocs {
			note(f.Allocs[i].Type, New, m, f.Allocs[i].Line)
		}
		for i := range f.TypeChecks {
			note(f.TypeChecks[i].Type, Cast, m, f.TypeChecks[i].Line)
		}
		for i := range f.Fields {
			note(f.Fields[i].Ref.Class, Field, m, f.Fields[i].Line)
		}
		for i := range f.ClassConsts {
			note(f.ClassConsts[i].Value, Const, m, f.ClassConsts[i].Line)
		}
	}
	out := make([]Class, 0, len(found))
	for _, c := range found {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Class) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// elementClass returns the class an internal name or array descriptor names: the
// element class of an array of objects, "" for an array of primitives.
func elementClass(name string) string {
	if !strings.HasPrefix(name, "[") {
		return name
	}
	name = strings.TrimLeft(name, "[")
	if strings.HasPrefix(name, "L") && strings.HasSuffix(name, ";") {
		return name[1 : len(name)-1]
	}
	return ""
}
