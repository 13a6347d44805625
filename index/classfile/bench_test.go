package classfile_test

import (
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/bytecode"
	"github.com/jcg-lsp/jcg-lsp/index/classfile"
)

// BenchmarkParseWalkJDK parses every class of the JDK 17 image, decodes every method
// body and walks every instruction, on one goroutine: the MB/s figure is the parser's
// single-core throughput.
func BenchmarkParseWalkJDK(b *testing.B) {
	cp := openJDK(b, jdk17)
	total := 0
	for _, c := range cp.Classes {
		total += len(c.Data)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cp.Classes {
			f, err := classfile.Parse(c.Data)
			if err != nil {
				b.Fatal(err)
			}
			for i := range f.Methods {
				code, err := f.Methods[i].Code()
				if err != nil || code == nil {
					continue
				}
				if err := bytecode.Walk(code.Bytecode, func(bytecode.Instr) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkParseHeadersJDK parses every class header of the JDK 17 image on one
// goroutine.
func BenchmarkParseHeadersJDK(b *testing.B) {
	cp := openJDK(b, jdk17)
	total := 0
	for _, c := range cp.Classes {
		total += len(c.Data)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cp.Classes {
			if _, err := classfile.Parse(c.Data); err != nil {
				b.Fatal(err)
			}
		}
	}
}
