package classfile

import (
	"fmt"
	"io"
	"os"
)

// Access flags (JVMS tables 4.1-B, 4.5-A, 4.6-A, 4.7.6-A). Some bits mean different
// things on classes, fields and methods; the names follow the JVMS.
const (
	AccPublic       = 0x0001
	AccPrivate      = 0x0002
	AccProtected    = 0x0004
	AccStatic       = 0x0008
	AccFinal        = 0x0010
	AccSuper        = 0x0020 // class
	AccSynchronized = 0x0020 // method
	AccVolatile     = 0x0040 // field
	AccBridge       = 0x0040 // method
	AccTransient    = 0x0080 // field
	AccVarargs      = 0x0080 // method
	AccNative       = 0x0100
	AccInterface    = 0x0200
	AccAbstract     = 0x0400
	AccStrict       = 0x0800
	AccSynthetic    = 0x1000
	AccAnnotation   = 0x2000
	AccEnum         = 0x4000
	AccModule       = 0x8000 // class
	AccMandated     = 0x8000 // parameter
)

// File is a parsed class file. Everything except method bodies is decoded by Parse;
// Method.Code decodes a body on demand from the retained class bytes, which the caller
// must not modify.
type File struct {
	Minor, Major uint16
	Pool         *Pool
	Access       uint16
	Name         string   // internal name of this class
	Super        string   // "" for java/lang/Object and module-info
	Interfaces   []string // direct superinterfaces
	Fields       []Field
	Methods      []Method

	SourceFile          string
	Signature           string
	InnerClasses        []InnerClass
	EnclosingMethod     *EnclosingMethod
	NestHost            string
	NestMembers         []string
	BootstrapMethods    []BootstrapMethod
	Record              []RecordComponent // nil when the class has no Record attribute
	PermittedSubclasses []string
	Deprecated          bool

	data []byte
	// moduleOff and moduleLen locate the info of the Module attribute (Module
	// decodes it); moduleOff is 0 when there is none.
	moduleOff, moduleLen uint32
}

// Field is a field_info structure.
type Field struct {
	Access        uint16
	Name, Desc    string
	Signature     string
	ConstantValue uint16 // constant-pool index of a ConstantValue, or 0
}

// Method is a method_info structure. Parse validates its attributes and only
// locates those that are read rarely (Code, Signature, Exceptions,
// MethodParameters), which their accessors decode: an index keeps a Method for
// each of the class path's 265 thousand methods.
type Method struct {
	Access     uint16
	sigIdx     uint16 // the Signature attribute's Utf8 constant; 0 when absent
	Name, Desc string

	file      *File
	codeOff   uint32 // offset of the Code attribute's info in the class bytes; 0 when absent
	codeLen   uint32
	excOff    uint32 // offset of the Exceptions attribute's info; 0 when absent
	paramsOff uint32 // offset of the MethodParameters attribute's info; 0 when absent
	codeAttr  bool
}

// Signature returns the method's generic signature (its Signature attribute), or
// "" when it has none.
func (m *Method) Signature() string {
	if m.sigIdx == 0 {
		return ""
	}
	return m.file.Pool.Utf8(m.sigIdx)
}

// Exceptions returns the internal names of the classes the method's Exceptions
// attribute says it throws.
func (m *Method) Exceptions() []string {
	if m.excOff == 0 {
		return nil
	}
	p, at := m.file.Pool, m.excOff
	out := make([]string, p.u2(at))
	for j := range out {
		out[j] = p.ClassName(p.u2(at + 2 + 2*uint32(j)))
	}
	return out
}

// Parameters returns the entries of the method's MethodParameters attribute.
func (m *Method) Parameters() []MethodParameter {
	if m.paramsOff == 0 {
		return nil
	}
	p, at := m.file.Pool, m.paramsOff
	out := make([]MethodParameter, m.file.data[at])
	for j := range out {
		e := at + 1 + 4*uint32(j)
		out[j] = MethodParameter{Name: p.Utf8(p.u2(e)), Access: p.u2(e + 2)}
	}
	return out
}

