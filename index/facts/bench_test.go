package facts

import (
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/internal/cputime"
)

// BenchmarkExtractJDK parses and extracts the facts of every JDK class; b.SetBytes
// makes it report the throughput in class bytes.
func BenchmarkExtractJDK(b *testing.B) {
	classes := jdk(b)
	var size int64
	for _, c := range classes {
		size += int64(len(c.data))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		for _, c := range classes {
			f, err := classfile.Parse(c.data)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Extract(f); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu)
}

// cpuTime returns the CPU time used by the process so far. The budgets are in CPU
// time on a shared machine, where wall-clock figures mostly measure the neighbours.
func cpuTime() time.Duration {
	d, _ := cputime.Process()
	return d
}

// reportCPU reports the CPU seconds per iteration since start (GC included).
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkParseJDK is the parsing share of BenchmarkExtractJDK.
func BenchmarkParseJDK(b *testing.B) {
	classes := jdk(b)
	var size int64
	for _, c := range classes {
		size += int64(len(c.data))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		for _, c := range classes {
			if _, err := classfile.Parse(c.data); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkAnalyzeJDK analyzes every method of every JDK class (the analysis only
// ever asks for a few, so this is a stress figure, not a budget).
func BenchmarkAnalyzeJDK(b *testing.B) {
	classes := jdk(b)
	files := make([]*classfile.File, 0, len(classes))
	for _, c := range classes {
		f, err := classfile.Parse(c.data)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, f)
	}
	b.ReportAllocs()
	cpu := cpuTime()
	n := 0
	for b.Loop() {
		n = 0
		for _, f := range files {
			for i := range f.Methods {
				if !f.Methods[i].HasCode() {
					continue
				}
				if _, err := Analyze(f, &f.Methods[i]); err != nil {
					b.Fatal(err)
				}
				n++
			}
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n)/float64(b.N), "ns/method")
}
