package facts

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// DefKind says what produced a value.
type DefKind uint8

// Kinds of definitions.
const (
	// DefUnknown stands for a value the interpretation could not trace; it is only
	// reported for operands of unverifiable code, never for code javac emits.
	DefUnknown DefKind = iota
	DefParam           // N is the parameter index: `this` is 0 in instance methods
	DefInstr           // N is the pc of the instruction that pushed the value
	DefCaught          // N is the pc of the exception handler that received the value
)

// Def is a reaching definition.
type Def struct {
	Kind DefKind
	N    int
}

func (d Def) String() string {
	switch d.Kind {
	case DefParam:
		return fmt.Sprintf("param(%d)", d.N)
	case DefInstr:
		return fmt.Sprintf("pc(%d)", d.N)
	case DefCaught:
		return fmt.Sprintf("caught(%d)", d.N)
	}
	return "unknown"
}

// Abstract values are uint32s: 0 is the empty set (no definition reaches: an unset
// local, an unreached state), a value without setBit is a single definition encoded as
// kind<<kindShift|n, and a value with setBit names a hash-consed set in the Flow's set
// table, so equal sets are equal integers and states compare word by word.
const (
	kindShift = 24
	setBit    = 1 << 31
	// defHigh marks the second word of a long or double, in locals and on the stack.
	defHigh = 5 << kindShift
)

func encode(k DefKind, n int) uint32 { return uint32(k)<<kindShift | uint32(n) }

func decode(v uint32) Def { return Def{Kind: DefKind(v >> kindShift), N: int(v & (1<<kindShift - 1))} }

// Flow is the result of Analyze: reaching definitions for every operand and local of
// every reachable instruction, and post-dominance. It does not refer to the class
// bytes, and its methods may be called concurrently.
type Flow struct {
	instrs  []finstr
	pcIdx   []int32 // pc -> index in instrs, -1 inside an instruction; pcIdx[len(code)] = len(instrs)
	blockOf []int32 // instruction index -> block
	blocks  []block
	succs   []int32 // normal successors, exit included as len(blocks)
	excs    []int32 // exception successors (handler blocks)
	nl, ns  int     // max_locals, max_stack
	heights []int32 // stack height on entry to each block; -1 when unreached
	entries []uint32
	sets    setTable
	ipdom   []int32 // immediate post-dominator of each block; len(blocks) is the exit
}

type block struct {
	first, end int32 // instructions [first, end)
	succ, exc  [2]int32
}

// finstr is a decoded instruction reduced to its effect on the abstract state, so the
// Flow can replay blocks without the constant pool.
type finstr struct {
	pc   int32
	slot uint16 // local variable of loads, stores, iinc and ret
	op   bytecode.Opcode
	eff  effect
	pop  uint8 // words read from the stack (popped, or shuffled by dup*/swap)
	push uint8 // words pushed by effPush (0, 1 or 2)
}

type effect uint8

const (
	effPush effect = iota // pop `pop` words, push a value defined here
	effLoad
	effStore
	effIinc
	effDup
	effDupX1
	effDupX2
	effDup2
	effDup2X1
	effDup2X2
	effSwap
	effRet
)