// MethodParameter is an entry of the MethodParameters attribute.
type MethodParameter struct {
	Name   string // "" when the parameter is unnamed
	Access uint16
}

// InnerClass is an entry of the InnerClasses attribute.
type InnerClass struct {
	Inner  string // internal name of the inner class
	Outer  string // "" for local and anonymous classes
	Name   string // simple name, "" for anonymous classes
	Access uint16
}

// EnclosingMethod is the EnclosingMethod attribute of a local or anonymous class.
type EnclosingMethod struct {
	Class      string
	Name, Desc string // empty when the class is not enclosed by a method (e.g. in an initialiser)
}

// BootstrapMethod is an entry of the BootstrapMethods attribute: a MethodHandle
// constant and the constant-pool indices of its static arguments.
type BootstrapMethod struct {
	Ref  uint16
	Args []uint16
}

// RecordComponent is an entry of the Record attribute.
type RecordComponent struct {
	Name, Desc string
	Signature  string
}

// HasCode reports whether the method has a Code attribute.
func (m *Method) HasCode() bool { return m.codeAttr }

// IsStatic and friends are shorthands for the access flags that the analysis tests
// most often.
func (m *Method) IsStatic() bool   { return m.Access&AccStatic != 0 }
func (m *Method) IsAbstract() bool { return m.Access&AccAbstract != 0 }
func (m *Method) IsPrivate() bool  { return m.Access&AccPrivate != 0 }
func (m *Method) IsNative() bool   { return m.Access&AccNative != 0 }

// IsInterface reports whether the class file declares an interface.
func (f *File) IsInterface() bool { return f.Access&AccInterface != 0 }

// Data returns the class bytes the file was parsed from.
func (f *File) Data() []byte { return f.data }

// Open reads and parses the class file at path.
func Open(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// NewFile reads a whole class file from r and parses it.
func NewFile(r io.ReaderAt, size int64) (*File, error) {
	b := make([]byte, size)
	if _, err := r.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, err
	}
	return Parse(b)
}

// Parse parses the class file in data. The returned File keeps data for lazy
// decoding of method bodies.
func Parse(data []byte) (*File, error) { return ParseShared(data, nil) }

// ParseShared is Parse with the strings of the class file (its names and
// descriptors, those its pool gives later) taken from strs, when not nil, so that
// the class files parsed with one table share their equal strings.
func ParseShared(data []byte, strs *Strings) (*File, error) {
	if len(data) > maxClassSize {
		return nil, &FormatError{Offset: maxClassSize, Msg: "class file too large", Val: len(data)}
	}
	r := &reader{b: data} // stays on the stack: no reference escapes
	if magic := r.u4(); r.err == nil && magic != 0xCAFEBABE {
		return nil, &FormatError{Offset: 0, Msg: "bad magic number", Val: fmt.Sprintf("%#x", magic)}
	}
	f := &File{data: data}
	f.Minor = r.u2()
	f.Major = r.u2()
	if r.err != nil {
		return nil, r.err
	}
	if f.Major < 45 || f.Major > MaxMajorVersion {
		return nil, &FormatError{Offset: 6, Msg: "unsupported class-file version", Val: fmt.Sprintf("%d.%d", f.Major, f.Minor)}
	}
	f.Pool = parsePool(r, data)
	if r.err != nil {
		return nil, r.err
	}
	f.Pool.strs = strs
	p := f.Pool
	f.Access = r.u2()
	thisOff := r.pos()
	this := r.u2()
	super := r.u2()
	if r.err != nil {
		return nil, r.err
	}
	if p.Tag(this) != TagClass {
		return nil, &FormatError{Offset: thisOff, Msg: "this_class is not a Class constant", Val: this}
	}
	f.Name = p.ClassName(this)
	if super != 0 {
		if p.Tag(super) != TagClass {
			return nil, &FormatError{Offset: thisOff + 2, Msg: "super_class is not a Class constant", Val: super}
		}
		f.Super = p.ClassName(super)
	} else if f.Name != "java/lang/Object" && f.Access&AccModule == 0 {
		return nil, &FormatError{Offset: thisOff + 2, Msg: "class other than java/lang/Object without a superclass", Val: f.Name}
	}
	n := r.count(2, "interfaces")
	if n > 0 {
		f.Interfaces = make([]string, n)
	}
	for i := range n {
		off := r.pos()
		idx := r.u2()
		if p.Tag(idx) != TagClass {
			r.fail("interface is not a Class constant", idx)
			r.err.Offset = off
			return nil, r.err
		}
		f.Interfaces[i] = p.ClassName(idx)
	}
	f.parseFields(r)
	f.parseMethods(r)
	f.parseClassAttributes(r)
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(r.b) {
		return nil, &FormatError{Offset: r.pos(), Msg: "extra bytes at the end of the class file", Val: len(r.b) - r.off}
	}
	return f, nil
}

