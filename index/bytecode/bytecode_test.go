package bytecode

import (
	"errors"
	"testing"
)

func TestSwitchPadding(t *testing.T) {
	// nop; tableswitch at pc 1: padding to pc 4, default +20, low 1, high 2, targets +10, +15
	code := []byte{byte(Nop), byte(Tableswitch), 0, 0,
		0, 0, 0, 20, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0, 15,
		byte(Return)}
	in, err := Decode(code, 1)
	if err != nil {
		t.Fatal(err)
	}
	if in.Len != 23 {
		t.Errorf("tableswitch length = %d, want 23", in.Len)
	}
	var got []int
	in.SwitchTargets(func(key int32, target int, def bool) { got = append(got, int(key), target) })
	want := []int{0, 21, 1, 11, 2, 16}
	if len(got) != len(want) {
		t.Fatalf("targets = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("targets = %v, want %v", got, want)
		}
	}
	// lookupswitch at pc 0: padding to pc 4, default, npairs 0.
	look := []byte{byte(Lookupswitch), 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0}
	if in, err := Decode(look, 0); err != nil || in.Len != 12 {
		t.Errorf("lookupswitch: len %d err %v, want 12", in.Len, err)
	}
}

func TestWide(t *testing.T) {
	code := []byte{byte(Wide), byte(Iinc), 1, 0x2c, 0xff, 0x38, byte(Wide), byte(Aload), 1, 0}
	in, err := Decode(code, 0)
	if err != nil || in.Op != Iinc || !in.Wide || in.Index != 300 || in.Value != -200 || in.Len != 6 {
		t.Errorf("wide iinc = %+v, %v", in, err)
	}
	in, err = Decode(code, 6)
	if err != nil || in.Op != Aload || in.Index != 256 || in.Len != 4 {
		t.Errorf("wide aload = %+v, %v", in, err)
	}
	if _, err := Decode([]byte{byte(Wide), byte(Nop)}, 0); err == nil {
		t.Error("wide nop accepted")
	}
}

func TestHostile(t *testing.T) {
	for name, code := range map[string][]byte{
		"truncated sipush":      {byte(Sipush), 1},
		"huge tableswitch":      {byte(Tableswitch), 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff},
		"negative lookupswitch": {byte(Lookupswitch), 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff},
		"undefined opcode":      {0xcb},
		"truncated wide":        {byte(Wide)},
		"truncated wide iinc":   {byte(Wide), byte(Iinc), 0, 1},
	} {
		if err := Walk(code, func(Instr) error { return nil }); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{byte(Tableswitch), 0, 0, 0, 0, 0, 0, 20, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 10})
	f.Add([]byte{byte(Wide), byte(Iinc), 1, 0, 0, 1, byte(Invokeinterface), 0, 1, 1, 0})
	f.Fuzz(func(t *testing.T, code []byte) {
		Walk(code, func(in Instr) error {
			in.SwitchTargets(func(int32, int, bool) {})
			if in.Len <= 0 || in.PC+in.Len > len(code) {
				t.Fatalf("instruction %+v outside the code", in)
			}
			// Walk decodes fixed-length instructions on its own path: it must agree
			// with Decode.
			if d, err := Decode(code, in.PC); err != nil || d != in {
				t.Fatalf("Walk gives %+v, Decode %+v, %v", in, d, err)
			}
			return nil
		})
	})
}

// TestOperands checks the arithmetic decoding of every fixed-length opcode against
// the operand layouts of JVMS chapter 6, written out case by case, for operand bytes
// with and without the sign bit, in the middle and at the very end of the code.
func TestOperands(t *testing.T) {
	want := func(op Opcode, b []byte, pc int) (index uint16, value int32, target int) {
		u2 := func(o int) uint16 { return uint16(b[o])<<8 | uint16(b[o+1]) }
		switch {
		case op >= IconstM1 && op <= Iconst5:
			value = int32(op) - int32(Iconst0)
		case op == Bipush:
			value = int32(int8(b[1]))
		case op == Sipush:
			value = int32(int16(u2(1)))
		case op == Ldc, op >= Iload && op <= Aload, op >= Istore && op <= Astore, op == Ret:
			index = uint16(b[1])
		case op == LdcW, op == Ldc2W, op == New, op == Anewarray, op == Checkcast,
			op == Instanceof, op >= Getstatic && op <= Invokestatic, op == Invokedynamic:
			index = u2(1)
		case op == Invokeinterface, op == Multianewarray:
			index, value = u2(1), int32(b[3])
		case op == Newarray:
			value = int32(b[1])
		case op >= Iload0 && op <= Aload3:
			index = uint16(op-Iload0) % 4
		case op >= Istore0 && op <= Astore3:
			index = uint16(op-Istore0) % 4
		case op == Iinc:
			index, value = uint16(b[1]), int32(int8(b[2]))
		case op.IsBranch() && op != GotoW && op != JsrW:
			target = pc + int(int16(u2(1)))
		case op == GotoW, op == JsrW:
			target = pc + int(int32(uint32(u2(1))<<16|uint32(u2(3))))
		}
		return index, value, target
	}
	for op := range 256 {
		n := int(opLen[op])
		if n == 0 {
			continue
		}
		for _, fill := range []byte{0x00, 0x01, 0x7f, 0x80, 0xa5, 0xff} {
			for _, pad := range []int{0, 1, 7} { // bytes after the instruction
				code := make([]byte, 3+n+pad)
				for i := range code {
					code[i] = fill + byte(i)
				}
				pc := 3
				code[pc] = byte(op)
				in, err := Decode(code, pc)
				if err != nil {
					t.Fatalf("%v: %v", Opcode(op), err)
				}
				wi, wv, wt := want(Opcode(op), code[pc:], pc)
				if in.Index != wi || in.Value != wv || in.Target != wt || in.Len != n {
					t.Errorf("%v % x: got index %d value %d target %d len %d, want %d %d %d %d",
						Opcode(op), code[pc:pc+n], in.Index, in.Value, in.Target, in.Len, wi, wv, wt, n)
				}
				// Walk decodes fixed-length instructions on its own path.
				wi, wv, wt = want(Opcode(op), code[pc:], 0)
				Walk(code[pc:], func(w Instr) error {
					if w.Index != wi || w.Value != wv || w.Target != wt || w.Op != Opcode(op) || w.Len != n {
						t.Errorf("%v: Walk gives %+v, want index %d value %d target %d", Opcode(op), w, wi, wv, wt)
					}
					return errStop
				})
			}
		}
	}
}

var errStop = errors.New("stop")