// stackEffects holds (effect, pop, push) for the opcodes whose effect does not depend
// on an operand; a zero pop and push with effPush is a nop.
var stackEffects = func() (t [256]struct {
	eff       effect
	pop, push uint8
	ok        bool
}) {
	set := func(eff effect, pop, push uint8, ops ...bytecode.Opcode) {
		for _, op := range ops {
			t[op].eff, t[op].pop, t[op].push, t[op].ok = eff, pop, push, true
		}
	}
	set(effPush, 0, 0, bytecode.Nop, bytecode.Goto, bytecode.GotoW, bytecode.Return)
	set(effPush, 0, 1, bytecode.AconstNull, bytecode.IconstM1, bytecode.Iconst0, bytecode.Iconst1,
		bytecode.Iconst2, bytecode.Iconst3, bytecode.Iconst4, bytecode.Iconst5, bytecode.Fconst0,
		bytecode.Fconst1, bytecode.Fconst2, bytecode.Bipush, bytecode.Sipush, bytecode.Ldc,
		bytecode.LdcW, bytecode.New, bytecode.Jsr, bytecode.JsrW)
	set(effPush, 0, 2, bytecode.Lconst0, bytecode.Lconst1, bytecode.Dconst0, bytecode.Dconst1, bytecode.Ldc2W)
	set(effLoad, 0, 1, bytecode.Iload, bytecode.Fload, bytecode.Aload,
		bytecode.Iload0, bytecode.Iload1, bytecode.Iload2, bytecode.Iload3,
		bytecode.Fload0, bytecode.Fload1, bytecode.Fload2, bytecode.Fload3,
		bytecode.Aload0, bytecode.Aload1, bytecode.Aload2, bytecode.Aload3)
	set(effLoad, 0, 2, bytecode.Lload, bytecode.Dload,
		bytecode.Lload0, bytecode.Lload1, bytecode.Lload2, bytecode.Lload3,
		bytecode.Dload0, bytecode.Dload1, bytecode.Dload2, bytecode.Dload3)
	set(effStore, 1, 0, bytecode.Istore, bytecode.Fstore, bytecode.Astore,
		bytecode.Istore0, bytecode.Istore1, bytecode.Istore2, bytecode.Istore3,
		bytecode.Fstore0, bytecode.Fstore1, bytecode.Fstore2, bytecode.Fstore3,
		bytecode.Astore0, bytecode.Astore1, bytecode.Astore2, bytecode.Astore3)
	set(effStore, 2, 0, bytecode.Lstore, bytecode.Dstore,
		bytecode.Lstore0, bytecode.Lstore1, bytecode.Lstore2, bytecode.Lstore3,
		bytecode.Dstore0, bytecode.Dstore1, bytecode.Dstore2, bytecode.Dstore3)
	set(effPush, 2, 1, bytecode.Iaload, bytecode.Faload, bytecode.Aaload, bytecode.Baload,
		bytecode.Caload, bytecode.Saload)
	set(effPush, 2, 2, bytecode.Laload, bytecode.Daload)
	set(effPush, 3, 0, bytecode.Iastore, bytecode.Fastore, bytecode.Aastore, bytecode.Bastore,
		bytecode.Castore, bytecode.Sastore)
	set(effPush, 4, 0, bytecode.Lastore, bytecode.Dastore)
	set(effPush, 1, 0, bytecode.Pop)
	set(effPush, 2, 0, bytecode.Pop2)
	set(effDup, 1, 0, bytecode.Dup)
	set(effDupX1, 2, 0, bytecode.DupX1)
	set(effDupX2, 3, 0, bytecode.DupX2)
	set(effDup2, 2, 0, bytecode.Dup2)
	set(effDup2X1, 3, 0, bytecode.Dup2X1)
	set(effDup2X2, 4, 0, bytecode.Dup2X2)
	set(effSwap, 2, 0, bytecode.Swap)
	set(effPush, 2, 1, bytecode.Iadd, bytecode.Isub, bytecode.Imul, bytecode.Idiv, bytecode.Irem,
		bytecode.Iand, bytecode.Ior, bytecode.Ixor, bytecode.Ishl, bytecode.Ishr, bytecode.Iushr,
		bytecode.Fadd, bytecode.Fsub, bytecode.Fmul, bytecode.Fdiv, bytecode.Frem,
		bytecode.Fcmpl, bytecode.Fcmpg)
	set(effPush, 4, 2, bytecode.Ladd, bytecode.Lsub, bytecode.Lmul, bytecode.Ldiv, bytecode.Lrem,
		bytecode.Land, bytecode.Lor, bytecode.Lxor,
		bytecode.Dadd, bytecode.Dsub, bytecode.Dmul, bytecode.Ddiv, bytecode.Drem)
	set(effPush, 3, 2, bytecode.Lshl, bytecode.Lshr, bytecode.Lushr)
	set(effPush, 1, 1, bytecode.Ineg, bytecode.Fneg, bytecode.I2f, bytecode.F2i, bytecode.I2b,
		bytecode.I2c, bytecode.I2s, bytecode.Newarray, bytecode.Anewarray, bytecode.Arraylength,
		bytecode.Checkcast, bytecode.Instanceof)
	set(effPush, 2, 2, bytecode.Lneg, bytecode.Dneg, bytecode.L2d, bytecode.D2l)
	set(effPush, 1, 2, bytecode.I2l, bytecode.I2d, bytecode.F2l, bytecode.F2d)
	set(effPush, 2, 1, bytecode.L2i, bytecode.L2f, bytecode.D2i, bytecode.D2f)
	set(effPush, 4, 1, bytecode.Lcmp, bytecode.Dcmpl, bytecode.Dcmpg)
	set(effPush, 1, 0, bytecode.Ifeq, bytecode.Ifne, bytecode.Iflt, bytecode.Ifge, bytecode.Ifgt,
		bytecode.Ifle, bytecode.Ifnull, bytecode.Ifnonnull, bytecode.Tableswitch, bytecode.Lookupswitch,
		bytecode.Ireturn, bytecode.Freturn, bytecode.Areturn, bytecode.Athrow,
		bytecode.Monitorenter, bytecode.Monitorexit)
	set(effPush, 2, 0, bytecode.IfIcmpeq, bytecode.IfIcmpne, bytecode.IfIcmplt, bytecode.IfIcmpge,
		bytecode.IfIcmpgt, bytecode.IfIcmple, bytecode.IfAcmpeq, bytecode.IfAcmpne,
		bytecode.Lreturn, bytecode.Dreturn)
	set(effIinc, 0, 0, bytecode.Iinc)
	set(effRet, 0, 0, bytecode.Ret)
	return t
}()