// utf8At reads a u2 index that must name a Utf8 constant, and returns its string.
func (f *File) utf8At(r *reader, what string) string {
	if i := f.utf8Index(r, what); i != 0 {
		return f.Pool.Utf8(i)
	}
	return ""
}

// utf8Index reads a u2 index that must name a Utf8 constant; 0 after an error.
func (f *File) utf8Index(r *reader, what string) uint16 {
	off := r.pos()
	i := r.u2()
	if r.err != nil {
		return 0
	}
	if f.Pool.Tag(i) != TagUtf8 {
		r.err = &FormatError{Offset: off, Msg: what + " is not a Utf8 constant", Val: i}
		r.off = len(r.b)
		return 0
	}
	return i
}

// classAt reads a u2 index that must name a Class constant (or be 0 when zeroOK).
func (f *File) classAt(r *reader, what string, zeroOK bool) string {
	off := r.pos()
	i := r.u2()
	if r.err != nil || (i == 0 && zeroOK) {
		return ""
	}
	if f.Pool.Tag(i) != TagClass {
		r.err = &FormatError{Offset: off, Msg: what + " is not a Class constant", Val: i}
		r.off = len(r.b)
		return ""
	}
	return f.Pool.ClassName(i)
}

// classIndex reads a u2 index that must name a Class constant.
func (f *File) classIndex(r *reader, what string) {
	off := r.pos()
	if i := r.u2(); r.err == nil && f.Pool.Tag(i) != TagClass {
		r.err = &FormatError{Offset: off, Msg: what + " is not a Class constant", Val: i}
		r.off = len(r.b)
	}
}

// attribute reads an attribute header and returns its name (the raw bytes of the Utf8
// constant, so recognising a name allocates nothing), the name's constant-pool index
// (for error messages) and a reader over its info.
func (f *File) attribute(r *reader) ([]byte, uint16, reader, bool) {
	off := r.pos()
	ni := r.u2()
	if r.err != nil {
		return nil, 0, reader{}, false
	}
	name, _, isUtf8 := f.Pool.utf8Bytes(ni)
	if !isUtf8 {
		r.err = &FormatError{Offset: off, Msg: "attribute name is not a Utf8 constant", Val: ni}
		r.off = len(r.b)
		return nil, 0, reader{}, false
	}
	l := r.u4()
	start := r.off
	if r.err == nil && uint64(l) > uint64(len(r.b)-r.off) {
		r.fail("attribute length exceeds the remaining data", l)
		return nil, 0, reader{}, false
	}
	info := r.bytes(int(l))
	if r.err != nil {
		return nil, 0, reader{}, false
	}
	// Names the parser recognises are ASCII, whose modified UTF-8 is the name itself;
	// other names only have to differ from them, which their raw bytes do. The
	// reader is returned by value: one per attribute on the heap was a third of the
	// parser's allocations.
	return name, ni, reader{b: info, base: r.base + int64(start)}, true
}

