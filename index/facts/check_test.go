package facts

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// checkFlow is a sanity checker run on every analysed method: invoke operands match
// the descriptor, no operand has an empty def set, every def names a real parameter,
// instruction or handler, and post-dominance is reflexive.
func checkFlow(t *testing.T, where string, f *classfile.File, m *classfile.Method, fl *Flow) {
	t.Helper()
	code, err := m.Code()
	if err != nil {
		t.Fatal(err)
	}
	nparams := 0
	if !m.IsStatic() {
		nparams++
	}
	methodWords(m.Desc, func(int) { nparams++ })
	handlers := map[int]bool{}
	for _, h := range code.Handlers {
		handlers[int(h.HandlerPC)] = true
	}
	isInstr := map[int]bool{}
	bytecode.Walk(code.Bytecode, func(in bytecode.Instr) error { isInstr[in.PC] = true; return nil })
	valid := func(d Def) bool {
		switch d.Kind {
		case DefParam:
			return d.N < nparams
		case DefInstr:
			return isInstr[d.N]
		case DefCaught:
			return handlers[d.N]
		}
		return false
	}
	bytecode.Walk(code.Bytecode, func(in bytecode.Instr) error {
		ops := fl.Operands(in.PC)
		if !fl.PostDominates(in.PC, in.PC) {
			t.Errorf("%s %s.%s%s: pc %d does not post-dominate itself", where, f.Name, m.Name, m.Desc, in.PC)
		}
		if ops == nil {
			return nil
		}
		for _, o := range ops {
			for _, d := range o {
				if !valid(d) {
					t.Errorf("%s %s.%s%s: pc %d %v: invalid def %v", where, f.Name, m.Name, m.Desc, in.PC, in.Op, d)
				}
			}
		}
		if in.Op.IsInvoke() {
			want := 0
			if in.Op != bytecode.Invokestatic && in.Op != bytecode.Invokedynamic {
				want++
			}
			var desc string
			if in.Op == bytecode.Invokedynamic {
				_, _, desc = f.Pool.Dynamic(in.Index)
			} else {
				desc = f.Pool.Ref(in.Index).Desc
			}
			methodWords(desc, func(int) { want++ })
			if len(ops) != want {
				t.Errorf("%s %s.%s%s: pc %d %v %s: %d operands, want %d", where, f.Name, m.Name, m.Desc, in.PC, in.Op, desc, len(ops), want)
			}
		}
		return nil
	})
}