// Analyze computes reaching definitions and post-dominators for method m of f. It
// only reads f, so methods of one class may be analyzed concurrently.
func Analyze(f *classfile.File, m *classfile.Method) (*Flow, error) {
	code, err := m.Code()
	if err != nil {
		return nil, methodError(f, m, err)
	}
	if code == nil {
		return nil, methodError(f, m, errors.New("method has no code"))
	}
	fl := &Flow{nl: int(code.MaxLocals), ns: int(code.MaxStack)}
	if err := fl.build(f.Pool, code); err != nil {
		return nil, methodError(f, m, err)
	}
	if err := fl.solve(m); err != nil {
		return nil, methodError(f, m, err)
	}
	fl.sets.done()
	fl.postDominators()
	return fl, nil
}

// build decodes the instructions and splits them into basic blocks.
func (fl *Flow) build(p *classfile.Pool, code *classfile.Code) error {
	bc := code.Bytecode
	fl.pcIdx = make([]int32, len(bc)+1)
	for i := range fl.pcIdx {
		fl.pcIdx[i] = -1
	}
	fl.instrs = make([]finstr, 0, len(bc)/2+1)
	cache := map[uint32][2]uint8{}
	for pc := 0; pc < len(bc); {
		in, err := bytecode.Decode(bc, pc)
		if err != nil {
			return err
		}
		fi, err := effectOf(p, in, cache)
		if err != nil {
			return err
		}
		fl.pcIdx[pc] = int32(len(fl.instrs))
		fl.instrs = append(fl.instrs, fi)
		pc += in.Len
	}
	n := len(fl.instrs)
	fl.pcIdx[len(bc)] = int32(n)
	at := func(pc, from int) (int32, error) {
		if pc < 0 || pc >= len(bc) || fl.pcIdx[pc] < 0 {
			return 0, pcError(from, "branch to %d, which is not an instruction", pc)
		}
		return fl.pcIdx[pc], nil
	}
	for _, h := range code.Handlers {
		if fl.pcIdx[h.StartPC] < 0 || fl.pcIdx[h.EndPC] < 0 || fl.pcIdx[h.HandlerPC] < 0 {
			return pcError(int(h.HandlerPC), "exception handler [%d, %d) -> %d not at instruction boundaries", h.StartPC, h.EndPC, h.HandlerPC)
		}
	}

	// Leaders. Protected instructions are blocks of their own (see the package doc).
	leader := make([]bool, n+1)
	leader[0], leader[n] = true, true
	var jsrRets []int32 // instructions following a jsr: where a ret may return
	for i := range fl.instrs {
		fi := &fl.instrs[i]
		op := fi.op
		if op.IsBranch() || op == bytecode.Tableswitch || op == bytecode.Lookupswitch || op.IsUnconditional() {
			leader[i+1] = true
		}
		if op == bytecode.Jsr || op == bytecode.JsrW {
			if i+1 < n {
				jsrRets = append(jsrRets, int32(i+1))
			}
		}
		if op.IsBranch() {
			in, _ := bytecode.Decode(bc, int(fi.pc))
			t, err := at(in.Target, int(fi.pc))
			if err != nil {
				return err
			}
			leader[t] = true
		} else if op == bytecode.Tableswitch || op == bytecode.Lookupswitch {
			in, _ := bytecode.Decode(bc, int(fi.pc))
			var err error
			in.SwitchTargets(func(_ int32, target int, _ bool) {
				t, e := at(target, int(fi.pc))
				if e != nil {
					err = e
					return
				}
				leader[t] = true
			})
			if err != nil {
				return err
			}
		}
	}
	// Hostile tables can make every handler cover the whole method; bound the work
	// spent on protected ranges here and below.
	work := 0
	for _, h := range code.Handlers {
		work += int(fl.pcIdx[h.EndPC] - fl.pcIdx[h.StartPC])
	}
	if work > maxState {
		return fmt.Errorf("exception handlers cover %d instructions in total, too many to analyze", work)
	}
	for _, h := range code.Handlers {
		leader[fl.pcIdx[h.HandlerPC]] = true
		for i := fl.pcIdx[h.StartPC]; i <= fl.pcIdx[h.EndPC]; i++ {
			leader[i] = true
		}
	}

	fl.blockOf = make([]int32, n)
	for i := 0; i < n; {
		j := i + 1
		for !leader[j] {
			j++
		}
		b := int32(len(fl.blocks))
		for k := i; k < j; k++ {
			fl.blockOf[k] = b
		}
		fl.blocks = append(fl.blocks, block{first: int32(i), end: int32(j)})
		i = j
	}

	// Exception successors: handlers in table order up to the first catch-all, since
	// the JVM dispatches to the first matching entry. Protected instructions are
	// singleton blocks, so walking each handler's range visits blocks directly.
	nb := len(fl.blocks)
	excOff := make([]int32, nb+1)
	catchAll := make([]bool, nb)
	for pass := range 2 {
		clear(catchAll)
		for _, h := range code.Handlers {
			hb := fl.blockOf[fl.pcIdx[h.HandlerPC]]
			for i := fl.pcIdx[h.StartPC]; i < fl.pcIdx[h.EndPC]; i++ {
				b := fl.blockOf[i]
				if catchAll[b] || !canThrow(fl.instrs[i].op) {
					continue
				}
				if pass == 0 {
					excOff[b+1]++
				} else {
					fl.excs[excOff[b]] = hb
					excOff[b]++
				}
				catchAll[b] = h.CatchType == ""
			}
		}
		if pass == 0 {
			for b := range nb {
				excOff[b+1] += excOff[b]
			}
			fl.excs = make([]int32, excOff[nb])
		} else {
			// Filling advanced each block's offset to the next block's start.
			copy(excOff[1:], excOff[:nb])
			excOff[0] = 0
		}
	}

	// Normal successors; seen deduplicates the targets of switches.
	exit := int32(nb)
	seen := make([]int32, nb+1)
	for b := range fl.blocks {
		bl := &fl.blocks[b]
		bl.exc = [2]int32{excOff[b], excOff[b+1]}
		last := &fl.instrs[bl.end-1]
		op := last.op
		bl.succ[0] = int32(len(fl.succs))
		add := func(i int32) {
			t := exit
			if i >= 0 {
				t = fl.blockOf[i]
			}
			if seen[t] != int32(b)+1 {
				seen[t] = int32(b) + 1
				fl.succs = append(fl.succs, t)
			}
		}
		switch {
		case op.IsBranch():
			in, _ := bytecode.Decode(bc, int(last.pc))
			add(fl.pcIdx[in.Target])
		case op == bytecode.Tableswitch || op == bytecode.Lookupswitch:
			in, _ := bytecode.Decode(bc, int(last.pc))
			in.SwitchTargets(func(_ int32, target int, _ bool) { add(fl.pcIdx[target]) })
		case op == bytecode.Ret:
			for _, r := range jsrRets {
				add(r)
			}
		case op.IsReturn():
			add(-1)
		case op == bytecode.Athrow && !catchAll[b]:
			add(-1)
		}
		if !op.IsUnconditional() && op != bytecode.Jsr && op != bytecode.JsrW {
			if bl.end == int32(n) {
				return pcError(int(last.pc), "control falls off the end of the code")
			}
			add(bl.end)
		}
		bl.succ[1] = int32(len(fl.succs))
	}
	return nil
}

