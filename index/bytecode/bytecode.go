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
	code   []byte
}

// Decode decodes the instruction at pc.
func Decode(code []byte, pc int) (Instr, error) {
	if pc < 0 || pc >= len(code) {
		return Instr{}, &Error{PC: pc, Msg: "pc out of range"}
	}
	op := Opcode(code[pc])
	in := Instr{PC: pc, Op: op, code: code}
	n := int(opLen[op])
	if n == 0 {
		var err error
		n, err = varLen(code, pc)
		if err != nil {
			return Instr{}, err
		}
	}
	if pc+n > len(code) {
		return Instr{}, &Error{PC: pc, Msg: "truncated " + op.String()}
	}
	in.Len = n
	b := code[pc:]
	switch {
	case op >= Iconst0-1 && op <= Iconst5:
		in.Value = int32(op) - int32(Iconst0)
	case op == Bipush:
		in.Value = int32(int8(b[1]))
	case op == Sipush:
		in.Value = int32(int16(binary.BigEndian.Uint16(b[1:])))
	case op == Ldc:
		in.Index = uint16(b[1])
	case op == LdcW || op == Ldc2W || (op >= Getstatic && op <= Invokedynamic) ||
		op == New || op == Anewarray || op == Checkcast || op == Instanceof:
		in.Index = binary.BigEndian.Uint16(b[1:])
		if op == Invokeinterface {
			in.Value = int32(b[3])
		}
	case op == Multianewarray:
		in.Index = binary.BigEndian.Uint16(b[1:])
		in.Value = int32(b[3])
	case op == Newarray:
		in.Value = int32(b[1])
	case (op >= Iload && op <= Aload) || (op >= Istore && op <= Astore) || op == Ret:
		in.Index = uint16(b[1])
	case op >= Iload0 && op <= Aload3:
		in.Index = uint16(op-Iload0) % 4
	case op >= Istore0 && op <= Astore3:
		in.Index = uint16(op-Istore0) % 4
	case op == Iinc:
		in.Index = uint16(b[1])
		in.Value = int32(int8(b[2]))
	case (op >= Ifeq && op <= Jsr) || op == Ifnull || op == Ifnonnull:
		in.Target = pc + int(int16(binary.BigEndian.Uint16(b[1:])))
	case op == GotoW || op == JsrW:
		in.Target = pc + int(int32(binary.BigEndian.Uint32(b[1:])))
	case op == Wide:
		in.Wide = true
		in.Op = Opcode(b[1])
		in.Index = binary.BigEndian.Uint16(b[2:])
		if in.Op == Iinc {
			in.Value = int32(int16(binary.BigEndian.Uint16(b[4:])))
		}
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
	c := in.code
	p := (in.PC + 4) &^ 3
	u4 := func(o int) int32 { return int32(binary.BigEndian.Uint32(c[o:])) }
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
	for pc := 0; pc < len(code); {
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
