package facts

import (
	"encoding/binary"
	"errors"
	"reflect"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// Hand-assembled methods for what javac never emits (jsr/ret, dup2_x2 of two longs)
// and for malformed code. The class has one static method m with the given
// descriptor, body and handlers, and a fixed constant pool:
const (
	cpClass     = 2  // Class T
	cpMethodref = 10 // Methodref T.m()V
	cpString    = 11 // String "T"
	cpLong      = 12 // Long 5
	cpFieldref  = 17 // Fieldref T.f J
)

type handler struct{ start, end, handler, catchType uint16 }

func assemble(major uint16, desc string, maxStack, maxLocals uint16, code []byte, handlers ...handler) []byte {
	var b []byte
	u1 := func(v uint8) { b = append(b, v) }
	u2 := func(v uint16) { b = binary.BigEndian.AppendUint16(b, v) }
	u4 := func(v uint32) { b = binary.BigEndian.AppendUint32(b, v) }
	utf8 := func(s string) { u1(1); u2(uint16(len(s))); b = append(b, s...) }
	u4(0xCAFEBABE)
	u2(0)
	u2(major)
	u2(18)
	entry := func(tag uint8, a, b uint16) { // a two-index entry
		u1(tag)
		u2(a)
		u2(b)
	}
	utf8("T") // 1
	u1(7)     // 2 Class T
	u2(1)
	utf8("java/lang/Object") // 3
	u1(7)                    // 4 Class Object
	u2(3)
	utf8("m")       // 5
	utf8(desc)      // 6
	utf8("Code")    // 7
	utf8("()V")     // 8
	entry(12, 5, 8) // 9 NameAndType m()V
	entry(10, 2, 9) // 10 Methodref T.m()V
	u1(8)           // 11 String "T"
	u2(1)
	entry(5, 0, 0) // 12-13 Long 5
	u4(5)
	utf8("f")         // 14
	utf8("J")         // 15
	entry(12, 14, 15) // 16 NameAndType f J
	entry(9, 2, 16)   // 17 Fieldref T.f J
	u2(0x21)
	u2(2)
	u2(4)
	u2(0) // interfaces
	u2(0) // fields
	u2(1) // methods
	u2(classfile.AccPublic | classfile.AccStatic)
	u2(5)
	u2(6)
	u2(1)
	u2(7)
	u4(uint32(2 + 2 + 4 + len(code) + 2 + 8*len(handlers) + 2))
	u2(maxStack)
	u2(maxLocals)
	u4(uint32(len(code)))
	b = append(b, code...)
	u2(uint16(len(handlers)))
	for _, h := range handlers {
		u2(h.start)
		u2(h.end)
		u2(h.handler)
		u2(h.catchType)
	}
	u2(0) // code attributes
	u2(0) // class attributes
	return b
}

func analyzeAsm(t *testing.T, data []byte) (*classfile.File, *Flow, error) {
	t.Helper()
	f, err := classfile.Parse(data)
	if err != nil {
		t.Fatalf("assembled class does not parse: %v", err)
	}
	if _, err := Extract(f); err != nil {
		return f, nil, err
	}
	fl, err := Analyze(f, &f.Methods[0])
	return f, fl, err
}

func op(o bytecode.Opcode) byte { return byte(o) }

func instr(pc int) Def { return Def{Kind: DefInstr, N: pc} }
func param(n int) Def  { return Def{Kind: DefParam, N: n} }

func TestAsmJsrRet(t *testing.T) {
	// An old-style finally: the subroutine at 12 overwrites local 0, and is called
	// from two places; ret returns to both.
	code := []byte{
		0: op(bytecode.Ldc), cpString,
		2: op(bytecode.Astore0),
		3: op(bytecode.Jsr), 0, 9, // -> 12
		6: op(bytecode.Jsr), 0, 6, // -> 12
		9:  op(bytecode.Aload0),
		10: op(bytecode.Areturn),
		11: op(bytecode.Nop),
		12: op(bytecode.Astore1),
		13: op(bytecode.AconstNull),
		14: op(bytecode.Astore0),
		15: op(bytecode.Ret), 1,
	}
	_, fl, err := analyzeAsm(t, assemble(49, "()Ljava/lang/Object;", 1, 2, code))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fl.Operands(10), [][]Def{{instr(13)}}; !reflect.DeepEqual(got, want) {
		t.Errorf("areturn operands = %v, want %v", got, want)
	}
	// The subroutine's entry sees local 0 from the first call and from the return
	// to 6.
	if got, want := fl.LocalDefsAt(12, 0), []Def{instr(0), instr(13)}; !reflect.DeepEqual(got, want) {
		t.Errorf("local 0 at subroutine entry = %v, want %v", got, want)
	}
	if got, want := fl.LocalDefsAt(15, 1), []Def{instr(3), instr(6)}; !reflect.DeepEqual(got, want) {
		t.Errorf("return address at ret = %v, want %v", got, want)
	}
	if !fl.PostDominates(10, 0) {
		t.Error("areturn does not post-dominate the entry")
	}
}

func TestAsmCategory2Shuffles(t *testing.T) {
	// dup2_x2 form 4 (a long over a long) and dup_x2 form 2 (a reference over a long).
	code := []byte{
		0: op(bytecode.Lload0),
		1: op(bytecode.Lload2),
		2: op(bytecode.Dup2X2), // p1 p0 p1
		3: op(bytecode.Pop2),   // p1 p0
		4: op(bytecode.Ladd),
		5: op(bytecode.Aload), 4, // ladd o
		7:  op(bytecode.DupX2), // o ladd o
		8:  op(bytecode.Pop),   // o ladd
		9:  op(bytecode.Pop2),  // o
		10: op(bytecode.Ldc2W), 0, cpLong,
		13: op(bytecode.Dup2X1), // 5 o 5
		14: op(bytecode.Pop2),   // 5 o
		15: op(bytecode.Swap),   // invalid on a long, but the words still move
		16: op(bytecode.Pop),
		17: op(bytecode.Pop2),
		18: op(bytecode.Lload2),
		19: op(bytecode.Putstatic), 0, cpFieldref,
		22: op(bytecode.Return),
	}
	_, fl, err := analyzeAsm(t, assemble(52, "(JJLjava/lang/Object;)V", 6, 5, code))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		pc   int
		want [][]Def
	}{
		{2, [][]Def{{param(0)}, {param(1)}}},
		{4, [][]Def{{param(1)}, {param(0)}}},
		{7, [][]Def{{instr(4)}, {param(2)}}},
		{9, [][]Def{{instr(4)}}},
		{14, [][]Def{{instr(10)}}},
		{19, [][]Def{{param(1)}}},
	}
	for _, c := range checks {
		if got := fl.Operands(c.pc); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Operands(%d) = %v, want %v", c.pc, got, c.want)
		}
	}
	if got, want := fl.LocalDefsAt(18, 2), []Def{param(1)}; !reflect.DeepEqual(got, want) {
		t.Errorf("LocalDefsAt(18, 2) = %v, want %v", got, want)
	}
}