// effectOf reduces an instruction to its effect on the abstract state. cache holds
// the (pop, push) of field and invoke instructions by opcode and pool index, since
// decoding a descriptor from the pool allocates.
func effectOf(p *classfile.Pool, in bytecode.Instr, cache map[uint32][2]uint8) (finstr, error) {
	fi := finstr{pc: int32(in.PC), op: in.Op}
	switch in.Op {
	case bytecode.Ldc, bytecode.LdcW, bytecode.Ldc2W:
		// The constant's kind decides the size of the pushed value.
		words := 1
		switch p.Tag(in.Index) {
		case classfile.TagInteger, classfile.TagFloat, classfile.TagString, classfile.TagClass,
			classfile.TagMethodHandle, classfile.TagMethodType:
		case classfile.TagLong, classfile.TagDouble:
			words = 2
		case classfile.TagDynamic:
			_, _, desc := p.Dynamic(in.Index)
			n, err := fieldWords(desc)
			if err != nil {
				return fi, pcError(in.PC, "%v of a dynamic constant with descriptor %q", in.Op, desc)
			}
			words = n
		default:
			return fi, pcError(in.PC, "%v of constant %d of kind %v", in.Op, in.Index, p.Tag(in.Index))
		}
		if (words == 2) != (in.Op == bytecode.Ldc2W) {
			return fi, pcError(in.PC, "%v of a constant of %d words", in.Op, words)
		}
		fi.push = uint8(words)
		return fi, nil
	}
	e := stackEffects[in.Op]
	if e.ok {
		fi.eff, fi.pop, fi.push = e.eff, e.pop, e.push
		switch e.eff {
		case effLoad, effStore, effIinc, effRet:
			fi.slot = in.Index
		}
		return fi, nil
	}
	words := func(desc string) (int, error) {
		n, err := fieldWords(desc)
		if err != nil {
			return 0, pcError(in.PC, "%v of a field with descriptor %q", in.Op, desc)
		}
		return n, nil
	}
	key := uint32(in.Op)<<16 | uint32(in.Index)
	if e, ok := cache[key]; ok && in.Op != bytecode.Multianewarray {
		fi.pop, fi.push = e[0], e[1]
		return fi, nil
	}
	switch in.Op {
	case bytecode.Getstatic, bytecode.Putstatic, bytecode.Getfield, bytecode.Putfield:
		if p.Tag(in.Index) != classfile.TagFieldref {
			return fi, pcError(in.PC, "%v refers to constant %d of kind %v", in.Op, in.Index, p.Tag(in.Index))
		}
		n, err := words(p.RefDesc(in.Index))
		if err != nil {
			return fi, err
		}
		switch in.Op {
		case bytecode.Getstatic:
			fi.push = uint8(n)
		case bytecode.Putstatic:
			fi.pop = uint8(n)
		case bytecode.Getfield:
			fi.pop, fi.push = 1, uint8(n)
		case bytecode.Putfield:
			fi.pop = uint8(1 + n)
		}
	case bytecode.Invokevirtual, bytecode.Invokespecial, bytecode.Invokestatic,
		bytecode.Invokeinterface, bytecode.Invokedynamic:
		var desc string
		if in.Op == bytecode.Invokedynamic {
			if p.Tag(in.Index) != classfile.TagInvokeDynamic {
				return fi, pcError(in.PC, "invokedynamic refers to constant %d of kind %v", in.Index, p.Tag(in.Index))
			}
			desc = p.RefDesc(in.Index)
		} else {
			if t := p.Tag(in.Index); t != classfile.TagMethodref && t != classfile.TagInterfaceMethodref {
				return fi, pcError(in.PC, "%v refers to constant %d of kind %v", in.Op, in.Index, t)
			}
			desc = p.RefDesc(in.Index)
		}
		pop := 0
		if in.Op != bytecode.Invokestatic && in.Op != bytecode.Invokedynamic {
			pop = 1
		}
		ret, err := methodWords(desc, func(w int) { pop += w })
		if err != nil || pop > 255 {
			return fi, pcError(in.PC, "%v of a method with descriptor %q", in.Op, desc)
		}
		fi.pop, fi.push = uint8(pop), uint8(ret)
	case bytecode.Multianewarray:
		fi.pop, fi.push = uint8(in.Value), 1
		return fi, nil
	default:
		return fi, pcError(in.PC, "unexpected opcode %v", in.Op)
	}
	cache[key] = [2]uint8{fi.pop, fi.push}
	return fi, nil
}

