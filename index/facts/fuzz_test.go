package facts

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/internal/classgen"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// FuzzExtract feeds arbitrary class bytes to Extract and Analyze and calls every
// query on the result: nothing may panic or run away. It is seeded with the compiled
// test programs and the hand-assembled methods of asm_test.go.
func FuzzExtract(f *testing.F) {
	for _, prog := range []string{"facts", "flow"} {
		dir := javatest.Compile(f, javatest.Program(f, prog), javatest.Release(17))
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".class") {
				if b, err := os.ReadFile(path); err == nil {
					f.Add(b)
				}
			}
			return nil
		})
	}
	f.Add(assemble(49, "()Ljava/lang/Object;", 1, 2, []byte{
		byte(bytecode.Ldc), cpString, byte(bytecode.Astore0), byte(bytecode.Jsr), 0, 9,
		byte(bytecode.Jsr), 0, 6, byte(bytecode.Aload0), byte(bytecode.Areturn), byte(bytecode.Nop),
		byte(bytecode.Astore1), byte(bytecode.AconstNull), byte(bytecode.Astore0), byte(bytecode.Ret), 1,
	}))
	f.Add(assemble(52, "(JJLjava/lang/Object;)V", 6, 5, []byte{
		byte(bytecode.Lload0), byte(bytecode.Lload2), byte(bytecode.Dup2X2), byte(bytecode.Pop2),
		byte(bytecode.Ladd), byte(bytecode.Aload), 4, byte(bytecode.DupX2), byte(bytecode.Pop),
		byte(bytecode.Pop2), byte(bytecode.Return),
	}))
	f.Add(constantsSeed(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := classfile.ParseShared(data, classfile.NewStrings())
		if err != nil {
			return
		}
		if fc, err := Extract(cf); err == nil {
			if msg := nilRef(fc); msg != "" {
				t.Error(msg)
			}
		}
		for i := range cf.Methods {
			m := &cf.Methods[i]
			fl, err := Analyze(cf, m)
			if err != nil {
				continue
			}
			code, _ := m.Code()
			for pc := range len(code.Bytecode) + 1 {
				fl.Operands(pc)
				fl.LocalDefsAt(pc, 0)
				fl.LocalDefsAt(pc, pc)
				fl.PostDominates(pc, 0)
				fl.PostDominates(0, pc)
				fl.PostDominates(pc, len(code.Bytecode)-1-pc)
			}
		}
	})
}

// FuzzAnalyzeCode fuzzes method bodies directly: class-level mutations of FuzzExtract
// mostly break the strict class-file parser before any bytecode is read.
func FuzzAnalyzeCode(f *testing.F) {
	f.Add([]byte{byte(bytecode.Lload0), byte(bytecode.Lload2), byte(bytecode.Dup2X2), byte(bytecode.Pop2),
		byte(bytecode.Ladd), byte(bytecode.Pop2), byte(bytecode.Return)}, uint8(4), uint8(5), uint8(0), uint16(0))
	f.Add([]byte{byte(bytecode.Ldc), cpString, byte(bytecode.Astore0), byte(bytecode.Jsr), 0, 9,
		byte(bytecode.Jsr), 0, 6, byte(bytecode.Aload0), byte(bytecode.Areturn), byte(bytecode.Nop),
		byte(bytecode.Astore1), byte(bytecode.AconstNull), byte(bytecode.Astore0), byte(bytecode.Ret), 1},
		uint8(1), uint8(2), uint8(2), uint16(0x0300))
	f.Add([]byte{byte(bytecode.Iload0), byte(bytecode.Tableswitch), 0, 0, 0, 0, 0, 23, 0, 0, 0, 0, 0, 0, 0, 1,
		0, 0, 0, 23, 0, 0, 0, 23, byte(bytecode.Return)}, uint8(1), uint8(1), uint8(1), uint16(0))
	descs := []string{"(JJLjava/lang/Object;)V", "()V", "()Ljava/lang/Object;", "(I)V"}
	f.Fuzz(func(t *testing.T, code []byte, maxStack, maxLocals, desc uint8, h uint16) {
		if len(code) == 0 || len(code) > 4096 {
			return
		}
		var hs []handler
		if h != 0 {
			// Derive one handler from h: start, end and target inside the code.
			n := uint16(len(code))
			start := (h >> 8) % n
			end := start + 1 + (h&0xf)%(n-start)
			hs = append(hs, handler{start, end, (h >> 4 & 0xf) % n, 0})
		}
		cf, err := classfile.Parse(assemble(52, descs[int(desc)%len(descs)], uint16(maxStack), uint16(maxLocals), code, hs...))
		if err != nil {
			return
		}
		Extract(cf)
		fl, err := Analyze(cf, &cf.Methods[0])
		if err != nil {
			return
		}
		for pc := range len(code) + 1 {
			fl.Operands(pc)
			fl.LocalDefsAt(pc, 0)
			fl.PostDominates(pc, 0)
			fl.PostDominates(0, pc)
		}
	})
}

