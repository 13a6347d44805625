package classfile

import (
	"encoding/binary"
	"iter"
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// Tag identifies the kind of a constant-pool entry (JVMS 4.4).
type Tag uint8

// Constant-pool tags.
const (
	TagUtf8               Tag = 1
	TagInteger            Tag = 3
	TagFloat              Tag = 4
	TagLong               Tag = 5
	TagDouble             Tag = 6
	TagClass              Tag = 7
	TagString             Tag = 8
	TagFieldref           Tag = 9
	TagMethodref          Tag = 10
	TagInterfaceMethodref Tag = 11
	TagNameAndType        Tag = 12
	TagMethodHandle       Tag = 15
	TagMethodType         Tag = 16
	TagDynamic            Tag = 17
	TagInvokeDynamic      Tag = 18
	TagModule             Tag = 19
	TagPackage            Tag = 20
)

var tagNames = [...]string{
	TagUtf8: "Utf8", TagInteger: "Integer", TagFloat: "Float", TagLong: "Long",
	TagDouble: "Double", TagClass: "Class", TagString: "String", TagFieldref: "Fieldref",
	TagMethodref: "Methodref", TagInterfaceMethodref: "InterfaceMethodref",
	TagNameAndType: "NameAndType", TagMethodHandle: "MethodHandle",
	TagMethodType: "MethodType", TagDynamic: "Dynamic", TagInvokeDynamic: "InvokeDynamic",
	TagModule: "Module", TagPackage: "Package",
}

func (t Tag) String() string {
	if int(t) < len(tagNames) && tagNames[t] != "" {
		return tagNames[t]
	}
	return "invalid"
}

// Method-handle reference kinds (JVMS 5.4.3.5).
const (
	RefGetField         = 1
	RefGetStatic        = 2
	RefPutField         = 3
	RefPutStatic        = 4
	RefInvokeVirtual    = 5
	RefInvokeStatic     = 6
	RefInvokeSpecial    = 7
	RefNewInvokeSpecial = 8
	RefInvokeInterface  = 9
)

// asciiBit marks, in Pool.offs, a Utf8 constant whose bytes are plain ASCII.
const asciiBit = 1 << 31

// Pool is a parsed constant pool. Index 0 and the second slot of Long and Double
// entries are unusable, as in the JVMS. Accessors given an index of the wrong kind
// return zero values; Tag tells the kind first when the index comes from untrusted
// bytecode. A Pool is immutable and safe for concurrent use. It does not cache
// strings by index, which would double the memory of the ~5 million constants of
// the JDK: it decodes a new string on every call, or, parsed with a table of
// Strings (ParseShared), returns the table's copy.
type Pool struct {
	data []byte
	// offs holds, per slot, the offset of the entry's tag byte in data (0 for
	// unusable slots: offset 0 is the magic number) and asciiBit. Everything else is
	// read from data on access, which Parse has validated: four bytes per constant
	// rather than a decoded entry of eight or twelve.
	offs []uint32
	// strs, when not nil, is the table the pool's strings come from (ParseShared).
	strs *Strings
}

// Len returns constant_pool_count (valid indices are 1..Len()-1).
func (p *Pool) Len() int { return len(p.offs) }

// Tag returns the tag of entry i, or 0 when i is out of range or unusable.
func (p *Pool) Tag(i uint16) Tag {
	if int(i) >= len(p.offs) {
		return 0
	}
	at := p.offs[i] &^ asciiBit
	if at == 0 {
		return 0
	}
	return Tag(p.data[at])
}

// at returns the offset of entry i's tag byte when the entry has tag t, else 0.
func (p *Pool) at(i uint16, t Tag) uint32 {
	if int(i) >= len(p.offs) {
		return 0
	}
	at := p.offs[i] &^ asciiBit
	if at == 0 || Tag(p.data[at]) != t {
		return 0
	}
	return at
}

// u2 reads the index (or other u2) at offset at of the class bytes.
func (p *Pool) u2(at uint32) uint16 { return binary.BigEndian.Uint16(p.data[at:]) }

// utf8Bytes returns the raw bytes of Utf8 entry i and whether they are ASCII; ok is
// false when i is not a Utf8 entry.
func (p *Pool) utf8Bytes(i uint16) (b []byte, ascii, ok bool) {
	at := p.at(i, TagUtf8)
	if at == 0 {
		return nil, false, false
	}
	l := uint32(p.u2(at + 1))
	return p.data[at+3 : at+3+l], p.offs[i]&asciiBit != 0, true
}

// Utf8 returns the string of a Utf8 entry, decoded from modified UTF-8.
func (p *Pool) Utf8(i uint16) string {
	b, ascii, ok := p.utf8Bytes(i)
	if !ok {
		return ""
	}
	if p.strs != nil {
		return p.strs.utf8(b, ascii)
	}
	if ascii {
		return string(b)
	}
	s, _ := decodeModifiedUTF8(b)
	return s
}

// ClassName returns the internal name of a Class entry ("java/lang/String", or an
// array descriptor such as "[Ljava/lang/String;").
func (p *Pool) ClassName(i uint16) string {
	if at := p.at(i, TagClass); at != 0 {
		return p.Utf8(p.u2(at + 1))
	}
	return ""
}

// String returns the value of a String entry.
func (p *Pool) String(i uint16) string {
	if at := p.at(i, TagString); at != 0 {
		return p.Utf8(p.u2(at + 1))
	}
	return ""
}

// Int returns the value of an Integer entry.
func (p *Pool) Int(i uint16) int32 {
	if at := p.at(i, TagInteger); at != 0 {
		return int32(binary.BigEndian.Uint32(p.data[at+1:]))
	}
	return 0
}

// Float returns the value of a Float entry.
func (p *Pool) Float(i uint16) float32 {
	if at := p.at(i, TagFloat); at != 0 {
		return math.Float32frombits(binary.BigEndian.Uint32(p.data[at+1:]))
	}
	return 0
}

// Long returns the value of a Long entry.
func (p *Pool) Long(i uint16) int64 {
	if at := p.at(i, TagLong); at != 0 {
		return int64(binary.BigEndian.Uint64(p.data[at+1:]))
	}
	return 0
}

// Double returns the value of a Double entry.
func (p *Pool) Double(i uint16) float64 {
	if at := p.at(i, TagDouble); at != 0 {
		return math.Float64frombits(binary.BigEndian.Uint64(p.data[at+1:]))
	}
	return 0
}

// NameAndType returns the name and descriptor of a NameAndType entry.
func (p *Pool) NameAndType(i uint16) (name, desc string) {
	if at := p.at(i, TagNameAndType); at != 0 {
		return p.Utf8(p.u2(at + 1)), p.Utf8(p.u2(at + 3))
	}
	return "", ""
}

// A Ref is a symbolic reference to a field or method.
type Ref struct {
	Class     string // internal name of the class or interface named by the reference
	Name      string
	Desc      string
	Interface bool // an InterfaceMethodref
}

// Ref returns the reference of a Fieldref, Methodref or InterfaceMethodref entry.
func (p *Pool) Ref(i uint16) Ref {
	t := p.Tag(i)
	if t != TagFieldref && t != TagMethodref && t != TagInterfaceMethodref {
		return Ref{}
	}
	at := p.offs[i] &^ asciiBit
	name, desc := p.NameAndType(p.u2(at + 3))
	return Ref{Class: p.ClassName(p.u2(at + 1)), Name: name, Desc: desc, Interface: t == TagInterfaceMethodref}
}

// RefDesc returns the descriptor of a Fieldref, Methodref, InterfaceMethodref,
// Dynamic or InvokeDynamic entry, "" for another kind: Ref(i).Desc without
// reading the names, which code that only counts a call's operands does not need.
func (p *Pool) RefDesc(i uint16) string {
	switch p.Tag(i) {
	case TagFieldref, TagMethodref, TagInterfaceMethodref, TagDynamic, TagInvokeDynamic:
		at := p.offs[i] &^ asciiBit
		if nt := p.at(p.u2(at+3), TagNameAndType); nt != 0 {
			return p.Utf8(p.u2(nt + 3))
		}
	}
	return ""
}

// SharedRef returns Ref(i) as a pointer that, in a pool parsed with a table of
// Strings (ParseShared), is shared by the equal references of every pool of the
// table: the facts of a class path keep one per call and field access (1.4
// million with the JDK, of 226 thousand distinct references). An entry of another
// kind gives a zero Ref. The Ref must not be modified.
func (p *Pool) SharedRef(i uint16) *Ref {
	r := p.Ref(i)
	if p.strs == nil {
		return &r
	}
	return p.strs.ref(r)
}

// MethodRefs yields the name and descriptor of every Methodref and
// InterfaceMethodref entry, as UTF-8 bytes that alias the class bytes when they are
// ASCII (they must not be modified). It allocates nothing for ASCII names, so that
// indexing which classes may call which methods over the whole JDK stays cheap.
func (p *Pool) MethodRefs() iter.Seq2[[]byte, []byte] {
	return func(yield func(name, desc []byte) bool) {
		for i := range p.offs {
			at := p.offs[i] &^ asciiBit
			if at == 0 {
				continue
			}
			if t := Tag(p.data[at]); t != TagMethodref && t != TagInterfaceMethodref {
				continue
			}
			nt := p.at(p.u2(at+3), TagNameAndType)
			if nt == 0 {
				continue
			}
			if !yield(p.utf8(p.u2(nt+1)), p.utf8(p.u2(nt+3))) {
				return
			}
		}
	}
}

// utf8 returns the UTF-8 bytes of Utf8 entry i, aliasing the class bytes when they
// are ASCII.
func (p *Pool) utf8(i uint16) []byte {
	b, ascii, _ := p.utf8Bytes(i)
	if ascii {
		return b
	}
	s, _ := decodeModifiedUTF8(b)
	return []byte(s)
}

// MethodHandle returns the reference kind and the referenced member of a
// MethodHandle entry.
func (p *Pool) MethodHandle(i uint16) (kind uint8, ref Ref) {
	if at := p.at(i, TagMethodHandle); at != 0 {
		return p.data[at+1], p.Ref(p.u2(at + 2))
	}
	return 0, Ref{}
}

// MethodType returns the descriptor of a MethodType entry.
func (p *Pool) MethodType(i uint16) string {
	if at := p.at(i, TagMethodType); at != 0 {
		return p.Utf8(p.u2(at + 1))
	}
	return ""
}

// Dynamic returns the bootstrap-method index, name and descriptor of a Dynamic or
// InvokeDynamic entry.
func (p *Pool) Dynamic(i uint16) (bootstrap uint16, name, desc string) {
	if t := p.Tag(i); t != TagDynamic && t != TagInvokeDynamic {
		return 0, "", ""
	}
	at := p.offs[i] &^ asciiBit
	name, desc = p.NameAndType(p.u2(at + 3))
	return p.u2(at + 1), name, desc
}

// Module returns the name of a Module entry; Package the name of a Package entry.
func (p *Pool) Module(i uint16) string {
	if at := p.at(i, TagModule); at != 0 {
		return p.Utf8(p.u2(at + 1))
	}
	return ""
}

// Package returns the name of a Package entry.
func (p *Pool) Package(i uint16) string {
	if at := p.at(i, TagPackage); at != 0 {
		return p.Utf8(p.u2(at + 1))
	}
	return ""
}

// parsePool reads the constant pool and checks that every reference between entries
// points at an entry of the kind the JVMS requires.
func parsePool(r *reader, data []byte) *Pool {
	countOff := r.pos()
	n := int(r.u2())
	if r.err != nil {
		return nil
	}
	if n == 0 {
		r.fail("constant_pool_count is zero", nil)
		return nil
	}
	// Every entry takes at least 3 bytes (tag + u2).
	if (n-1)*3 > len(r.b)-r.off {
		r.err = &FormatError{Offset: countOff, Msg: "constant_pool_count exceeds the remaining data", Val: n}
		return nil
	}
	p := &Pool{data: data, offs: make([]uint32, n)}
	// The loop works on local copies of the cursor: this is the hottest loop of
	// indexing (the JDK has ~5 million constants).
	b, off := r.b, r.off
	short := func(at int) *FormatError {
		return &FormatError{Offset: r.base + int64(at), Msg: "unexpected end of data in the constant pool"}
	}
	for i := 1; i < n; i++ {
		tagOff := off
		if off >= len(b) {
			r.err = short(off)
			return nil
		}
		t := Tag(b[off])
		off++
		slot := uint32(tagOff)
		switch t {
		case TagUtf8:
			if off+2 > len(b) {
				r.err = short(off)
				return nil
			}
			l := int(binary.BigEndian.Uint16(b[off:]))
			off += 2
			if off+l > len(b) {
				r.err = short(off)
				return nil
			}
			if asciiAt(b, off, l) {
				slot |= asciiBit
			} else if !validModifiedUTF8(b[off : off+l]) {
				r.err = &FormatError{Offset: r.base + int64(off), Msg: "invalid modified UTF-8 in constant", Val: i}
				return nil
			}
			off += l
		case TagInteger, TagFloat:
			off += 4
		case TagLong, TagDouble:
			off += 8
			if off > len(b) {
				r.err = short(tagOff)
				return nil
			}
			p.offs[i] = slot
			i++ // a Long or Double takes two slots; the second is unusable
			if i >= n {
				r.err = &FormatError{Offset: r.base + int64(tagOff), Msg: "8-byte constant in the last constant-pool slot", Val: i - 1}
				return nil
			}
			continue
		case TagClass, TagString, TagMethodType, TagModule, TagPackage:
			off += 2
		case TagFieldref, TagMethodref, TagInterfaceMethodref, TagNameAndType,
			TagDynamic, TagInvokeDynamic:
			off += 4
		case TagMethodHandle:
			off += 3
		default:
			r.err = &FormatError{Offset: r.base + int64(tagOff), Msg: "invalid constant-pool tag", Val: uint8(t)}
			return nil
		}
		if off > len(b) {
			r.err = short(tagOff)
			return nil
		}
		p.offs[i] = slot
	}
	r.off = off
	if err := p.check(); err != nil {
		err.Offset += r.base
		r.err = err
		return nil
	}
	return p
}

// check validates cross-references so accessors can trust them. It reads the entries'
// indices straight from the class bytes: this runs for every constant of every class.
func (p *Pool) check() *FormatError {
	d, offs := p.data, p.offs
	tag := func(i uint16) Tag {
		if int(i) >= len(offs) {
			return 0
		}
		at := offs[i] &^ asciiBit
		if at == 0 {
			return 0
		}
		return Tag(d[at])
	}
	u2 := func(at uint32) uint16 { return binary.BigEndian.Uint16(d[at:]) }
	for i := 1; i < len(offs); i++ {
		at := offs[i] &^ asciiBit
		if at == 0 {
			continue // the second slot of a Long or Double
		}
		ok := true
		switch Tag(d[at]) {
		case TagClass, TagString, TagMethodType, TagModule, TagPackage:
			ok = tag(u2(at+1)) == TagUtf8
		case TagFieldref, TagMethodref, TagInterfaceMethodref:
			ok = tag(u2(at+1)) == TagClass && tag(u2(at+3)) == TagNameAndType
		case TagNameAndType:
			ok = tag(u2(at+1)) == TagUtf8 && tag(u2(at+3)) == TagUtf8
		case TagDynamic, TagInvokeDynamic:
			ok = tag(u2(at+3)) == TagNameAndType
		case TagMethodHandle:
			ref := tag(u2(at + 2))
			switch d[at+1] {
			case RefGetField, RefGetStatic, RefPutField, RefPutStatic:
				ok = ref == TagFieldref
			case RefInvokeVirtual, RefNewInvokeSpecial:
				ok = ref == TagMethodref
			case RefInvokeStatic, RefInvokeSpecial, RefInvokeInterface:
				ok = ref == TagMethodref || ref == TagInterfaceMethodref
			default:
				ok = false
			}
		}
		if !ok {
			return &FormatError{Offset: 10, Msg: "constant-pool entry refers to an entry of the wrong kind", Val: i}
		}
	}
	return nil
}

// isASCII reports whether b is plain 7-bit ASCII without NUL (NUL is two bytes in
// modified UTF-8), eight bytes at a time.
func isASCII(b []byte) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	n := len(b)
	if n < 8 {
		for _, c := range b {
			if c == 0 || c >= 0x80 {
				return false
			}
		}
		return true
	}
	// w&hi: a byte >= 0x80; (w-lo)&^w&hi: a zero byte (the classic haszero trick).
	// The last word overlaps the one before rather than leaving a tail of bytes.
	var acc uint64
	for i := 0; i+8 <= n; i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		acc |= w | ((w - lo) &^ w)
	}
	w := binary.LittleEndian.Uint64(b[n-8:])
	acc |= w | ((w - lo) &^ w)
	return acc&hi == 0
}