// frame is the abstract state before an instruction.
type frame struct {
	locals []uint32
	stack  []uint32 // len(stack) is max_stack; stack[:sp] is live
	sp     int
}

// step applies the instruction's effect to fr.
func (fl *Flow) step(fi *finstr, fr *frame) error {
	pc := int(fi.pc)
	pop, push := int(fi.pop), int(fi.push)
	if fr.sp < pop {
		return pcError(pc, "%v pops %d words from a stack of %d", fi.op, pop, fr.sp)
	}
	s := fr.stack
	sp := fr.sp
	room := func(n int) error {
		if sp+n > len(s) {
			return pcError(pc, "%v overflows the stack (max_stack %d)", fi.op, len(s))
		}
		return nil
	}
	local := func(words int) error {
		if int(fi.slot)+words > len(fr.locals) {
			return pcError(pc, "%v of local %d beyond max_locals %d", fi.op, fi.slot, len(fr.locals))
		}
		return nil
	}
	switch fi.eff {
	case effPush:
		sp -= pop
		if err := room(push); err != nil {
			return err
		}
		if push > 0 {
			s[sp] = encode(DefInstr, pc)
			if push == 2 {
				s[sp+1] = defHigh
			}
			sp += push
		}
	case effLoad:
		if err := local(push); err != nil {
			return err
		}
		if err := room(push); err != nil {
			return err
		}
		copy(s[sp:sp+push], fr.locals[fi.slot:])
		sp += push
	case effStore:
		if err := local(pop); err != nil {
			return err
		}
		sp -= pop
		copy(fr.locals[fi.slot:], s[sp:sp+pop])
	case effIinc:
		if err := local(1); err != nil {
			return err
		}
		fr.locals[fi.slot] = encode(DefInstr, pc)
	case effRet:
		if err := local(1); err != nil {
			return err
		}
	case effSwap:
		s[sp-1], s[sp-2] = s[sp-2], s[sp-1]
	default: // dup family: insert copies of the top 1 or 2 words below `pop` words
		n := 1
		if fi.eff >= effDup2 {
			n = 2
		}
		if err := room(n); err != nil {
			return err
		}
		// Shift the top `pop` words up by n and copy the top n of them below.
		copy(s[sp-pop+n:sp+n], s[sp-pop:sp])
		copy(s[sp-pop:sp-pop+n], s[sp:sp+n])
		sp += n
	}
	fr.sp = sp
	return nil
}