// constantsSeed is a class that javac would not write: an invokedynamic with a
// bootstrap method of its own, an ldc_w of a method handle and one of a dynamic
// constant (HandleConsts).
func constantsSeed(tb testing.TB) []byte {
	bsm := classgen.Handle{Kind: classgen.RefInvokeStatic, Class: "s/C", Name: "bsm",
		Desc: "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Object;)Ljava/lang/Object;"}
	h := classgen.Handle{Kind: classgen.RefInvokeStatic, Class: "s/C", Name: "m", Desc: "()V"}
	c := classgen.Class{Access: classgen.Public, Name: "s/C", Methods: []classgen.Method{
		{Access: classgen.Public | classgen.Static, Name: "m", Desc: "()V",
			Code: (&classgen.Code{MaxStack: 1}).InvokeDynamic("run", "()V", bsm, h).LdcHandle(h).Op(classgen.Pop).
				LdcDynamic("k", "Ljava/lang/Object;", bsm, h).Op(classgen.Pop).Op(classgen.Return)},
		{Access: classgen.Public | classgen.Static, Name: "bsm", Desc: bsm.Desc,
			Code: (&classgen.Code{MaxStack: 1, MaxLocals: 3}).Op(classgen.Aload1).Op(classgen.Areturn)},
	}}
	b, err := c.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestHandleConsts checks the facts of constantsSeed's method m: its invokedynamic
// is a call with the bootstrap and the handle argument, and its two ldc_w are
// HandleConsts, a method handle of m and a dynamic constant of bsm given it.
func TestHandleConsts(t *testing.T) {
	b := constantsSeed(t)
	cf, err := classfile.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Extract(cf)
	if err != nil {
		t.Fatal(err)
	}
	m := c.Methods[0]
	if len(m.Calls) != 1 || m.Calls[0].Indy == nil || m.Calls[0].Indy.Bootstrap.Name != "bsm" || len(m.Calls[0].Indy.Args) != 1 {
		t.Fatalf("calls %+v", m.Calls)
	}
	hc := m.HandleConsts
	if len(hc) != 2 || hc[0].Const.Kind != ConstMethodHandle || hc[0].Const.Ref.Name != "m" ||
		hc[1].Const.Kind != ConstDynamic || hc[1].Const.Dynamic.Bootstrap.Name != "bsm" || hc[1].Const.Dynamic.Name != "k" ||
		len(hc[1].Const.Dynamic.Args) != 1 || hc[1].Const.Dynamic.Args[0].Kind != ConstMethodHandle {
		t.Errorf("handle constants %+v", hc)
	}
}

// nilRef returns which call or field access of c has a nil Ref, or "".
func nilRef(c *Class) string {
	for i, m := range c.Methods {
		for j, call := range m.Calls {
			if call.Ref == nil {
				return fmt.Sprintf("method %d: call %d (%v) has no Ref", i, j, call.Op)
			}
		}
		for j, fa := range m.Fields {
			if fa.Ref == nil {
				return fmt.Sprintf("method %d: field access %d has no Ref", i, j)
			}
		}
	}
	return ""
}

// TestFillRefs: facts with references missing (as a damaged cache file may
// decode) get zero ones, and the others keep theirs.
func TestFillRefs(t *testing.T) {
	kept := &classfile.Ref{Class: "a/B", Name: "f", Desc: "I"}
	c := &Class{Methods: []Method{{
		Calls:  []Call{{PC: 1}, {PC: 2, Ref: kept}},
		Fields: []FieldAccess{{PC: 3}, {PC: 4, Ref: kept}},
	}}}
	if nilRef(c) == "" {
		t.Fatal("nilRef finds nothing to fill")
	}
	c.FillRefs()
	if msg := nilRef(c); msg != "" {
		t.Fatal(msg)
	}
	m := c.Methods[0]
	if *m.Calls[0].Ref != (classfile.Ref{}) || *m.Fields[0].Ref != (classfile.Ref{}) || m.Calls[1].Ref != kept || m.Fields[1].Ref != kept {
		t.Errorf("after FillRefs: %v %v %v %v", *m.Calls[0].Ref, *m.Fields[0].Ref, m.Calls[1].Ref, m.Fields[1].Ref)
	}
}
