package classfile

import (
	"encoding/binary"
	"slices"
	"sort"
)

// Code is a decoded Code attribute (JVMS 4.7.3) with the debugging attributes the
// analysis uses. Line numbers are read from the class bytes on access (NumLines, Line,
// LineAt) and local variables decoded on request (LocalVariables): a body is decoded
// for every method of every class, and most callers want neither.
type Code struct {
	MaxStack  uint16
	MaxLocals uint16
	Bytecode  []byte
	Handlers  []ExceptionHandler
	// BytecodeOffset is the offset of Bytecode[0] in the class file, so errors found
	// while decoding instructions can name a file offset.
	BytecodeOffset int64

	m *Method
	// lines holds the LineNumberTable entries (u2 start_pc, u2 line_number) sorted
	// by start_pc: the table in the class bytes when there is one and it is sorted (as
	// javac writes it), else a sorted merge of all tables.
	lines []byte
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
func (m *Method) Code() (c *Code, err error) {
	// Small enough to inline, so a caller that keeps the Code to itself gets it on
	// its stack: one allocation less per method body.
	if m.codeAttr {
		c = new(Code)
		if err = m.decodeBody(c); err != nil {
			c = nil
		}
	}
	return c, err
}

func (m *Method) decodeBody(c *Code) error {
	f := m.file
	r := reader{b: f.data[m.codeOff : m.codeOff+m.codeLen], base: int64(m.codeOff)}
	c.m = m
	c.MaxStack = r.u2()
	c.MaxLocals = r.u2()
	codeLen := r.u4()
	if r.err == nil && (codeLen == 0 || codeLen >= 65536) {
		r.off -= 4
		r.fail("code_length out of range", codeLen)
		return r.err
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
		h.CatchType = f.classAt(&r, "catch type", true)
		if r.err == nil && (h.StartPC >= h.EndPC || uint32(h.EndPC) > codeLen || uint32(h.HandlerPC) >= codeLen) {
			return &FormatError{Offset: off, Msg: "exception handler range out of bounds", Val: [3]uint16{h.StartPC, h.EndPC, h.HandlerPC}}
		}
	}
	na := r.count(6, "code attributes")
	tables, sorted := 0, true
	for range na {
		name, ni, arv, ok := f.attribute(&r)
		if !ok {
			break
		}
		ar := &arv
		switch string(name) {
		case "LineNumberTable":
			k := ar.count(4, "line numbers")
			t := ar.bytes(4 * k)
			tables++
			if tables == 1 {
				c.lines = t
			} else {
				c.lines = append(c.lines[:len(c.lines):len(c.lines)], t...)
			}
			for j := 4; j < len(t); j += 4 {
				if binary.BigEndian.Uint16(t[j:]) < binary.BigEndian.Uint16(t[j-4:]) {
					sorted = false
				}
			}
		case "LocalVariableTable":
			// Decoded on demand (LocalVariables): few callers want the names, and
			// decoding them costs more than the rest of the body.
			k := ar.count(10, "local variables")
			ar.bytes(k * 10)
		default:
			ar.off = len(ar.b)
		}
		f.finish(&r, ar, ni)
	}
	if r.err != nil {
		return r.err
	}
	if r.off != len(r.b) {
		return &FormatError{Offset: r.pos(), Msg: "Code attribute has trailing bytes", Val: len(r.b) - r.off}
	}
	if tables > 1 || !sorted {
		c.lines = sortLines(c.lines)
	}
	return nil
}

// sortLines returns the entries of one or more concatenated line-number tables in a
// new table sorted by start_pc (stably, so LineAt sees the first table's line first),
// so LineAt can binary-search. javac writes one sorted table.
func sortLines(raw []byte) []byte {
	ls := make([]LineNumber, len(raw)/4)
	for i := range ls {
		ls[i] = LineNumber{StartPC: binary.BigEndian.Uint16(raw[4*i:]), Line: binary.BigEndian.Uint16(raw[4*i+2:])}
	}
	slices.SortStableFunc(ls, func(a, b LineNumber) int { return int(a.StartPC) - int(b.StartPC) })
	out := make([]byte, len(raw))
	for i, l := range ls {
		binary.BigEndian.PutUint16(out[4*i:], l.StartPC)
		binary.BigEndian.PutUint16(out[4*i+2:], l.Line)
	}
	return out
}

// NumLines returns the number of line-number entries of the body.
func (c *Code) NumLines() int { return len(c.lines) / 4 }

// Line returns line-number entry i (0 <= i < NumLines()); entries are sorted by
// StartPC.
func (c *Code) Line(i int) LineNumber {
	b := c.lines[4*i : 4*i+4]
	return LineNumber{StartPC: binary.BigEndian.Uint16(b), Line: binary.BigEndian.Uint16(b[2:])}
}

// Lines returns the line-number entries of the body sorted by StartPC, in a new slice.
func (c *Code) Lines() []LineNumber {
	out := make([]LineNumber, c.NumLines())
	for i := range out {
		out[i] = c.Line(i)
	}
	return out
}

// LineAt returns the source line of the instruction at pc, or -1 when unknown.
func (c *Code) LineAt(pc int) int {
	i := sort.Search(c.NumLines(), func(i int) bool { return int(c.Line(i).StartPC) > pc })
	if i == 0 {
		return -1
	}
	return int(c.Line(i - 1).Line)
}

// LocalVariables decodes the LocalVariableTable attributes of the body.
func (c *Code) LocalVariables() ([]LocalVariable, error) {
	m := c.m
	f := m.file
	// The body was validated by Code; walk its attribute table again.
	start := c.BytecodeOffset + int64(len(c.Bytecode)) + 2 + 8*int64(len(c.Handlers))
	end := int64(m.codeOff) + int64(m.codeLen)
	r := reader{b: f.data[start:end], base: start}
	var out []LocalVariable
	na := int(r.u2())
	for range na {
		name, _, arv, ok := f.attribute(&r)
		if !ok {
			break
		}
		if string(name) != "LocalVariableTable" {
			continue
		}
		ar := &arv
		k := int(ar.u2())
		for range k {
			lv := LocalVariable{StartPC: ar.u2(), Length: ar.u2()}
			lv.Name = f.utf8At(ar, "local variable name")
			lv.Desc = f.utf8At(ar, "local variable descriptor")
			lv.Index = ar.u2()
			out = append(out, lv)
		}
		if ar.err != nil {
			return nil, ar.err
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}
