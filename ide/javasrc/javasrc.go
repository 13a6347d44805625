// Package javasrc is a small, forgiving scanner of Java source text. It finds what the
// language server needs to connect source positions with class files and nothing
// more: the package, every type declaration (member, local and anonymous classes
// included), every piece of code that compiles into a method (methods, constructors,
// initialisers, field initialisers, lambda bodies) and every token that compiles into
// a call instruction (a called name, `new T(`, `this(`, `super(`, `->`, `::`).
//
// It is not a Java parser. It never fails and never panics: text that is being typed
// yields whatever structure can be recognised, and everything else is skipped. Types
// of parameters are kept as written (simple names), which is enough to tell overloads
// apart when matched against descriptors.
//
// Why not tree-sitter: it needs cgo (a C toolchain for every user who builds the server
// and slow cross-compilation), while the mapping also needs the class files'
// LineNumberTable, which settles most of what a full syntax tree would add.
//
// Positions: offsets are bytes; LSP positions are (line, UTF-16 code unit) pairs, see
// [File.Position] and [File.Offset].
package javasrc

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"
)

// TypeKind is the kind of a type declaration.
type TypeKind uint8

// Kinds of type declarations.
const (
	Class TypeKind = iota
	Interface
	Enum
	Record
	Annotation
)

// Type is a class, interface, enum, record or annotation type declaration, or the body
// of an anonymous class.
type Type struct {
	Kind TypeKind
	Name string // simple name; "" for anonymous classes
	// NameTok is the name token; for an anonymous class, the name of the type after
	// `new` (or the enum constant's name).
	NameTok Token
	Outer   *Type // the lexically enclosing type; nil for top-level types
	// Code is the code construct a local or anonymous class is declared in; nil for
	// top-level and member types.
	Code      *Code
	Anonymous bool
	Local     bool
	// Super is the simple name after `new` of an anonymous class (its superclass or
	// interface); for an enum constant's body, the enum's name.
	Super      string
	TypeParams []string
	Components []Param // record components
	// Body is the byte extent of the body, from '{' to '}' inclusive; End is -1 when
	// the body is not closed.
	BodyStart, BodyEnd int32
	Static             bool // declared static, or implicitly static (interfaces, enums, records, members of interfaces)
}

// CodeKind says what kind of code a construct holds, which decides the method it
// compiles into.
type CodeKind uint8

// Kinds of code constructs.
const (
	Method      CodeKind = iota // a method declaration (with or without a body)
	Constructor                 // a constructor declaration (compact canonical ones too)
	Initializer                 // an instance or static initialiser block
	FieldInit                   // field initialisers and enum constant arguments
	Lambda                      // a lambda expression's body
)

func (k CodeKind) String() string {
	switch k {
	case Method:
		return "method"
	case Constructor:
		return "constructor"
	case Initializer:
		return "initializer"
	case FieldInit:
		return "field initializer"
	case Lambda:
		return "lambda"
	}
	return "code?"
}

// Code is a piece of source that compiles into (part of) one method.
type Code struct {
	Kind   CodeKind
	Type   *Type  // the declaring type
	Parent *Code  // for lambdas: the code they appear in
	Name   string // method name, the type's name for constructors, the field or constant name for initialisers
	// NameTok is the declaration's name token; for lambdas the "->" token.
	NameTok    Token
	Params     []Param
	TypeParams []string
	Static     bool
	Compact    bool // a record's compact canonical constructor
	// Start and End bound the construct: from the name (lambdas: their parameters) to
	// the end of the body. BodyStart is the '{' of a block body, -1 without one
	// (abstract and native methods, expression lambdas, field initialisers).
	Start, End int32
	BodyStart  int32
}

// Param is a declared parameter or record component.
type Param struct {
	Type    string // simple name of the type as written, without type arguments: "String", "Entry", "int"
	Dims    int    // array dimensions, varargs included
	Varargs bool
	Name    string
}

// CallKind says which construct a call token stands for.
type CallKind uint8

// Kinds of call tokens.
const (
	CallMethod    CallKind = iota // name(...): the method name token
	CallNew                       // new T(...): the T token
	CallThis                      // this(...) in a constructor
	CallSuper                     // super(...) in a constructor
	CallEnumConst                 // an enum constant: its name (the constructor call in <clinit>)
	CallLambda                    // "->" of a lambda (an invokedynamic)
	CallMethodRef                 // "::" of a method reference (an invokedynamic)
)

// Call is a token that compiles into a call instruction.
type Call struct {
	Kind CallKind
	Name string // the token text ("->" and "::" for lambdas and method references)
	Tok  Token
	Code *Code // the innermost construct containing the token; nil outside any
}

// Import is an import declaration: the dotted name as written ("java.util.List",
// "java.util.*", "java.util.Map.Entry").
type Import struct {
	Name   string
	Static bool
}

// File is the scanned structure of one source file.
type File struct {
	Src     []byte
	Package string // dotted; "" for the unnamed package
	Imports []Import
	Types   []*Type
	Codes   []*Code // in source order of their start
	Calls   []Call  // in source order
	Tokens  []Token
	lines   []int32
}

// Parse scans src.
func Parse(src []byte) *File {
	toks, lines := lex(src)
	p := &parser{src: src, toks: toks}
	p.file = &File{Src: src, Tokens: toks, lines: lines}
	p.parseFile()
	sort.SliceStable(p.file.Codes, func(i, j int) bool { return p.file.Codes[i].Start < p.file.Codes[j].Start })
	return p.file
}

// Text returns the text of a token.
func (f *File) Text(t Token) string { return string(f.Src[t.Off:t.End]) }

