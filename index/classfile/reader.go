package classfile

import "encoding/binary"

// reader is a bounds-checked big-endian cursor. The first failed read records an error
// and every later read returns zero, so parsing code reads straight through and checks
// r.err at the points where a zero would cause harm (counts, before allocating).
type reader struct {
	b    []byte
	off  int
	base int64 // offset of b[0] in the class file, for error messages
	err  *FormatError
}

func (r *reader) fail(msg string, val any) {
	if r.err == nil {
		r.err = &FormatError{Offset: r.base + int64(r.off), Msg: msg, Val: val}
	}
	r.off = len(r.b)
}

func (r *reader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || len(r.b)-r.off < n {
		r.fail("unexpected end of data", nil)
		return false
	}
	return true
}

func (r *reader) u1() uint8 {
	if !r.need(1) {
		return 0
	}
	v := r.b[r.off]
	r.off++
	return v
}

func (r *reader) u2() uint16 {
	if !r.need(2) {
		return 0
	}
	v := binary.BigEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v
}

func (r *reader) u4() uint32 {
	if !r.need(4) {
		return 0
	}
	v := binary.BigEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *reader) bytes(n int) []byte {
	if !r.need(n) {
		return nil
	}
	v := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return v
}

// count reads a u2 count of items that each take at least minSize bytes and fails when
// the remaining data cannot hold that many, so hostile counts never drive allocation.
func (r *reader) count(minSize int, what string) int {
	n := int(r.u2())
	if r.err == nil && n*minSize > len(r.b)-r.off {
		r.off -= 2
		r.fail("count of "+what+" exceeds the remaining data", n)
		return 0
	}
	return n
}

func (r *reader) pos() int64 { return r.base + int64(r.off) }
