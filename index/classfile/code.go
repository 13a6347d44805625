package classfile

import "sort"

// Code is a decoded Code attribute (JVMS 4.7.3) with the debugging attributes the
// analysis uses.
type Code struct {
	MaxStack  uint16
	MaxLocals uint16
	Bytecode  []byte
	Handlers  []ExceptionHandler
	Lines     []LineNumber // sorted by StartPC
	// BytecodeOffset is the offset of Bytecode[0] in the class file, so errors found
	// while decoding instructions can name a file offset.
	BytecodeOffset int64

	file   *File
	lvts   [][]byte // raw LocalVariableTable entries
	lvtOff []int64  // their offsets in the class file
}

// ExceptionHandler is an exception_table entry; CatchType is "" for finally/any.
type ExceptionHandler struct {
	StartPC, EndPC, HandlerPC uint16
	CatchType                 string
}

// LineNumber is a LineNumberTable entry.
type LineNumber struct {
	StartPC uint16
	Line    uint16
}

// LocalVariable is a LocalVariableTable entry.
type LocalVariable struct {
	StartPC, Length uint16
	Name, Desc      string
	Index           uint16
}

// Code decodes the method's Code attribute. It returns nil, nil for abstract and
// native methods.
func (m *Method) Code() (*Code, error) {
	if !m.codeAttr {
		return nil, nil
	}
	f := m.file
	r := &reader{b: f.data[m.codeOff : m.codeOff+m.codeLen], base: int64(m.codeOff)}
	c := &Code{file: f}
	c.MaxStack = r.u2()
	c.MaxLocals = r.u2()
	codeLen := r.u4()
	if r.err == nil && (codeLen == 0 || codeLen >= 65536) {
		r.off -= 4
		r.fail("code_length out of range", codeLen)
		return nil, r.err
	}
	c.BytecodeOffset = r.pos()
	c.Bytecode = r.bytes(int(codeLen))
	n := r.count(8, "exception handlers")
	if n > 0 {
		c.Handlers = make([]ExceptionHandler, n)
	}
	for i := range n {
		h := &c.Handlers[i]
		off := r.pos()
		h.StartPC, h.EndPC, h.HandlerPC = r.u2(), r.u2(), r.u2()
		h.CatchType = f.classAt(r, "catch type", true)
		if r.err == nil && (h.StartPC >= h.EndPC || uint32(h.EndPC) > codeLen || uint32(h.HandlerPC) >= codeLen) {
			return nil, &FormatError{Offset: off, Msg: "exception handler range out of bounds", Val: [3]uint16{h.StartPC, h.EndPC, h.HandlerPC}}
		}
	}
	na := r.count(6, "code attributes")
	for range na {
		name, arv, ok := f.attribute(r)
		if !ok {
			break
		}
		ar := &arv
		switch name {
		case "LineNumberTable":
			k := ar.count(4, "line numbers")
			start := len(c.Lines)
			c.Lines = append(c.Lines, make([]LineNumber, k)...)
			for j := range k {
				c.Lines[start+j] = LineNumber{StartPC: ar.u2(), Line: ar.u2()}
			}
		case "LocalVariableTable":
			// Decoded on demand (LocalVariables): few callers want the names, and
			// decoding them costs more than the rest of the body.
			k := ar.count(10, "local variables")
			c.lvts = append(c.lvts, ar.bytes(k*10))
			c.lvtOff = append(c.lvtOff, ar.pos()-int64(k*10))
		default:
			ar.off = len(ar.b)
		}
		finish(r, ar, name)
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(r.b) {
		return nil, &FormatError{Offset: r.pos(), Msg: "Code attribute has trailing bytes", Val: len(r.b) - r.off}
	}
	// javac emits sorted tables but several tables may be present: sort once so
	// LineAt can binary-search.
	if !sort.SliceIsSorted(c.Lines, func(i, j int) bool { return c.Lines[i].StartPC < c.Lines[j].StartPC }) {
		sort.SliceStable(c.Lines, func(i, j int) bool { return c.Lines[i].StartPC < c.Lines[j].StartPC })
	}
	return c, nil
}

// LineAt returns the source line of the instruction at pc, or -1 when unknown.
func (c *Code) LineAt(pc int) int {
	i := sort.Search(len(c.Lines), func(i int) bool { return int(c.Lines[i].StartPC) > pc })
	if i == 0 {
		return -1
	}
	return int(c.Lines[i-1].Line)
}

// LocalVariables decodes the LocalVariableTable attributes of the body.
func (c *Code) LocalVariables() ([]LocalVariable, error) {
	var out []LocalVariable
	for i, raw := range c.lvts {
		r := &reader{b: raw, base: c.lvtOff[i]}
		for r.off < len(r.b) && r.err == nil {
			lv := LocalVariable{StartPC: r.u2(), Length: r.u2()}
			lv.Name = c.file.utf8At(r, "local variable name")
			lv.Desc = c.file.utf8At(r, "local variable descriptor")
			lv.Index = r.u2()
			out = append(out, lv)
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	return out, nil
}
