package server

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/jcg-lsp/jcg-lsp/incremental/buildtool"
	"github.com/jcg-lsp/jcg-lsp/internal/debmaven"
)

// BenchmarkMavenStart measures initialize to the first published diagnostics (and to
// the end of the first build) with a new server each time, on the Maven test project
// guava-app (Guava, Commons Lang and JUnit from Debian's repository, the defaults:
// TFA at Correct-JDK, the full JDK):
//   - configured: the six library jars configured (jcg.libraries), no build tool:
//     the same analysis without resolving;
//   - maven: Maven run at every start (a resolver without a cache);
//   - cached: the resolution from the cache on disk, as a restart over unchanged
//     POMs has it.
//
// maven minus configured is what the first resolution delays the first diagnostics
// by; cached minus configured what a restart's does.
func BenchmarkMavenStart(b *testing.B) {
	home := debmaven.Home(b)
	b.Setenv("HOME", home)
	mvn := debmaven.Maven(b)
	dir := debmaven.Workspace(b, "guava-app")
	res, err := buildtool.New(buildtool.Options{Home: home}).Resolve(b.Context(), buildtool.Request{Dir: dir, Trusted: false})
	if err != nil {
		b.Fatal(err)
	}
	var jars []string
	for _, d := range res.Libraries() {
		jars = append(jars, d.Path)
	}
	cache := b.TempDir()
	if _, err := buildtool.New(buildtool.Options{Home: home, Maven: mvn, CacheDir: cache}).Resolve(b.Context(), buildtool.Request{Dir: dir, Trusted: true}); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		config   map[string]any
		resolver func() *buildtool.Resolver
	}{
		{"configured", map[string]any{"classPath": []string{"target/classes"}, "libraries": jars}, func() *buildtool.Resolver { return nil }},
		{"maven", nil, func() *buildtool.Resolver { return buildtool.New(buildtool.Options{Home: home, Maven: mvn}) }},
		{"cached", nil, func() *buildtool.Resolver {
			return buildtool.New(buildtool.Options{Home: home, Maven: mvn, CacheDir: cache})
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var toDiag, toReady []time.Duration
			var resolving int64
			for i := 0; i < b.N; i++ {
				start := time.Now()
				e := newEnv(b, dir, envOptions{config: c.config, logger: zap.NewNop(), buildTools: c.resolver()})
				e.waitFor("first diagnostics", func() bool { return len(e.diags[e.uri(src("example/guava/App.java"))]) > 0 })
				toDiag = append(toDiag, time.Since(start))
				st := e.waitReady(0)
				toReady = append(toReady, time.Since(start))
				e.close()
				resolving = max(resolving, st.BuildMs)
				if c.name != "configured" && !strings.Contains(st.Build, "6 libraries, 0 missing (ran)") || st.MissingClasses != 0 {
					b.Fatalf("build %q, %d missing classes", st.Build, st.MissingClasses)
				}
			}
			b.ReportMetric(float64(slices.Max(toDiag))/1e6, "initialize-to-diagnostics-max-ms")
			b.ReportMetric(float64(slices.Max(toReady))/1e6, "initialize-to-ready-max-ms")
			b.ReportMetric(float64(resolving), "resolving-max-ms")
		})
	}
}