func TestAsmHandlers(t *testing.T) {
	// try { x = "T"; m(); x = null; m(); } catch-all { use x }: the handler sees both
	// definitions and the caught exception; an athrow under a catch-all handler is
	// not an exit.
	code := []byte{
		0: op(bytecode.AconstNull),
		1: op(bytecode.Astore0),
		2: op(bytecode.Ldc), cpString,
		4: op(bytecode.Astore0),
		5: op(bytecode.Invokestatic), 0, cpMethodref,
		8:  op(bytecode.AconstNull),
		9:  op(bytecode.Astore0),
		10: op(bytecode.Invokestatic), 0, cpMethodref,
		13: op(bytecode.Aload0),
		14: op(bytecode.Areturn),
		15: op(bytecode.Astore1), // handler
		16: op(bytecode.Aload0),
		17: op(bytecode.Areturn),
	}
	_, fl, err := analyzeAsm(t, assemble(52, "()Ljava/lang/Object;", 1, 2, code, handler{2, 13, 15, 0}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fl.Operands(15), [][]Def{{{Kind: DefCaught, N: 15}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("handler operand = %v, want %v", got, want)
	}
	if got, want := fl.Operands(17), [][]Def{{instr(0), instr(2), instr(8)}}; !reflect.DeepEqual(got, want) {
		t.Errorf("handler's areturn operand = %v, want %v", got, want)
	}
	if fl.PostDominates(13, 5) {
		t.Error("aload at 13 post-dominates the call at 5 despite the handler")
	}
	if !fl.PostDominates(2, 0) {
		t.Error("no straight-line post-dominance into the try range")
	}
	// Only instructions that can throw have an edge to the handler: the store at 4
	// cannot, so the call after it post-dominates it, while the ldc at 2 can.
	if !fl.PostDominates(5, 4) {
		t.Error("the call at 5 does not post-dominate the protected store at 4")
	}
	if fl.PostDominates(5, 2) {
		t.Error("the call at 5 post-dominates the protected ldc at 2, which may throw to the handler")
	}

	throwing := []byte{
		0: op(bytecode.AconstNull),
		1: op(bytecode.Athrow),
		2: op(bytecode.Astore0), // handler
		3: op(bytecode.Return),
	}
	_, fl, err = analyzeAsm(t, assemble(52, "()V", 1, 1, throwing, handler{0, 2, 2, 0}))
	if err != nil {
		t.Fatal(err)
	}
	if !fl.PostDominates(3, 1) {
		t.Error("an athrow under a catch-all handler exits the method")
	}
	_, fl, err = analyzeAsm(t, assemble(52, "()V", 1, 1, throwing, handler{0, 2, 2, cpClass}))
	if err != nil {
		t.Fatal(err)
	}
	if fl.PostDominates(3, 1) {
		t.Error("an athrow under a typed handler cannot exit the method")
	}
}

func TestAsmMalformed(t *testing.T) {
	tests := []struct {
		name      string
		desc      string
		maxStack  uint16
		maxLocals uint16
		code      []byte
		handlers  []handler
		pc        int
	}{
		{"underflow", "()V", 1, 0, []byte{op(bytecode.Pop), op(bytecode.Return)}, nil, 0},
		{"overflow", "()V", 1, 0, []byte{op(bytecode.Iconst0), op(bytecode.Iconst0), op(bytecode.Return)}, nil, 1},
		{"local out of range", "()V", 1, 1, []byte{op(bytecode.Iload2), op(bytecode.Return)}, nil, 0},
		{"long local out of range", "()V", 2, 1, []byte{op(bytecode.Lload0), op(bytecode.Return)}, nil, 0},
		{"parameters beyond max_locals", "(J)V", 0, 1, []byte{op(bytecode.Return)}, nil, 0},
		{"branch into an instruction", "()V", 0, 0, []byte{op(bytecode.Goto), 0, 2, op(bytecode.Return)}, nil, 0},
		{"branch outside the code", "()V", 0, 0, []byte{op(bytecode.Goto), 0x7f, 0, op(bytecode.Return)}, nil, 0},
		{"falls off the end", "()V", 0, 0, []byte{op(bytecode.Nop)}, nil, 0},
		{"stack heights differ", "(I)V", 1, 1, []byte{
			0: op(bytecode.Iload0),
			1: op(bytecode.Ifeq), 0, 7, // -> 8
			4: op(bytecode.Iconst1),
			5: op(bytecode.Goto), 0, 3, // -> 8
			8: op(bytecode.Return),
		}, nil, 8},
		{"invalid opcode", "()V", 0, 0, []byte{0xff}, nil, 0},
		{"truncated", "()V", 0, 0, []byte{op(bytecode.Sipush), 1}, nil, 0},
		{"ldc of a Methodref", "()V", 1, 0, []byte{op(bytecode.Ldc), cpMethodref, op(bytecode.Pop), op(bytecode.Return)}, nil, 0},
		{"invoke of a String", "()V", 0, 0, []byte{op(bytecode.Invokestatic), 0, cpString, op(bytecode.Return)}, nil, 0},
		{"handler inside an instruction", "()V", 1, 0, []byte{op(bytecode.Sipush), 0, 1, op(bytecode.Pop), op(bytecode.Return)}, []handler{{0, 3, 1, 0}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := classfile.Parse(assemble(52, tt.desc, tt.maxStack, tt.maxLocals, tt.code, tt.handlers...))
			if err != nil {
				t.Fatalf("assembled class does not parse: %v", err)
			}
			_, xerr := Extract(f)
			_, aerr := Analyze(f, &f.Methods[0])
			if aerr == nil {
				t.Fatalf("Analyze accepted it (Extract: %v)", xerr)
			}
			for _, err := range []error{xerr, aerr} {
				if err == nil {
					continue
				}
				var fe *Error
				if !errors.As(err, &fe) || fe.Method != "m" || fe.Class != "T" {
					t.Errorf("error %v is not a *facts.Error naming T.m", err)
				}
			}
			var be *bytecode.Error
			if !errors.As(aerr, &be) {
				t.Fatalf("Analyze error %v does not wrap a *bytecode.Error", aerr)
			}
			if be.PC != tt.pc {
				t.Errorf("error at pc %d, want %d: %v", be.PC, tt.pc, aerr)
			}
		})
	}
}

// TestAsmOnlyAfter: a branch's edge guards what only it leads to; a handler reached
// from the other side, a merge, or a branch whose two edges meet undo that.
func TestAsmOnlyAfter(t *testing.T) {
	code := []byte{
		0: op(bytecode.Iload0),
		1: op(bytecode.Ifne), 0, 7, // -> 8 when the parameter is not zero
		4: op(bytecode.Invokestatic), 0, cpMethodref,
		7: op(bytecode.Return),
		8: op(bytecode.Invokestatic), 0, cpMethodref,
		11: op(bytecode.Return),
	}
	_, fl, err := analyzeAsm(t, assemble(52, "(I)V", 1, 1, code))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		from, to, pc int
		want         bool
	}{
		{1, 8, 8, true},   // the taken edge guards its target
		{1, 8, 11, true},  // and what follows it
		{1, 4, 4, true},   // the fall-through edge guards its side
		{1, 8, 4, false},  // not the other side
		{1, 8, 0, false},  // nor what runs before the branch
		{1, 7, 7, false},  // 7 does not start a successor of the branch
		{4, 7, 7, false},  // 4 is no branch ending a block
		{1, 8, 99, false}, // no instruction
	} {
		if got := fl.OnlyAfter(c.from, c.to, c.pc); got != c.want {
			t.Errorf("OnlyAfter(%d, %d, %d) = %v, want %v", c.from, c.to, c.pc, got, c.want)
		}
	}

	// A redefinition after the guard: from the call at 8 (a restart), 11 is reached
	// without passing the edge again; from 4 it is not reached at all.
	if fl.OnlyAfter(1, 8, 11, 8) {
		t.Error("11 guarded although a restart at 8, after the edge, reaches it")
	}
	if !fl.OnlyAfter(1, 8, 11, 4) {
		t.Error("11 not guarded, although the restart at 4 does not reach it")
	}

	// The call at 4 may throw to a handler at 12, which goes on at 8: 8 is reached
	// without the edge.
	withHandler := append(append([]byte(nil), code...), op(bytecode.Pop), op(bytecode.Goto), 0xff, 0xfb) // 12, 13 -> 8
	_, fl, err = analyzeAsm(t, assemble(52, "(I)V", 1, 1, withHandler, handler{4, 7, 12, 0}))
	if err != nil {
		t.Fatal(err)
	}
	if fl.OnlyAfter(1, 8, 8) {
		t.Error("a handler reached from the unguarded side is guarded")
	}

	// Both sides meet at 8.
	merge := []byte{
		0: op(bytecode.Iload0),
		1: op(bytecode.Ifne), 0, 7,
		4: op(bytecode.Invokestatic), 0, cpMethodref,
		7: op(bytecode.Nop),
		8: op(bytecode.Return),
	}
	_, fl, err = analyzeAsm(t, assemble(52, "(I)V", 1, 1, merge))
	if err != nil {
		t.Fatal(err)
	}
	if fl.OnlyAfter(1, 8, 8) {
		t.Error("a merge point is guarded by one of the edges into it")
	}

	// A branch to its own fall-through is no choice.
	same := []byte{
		0: op(bytecode.Iload0),
		1: op(bytecode.Ifne), 0, 3,
		4: op(bytecode.Return),
	}
	_, fl, err = analyzeAsm(t, assemble(52, "(I)V", 1, 1, same))
	if err != nil {
		t.Fatal(err)
	}
	if fl.OnlyAfter(1, 4, 4) {
		t.Error("a branch whose edges meet guards its target")
	}
}
