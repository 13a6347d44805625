package incremental

import (
	"context"
	"os"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// BenchmarkFindMissing times counting the missing classes of javacc's graph with the
// full JDK (RTA, Correct-JDK), which every build's jcg/status does once per graph:
// the reachable application and library methods' facts are read, the JDK's are not.
func BenchmarkFindMissing(b *testing.B) {
	if _, err := os.Stat(javaccJar); err != nil {
		b.Skipf("%s: apt-get install javacc", javaccJar)
	}
	ix, err := index.Build(context.Background(), index.Config{Sources: []classpath.Source{{Path: javaccJar, Origin: classpath.Application}}}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	g, err := analysis.New(ix).Run(context.Background(), analysis.Options{Level: callgraph.CorrectJDK, Algorithm: callgraph.RTA})
	if err != nil {
		b.Fatal(err)
	}
	var r *MissingReport
	for b.Loop() {
		r = FindMissing(ix, g, nil)
	}
	b.ReportMetric(float64(g.NumReachable()), "reachable-methods")
	b.ReportMetric(float64(r.Count()), "missing-classes")
}
