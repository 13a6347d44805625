package index

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

const jdk17 = "/usr/lib/jvm/java-17-openjdk-amd64"

func jdkConfig(tb testing.TB) Config {
	if _, err := os.Stat(jdk17 + "/lib/modules"); err != nil {
		tb.Skipf("no JDK 17 image at %s (apt-get install -y openjdk-17-jdk-headless)", jdk17)
	}
	return Config{JDKHome: jdk17}
}

// BenchmarkBuildJDK opens the full JDK 17 image, parses every class header and builds
// the hierarchy (budget: 0.4 s on 2 cores).
func BenchmarkBuildJDK(b *testing.B) {
	cfg := jdkConfig(b)
	for b.Loop() {
		ix, err := Build(context.Background(), cfg, nil)
		if err != nil {
			b.Fatal(err)
		}
		ix.Close()
	}
}

// BenchmarkBuildJDKFacts additionally extracts the facts of every method (budget:
// 1.5 s on 2 cores) and reports the heap in use afterwards (budget: 600 MiB).
func BenchmarkBuildJDKFacts(b *testing.B) {
	cfg := jdkConfig(b)
	var heap uint64
	for b.Loop() {
		ix, err := Build(context.Background(), cfg, nil)
		if err != nil {
			b.Fatal(err)
		}
		if errs := ix.ExtractAll(context.Background()); len(errs) > 0 {
			b.Fatal(errs[0])
		}
		b.StopTimer()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = max(heap, ms.HeapInuse)
		runtime.KeepAlive(ix)
		ix.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(heap)/(1<<20), "MiB-heap")
}

func TestBuildReportsBadClasses(t *testing.T) {
	dir := t.TempDir()
	// A truncated class and a class whose name does not match its path.
	if err := os.WriteFile(dir+"/Broken.class", []byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52, 0, 9}, 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Build(context.Background(), Config{NoJDK: true, Sources: []classpath.Source{{Path: dir, Origin: classpath.Application}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if len(ix.Warnings) != 1 {
		t.Fatalf("warnings = %q, want one naming Broken.class", ix.Warnings)
	}
	if w := ix.Warnings[0]; !strings.Contains(w, "Broken.class") || !strings.Contains(w, "at byte") {
		t.Errorf("warning %q does not name the entry and the offset", w)
	}
}
