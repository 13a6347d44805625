package hierarchy_test

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// synClass is a class described in testdata/java/hierarchy-synthetic (see its
// README.md), to be written as a real class file.
type synClass struct {
	name, super string
	interfaces  []string
	access      uint16
	major       uint16
	methods     []synMember
	fields      []synMember
	nestHost    string
	nestMembers []string
	inner       []classfile.InnerClass
	enclosing   *classfile.EnclosingMethod
}

type synMember struct {
	access     uint16
	name, desc string
}

var flagNames = map[string]uint16{
	"public": classfile.AccPublic, "private": classfile.AccPrivate, "protected": classfile.AccProtected,
	"static": classfile.AccStatic, "final": classfile.AccFinal, "super": classfile.AccSuper,
	"synchronized": classfile.AccSynchronized, "bridge": classfile.AccBridge, "varargs": classfile.AccVarargs,
	"native": classfile.AccNative, "interface": classfile.AccInterface, "abstract": classfile.AccAbstract,
	"synthetic": classfile.AccSynthetic,
}

func parseFlags(s string) (uint16, error) {
	if s == "-" {
		return 0, nil
	}
	var acc uint16
	for _, f := range strings.Split(s, ",") {
		v, ok := flagNames[f]
		if !ok {
			return 0, fmt.Errorf("unknown flag %q", f)
		}
		acc |= v
	}
	return acc, nil
}

// parseSynthetic reads the class descriptions of a synthetic testdata file. Lines
// starting with // are comments (and directives, read separately).
func parseSynthetic(text string) ([]*synClass, error) {
	var classes []*synClass
	var cur *synClass
	for i, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "//") {
			continue
		}
		err := func() error {
			switch fields[0] {
			case "class", "interface":
				if len(fields) < 2 {
					return fmt.Errorf("missing class name")
				}
				cur = &synClass{name: fields[1], super: "java/lang/Object", major: 61}
				if fields[0] == "interface" {
					cur.access = classfile.AccPublic | classfile.AccInterface | classfile.AccAbstract
				} else {
					cur.access = classfile.AccPublic | classfile.AccSuper
				}
				classes = append(classes, cur)
				clause := ""
				for _, f := range fields[2:] {
					switch f {
					case "access", "extends", "implements", "superclass":
						clause = f
						continue
					}
					switch {
					case clause == "access":
						acc, err := parseFlags(f)
						if err != nil {
							return err
						}
						cur.access = acc
					case clause == "extends" && fields[0] == "class", clause == "superclass":
						cur.super = f
					case clause == "extends", clause == "implements":
						cur.interfaces = append(cur.interfaces, f)
					default:
						return fmt.Errorf("unexpected %q", f)
					}
				}
				return nil
			}
			if cur == nil {
				return fmt.Errorf("%s outside a class", fields[0])
			}
			switch fields[0] {
			case "method", "field":
				if len(fields) != 3 {
					return fmt.Errorf("want %s <flags> <signature>", fields[0])
				}
				acc, err := parseFlags(fields[1])
				if err != nil {
					return err
				}
				if fields[0] == "method" {
					i := strings.IndexByte(fields[2], '(')
					if i < 0 {
						return fmt.Errorf("method without descriptor")
					}
					cur.methods = append(cur.methods, synMember{acc, fields[2][:i], fields[2][i:]})
				} else {
					name, desc, ok := strings.Cut(fields[2], ":")
					if !ok {
						return fmt.Errorf("field without descriptor")
					}
					cur.fields = append(cur.fields, synMember{acc, name, desc})
				}
			case "nesthost":
				cur.nestHost = fields[1]
			case "nestmembers":
				cur.nestMembers = fields[1:]
			case "inner":
				if len(fields) != 5 {
					return fmt.Errorf("want inner <inner> <outer> <name> <flags>")
				}
				acc, err := parseFlags(fields[4])
				if err != nil {
					return err
				}
				ic := classfile.InnerClass{Inner: fields[1], Outer: fields[2], Name: fields[3], Access: acc}
				if ic.Outer == "-" {
					ic.Outer = ""
				}
				if ic.Name == "-" {
					ic.Name = ""
				}
				cur.inner = append(cur.inner, ic)
			case "enclosing":
				em := &classfile.EnclosingMethod{Class: fields[1]}
				if len(fields) > 2 {
					i := strings.IndexByte(fields[2], '(')
					if i < 0 {
						return fmt.Errorf("enclosing method without descriptor")
					}
					em.Name, em.Desc = fields[2][:i], fields[2][i:]
				}
				cur.enclosing = em
			case "version":
				v, err := strconv.Atoi(fields[1])
				if err != nil {
					return err
				}
				cur.major = uint16(v)
			default:
				return fmt.Errorf("unknown line kind %q", fields[0])
			}
			return nil
		}()
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	return classes, nil
}