// maxWork bounds the number of instructions interpreted while solving, and maxState
// the words of state kept, so hostile code cannot make Analyze run long or allocate
// much; real methods need a few passes over their code.
const (
	maxWorkPerInstr = 256
	maxWorkBase     = 1 << 20
	maxState        = 1 << 24
)

// solve runs the fixed point over the blocks.
func (fl *Flow) solve(m *classfile.Method) error {
	nb := len(fl.blocks)
	w := fl.nl + fl.ns
	if nb*w > maxState {
		return fmt.Errorf("method too large to analyze (%d blocks of %d words)", nb, w)
	}
	fl.entries = make([]uint32, nb*w)
	fl.heights = make([]int32, nb)
	for i := range fl.heights {
		fl.heights[i] = -1
	}
	fl.sets.init()

	// Parameters.
	entry := fl.entries[:fl.nl]
	slot, param := 0, 0
	tooMany := false
	put := func(words int) {
		if slot+words > fl.nl {
			tooMany = true
			return
		}
		entry[slot] = encode(DefParam, param)
		if words == 2 {
			entry[slot+1] = defHigh
		}
		slot += words
		param++
	}
	if !m.IsStatic() {
		put(1)
	}
	if _, err := methodWords(m.Desc, put); err != nil {
		return fmt.Errorf("method descriptor %q: %w", m.Desc, err)
	}
	if tooMany {
		return pcError(0, "parameters do not fit in max_locals %d", fl.nl)
	}
	fl.heights[0] = 0

	dirty := make([]uint64, (nb+63)/64)
	dirty[0] = 1
	fr := frame{locals: make([]uint32, fl.nl), stack: make([]uint32, fl.ns)}
	budget := maxWorkBase + maxWorkPerInstr*len(fl.instrs)
	for {
		// Lowest dirty block first: bytecode is laid out mostly in control-flow order,
		// so this approximates a reverse-postorder sweep.
		b := -1
		for i, word := range dirty {
			if word != 0 {
				bit := bits.TrailingZeros64(word)
				b = i*64 + bit
				dirty[i] &^= 1 << bit
				break
			}
		}
		if b < 0 {
			return nil
		}
		bl := &fl.blocks[b]
		st := fl.entries[b*w : (b+1)*w]
		copy(fr.locals, st[:fl.nl])
		fr.sp = int(fl.heights[b])
		copy(fr.stack, st[fl.nl:fl.nl+fr.sp])
		// Exception edges carry the state before the (single) protected instruction.
		for _, h := range fl.excs[bl.exc[0]:bl.exc[1]] {
			caught := [1]uint32{encode(DefCaught, int(fl.instrs[fl.blocks[h].first].pc))}
			changed, err := fl.merge(int(h), fr.locals, caught[:])
			if err != nil {
				return err
			}
			if changed {
				dirty[h/64] |= 1 << (h % 64)
			}
		}
		budget -= int(bl.end - bl.first)
		if budget < 0 {
			return errors.New("reaching definitions did not converge within the work budget")
		}
		for i := bl.first; i < bl.end; i++ {
			if err := fl.step(&fl.instrs[i], &fr); err != nil {
				return err
			}
		}
		for _, sb := range fl.succs[bl.succ[0]:bl.succ[1]] {
			if int(sb) == nb {
				continue
			}
			changed, err := fl.merge(int(sb), fr.locals, fr.stack[:fr.sp])
			if err != nil {
				return err
			}
			if changed {
				dirty[sb/64] |= 1 << (sb % 64)
			}
		}
	}
}

