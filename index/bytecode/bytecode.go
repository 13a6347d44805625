// Package bytecode decodes JVM instructions (JVMS chapter 6): every opcode, the wide
// prefix, and tableswitch/lookupswitch with their alignment padding.
//
// Decoding is allocation-free: Decode returns an Instr value, and the jump tables of
// switches are read through Instr.SwitchTargets only when a caller wants them.
package bytecode

import (
	"encoding/binary"
	"fmt"
)

// Opcode is a JVM instruction opcode.
type Opcode uint8

func (op Opcode) String() string {
	if n := opNames[op]; n != "" {
		return n
	}
	return fmt.Sprintf("opcode(%#x)", uint8(op))
}

// An Error reports malformed bytecode at a bytecode offset.
type Error struct {
	PC  int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("bytecode: %s at pc %d", e.Msg, e.PC) }

// Instr is one decoded instruction. Which operand fields are meaningful depends on Op:
//   - Index: constant-pool index (ldc*, field and method instructions, new,
//     anewarray, checkcast, instanceof, multianewarray, invokedynamic) or local-variable
//     index (loads, stores, ret, iinc; implicit for the _0.._3 forms);
//   - Value: the constant of bipush/sipush/iconst, the increment of iinc, the array
//     type of newarray, the dimensions of multianewarray, the count of invokeinterface;
//   - Target: the absolute branch target of if*, goto*, jsr*.
type Instr struct {
	PC     int
	Len    int
	Op     Opcode
	Wide   bool
	Index  uint16
	Value  int32
	Target int
	// sw holds the bytes of a tableswitch or lookupswitch for SwitchTargets. A string
	// rather than the code slice: it keeps Instr to nine machine words, which Go
	// passes to Walk's callback in registers, where a stack copy stalled on every
	// instruction.
	sw string
}

// Operand shapes of the fixed-length instructions.
const (
	kNone uint8 = iota
	kIconst
	kBipush
	kSipush
	kLdc
	kCP // u2 constant-pool index
	kInvokeInterface
	kMulti
	kNewarray
	kLocal  // u1 local index
	kLoadN  // xload_<n>
	kStoreN // xstore_<n>
	kIinc
	kBranch
	kBranchW
)

var opKind = func() (k [256]uint8) {
	for op := IconstM1; op <= Iconst5; op++ {
		k[op] = kIconst
	}
	k[Bipush], k[Sipush], k[Ldc] = kBipush, kSipush, kLdc
	for _, op := range []Opcode{LdcW, Ldc2W, New, Anewarray, Checkcast, Instanceof} {
		k[op] = kCP
	}
	for op := Getstatic; op <= Invokedynamic; op++ {
		k[op] = kCP
	}
	k[Invokeinterface], k[Multianewarray], k[Newarray] = kInvokeInterface, kMulti, kNewarray
	for op := Iload; op <= Aload; op++ {
		k[op] = kLocal
	}
	for op := Istore; op <= Astore; op++ {
		k[op] = kLocal
	}
	k[Ret] = kLocal
	for op := Iload0; op <= Aload3; op++ {
		k[op] = kLoadN
	}
	for op := Istore0; op <= Astore3; op++ {
		k[op] = kStoreN
	}
	k[Iinc] = kIinc
	for op := Ifeq; op <= Jsr; op++ {
		k[op] = kBranch
	}
	k[Ifnull], k[Ifnonnull] = kBranch, kBranch
	k[GotoW], k[JsrW] = kBranchW, kBranchW
	return k
}()

// form says how to compute the operand fields of a fixed-length instruction from w,
// the (up to) four bytes after its opcode read as a big-endian uint32:
//
//	Index  = uint16(w>>ixShr) & ixMask | ixConst
//	Value  = int32(w<<vShl)>>vShr & vMask + vConst
//	Target = (pc + int32(w)>>tShr) & tMask
//
// Decoding by arithmetic rather than a switch on the operand shape takes an
// indirect jump, which the opcode stream makes hard to predict, off the path of every
// instruction.
type form struct {
	len     uint8
	ixShr   uint8
	vShl    uint8
	vShr    uint8
	tShr    uint8
	tMask   int8 // -1 for branches, else 0
	ixMask  uint16
	ixConst uint16
	vConst  int16
	vMask   int32 // -1 for a signed value, 0xff for an unsigned byte, 0 for none
}

