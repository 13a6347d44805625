// Package classgen writes small class files with method bodies, for tests and
// benchmarks that need shapes no Java source would be worth compiling for: a
// superclass chain 20,000 classes deep, thousands of subclasses of one class. The
// classes are well-formed for the parser and the analysis (constant pool, members,
// Code attributes); they carry no StackMapTable, so they use class-file version 50
// (Java 6), which the verifier accepts without one, or 51 (Java 7) for a class with
// invokedynamic or a method handle constant and 55 (Java 11) for one with a dynamic
// constant, whose methods must then not branch (those versions require frames where
// they do).
package classgen

import (
	"encoding/binary"
	"fmt"
)

// Access flags, as in the class-file format.
const (
	Public    = 0x0001
	Private   = 0x0002
	Protected = 0x0004
	Static    = 0x0008
	Final     = 0x0010
	Super     = 0x0020
	Interface = 0x0200
	Abstract  = 0x0400
)

// Class describes one class file. An empty Super means java/lang/Object (and none for
// java/lang/Object itself).
type Class struct {
	Access     uint16
	Name       string // internal form, e.g. "p/C"
	Super      string
	Interfaces []string
	Methods    []Method
}

// Method is one method; a nil Code writes no Code attribute (abstract and native
// methods).
type Method struct {
	Access     uint16
	Name, Desc string
	Code       *Code
}

// Code is a method body being assembled: append instructions with its methods.
type Code struct {
	MaxStack, MaxLocals uint16
	insns               []insn
}

type insn struct {
	op                byte
	kind              byte // 0: no operand, 'c': class, 'm': method, 'i': interface method, 'd': invokedynamic, 'h': ldc_w of a handle, 'k': ldc_w of a dynamic constant
	class, name, desc string
	bsm               []Handle // invokedynamic and dynamic constants: the bootstrap method, then its static arguments; ldc_w of a handle: the handle
}

// Handle is a method handle constant (CONSTANT_MethodHandle): Kind is the reference
// kind (RefInvokeStatic, ...) of a method of Class.
type Handle struct {
	Kind              byte
	Class, Name, Desc string
	Interface         bool // the method is an interface's
}

// Reference kinds of method handle constants.
const (
	RefInvokeVirtual    = 5
	RefInvokeStatic     = 6
	RefInvokeSpecial    = 7
	RefNewInvokeSpecial = 8
)

// InvokeDynamic appends invokedynamic of a call site named name with type desc,
// linked by the bootstrap method bsm given the static arguments args.
func (c *Code) InvokeDynamic(name, desc string, bsm Handle, args ...Handle) *Code {
	c.insns = append(c.insns, insn{op: invokeDynamic, kind: 'd', name: name, desc: desc, bsm: append([]Handle{bsm}, args...)})
	return c
}

// Op appends an instruction without operands (aload_0, dup, pop, return, ...).
func (c *Code) Op(op byte) *Code { c.insns = append(c.insns, insn{op: op}); return c }

// New appends new class.
func (c *Code) New(class string) *Code {
	c.insns = append(c.insns, insn{op: opNew, kind: 'c', class: class})
	return c
}

// Invoke appends invokevirtual, invokespecial or invokestatic of a class's method.
func (c *Code) Invoke(op byte, class, name, desc string) *Code {
	c.insns = append(c.insns, insn{op: op, kind: 'm', class: class, name: name, desc: desc})
	return c
}

// InvokeInterface appends invokeinterface of an interface method.
func (c *Code) InvokeInterface(class, name, desc string) *Code {
	c.insns = append(c.insns, insn{op: InvokeInterface, kind: 'i', class: class, name: name, desc: desc})
	return c
}

// LdcHandle appends ldc_w of the method handle constant h.
func (c *Code) LdcHandle(h Handle) *Code {
	c.insns = append(c.insns, insn{op: ldcW, kind: 'h', bsm: []Handle{h}})
	return c
}

// LdcDynamic appends ldc_w of a dynamic constant named name of type desc (a field
// descriptor), computed by the bootstrap method bsm given the static arguments args.
func (c *Code) LdcDynamic(name, desc string, bsm Handle, args ...Handle) *Code {
	c.insns = append(c.insns, insn{op: ldcW, kind: 'k', name: name, desc: desc, bsm: append([]Handle{bsm}, args...)})
	return c
}

// Opcodes the generator's users need.
const (
	Aload0          = 0x2a
	Aload1          = 0x2b
	Aload3          = 0x2d
	Astore1         = 0x4c
	ldcW            = 0x13
	Pop             = 0x57
	Dup             = 0x59
	Ireturn         = 0xac
	Areturn         = 0xb0
	Return          = 0xb1
	Athrow          = 0xbf
	InvokeVirtual   = 0xb6
	InvokeSpecial   = 0xb7
	InvokeStatic    = 0xb8
	InvokeInterface = 0xb9
	invokeDynamic   = 0xba
	opNew           = 0xbb
)