// NumLines returns the number of lines.
func (f *File) NumLines() int { return len(f.lines) }

// LineOf returns the 0-based line of a byte offset.
func (f *File) LineOf(off int32) int {
	return sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
}

// Position converts a byte offset to a 0-based line and a UTF-16 column.
func (f *File) Position(off int32) (line, col int) {
	if off < 0 {
		off = 0
	}
	if int(off) > len(f.Src) {
		off = int32(len(f.Src))
	}
	line = f.LineOf(off)
	return line, utf16Len(f.Src[f.lines[line]:off])
}

// Offset converts a 0-based line and UTF-16 column to a byte offset, clamping to the
// line (a column past its end is its end) and to the file.
func (f *File) Offset(line, col int) int32 {
	if line < 0 {
		return 0
	}
	if line >= len(f.lines) {
		return int32(len(f.Src))
	}
	i := int(f.lines[line])
	end := f.lineEnd(line)
	for n := 0; i < end && n < col; {
		r, size := utf8.DecodeRune(f.Src[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return int32(i)
}

// lineEnd returns the offset of the end of a line's text, before its terminator.
func (f *File) lineEnd(line int) int {
	end := len(f.Src)
	if line+1 < len(f.lines) {
		end = int(f.lines[line+1])
	}
	for end > int(f.lines[line]) && (f.Src[end-1] == '\n' || f.Src[end-1] == '\r') {
		end--
	}
	return end
}

// LineRange returns the byte extent of a line's text without leading and trailing
// blanks; both are the line start for a blank line.
func (f *File) LineRange(line int) (start, end int32) {
	if line < 0 || line >= len(f.lines) {
		return 0, 0
	}
	s, e := int(f.lines[line]), f.lineEnd(line)
	for s < e && (f.Src[s] == ' ' || f.Src[s] == '\t') {
		s++
	}
	for e > s && (f.Src[e-1] == ' ' || f.Src[e-1] == '\t') {
		e--
	}
	return int32(s), int32(e)
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += len(utf16.Encode([]rune{r}))
		b = b[size:]
	}
	return n
}

// TokenAt returns the index of the token containing offset off (or ending at it, so
// that a cursor just after a name still names it), or -1.
func (f *File) TokenAt(off int32) int {
	i := sort.Search(len(f.Tokens), func(i int) bool { return f.Tokens[i].End >= off })
	if i < len(f.Tokens) && f.Tokens[i].Off <= off {
		// Prefer an identifier starting at off over a punctuation token ending there.
		if f.Tokens[i].End == off && i+1 < len(f.Tokens) && f.Tokens[i+1].Off == off {
			return i + 1
		}
		return i
	}
	return -1
}

// CodeAt returns the innermost code construct containing off, or nil.
func (f *File) CodeAt(off int32) *Code {
	var best *Code
	for _, c := range f.Codes {
		if c.Start > off {
			break
		}
		if off <= c.End && (best == nil || c.Start >= best.Start) {
			best = c
		}
	}
	return best
}

// TypeAt returns the innermost type whose body contains off, or nil.
func (f *File) TypeAt(off int32) *Type {
	var best *Type
	for _, t := range f.Types {
		if t.BodyStart <= off && (t.BodyEnd < 0 || off <= t.BodyEnd) && (best == nil || t.BodyStart >= best.BodyStart) {
			best = t
		}
	}
	return best
}

// CallAt returns the call whose token contains off, or nil.
func (f *File) CallAt(off int32) *Call {
	i := sort.Search(len(f.Calls), func(i int) bool { return f.Calls[i].Tok.End >= off })
	if i < len(f.Calls) && f.Calls[i].Tok.Off <= off {
		return &f.Calls[i]
	}
	return nil
}

// DeclAt returns the method or constructor declaration whose name token contains off.
func (f *File) DeclAt(off int32) *Code {
	for _, c := range f.Codes {
		if (c.Kind == Method || c.Kind == Constructor) && c.NameTok.Off <= off && off <= c.NameTok.End {
			return c
		}
	}
	return nil
}

// BinaryName returns the binary name javac gives a named type (nested types joined
// with '$', package with '/'), or "" for anonymous and local types and types nested
// in them, whose names depend on javac's numbering.
func (f *File) BinaryName(t *Type) string {
	if t.Anonymous || t.Local {
		return ""
	}
	if t.Outer == nil {
		if f.Package == "" {
			return t.Name
		}
		return dotsToSlashes(f.Package) + "/" + t.Name
	}
	o := f.BinaryName(t.Outer)
	if o == "" {
		return ""
	}
	return o + "$" + t.Name
}

func dotsToSlashes(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == '.' {
			b[i] = '/'
		}
	}
	return string(b)
}

// PackageOf returns the package a source file declares, reading only as far as the
// package declaration (or the first type declaration, for the unnamed package).
func PackageOf(src []byte) string {
	l := &lexer{src: src, lines: []int32{0}}
	// word returns the next token's text; ok is false at the end of the source.
	word := func() (w string, ok bool) {
		for l.i < len(src) {
			n := len(l.toks)
			l.next()
			if len(l.toks) > n {
				t := l.toks[len(l.toks)-1]
				return string(src[t.Off:t.End]), true
			}
		}
		return "", false
	}
	for w, ok := word(); ok; w, ok = word() {
		switch w {
		case "package":
			var name []byte
			for w, ok := word(); ok && w != ";"; w, ok = word() {
				name = append(name, w...)
			}
			return string(name)
		case "class", "interface", "enum", "record", "import":
			return ""
		}
	}
	return ""
}