// pool builds a constant pool with deduplicated entries.
type pool struct {
	buf  []byte
	n    uint16 // next index
	seen map[string]uint16
}

func (p *pool) add(key string, entry []byte) uint16 {
	if p.seen == nil {
		p.seen, p.n = map[string]uint16{}, 1
	}
	if i, ok := p.seen[key]; ok {
		return i
	}
	i := p.n
	p.n++
	p.seen[key] = i
	p.buf = append(p.buf, entry...)
	return i
}

func (p *pool) utf8(s string) uint16 {
	e := []byte{1}
	e = binary.BigEndian.AppendUint16(e, uint16(len(s)))
	return p.add("u:"+s, append(e, s...))
}

func (p *pool) class(name string) uint16 {
	u := p.utf8(name)
	return p.add("c:"+name, binary.BigEndian.AppendUint16([]byte{7}, u))
}

func (p *pool) nameAndType(name, desc string) uint16 {
	e := binary.BigEndian.AppendUint16([]byte{12}, p.utf8(name))
	e = binary.BigEndian.AppendUint16(e, p.utf8(desc))
	return p.add("nt:"+name+":"+desc, e)
}

// bytes writes the class file.
func (c *synClass) bytes() []byte {
	var p pool
	u2 := func(b []byte, v uint16) []byte { return binary.BigEndian.AppendUint16(b, v) }
	u4 := func(b []byte, v uint32) []byte { return binary.BigEndian.AppendUint32(b, v) }

	var body []byte
	body = u2(body, c.access)
	body = u2(body, p.class(c.name))
	var super uint16
	if c.super != "" && c.super != "-" {
		super = p.class(c.super)
	}
	body = u2(body, super)
	body = u2(body, uint16(len(c.interfaces)))
	for _, in := range c.interfaces {
		body = u2(body, p.class(in))
	}
	for _, ms := range [][]synMember{c.fields, c.methods} {
		body = u2(body, uint16(len(ms)))
		for _, m := range ms {
			body = u2(body, m.access)
			body = u2(body, p.utf8(m.name))
			body = u2(body, p.utf8(m.desc))
			body = u2(body, 0) // no attributes
		}
	}
	var attrs [][]byte
	attr := func(name string, info []byte) {
		a := u2(nil, p.utf8(name))
		a = u4(a, uint32(len(info)))
		attrs = append(attrs, append(a, info...))
	}
	if c.nestHost != "" {
		attr("NestHost", u2(nil, p.class(c.nestHost)))
	}
	if c.nestMembers != nil {
		info := u2(nil, uint16(len(c.nestMembers)))
		for _, m := range c.nestMembers {
			info = u2(info, p.class(m))
		}
		attr("NestMembers", info)
	}
	if c.inner != nil {
		info := u2(nil, uint16(len(c.inner)))
		for _, ic := range c.inner {
			info = u2(info, p.class(ic.Inner))
			var outer, name uint16
			if ic.Outer != "" {
				outer = p.class(ic.Outer)
			}
			if ic.Name != "" {
				name = p.utf8(ic.Name)
			}
			info = u2(u2(info, outer), name)
			info = u2(info, ic.Access)
		}
		attr("InnerClasses", info)
	}
	if em := c.enclosing; em != nil {
		var nt uint16
		if em.Name != "" {
			nt = p.nameAndType(em.Name, em.Desc)
		}
		attr("EnclosingMethod", u2(u2(nil, p.class(em.Class)), nt))
	}
	body = u2(body, uint16(len(attrs)))
	for _, a := range attrs {
		body = append(body, a...)
	}

	out := u4(nil, 0xCAFEBABE)
	out = u2(u2(out, 0), c.major)
	out = u2(out, p.n)
	out = append(out, p.buf...)
	return append(out, body...)
}