// The attribute loops of fields, methods, classes, records and Code are written out
// rather than shared through a callback: a reader handed to a func value escapes to
// the heap, which cost a fifth more allocations on the parser's hottest path.

// finish checks that an attribute reader consumed exactly its bytes and propagates
// its error to the enclosing reader. name is the attribute name's constant index.
func (f *File) finish(outer, ar *reader, name uint16) {
	if outer.err != nil {
		return
	}
	if ar.err != nil {
		outer.err = ar.err
		outer.off = len(outer.b)
		return
	}
	if ar.off != len(ar.b) {
		outer.err = &FormatError{Offset: ar.pos(), Msg: "attribute " + f.Pool.Utf8(name) + " has trailing bytes", Val: len(ar.b) - ar.off}
		outer.off = len(outer.b)
	}
}

func (f *File) parseFields(r *reader) {
	n := r.count(8, "fields")
	if n > 0 {
		f.Fields = make([]Field, n)
	}
	for i := range n {
		fd := &f.Fields[i]
		fd.Access = r.u2()
		fd.Name = f.utf8At(r, "field name")
		fd.Desc = f.utf8At(r, "field descriptor")
		na := r.count(6, "field attributes")
		for range na {
			name, ni, arv, ok := f.attribute(r)
			if !ok {
				return
			}
			ar := &arv
			switch string(name) {
			case "ConstantValue":
				fd.ConstantValue = ar.u2()
			case "Signature":
				fd.Signature = f.utf8At(ar, "Signature")
			default:
				ar.off = len(ar.b)
			}
			f.finish(r, ar, ni)
		}
		if r.err != nil {
			return
		}
	}
}

func (f *File) parseMethods(r *reader) {
	n := r.count(8, "methods")
	if n > 0 {
		f.Methods = make([]Method, n)
	}
	for i := range n {
		m := &f.Methods[i]
		m.file = f
		m.Access = r.u2()
		m.Name = f.utf8At(r, "method name")
		m.Desc = f.utf8At(r, "method descriptor")
		na := r.count(6, "method attributes")
		for range na {
			name, ni, arv, ok := f.attribute(r)
			if !ok {
				return
			}
			ar := &arv
			switch string(name) {
			case "Code":
				if m.codeAttr {
					ar.fail("duplicate Code attribute", m.Name)
					break
				}
				m.codeAttr = true
				m.codeOff = uint32(ar.base)
				m.codeLen = uint32(len(ar.b))
				ar.off = len(ar.b)
			case "Signature":
				m.sigIdx = f.utf8Index(ar, "Signature")
			case "Exceptions":
				m.excOff = uint32(ar.base)
				for range ar.count(2, "exceptions") {
					f.classIndex(ar, "exception")
				}
			case "MethodParameters":
				m.paramsOff = uint32(ar.base)
				k := int(ar.u1())
				if ar.err == nil && k*4 > len(ar.b)-ar.off {
					ar.fail("count of method parameters exceeds the remaining data", k)
					break
				}
				for range k {
					off := ar.pos()
					ni := ar.u2()
					if ni != 0 && f.Pool.Tag(ni) != TagUtf8 {
						ar.fail("parameter name is not a Utf8 constant", ni)
						ar.err.Offset = off
						break
					}
					ar.u2()
				}
			default:
				ar.off = len(ar.b)
			}
			f.finish(r, ar, ni)
		}
		if r.err != nil {
			return
		}
	}
}