// asciiAt is isASCII(b[off:off+l]) for the constant-pool loop, where most strings are
// shorter than eight bytes and followed by more class bytes: it then checks one word
// in which the bytes after the string are replaced by 0x01 (ASCII, not NUL).
func asciiAt(b []byte, off, l int) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	if l < 8 && len(b)-off >= 8 {
		w := binary.LittleEndian.Uint64(b[off:])
		keep := uint64(1)<<(8*uint(l)) - 1
		w = w&keep | lo&^keep
		return (w|((w-lo)&^w))&hi == 0
	}
	return isASCII(b[off : off+l])
}

// validModifiedUTF8 reports whether b is well-formed modified UTF-8, without
// decoding it (the parser checks every constant; few are ever decoded).
func validModifiedUTF8(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c != 0 && c < 0x80:
			i++
		case c&0xE0 == 0xC0:
			if i+1 >= len(b) || b[i+1]&0xC0 != 0x80 {
				return false
			}
			i += 2
		case c&0xF0 == 0xE0:
			if i+2 >= len(b) || b[i+1]&0xC0 != 0x80 || b[i+2]&0xC0 != 0x80 {
				return false
			}
			i += 3
		default:
			return false
		}
	}
	return true
}

// decodeModifiedUTF8 decodes the JVM's modified UTF-8 (JVMS 4.4.7): NUL is two bytes
// and supplementary characters are surrogate pairs of three bytes each.
func decodeModifiedUTF8(b []byte) (string, bool) {
	out := make([]byte, 0, len(b))
	var pending rune = -1 // a high surrogate waiting for its low half
	flush := func() {
		if pending >= 0 {
			out = utf8.AppendRune(out, utf8.RuneError)
			pending = -1
		}
	}
	for i := 0; i < len(b); {
		c := b[i]
		var r rune
		switch {
		case c != 0 && c < 0x80:
			r = rune(c)
			i++
		case c&0xE0 == 0xC0:
			if i+1 >= len(b) || b[i+1]&0xC0 != 0x80 {
				return "", false
			}
			r = rune(c&0x1F)<<6 | rune(b[i+1]&0x3F)
			i += 2
		case c&0xF0 == 0xE0:
			if i+2 >= len(b) || b[i+1]&0xC0 != 0x80 || b[i+2]&0xC0 != 0x80 {
				return "", false
			}
			r = rune(c&0x0F)<<12 | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
			i += 3
		default:
			return "", false
		}
		if utf16.IsSurrogate(r) {
			if r < 0xDC00 { // high surrogate
				flush()
				pending = r
				continue
			}
			if pending >= 0 {
				out = utf8.AppendRune(out, utf16.DecodeRune(pending, r))
				pending = -1
				continue
			}
			out = utf8.AppendRune(out, utf8.RuneError)
			continue
		}
		flush()
		out = utf8.AppendRune(out, r)
	}
	flush()
	return string(out), true
}