// merge joins a state into block b's entry state and reports whether it changed.
func (fl *Flow) merge(b int, locals, stack []uint32) (bool, error) {
	w := fl.nl + fl.ns
	st := fl.entries[b*w : (b+1)*w]
	if len(stack) > fl.ns {
		// Only a handler entry can get here: its stack holds the exception.
		return false, pcError(int(fl.instrs[fl.blocks[b].first].pc), "exception handler with max_stack %d", fl.ns)
	}
	h := fl.heights[b]
	if h < 0 {
		fl.heights[b] = int32(len(stack))
		copy(st, locals)
		copy(st[fl.nl:], stack)
		return true, nil
	}
	if int(h) != len(stack) {
		return false, pcError(int(fl.instrs[fl.blocks[b].first].pc), "stack heights %d and %d meet", h, len(stack))
	}
	changed := false
	for i, v := range locals {
		if u := fl.sets.union(st[i], v); u != st[i] {
			st[i] = u
			changed = true
		}
	}
	ss := st[fl.nl:]
	for i, v := range stack {
		if u := fl.sets.union(ss[i], v); u != ss[i] {
			ss[i] = u
			changed = true
		}
	}
	return changed, nil
}

// frameAt replays pc's block from its entry state up to pc; ok is false when pc is not
// a reachable instruction.
func (fl *Flow) frameAt(pc int) (fr frame, ok bool) {
	if pc < 0 || pc >= len(fl.pcIdx)-1 || fl.pcIdx[pc] < 0 {
		return fr, false
	}
	i := fl.pcIdx[pc]
	b := fl.blockOf[i]
	if fl.heights[b] < 0 {
		return fr, false
	}
	w := fl.nl + fl.ns
	st := fl.entries[int(b)*w : int(b+1)*w]
	fr = frame{locals: make([]uint32, fl.nl), stack: make([]uint32, fl.ns), sp: int(fl.heights[b])}
	copy(fr.locals, st[:fl.nl])
	copy(fr.stack, st[fl.nl:])
	for k := fl.blocks[b].first; k < i; k++ {
		if fl.step(&fl.instrs[k], &fr) != nil {
			return fr, false // cannot happen: solve interpreted the same instructions
		}
	}
	return fr, true
}

// Operands returns the reaching definitions of each operand the instruction at pc
// reads from the stack, in push order: the receiver then the arguments of an invoke,
// the object then the value of putfield, the array, index and value of an array
// store, the value of a store to a local. A long or double counts as one operand.
// It returns nil when pc is not a reachable instruction.
func (fl *Flow) Operands(pc int) [][]Def {
	fr, ok := fl.frameAt(pc)
	if !ok {
		return nil
	}
	fi := &fl.instrs[fl.pcIdx[pc]]
	words := fr.stack[fr.sp-int(fi.pop) : fr.sp]
	out := make([][]Def, 0, len(words))
	for _, v := range words {
		if v == defHigh {
			continue
		}
		out = append(out, fl.defs(v, true))
	}
	return out
}