// Bytes writes the class file. It fails only when a count exceeds the format's
// limits (65,535 constants, members or interfaces).
func (c *Class) Bytes() ([]byte, error) {
	var p pool
	var body []byte
	body = u2(body, c.Access)
	body = u2(body, p.class(c.Name))
	super := c.Super
	if super == "" && c.Name != "java/lang/Object" {
		super = "java/lang/Object"
	}
	if super != "" {
		body = u2(body, p.class(super))
	} else {
		body = u2(body, 0)
	}
	if len(c.Interfaces) > 0xffff || len(c.Methods) > 0xffff {
		return nil, fmt.Errorf("class %s: too many interfaces or methods", c.Name)
	}
	body = u2(body, uint16(len(c.Interfaces)))
	for _, in := range c.Interfaces {
		body = u2(body, p.class(in))
	}
	body = u2(body, 0) // no fields
	body = u2(body, uint16(len(c.Methods)))
	var bootstraps [][]byte // BootstrapMethods entries
	version := uint16(50)
	for _, m := range c.Methods {
		body = u2(body, m.Access)
		body = u2(body, p.utf8(m.Name))
		body = u2(body, p.utf8(m.Desc))
		if m.Code == nil {
			body = u2(body, 0)
			continue
		}
		var code []byte
		for _, in := range m.Code.insns {
			code = append(code, in.op)
			switch in.kind {
			case 'c':
				code = u2(code, p.class(in.class))
			case 'm', 'i':
				code = u2(code, p.member(in.kind, in.class, in.name, in.desc))
				if in.kind == 'i' {
					code = append(code, byte(1+argSlots(in.desc)), 0)
				}
			case 'h':
				code = u2(code, p.handle(in.bsm[0]))
				version = max(version, 51)
			case 'd', 'k':
				entry := u2(u2(nil, p.handle(in.bsm[0])), uint16(len(in.bsm)-1))
				for _, a := range in.bsm[1:] {
					entry = u2(entry, p.handle(a))
				}
				if in.kind == 'd' {
					code = u2(code, p.dynamic(18, len(bootstraps), in.name, in.desc))
					code = append(code, 0, 0)
					version = max(version, 51)
				} else {
					code = u2(code, p.dynamic(17, len(bootstraps), in.name, in.desc))
					version = max(version, 55)
				}
				bootstraps = append(bootstraps, entry)
			}
		}
		body = u2(body, 1)
		body = u2(body, p.utf8("Code"))
		var attr []byte
		attr = u2(attr, m.Code.MaxStack)
		attr = u2(attr, m.Code.MaxLocals)
		attr = binary.BigEndian.AppendUint32(attr, uint32(len(code)))
		attr = append(attr, code...)
		attr = u2(attr, 0) // no exception table
		attr = u2(attr, 0) // no attributes
		body = binary.BigEndian.AppendUint32(body, uint32(len(attr)))
		body = append(body, attr...)
	}
	if len(bootstraps) == 0 {
		body = u2(body, 0) // no class attributes
	} else {
		attr := u2(nil, uint16(len(bootstraps)))
		for _, e := range bootstraps {
			attr = append(attr, e...)
		}
		body = u2(body, 1)
		body = u2(body, p.utf8("BootstrapMethods"))
		body = binary.BigEndian.AppendUint32(body, uint32(len(attr)))
		body = append(body, attr...)
	}
	if p.n == 0xffff {
		return nil, fmt.Errorf("class %s: constant pool overflow", c.Name)
	}
	out := binary.BigEndian.AppendUint32(nil, 0xCAFEBABE)
	out = u2(u2(out, 0), version)
	out = u2(out, p.next())
	out = append(out, p.buf...)
	return append(out, body...), nil
}

// argSlots counts the local-variable slots of a method descriptor's parameters, for
// invokeinterface's count operand.
func argSlots(desc string) int {
	n := 0
	for i := 1; i < len(desc) && desc[i] != ')'; i++ {
		switch desc[i] {
		case 'J', 'D':
			n += 2
		case 'L':
			for i < len(desc) && desc[i] != ';' {
				i++
			}
			n++
		case '[':
			for i < len(desc) && desc[i] == '[' {
				i++
			}
			if desc[i] == 'L' {
				for i < len(desc) && desc[i] != ';' {
					i++
				}
			}
			n++
		default:
			n++
		}
	}
	return n
}

func u2(b []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(b, v) }

// pool builds a constant pool with each entry once.
type pool struct {
	buf  []byte
	n    uint16 // entries so far; index n+1 is the next
	seen map[string]uint16
}

func (p *pool) next() uint16 { return p.n + 1 }

func (p *pool) add(key string, entry []byte) uint16 {
	if i, ok := p.seen[key]; ok {
		return i
	}
	if p.seen == nil {
		p.seen = map[string]uint16{}
	}
	if p.n < 0xffff {
		p.n++
	}
	p.seen[key] = p.n
	p.buf = append(p.buf, entry...)
	return p.n
}

func (p *pool) utf8(s string) uint16 {
	e := u2([]byte{1}, uint16(len(s)))
	return p.add("u:"+s, append(e, s...))
}

func (p *pool) class(name string) uint16 {
	return p.add("c:"+name, u2([]byte{7}, p.utf8(name)))
}

func (p *pool) member(kind byte, class, name, desc string) uint16 {
	nt := p.nameAndType(name, desc)
	tag := byte(10)
	if kind == 'i' {
		tag = 11
	}
	return p.add(string(kind)+":"+class+"."+name+desc, u2(u2([]byte{tag}, p.class(class)), nt))
}

func (p *pool) nameAndType(name, desc string) uint16 {
	return p.add("nt:"+name+":"+desc, u2(u2([]byte{12}, p.utf8(name)), p.utf8(desc)))
}

func (p *pool) handle(h Handle) uint16 {
	kind := byte('m')
	if h.Interface {
		kind = 'i'
	}
	ref := p.member(kind, h.Class, h.Name, h.Desc)
	return p.add(fmt.Sprintf("h:%d:%d", h.Kind, ref), u2([]byte{15, h.Kind}, ref))
}

// dynamic adds a CONSTANT_InvokeDynamic (tag 18) or CONSTANT_Dynamic (17) of the
// bsm'th bootstrap method.
func (p *pool) dynamic(tag byte, bsm int, name, desc string) uint16 {
	nt := p.nameAndType(name, desc)
	return p.add(fmt.Sprintf("d%d:%d:%d", tag, bsm, nt), u2(u2([]byte{tag}, uint16(bsm)), nt))
}
