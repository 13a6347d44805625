package ide

import (
	"strings"

	"github.com/jcg-lsp/jcg-lsp/ide/javasrc"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
)

// What a position names as a type: a type declaration's name, or a type name
// written in the source (a field's, parameter's or variable's type, an `extends` or
// `implements` clause, a cast), resolved as javac resolves simple names, closely
// enough: the enclosing types and their member types, the file's types, single-type
// imports, the package, on-demand imports, java.lang. Type arguments and inherited
// member types are not followed.

// typeAt returns the class a position names as a type, or nil. In a class listing
// that is the class the line's call instruction names, else the listed class.
func (s *Session) typeAt(snap *Snapshot, doc Doc, pos Position) *hierarchy.Class {
	h := snap.Hierarchy()
	if doc.Class != "" {
		c := h.Class(doc.Class)
		if c == nil || c.Phantom {
			return nil
		}
		l := listingOf(snap, c)
		if m, k := l.at(int(pos.Line)); m != nil && k >= 0 {
			if rc := h.Class(l.calls[l.methodIndex(m)][k].Ref.Class); rc != nil && !rc.Phantom {
				return rc
			}
		}
		return c
	}
	fm := s.fileMap(snap, doc.Path)
	if fm == nil {
		return nil
	}
	off := fm.f.Offset(int(pos.Line), int(pos.Character))
	for _, t := range fm.f.Types {
		if !t.Anonymous && t.NameTok.Off <= off && off <= t.NameTok.End {
			return fm.typeClass[t]
		}
	}
	i := fm.f.TokenAt(off)
	if i < 0 || fm.f.Tokens[i].Kind != javasrc.TokIdent {
		return nil
	}
	return fm.typeNamed(snap, i)
}

// enclosingType returns the class of the innermost type declaration around a
// position of a source file, or nil.
func (s *Session) enclosingType(snap *Snapshot, doc Doc, pos Position) *hierarchy.Class {
	fm := s.fileMap(snap, doc.Path)
	if doc.Class != "" || fm == nil {
		return nil
	}
	off := fm.f.Offset(int(pos.Line), int(pos.Character))
	if t := fm.f.TypeAt(off); t != nil {
		return fm.typeClass[t]
	}
	return nil
}

// typeNamed resolves the identifier at token i, with the qualifier written before
// it ("java.util.Map.Entry", "Outer.Inner"), as a type name.
func (fm *fileMap) typeNamed(snap *Snapshot, i int) *hierarchy.Class {
	toks := fm.f.Tokens
	parts := []string{fm.f.Text(toks[i])}
	for j := i; j >= 2 && fm.f.Text(toks[j-1]) == "." && toks[j-2].Kind == javasrc.TokIdent; j -= 2 {
		parts = append([]string{fm.f.Text(toks[j-2])}, parts...)
	}
	h := snap.Hierarchy()
	if len(parts) > 1 {
		if c := qualifiedClass(h, parts); c != nil {
			return c
		}
		outer := fm.simpleType(h, toks[i].Off, parts[0])
		for _, p := range parts[1:] {
			if outer == nil {
				return nil
			}
			outer = known(h, outer.Name+"$"+p)
		}
		return outer
	}
	return fm.simpleType(h, toks[i].Off, parts[0])
}

// simpleType resolves a simple type name used at offset off.
func (fm *fileMap) simpleType(h *hierarchy.Hierarchy, off int32, name string) *hierarchy.Class {
	// The enclosing types, innermost first, and their member types.
	for t := fm.f.TypeAt(off); t != nil; t = t.Outer {
		c := fm.typeClass[t]
		if c == nil {
			continue
		}
		if t.Name == name {
			return c
		}
		if m := known(h, c.Name+"$"+name); m != nil {
			return m
		}
	}
	for _, t := range fm.f.Types {
		if t.Name == name && !t.Anonymous && !t.Local {
			if c := fm.typeClass[t]; c != nil {
				return c
			}
		}
	}
	for _, imp := range fm.f.Imports {
		if !imp.Static && (imp.Name == name || strings.HasSuffix(imp.Name, "."+name)) {
			if c := qualifiedClass(h, strings.Split(imp.Name, ".")); c != nil {
				return c
			}
		}
	}
	pkg := strings.ReplaceAll(fm.f.Package, ".", "/")
	if pkg != "" {
		pkg += "/"
	}
	if c := known(h, pkg+name); c != nil {
		return c
	}
	for _, imp := range fm.f.Imports {
		if q, ok := strings.CutSuffix(imp.Name, ".*"); ok && !imp.Static {
			if c := qualifiedClass(h, append(strings.Split(q, "."), name)); c != nil {
				return c
			}
		}
	}
	return known(h, "java/lang/"+name)
}

// qualifiedClass returns the class a dotted name names: a package and a top-level
// class, then member classes ("java.util.Map.Entry" is java/util/Map$Entry).
func qualifiedClass(h *hierarchy.Hierarchy, parts []string) *hierarchy.Class {
	for k := len(parts) - 1; k >= 0; k-- {
		name := strings.Join(parts[:k], "/")
		if name != "" {
			name += "/"
		}
		name += strings.Join(parts[k:], "$")
		if c := known(h, name); c != nil {
			return c
		}
	}
	return nil
}

// known returns the class of an internal name when the hierarchy has it.
func known(h *hierarchy.Hierarchy, name string) *hierarchy.Class {
	if c := h.Class(name); c != nil && !c.Phantom {
		return c
	}
	return nil
}