func (f *File) parseClassAttributes(r *reader) {
	n := r.count(6, "class attributes")
	for range n {
		name, ni, arv, ok := f.attribute(r)
		if !ok {
			return
		}
		ar := &arv
		switch string(name) {
		case "SourceFile":
			f.SourceFile = f.utf8At(ar, "SourceFile")
		case "Signature":
			f.Signature = f.utf8At(ar, "Signature")
		case "Deprecated":
			f.Deprecated = true
		case "InnerClasses":
			k := ar.count(8, "inner classes")
			f.InnerClasses = make([]InnerClass, k)
			for j := range k {
				ic := &f.InnerClasses[j]
				ic.Inner = f.classAt(ar, "inner class", false)
				ic.Outer = f.classAt(ar, "outer class", true)
				off := ar.pos()
				ni := ar.u2()
				if ni != 0 && f.Pool.Tag(ni) != TagUtf8 {
					ar.fail("inner class name is not a Utf8 constant", ni)
					ar.err.Offset = off
					break
				}
				ic.Name = f.Pool.Utf8(ni)
				ic.Access = ar.u2()
			}
		case "EnclosingMethod":
			em := &EnclosingMethod{Class: f.classAt(ar, "enclosing class", false)}
			off := ar.pos()
			nt := ar.u2()
			if nt != 0 {
				if f.Pool.Tag(nt) != TagNameAndType {
					ar.fail("enclosing method is not a NameAndType constant", nt)
					ar.err.Offset = off
					break
				}
				em.Name, em.Desc = f.Pool.NameAndType(nt)
			}
			f.EnclosingMethod = em
		case "NestHost":
			f.NestHost = f.classAt(ar, "nest host", false)
		case "NestMembers":
			f.NestMembers = f.classList(ar, "nest member")
		case "PermittedSubclasses":
			f.PermittedSubclasses = f.classList(ar, "permitted subclass")
		case "BootstrapMethods":
			k := ar.count(4, "bootstrap methods")
			f.BootstrapMethods = make([]BootstrapMethod, k)
			for j := range k {
				bm := &f.BootstrapMethods[j]
				off := ar.pos()
				bm.Ref = ar.u2()
				if ar.err == nil && f.Pool.Tag(bm.Ref) != TagMethodHandle {
					ar.fail("bootstrap method is not a MethodHandle constant", bm.Ref)
					ar.err.Offset = off
					break
				}
				na := ar.count(2, "bootstrap arguments")
				bm.Args = make([]uint16, na)
				for a := range na {
					off := ar.pos()
					bm.Args[a] = ar.u2()
					if ar.err == nil && !loadable(f.Pool.Tag(bm.Args[a])) {
						ar.fail("bootstrap argument is not a loadable constant", bm.Args[a])
						ar.err.Offset = off
						break
					}
				}
			}
		case "Record":
			k := ar.count(6, "record components")
			f.Record = make([]RecordComponent, k)
			for j := range k {
				rc := &f.Record[j]
				rc.Name = f.utf8At(ar, "record component name")
				rc.Desc = f.utf8At(ar, "record component descriptor")
				na := ar.count(6, "record component attributes")
				for range na {
					an, ani, aarv, ok := f.attribute(ar)
					if !ok {
						break
					}
					aar := &aarv
					if string(an) == "Signature" {
						rc.Signature = f.utf8At(aar, "Signature")
					} else {
						aar.off = len(aar.b)
					}
					f.finish(ar, aar, ani)
				}
			}
		case "Module":
			f.moduleOff, f.moduleLen = uint32(ar.base), uint32(len(ar.b))
			ar.off = len(ar.b)
		default:
			ar.off = len(ar.b)
		}
		f.finish(r, ar, ni)
		if r.err != nil {
			return
		}
	}
}

func (f *File) classList(r *reader, what string) []string {
	k := r.count(2, what+"s")
	out := make([]string, k)
	for j := range k {
		out[j] = f.classAt(r, what, false)
	}
	return out
}

// loadable reports whether a constant of kind t may be pushed by ldc or passed as a
// bootstrap argument (JVMS 4.4, table 4.4-C).
func loadable(t Tag) bool {
	switch t {
	case TagInteger, TagFloat, TagLong, TagDouble, TagClass, TagString,
		TagMethodHandle, TagMethodType, TagDynamic:
		return true
	}
	return false
}