var forms = func() (t [256]form) {
	for op := range 256 {
		f := form{len: opLen[op]}
		switch opKind[op] {
		case kIconst:
			f.vConst = int16(op) - int16(Iconst0)
		case kBipush:
			f.vShr, f.vMask = 24, -1
		case kSipush:
			f.vShr, f.vMask = 16, -1
		case kLdc, kLocal:
			f.ixShr, f.ixMask = 24, 0xff
		case kCP:
			f.ixShr, f.ixMask = 16, 0xffff
		case kInvokeInterface, kMulti:
			f.ixShr, f.ixMask = 16, 0xffff
			f.vShl, f.vShr, f.vMask = 16, 24, 0xff // the instruction's fourth byte
		case kNewarray:
			f.vShr, f.vMask = 24, 0xff
		case kLoadN:
			f.ixConst = uint16(Opcode(op)-Iload0) % 4
		case kStoreN:
			f.ixConst = uint16(Opcode(op)-Istore0) % 4
		case kIinc:
			f.ixShr, f.ixMask = 24, 0xff
			f.vShl, f.vShr, f.vMask = 8, 24, -1
		case kBranch:
			f.tShr, f.tMask = 16, -1
		case kBranchW:
			f.tShr, f.tMask = 0, -1
		}
		t[op] = f
	}
	return t
}()

// operandWord returns the (up to) four bytes after the opcode of the fixed-length
// instruction at pc, whose length n the caller has checked against the code.
func operandWord(code []byte, pc, n int) uint32 {
	if len(code)-pc >= 5 {
		return binary.BigEndian.Uint32(code[pc+1:])
	}
	return tailWord(code, pc, n)
}

// operands computes the operand fields of an instruction from its form and operand
// word. It and operandWord are small enough to inline into Walk.
func operands(w uint32, pc int, f *form) (index uint16, value int32, target int) {
	index = uint16(w>>(f.ixShr&31))&f.ixMask | f.ixConst
	value = int32(w<<(f.vShl&31))>>(f.vShr&31)&f.vMask + int32(f.vConst)
	target = (pc + int(int32(w)>>(f.tShr&31))) & int(f.tMask)
	return index, value, target
}

// tailWord returns the operand bytes of an instruction near the end of the code,
// zero-padded to four.
func tailWord(code []byte, pc, n int) (w uint32) {
	for i := 1; i < n; i++ {
		w |= uint32(code[pc+i]) << (32 - 8*i)
	}
	return w
}

// Decode decodes the instruction at pc.
func Decode(code []byte, pc int) (Instr, error) {
	if uint(pc) >= uint(len(code)) {
		return Instr{}, &Error{PC: pc, Msg: "pc out of range"}
	}
	op := Opcode(code[pc])
	f := &forms[op]
	n := int(f.len)
	if n == 0 {
		return decodeVar(code, pc)
	}
	if n > len(code)-pc {
		return Instr{}, &Error{PC: pc, Msg: "truncated " + op.String()}
	}
	in := Instr{PC: pc, Len: n, Op: op}
	in.Index, in.Value, in.Target = operands(operandWord(code, pc, n), pc, f)
	return in, nil
}

// decodeVar decodes the instructions whose length depends on their operands: wide,
// tableswitch and lookupswitch (and reports invalid opcodes).
func decodeVar(code []byte, pc int) (Instr, error) {
	n, err := varLen(code, pc)
	if err != nil {
		return Instr{}, err
	}
	op := Opcode(code[pc])
	if n > len(code)-pc {
		return Instr{}, &Error{PC: pc, Msg: "truncated " + op.String()}
	}
	b := code[pc : pc+n]
	if op != Wide {
		return Instr{PC: pc, Len: n, Op: op, sw: string(b)}, nil
	}
	in := Instr{PC: pc, Len: n, Op: Opcode(b[1]), Wide: true, Index: binary.BigEndian.Uint16(b[2:])}
	if in.Op == Iinc {
		in.Value = int32(int16(binary.BigEndian.Uint16(b[4:])))
	}
	return in, nil
}

// varLen returns the length of tableswitch, lookupswitch and wide instructions, which
// depends on their operands, checking hostile counts against the code length.
func varLen(code []byte, pc int) (int, error) {
	op := Opcode(code[pc])
	switch op {
	case Wide:
		if pc+1 >= len(code) {
			return 0, &Error{PC: pc, Msg: "truncated wide"}
		}
		switch Opcode(code[pc+1]) {
		case Iinc:
			return 6, nil
		case Iload, Lload, Fload, Dload, Aload, Istore, Lstore, Fstore, Dstore, Astore, Ret:
			return 4, nil
		}
		return 0, &Error{PC: pc, Msg: "wide applied to " + Opcode(code[pc+1]).String()}
	case Tableswitch, Lookupswitch:
		p := (pc + 4) &^ 3 // operands start at the next multiple of four
		fixed := 12        // default, low, high
		if op == Lookupswitch {
			fixed = 8 // default, npairs
		}
		if p+fixed > len(code) {
			return 0, &Error{PC: pc, Msg: "truncated " + op.String()}
		}
		if op == Tableswitch {
			low := int64(int32(binary.BigEndian.Uint32(code[p+4:])))
			high := int64(int32(binary.BigEndian.Uint32(code[p+8:])))
			if low > high {
				return 0, &Error{PC: pc, Msg: "tableswitch low > high"}
			}
			n := high - low + 1
			if int64(p)+12+4*n > int64(len(code)) {
				return 0, &Error{PC: pc, Msg: "tableswitch table exceeds the code"}
			}
			return p + 12 + int(4*n) - pc, nil
		}
		n := int64(int32(binary.BigEndian.Uint32(code[p+4:])))
		if n < 0 || int64(p)+8+8*n > int64(len(code)) {
			return 0, &Error{PC: pc, Msg: "lookupswitch table exceeds the code"}
		}
		return p + 8 + int(8*n) - pc, nil
	}
	return 0, &Error{PC: pc, Msg: "invalid opcode " + op.String()}
}