// Instrs calls fn with the pc and opcode of every instruction, in code order,
// without replaying the blocks (EachInstr does, for operands).
func (fl *Flow) Instrs(fn func(pc int, op bytecode.Opcode)) {
	for i := range fl.instrs {
		fn(int(fl.instrs[i].pc), fl.instrs[i].op)
	}
}

// EachInstr calls fn for every reachable instruction in code order with its pc, its
// opcode and a function giving the reaching definitions of its operand n (numbered
// as Operands numbers them; nil when there is no operand n). It replays each block
// once, where calling Operands for each instruction would replay its block up to it.
func (fl *Flow) EachInstr(fn func(pc int, op bytecode.Opcode, operand func(n int) []Def)) {
	w := fl.nl + fl.ns
	fr := frame{locals: make([]uint32, fl.nl), stack: make([]uint32, fl.ns)}
	var words []uint32
	operand := func(n int) []Def {
		for _, v := range words {
			if v == defHigh {
				continue
			}
			if n == 0 {
				return fl.defs(v, true)
			}
			n--
		}
		return nil
	}
	for b := range fl.blocks {
		if fl.heights[b] < 0 {
			continue
		}
		st := fl.entries[b*w : (b+1)*w]
		copy(fr.locals, st[:fl.nl])
		copy(fr.stack, st[fl.nl:])
		fr.sp = int(fl.heights[b])
		for k := fl.blocks[b].first; k < fl.blocks[b].end; k++ {
			fi := &fl.instrs[k]
			words = fr.stack[fr.sp-int(fi.pop) : fr.sp]
			fn(int(fi.pc), fi.op, operand)
			if fl.step(fi, &fr) != nil {
				return // cannot happen: solve interpreted the same instructions
			}
		}
	}
}

// LocalDefsAt returns the reaching definitions of local variable slot just before the
// instruction at pc executes; nil when none reaches or pc is not reachable.
func (fl *Flow) LocalDefsAt(pc, slot int) []Def {
	fr, ok := fl.frameAt(pc)
	if !ok || slot < 0 || slot >= len(fr.locals) {
		return nil
	}
	return fl.defs(fr.locals[slot], false)
}

// defs expands an abstract value, dropping long/double markers. An empty operand
// becomes [DefUnknown] so callers never mistake it for "no value".
func (fl *Flow) defs(v uint32, operand bool) []Def {
	var buf [1]uint32
	ms := fl.sets.members(v, &buf)
	out := make([]Def, 0, len(ms))
	for _, d := range ms {
		if d != defHigh {
			out = append(out, decode(d))
		}
	}
	if len(out) == 0 {
		if operand {
			return []Def{{Kind: DefUnknown}}
		}
		return nil
	}
	return out
}

// canThrow reports whether an instruction can raise an exception that a handler may
// catch (JVMS chapter 6, each instruction's "Run-time Exceptions" and linking
// exceptions). Loads, stores, constants, arithmetic without division, stack
// operations and branches cannot; giving them no exception edge keeps post-dominance
// meaningful inside try blocks (a store between newInstance and its cast would
// otherwise break it) without losing soundness: their effects reach the handler
// through the next instruction that can throw. Asynchronous errors are not modelled.
func canThrow(op bytecode.Opcode) bool {
	switch {
	case op >= bytecode.Iaload && op <= bytecode.Saload, op >= bytecode.Iastore && op <= bytecode.Sastore:
		return true
	case op == bytecode.Idiv || op == bytecode.Ldiv || op == bytecode.Irem || op == bytecode.Lrem:
		return true
	case op == bytecode.Ldc || op == bytecode.LdcW || op == bytecode.Ldc2W:
		return true // class, method-type, method-handle and dynamic constants link
	case op >= bytecode.Getstatic && op <= bytecode.Monitorexit:
		// field and invoke instructions, new, (a)newarray, arraylength, athrow,
		// checkcast, instanceof, monitors
		return true
	case op == bytecode.Multianewarray:
		return true
	}
	return false
}
