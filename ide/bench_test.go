package ide

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// BenchmarkUnreachableDiagnostics measures what the diagnostics of unreachable code
// add to a publish of a new snapshot: the scan of the whole program's methods (the
// JDK's among them) for the application's unreachable ones and their diagnostics,
// computed anew as for each new graph, on the plugins program of the server's tests
// with the full JDK at the server's defaults (TFA at Correct-JDK). For comparison it
// reports the diagnostics of the program's dynamic sites, computed the same way; a
// change's republished diagnostics take about 300 ms (server's
// BenchmarkClassChange).
//
//	go test ./ide -run '^$' -bench UnreachableDiagnostics
func BenchmarkUnreachableDiagnostics(b *testing.B) {
	src, err := filepath.Abs(filepath.Join("..", "testdata", "lsp", "plugins", "src", "main", "java"))
	if err != nil {
		b.Fatal(err)
	}
	classes := javatest.Compile(b, src, javatest.Release(17))
	snap := analyse(b, &incremental.Project{
		ClassPath:   []incremental.ClassPathEntry{{Path: classes, Origin: classpath.Application}},
		JDKHome:     javatest.JDKHome(b),
		SourceRoots: []string{src},
	}, analysis.Options{Level: callgraph.CorrectJDK, Algorithm: callgraph.TFA})
	st := Settings{Severity: SeverityWarning, NativeSeverity: SeverityInformation, Unreachable: SeverityHint}
	s := NewSession(func() Settings { return st }, func(msg string) { b.Errorf("bug: %s", msg) }, nil)
	sites := s.SitesByFile(&st, snap)
	n := 0
	var siteTime time.Duration
	for b.Loop() {
		u := newUnreachable(snap)
		for path := range u.byFile {
			n += len(s.fileUnreachable(&st, snap, u, path))
		}
		b.StopTimer()
		t0 := time.Now()
		for path, ss := range s.SitesByFile(&st, snap) {
			s.FileDiagnostics(&st, snap, path, ss)
		}
		siteTime += time.Since(t0)
		b.StartTimer()
	}
	if n == 0 {
		b.Fatal("no unreachable code: the benchmark measures nothing")
	}
	b.ReportMetric(float64(siteTime.Nanoseconds())/float64(b.N)/1e6, "site-diagnostics-ms/op")
	b.Logf("%d files with sites; %d unreachable diagnostics per run", len(sites), n/b.N)
}
