package classgen

import (
	"bytes"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// TestChainParses checks that the generated classes are what the strict parser and
// the bytecode decoder accept, with the members and calls Chain promises.
func TestChainParses(t *testing.T) {
	classes := Chain(3)
	if len(classes) != 4 {
		t.Fatalf("%d classes, want 4", len(classes))
	}
	var calls []string
	for _, c := range classes {
		b, err := c.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		f, err := classfile.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if f.Name != c.Name {
			t.Errorf("name %s, want %s", f.Name, c.Name)
		}
		for i := range f.Methods {
			code, err := f.Methods[i].Code()
			if err != nil || code == nil {
				t.Fatalf("%s.%s: code %v, %v", c.Name, f.Methods[i].Name, code, err)
			}
			err = bytecode.Walk(code.Bytecode, func(in bytecode.Instr) error {
				if in.Op == bytecode.Invokevirtual || in.Op == bytecode.Invokespecial {
					r := f.Pool.Ref(in.Index)
					calls = append(calls, c.Name+": "+r.Class+"."+r.Name+r.Desc)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("%s.%s: %v", c.Name, f.Methods[i].Name, err)
			}
		}
	}
	want := []string{
		"deep/C0: java/lang/Object.<init>()V",
		"deep/C1: deep/C0.<init>()V",
		"deep/C2: deep/C1.<init>()V",
		"deep/Main: deep/C2.<init>()V",
		"deep/Main: java/lang/Object.hashCode()I",
		"deep/Main: java/lang/Object.toString()Ljava/lang/String;",
	}
	if got := bytes.Join(toBytes(calls), []byte("\n")); string(got) != string(bytes.Join(toBytes(want), []byte("\n"))) {
		t.Errorf("calls:\n%s\nwant:\n%s", got, bytes.Join(toBytes(want), []byte("\n")))
	}
}

func toBytes(ss []string) [][]byte {
	var out [][]byte
	for _, s := range ss {
		out = append(out, []byte(s))
	}
	return out
}
