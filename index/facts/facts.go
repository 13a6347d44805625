package facts

import (
	"errors"
	"fmt"
	"sync"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// Class holds the facts of one class file.
type Class struct {
	Methods []Method // aligned with classfile.File.Methods
}

// FillRefs gives every call and field access of c without a reference a zero one:
// Call.Ref and FieldAccess.Ref are never nil in facts Extract made, and facts read
// from elsewhere (a damaged or hostile cache file) must not crash their readers.
func (c *Class) FillRefs() {
	for i := range c.Methods {
		m := &c.Methods[i]
		for j := range m.Calls {
			if m.Calls[j].Ref == nil {
				m.Calls[j].Ref = new(classfile.Ref)
			}
		}
		for j := range m.Fields {
			if m.Fields[j].Ref == nil {
				m.Fields[j].Ref = new(classfile.Ref)
			}
		}
	}
}

// Method holds the facts of one method body, each list in bytecode order. All lists
// are empty for methods without code.
type Method struct {
	Calls        []Call
	Allocs       []Alloc
	ClassConsts  []Const // ldc/ldc_w of a Class constant (T.class)
	StringConsts []Const // ldc/ldc_w of a String constant
	// HandleConsts are the ldc, ldc_w and ldc2_w of a MethodHandle or a Dynamic
	// constant: javac emits none, other compilers and bytecode generators do.
	HandleConsts []HandleConst
	TypeChecks   []TypeCheck
	Fields       []FieldAccess
	// FirstLine and LastLine bound the lines of the LineNumberTable, so a source
	// position can be mapped to its method; both are -1 without line numbers.
	FirstLine, LastLine int32
	// Arrays says whether the body loads (aaload) or stores (aastore) elements of
	// reference arrays: what algorithms that follow values need of array accesses.
	Arrays ArrayAccess
}

// ArrayAccess is a set of the ways a method body accesses reference array elements.
type ArrayAccess uint8

// Array accesses.
const (
	ArrayLoad  ArrayAccess = 1 << iota // aaload
	ArrayStore                         // aastore
)

// HandleConst is an instruction that loads a MethodHandle or a Dynamic constant
// (Const.Kind ConstMethodHandle or ConstDynamic).
type HandleConst struct {
	PC, Line int32
	Const    Constant
}

// Call is an invoke instruction.
type Call struct {
	PC, Line int32 // Line is -1 when unknown
	Op       bytecode.Opcode
	// Ref is the declared target; zero for invokedynamic. It is never nil, and
	// it is shared (classfile.Pool.SharedRef): do not modify it.
	Ref  *classfile.Ref
	Indy *Indy // invokedynamic only
}

// Indy is a dynamically-computed call site (invokedynamic) or constant (Dynamic): its
// name and descriptor, and the bootstrap method with its static arguments.
type Indy struct {
	Name, Desc    string
	BootstrapKind uint8 // reference kind of the bootstrap method handle (classfile.Ref*)
	Bootstrap     classfile.Ref
	Args          []Constant // shared by every site using the same bootstrap entry
}

// LambdaImpl returns the method handle constant naming the implementation of a
// lambda or method reference: the second bootstrap argument of a LambdaMetafactory
// site (metafactory and altMetafactory alike). ok is false for other sites.
func (in *Indy) LambdaImpl() (impl Constant, ok bool) {
	if in == nil || in.Bootstrap.Class != "java/lang/invoke/LambdaMetafactory" || len(in.Args) < 2 || in.Args[1].Kind != ConstMethodHandle {
		return Constant{}, false
	}
	return in.Args[1], true
}

// ConstKind tells which field of a Constant holds its value.
type ConstKind uint8

// Kinds of loadable constants (JVMS 4.4, table 4.4-C).
const (
	ConstInt          ConstKind = iota + 1 // Int
	ConstFloat                             // Float
	ConstLong                              // Int
	ConstDouble                            // Float
	ConstString                            // Str
	ConstClass                             // Str: internal name or array descriptor
	ConstMethodType                        // Str: method descriptor
	ConstMethodHandle                      // RefKind, Ref
	ConstDynamic                           // Dynamic
)

// Constant is a loadable constant decoded from the pool, as found among the static
// arguments of a bootstrap method.
type Constant struct {
	Kind    ConstKind
	RefKind uint8 // MethodHandle
	Int     int64
	Float   float64
	Str     string
	Ref     classfile.Ref // MethodHandle
	Dynamic *Indy         // Dynamic
}

// Alloc is an allocation site: new, newarray, anewarray or multianewarray.
type Alloc struct {
	PC, Line int32
	Op       bytecode.Opcode
	Dims     uint8 // 0 for new; 1 for newarray and anewarray; the operand of multianewarray
	// Type is the internal name of the class for new, and the descriptor of the
	// created array type otherwise ("[I", "[Ljava/lang/String;", "[[J").
	Type string
}

// Const is an ldc of a class or string constant.
type Const struct {
	PC, Line int32
	Value    string // the internal class name (or array descriptor), or the string
}

// TypeCheck is a checkcast or instanceof.
type TypeCheck struct {
	PC, Line   int32
	Instanceof bool
	Type       string // internal name or array descriptor
}

// FieldAccess is a getfield, putfield, getstatic or putstatic.
type FieldAccess struct {
	PC, Line      int32
	Write, Static bool
	Ref           *classfile.Ref // never nil, shared as Call.Ref is
}

// Error reports a method that could not be processed. Err is a *bytecode.Error when
// the problem is at one instruction, a *classfile.FormatError when the Code attribute
// itself is malformed, and a plain error when a method exceeds Analyze's work bounds.
type Error struct {
	Class, Method, Desc string
	Err                 error
}

func (e *Error) Error() string {
	return fmt.Sprintf("facts: %s.%s%s: %v", e.Class, e.Method, e.Desc, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// PC returns the bytecode offset the error is about, or -1.
func (e *Error) PC() int {
	var be *bytecode.Error
	if errors.As(e.Err, &be) {
		return be.PC
	}
	return -1
}

func methodError(f *classfile.File, m *classfile.Method, err error) *Error {
	return &Error{Class: f.Name, Method: m.Name, Desc: m.Desc, Err: err}
}

func pcError(pc int, format string, args ...any) *bytecode.Error {
	return &bytecode.Error{PC: pc, Msg: fmt.Sprintf(format, args...)}
}

// extractor holds per-class scratch space. The fact lists of all methods are gathered
// in growing scratch slices and copied out once per class, so a class costs one
// allocation per kind of fact however many methods it has.
type extractor struct {
	f      *classfile.File
	p      *classfile.Pool
	calls  []Call
	allocs []Alloc
	ccs    []Const
	scs    []Const
	hcs    []HandleConst
	checks []TypeCheck
	fields []FieldAccess
	spans  []span
	// The pool decodes a fresh string on every call, and the same constants are
	// referenced over and over, so decoded references and names are cached by pool
	// index (idx[i] is 1 + their position in refs or strs). Interning their strings by
	// content as well (one "java/lang/String" per class) was measured on the JDK: it
	// saves 10% of the retained facts (24 of 262 MB) for 20% more extraction time, so
	// it is not done.
	idx  []int32
	refs []*classfile.Ref
	strs []string
	// indy caches decoded invokedynamic entries by pool index and bootstraps the
	// static arguments by bootstrap-method index; both are rare, so maps are fine.
	indy       map[uint16]*Indy
	bootstraps map[uint16]*bootstrap
	arrays     map[uint16]string // array descriptors of anewarray operands
}

type bootstrap struct {
	kind uint8
	ref  classfile.Ref
	args []Constant
	busy bool // being decoded: a Dynamic argument that refers back to it is a cycle
}

// span records where a method's facts sit in the scratch slices.
type span struct{ calls, allocs, ccs, scs, hcs, checks, fields [2]int32 }

var extractors = sync.Pool{New: func() any { return new(extractor) }}

// Extract extracts the facts of every method of f. It only reads f, so it may run
// concurrently with other readers of the same File.
func Extract(f *classfile.File) (*Class, error) {
	x := extractors.Get().(*extractor)
	defer func() {
		x.reset()
		extractors.Put(x)
	}()
	x.f, x.p = f, f.Pool
	if n := f.Pool.Len(); cap(x.idx) < n {
		x.idx = make([]int32, n)
	} else {
		x.idx = x.idx[:n]
	}
	c := &Class{Methods: make([]Method, len(f.Methods))}
	for i := range f.Methods {
		m := &f.Methods[i]
		fm := &c.Methods[i]
		fm.FirstLine, fm.LastLine = -1, -1
		var sp span
		sp.calls[0], sp.allocs[0], sp.ccs[0] = int32(len(x.calls)), int32(len(x.allocs)), int32(len(x.ccs))
		sp.scs[0], sp.checks[0], sp.fields[0] = int32(len(x.scs)), int32(len(x.checks)), int32(len(x.fields))
		sp.hcs[0] = int32(len(x.hcs))
		if m.HasCode() {
			if err := x.method(m, fm); err != nil {
				return nil, err
			}
		}
		sp.calls[1], sp.allocs[1], sp.ccs[1] = int32(len(x.calls)), int32(len(x.allocs)), int32(len(x.ccs))
		sp.scs[1], sp.checks[1], sp.fields[1] = int32(len(x.scs)), int32(len(x.checks)), int32(len(x.fields))
		sp.hcs[1] = int32(len(x.hcs))
		x.spans = append(x.spans, sp)
	}
	calls := clone(x.calls)
	allocs := clone(x.allocs)
	ccs := clone(x.ccs)
	scs := clone(x.scs)
	hcs := clone(x.hcs)
	checks := clone(x.checks)
	fields := clone(x.fields)
	for i, sp := range x.spans {
		fm := &c.Methods[i]
		fm.Calls = sub(calls, sp.calls)
		fm.Allocs = sub(allocs, sp.allocs)
		fm.ClassConsts = sub(ccs, sp.ccs)
		fm.StringConsts = sub(scs, sp.scs)
		fm.HandleConsts = sub(hcs, sp.hcs)
		fm.TypeChecks = sub(checks, sp.checks)
		fm.Fields = sub(fields, sp.fields)
	}
	return c, nil
}

func clone[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append([]T(nil), s...)
}

// sub returns s[r[0]:r[1]] with its capacity capped, so appending to one method's list
// cannot overwrite the next method's; nil for an empty range.
func sub[T any](s []T, r [2]int32) []T {
	if r[0] == r[1] {
		return nil
	}
	return s[r[0]:r[1]:r[1]]
}

func (x *extractor) reset() {
	// Drop the references to strings and indy values so pooled scratch does not keep
	// the last class's facts alive; keep the capacity.
	clear(x.calls)
	clear(x.allocs)
	clear(x.ccs)
	clear(x.scs)
	clear(x.hcs)
	clear(x.checks)
	clear(x.fields)
	x.calls, x.allocs, x.ccs, x.scs = x.calls[:0], x.allocs[:0], x.ccs[:0], x.scs[:0]
	x.checks, x.fields, x.spans, x.hcs = x.checks[:0], x.fields[:0], x.spans[:0], x.hcs[:0]
	clear(x.idx)
	clear(x.refs)
	clear(x.strs)
	x.refs, x.strs = x.refs[:0], x.strs[:0]
	x.indy, x.bootstraps, x.arrays = nil, nil, nil
	x.f, x.p = nil, nil
}

// ref returns the Fieldref, Methodref or InterfaceMethodref at pool index i.
func (x *extractor) ref(i uint16) *classfile.Ref {
	if k := x.idx[i]; k > 0 {
		return x.refs[k-1]
	}
	r := x.p.SharedRef(i)
	x.refs = append(x.refs, r)
	x.idx[i] = int32(len(x.refs))
	return r
}

// name returns the class name of a Class entry or the value of a String entry.
func (x *extractor) name(i uint16) string {
	if k := x.idx[i]; k > 0 {
		return x.strs[k-1]
	}
	var s string
	if x.p.Tag(i) == classfile.TagClass {
		s = x.p.ClassName(i)
	} else {
		s = x.p.String(i)
	}
	x.strs = append(x.strs, s)
	x.idx[i] = int32(len(x.strs))
	return s
}

func (x *extractor) method(m *classfile.Method, fm *Method) error {
	code, err := m.Code()
	if err != nil {
		return methodError(x.f, m, err)
	}
	if code == nil {
		return nil
	}
	nl := code.NumLines()
	if nl > 0 {
		lo, hi := code.Line(0).Line, code.Line(0).Line
		for i := 1; i < nl; i++ {
			l := code.Line(i).Line
			lo, hi = min(lo, l), max(hi, l)
		}
		fm.FirstLine, fm.LastLine = int32(lo), int32(hi)
	}
	// Instructions come in pc order and the line table is sorted, so a cursor
	// replaces a binary search per site.
	li := -1
	bc := code.Bytecode
	for pc := 0; pc < len(bc); {
		// Most instructions produce no fact: step over them without decoding.
		switch bytecode.Opcode(bc[pc]) {
		case bytecode.Aaload:
			fm.Arrays |= ArrayLoad
		case bytecode.Aastore:
			fm.Arrays |= ArrayStore
		}
		if n := int(skipLen[bc[pc]]); n != 0 && pc+n <= len(bc) {
			pc += n
			continue
		}
		in, err := bytecode.Decode(bc, pc)
		if err != nil {
			return methodError(x.f, m, err)
		}
		pc += in.Len
		if !interesting[in.Op] {
			continue
		}
		for li+1 < nl && int(code.Line(li+1).StartPC) <= in.PC {
			li++
		}
		line := int32(-1)
		if li >= 0 {
			line = int32(code.Line(li).Line)
		}
		if err := x.instr(in, line); err != nil {
			return methodError(x.f, m, err)
		}
	}
	return nil
}

// interesting marks the opcodes that produce facts; everything else is only decoded.
var interesting = func() (t [256]bool) {
	for _, op := range []bytecode.Opcode{
		bytecode.Invokevirtual, bytecode.Invokespecial, bytecode.Invokestatic,
		bytecode.Invokeinterface, bytecode.Invokedynamic,
		bytecode.New, bytecode.Newarray, bytecode.Anewarray, bytecode.Multianewarray,
		bytecode.Ldc, bytecode.LdcW, bytecode.Ldc2W,
		bytecode.Checkcast, bytecode.Instanceof,
		bytecode.Getfield, bytecode.Putfield, bytecode.Getstatic, bytecode.Putstatic,
	} {
		t[op] = true
	}
	return t
}()

// skipLen is the length of each fixed-length instruction that produces no fact, and 0
// for the rest (variable-length, invalid, or interesting). It is derived from
// bytecode.Decode so the decoder stays the single source of instruction lengths.
var skipLen = func() (t [256]uint8) {
	var buf [8]byte
	for op := range 256 {
		switch bytecode.Opcode(op) {
		case bytecode.Tableswitch, bytecode.Lookupswitch, bytecode.Wide:
			continue
		}
		if interesting[op] {
			continue
		}
		buf[0] = byte(op)
		if in, err := bytecode.Decode(buf[:], 0); err == nil {
			t[op] = uint8(in.Len)
		}
	}
	return t
}()

// primArrays maps the atype operand of newarray (JVMS table 6.5.newarray-A) to the
// array descriptor.
var primArrays = [12]string{4: "[Z", 5: "[C", 6: "[F", 7: "[D", 8: "[B", 9: "[S", 10: "[I", 11: "[J"}

func (x *extractor) instr(in bytecode.Instr, line int32) error {
	p := x.p
	pc := int32(in.PC)
	switch in.Op {
	case bytecode.Invokevirtual, bytecode.Invokespecial, bytecode.Invokestatic, bytecode.Invokeinterface:
		if t := p.Tag(in.Index); t != classfile.TagMethodref && t != classfile.TagInterfaceMethodref {
			return pcError(in.PC, "%v refers to constant %d of kind %v", in.Op, in.Index, t)
		}
		x.calls = append(x.calls, Call{PC: pc, Line: line, Op: in.Op, Ref: x.ref(in.Index)})
	case bytecode.Invokedynamic:
		indy, err := x.invokedynamic(in)
		if err != nil {
			return err
		}
		x.calls = append(x.calls, Call{PC: pc, Line: line, Op: in.Op, Ref: x.p.SharedRef(0), Indy: indy})
	case bytecode.New:
		if p.Tag(in.Index) != classfile.TagClass {
			return pcError(in.PC, "new refers to constant %d of kind %v", in.Index, p.Tag(in.Index))
		}
		x.allocs = append(x.allocs, Alloc{PC: pc, Line: line, Op: in.Op, Dims: 0, Type: x.name(in.Index)})
	case bytecode.Newarray:
		if in.Value < 4 || in.Value > 11 {
			return pcError(in.PC, "newarray of invalid type %d", in.Value)
		}
		x.allocs = append(x.allocs, Alloc{PC: pc, Line: line, Op: in.Op, Dims: 1, Type: primArrays[in.Value]})
	case bytecode.Anewarray:
		t, err := x.arrayOf(in)
		if err != nil {
			return err
		}
		x.allocs = append(x.allocs, Alloc{PC: pc, Line: line, Op: in.Op, Dims: 1, Type: t})
	case bytecode.Multianewarray:
		if p.Tag(in.Index) != classfile.TagClass {
			return pcError(in.PC, "multianewarray refers to constant %d of kind %v", in.Index, p.Tag(in.Index))
		}
		if in.Value < 1 {
			return pcError(in.PC, "multianewarray with %d dimensions", in.Value)
		}
		x.allocs = append(x.allocs, Alloc{PC: pc, Line: line, Op: in.Op, Dims: uint8(in.Value), Type: x.name(in.Index)})
	case bytecode.Ldc, bytecode.LdcW:
		switch t := p.Tag(in.Index); t {
		case classfile.TagClass:
			x.ccs = append(x.ccs, Const{PC: pc, Line: line, Value: x.name(in.Index)})
		case classfile.TagString:
			x.scs = append(x.scs, Const{PC: pc, Line: line, Value: x.name(in.Index)})
		case classfile.TagMethodHandle, classfile.TagDynamic:
			if err := x.handleConst(in.Index, pc, line); err != nil {
				return pcError(in.PC, "%v", err)
			}
		case classfile.TagInteger, classfile.TagFloat, classfile.TagMethodType:
		default:
			return pcError(in.PC, "%v of constant %d of kind %v", in.Op, in.Index, t)
		}
	case bytecode.Ldc2W:
		switch t := p.Tag(in.Index); t {
		case classfile.TagDynamic:
			if err := x.handleConst(in.Index, pc, line); err != nil {
				return pcError(in.PC, "%v", err)
			}
		case classfile.TagLong, classfile.TagDouble:
		default:
			return pcError(in.PC, "ldc2_w of constant %d of kind %v", in.Index, t)
		}
	case bytecode.Checkcast, bytecode.Instanceof:
		if p.Tag(in.Index) != classfile.TagClass {
			return pcError(in.PC, "%v refers to constant %d of kind %v", in.Op, in.Index, p.Tag(in.Index))
		}
		x.checks = append(x.checks, TypeCheck{PC: pc, Line: line, Instanceof: in.Op == bytecode.Instanceof, Type: x.name(in.Index)})
	case bytecode.Getfield, bytecode.Putfield, bytecode.Getstatic, bytecode.Putstatic:
		if p.Tag(in.Index) != classfile.TagFieldref {
			return pcError(in.PC, "%v refers to constant %d of kind %v", in.Op, in.Index, p.Tag(in.Index))
		}
		x.fields = append(x.fields, FieldAccess{
			PC: pc, Line: line,
			Write:  in.Op == bytecode.Putfield || in.Op == bytecode.Putstatic,
			Static: in.Op == bytecode.Getstatic || in.Op == bytecode.Putstatic,
			Ref:    x.ref(in.Index),
		})
	}
	return nil
}

// arrayOf returns the descriptor of the array type that anewarray creates, caching it
// because concatenating allocates.
func (x *extractor) arrayOf(in bytecode.Instr) (string, error) {
	if s, ok := x.arrays[in.Index]; ok {
		return s, nil
	}
	if x.p.Tag(in.Index) != classfile.TagClass {
		return "", pcError(in.PC, "anewarray refers to constant %d of kind %v", in.Index, x.p.Tag(in.Index))
	}
	elem := x.name(in.Index)
	var s string
	if len(elem) > 0 && elem[0] == '[' {
		s = "[" + elem
	} else {
		s = "[L" + elem + ";"
	}
	if x.arrays == nil {
		x.arrays = make(map[uint16]string)
	}
	x.arrays[in.Index] = s
	return s, nil
}

func (x *extractor) invokedynamic(in bytecode.Instr) (*Indy, error) {
	if indy, ok := x.indy[in.Index]; ok {
		return indy, nil
	}
	if t := x.p.Tag(in.Index); t != classfile.TagInvokeDynamic {
		return nil, pcError(in.PC, "invokedynamic refers to constant %d of kind %v", in.Index, t)
	}
	indy, err := x.dynamic(in.Index, 0)
	if err != nil {
		return nil, pcError(in.PC, "%v", err)
	}
	if x.indy == nil {
		x.indy = make(map[uint16]*Indy)
	}
	x.indy[in.Index] = indy
	return indy, nil
}

// dynamic decodes a Dynamic or InvokeDynamic entry with its bootstrap method.
func (x *extractor) dynamic(i uint16, depth int) (*Indy, error) {
	bi, name, desc := x.p.Dynamic(i)
	bs, err := x.bootstrap(bi, depth)
	if err != nil {
		return nil, err
	}
	return &Indy{Name: name, Desc: desc, BootstrapKind: bs.kind, Bootstrap: bs.ref, Args: bs.args}, nil
}

// maxDynamicDepth bounds the nesting of Dynamic constants among bootstrap arguments;
// real class files nest one or two levels.
const maxDynamicDepth = 16

func (x *extractor) bootstrap(bi uint16, depth int) (*bootstrap, error) {
	if bs, ok := x.bootstraps[bi]; ok {
		if bs.busy {
			return nil, fmt.Errorf("bootstrap method %d depends on itself", bi)
		}
		return bs, nil
	}
	if int(bi) >= len(x.f.BootstrapMethods) {
		return nil, fmt.Errorf("bootstrap method index %d out of range (%d)", bi, len(x.f.BootstrapMethods))
	}
	if depth > maxDynamicDepth {
		return nil, fmt.Errorf("dynamic constants nested deeper than %d", maxDynamicDepth)
	}
	bm := &x.f.BootstrapMethods[bi]
	bs := &bootstrap{busy: true}
	bs.kind, bs.ref = x.p.MethodHandle(bm.Ref)
	if x.bootstraps == nil {
		x.bootstraps = make(map[uint16]*bootstrap)
	}
	x.bootstraps[bi] = bs
	if len(bm.Args) > 0 {
		bs.args = make([]Constant, len(bm.Args))
	}
	for k, a := range bm.Args {
		c, err := x.constant(a, depth)
		if err != nil {
			return nil, err
		}
		bs.args[k] = c
	}
	bs.busy = false
	return bs, nil
}

// handleConst records the load of the MethodHandle or Dynamic constant at pool index i.
func (x *extractor) handleConst(i uint16, pc, line int32) error {
	c, err := x.constant(i, 0)
	if err != nil {
		return err
	}
	x.hcs = append(x.hcs, HandleConst{PC: pc, Line: line, Const: c})
	return nil
}

func (x *extractor) constant(i uint16, depth int) (Constant, error) {
	p := x.p
	switch t := p.Tag(i); t {
	case classfile.TagInteger:
		return Constant{Kind: ConstInt, Int: int64(p.Int(i))}, nil
	case classfile.TagFloat:
		return Constant{Kind: ConstFloat, Float: float64(p.Float(i))}, nil
	case classfile.TagLong:
		return Constant{Kind: ConstLong, Int: p.Long(i)}, nil
	case classfile.TagDouble:
		return Constant{Kind: ConstDouble, Float: p.Double(i)}, nil
	case classfile.TagString:
		return Constant{Kind: ConstString, Str: x.name(i)}, nil
	case classfile.TagClass:
		return Constant{Kind: ConstClass, Str: x.name(i)}, nil
	case classfile.TagMethodType:
		return Constant{Kind: ConstMethodType, Str: p.MethodType(i)}, nil
	case classfile.TagMethodHandle:
		k, r := p.MethodHandle(i)
		return Constant{Kind: ConstMethodHandle, RefKind: k, Ref: r}, nil
	case classfile.TagDynamic:
		d, err := x.dynamic(i, depth+1)
		if err != nil {
			return Constant{}, err
		}
		return Constant{Kind: ConstDynamic, Dynamic: d}, nil
	default:
		return Constant{}, fmt.Errorf("bootstrap argument %d is a %v constant", i, t)
	}
}