// SwitchTargets calls fn for the default target (with isDefault set) and then for
// every (key, target) pair of a tableswitch or lookupswitch; it does nothing for other
// instructions. Targets are absolute bytecode offsets.
func (in Instr) SwitchTargets(fn func(key int32, target int, isDefault bool)) {
	if in.Op != Tableswitch && in.Op != Lookupswitch {
		return
	}
	c := in.sw
	if len(c) != in.Len {
		return // not from Decode or Walk
	}
	p := (in.PC+4)&^3 - in.PC // offsets within the instruction
	u4 := func(o int) int32 {
		return int32(uint32(c[o])<<24 | uint32(c[o+1])<<16 | uint32(c[o+2])<<8 | uint32(c[o+3]))
	}
	fn(0, in.PC+int(u4(p)), true)
	if in.Op == Tableswitch {
		low, high := u4(p+4), u4(p+8)
		for k, o := int64(low), p+12; k <= int64(high); k, o = k+1, o+4 {
			fn(int32(k), in.PC+int(u4(o)), false)
		}
		return
	}
	n := int(u4(p + 4))
	for i, o := 0, p+8; i < n; i, o = i+1, o+8 {
		fn(u4(o), in.PC+int(u4(o+4)), false)
	}
}

// IsBranch reports whether the instruction transfers control to Target (conditional
// or not). Switches, returns and athrow are reported by other predicates.
func (op Opcode) IsBranch() bool {
	return (op >= Ifeq && op <= Jsr) || op == Ifnull || op == Ifnonnull || op == GotoW || op == JsrW
}

// IsUnconditional reports whether control never falls through to the next instruction.
func (op Opcode) IsUnconditional() bool {
	switch op {
	case Goto, GotoW, Tableswitch, Lookupswitch, Ireturn, Lreturn, Freturn, Dreturn,
		Areturn, Return, Athrow, Ret:
		return true
	}
	return false
}

// IsReturn reports whether op returns from the method.
func (op Opcode) IsReturn() bool { return op >= Ireturn && op <= Return }

// IsInvoke reports whether op is one of the five invoke instructions.
func (op Opcode) IsInvoke() bool { return op >= Invokevirtual && op <= Invokedynamic }

// Walk decodes every instruction of code in order, stopping at the first error.
func Walk(code []byte, fn func(in Instr) error) error {
	// This loop runs for every instruction of every method. Fixed-length
	// instructions are decoded here into scalars, from which the compiler builds the
	// callback's argument in registers; only switches, wide and bad bytes take
	// Decode's path.
	for pc := 0; pc < len(code); {
		op := Opcode(code[pc])
		f := &forms[op]
		if n := int(f.len); n != 0 && n <= len(code)-pc {
			index, value, target := operands(operandWord(code, pc, n), pc, f)
			if err := fn(Instr{PC: pc, Len: n, Op: op, Index: index, Value: value, Target: target}); err != nil {
				return err
			}
			pc += n
			continue
		}
		in, err := Decode(code, pc)
		if err != nil {
			return err
		}
		if err := fn(in); err != nil {
			return err
		}
		pc += in.Len
	}
	return nil
}

// Len returns the length of the instruction at pc without decoding its operands,
// for callers that only step over instructions.
func Len(code []byte, pc int) (int, error) {
	if pc < 0 || pc >= len(code) {
		return 0, &Error{PC: pc, Msg: "pc out of range"}
	}
	n := int(opLen[code[pc]])
	if n == 0 {
		var err error
		if n, err = varLen(code, pc); err != nil {
			return 0, err
		}
	}
	if pc+n > len(code) {
		return 0, &Error{PC: pc, Msg: "truncated " + Opcode(code[pc]).String()}
	}
	return n, nil
}
