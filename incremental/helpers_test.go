package incremental

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.uber.org/zap/zaptest"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/analysis/spec"
	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// javac compiles the sources (relative path -> text) into out, with debug info.
func javac(t testing.TB, srcs map[string]string, out string) {
	t.Helper()
	javacCP(t, srcs, out, "")
}

// javacCP is javac with a class path.
func javacCP(t testing.TB, srcs map[string]string, out, cp string) {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for rel, text := range srcs {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	sort.Strings(files)
	args := []string{"-g", "-proc:none", "-Xlint:none", "-encoding", "UTF-8", "-d", out}
	if cp != "" {
		args = append(args, "-cp", cp)
	}
	args = append(args, files...)
	cmd := exec.Command(javatest.Javac(t), args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	minijdk.Cleanup()
	os.Exit(code)
}

// testSettings analyses the class directory dir with a few JDK classes (fast under
// -race).
func testSettings(t testing.TB, dir, specPath string) Settings {
	return Settings{
		Config: index.Config{Sources: []classpath.Source{{Path: minijdk.Dir(t), Origin: classpath.JDK},
			{Path: dir, Origin: classpath.Application}}},
		SpecPath: specPath,
		Levels:   []callgraph.Level{callgraph.CorrectEnv},
		Options:  analysis.Options{LibraryMode: true},
	}
}

func newTestManager(t testing.TB, st Settings) *Manager {
	t.Helper()
	m, err := NewManager(context.Background(), st, Options{Logger: zaptest.NewLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// graphText renders a graph by method names: reachable methods, per-method callee
// sets and site statuses, so graphs of different indexes compare as text.
func graphText(ms func(int32) string, g *callgraph.Graph) string {
	var b strings.Builder
	var reach []string
	g.Reachable.ForEach(func(id int32) { reach = append(reach, ms(id)) })
	sort.Strings(reach)
	fmt.Fprintf(&b, "reachable %d edges %d\n", len(reach), g.NumEdges())
	for _, r := range reach {
		fmt.Fprintf(&b, "R %s\n", r)
	}
	var edges []string
	for n := int32(0); n < int32(g.NumNodes); n++ {
		var callees []string
		for _, bd := range g.Callees(n) {
			for _, c := range g.Sets[bd.Set] {
				callees = append(callees, ms(c))
			}
		}
		if len(callees) == 0 {
			continue
		}
		sort.Strings(callees)
		callees = slices.Compact(callees)
		edges = append(edges, "E "+ms(n)+" -> "+strings.Join(callees, " "))
	}
	sort.Strings(edges)
	var sites []string
	for _, s := range g.Sites {
		sites = append(sites, fmt.Sprintf("S %s pc=%d %s %s %s", ms(s.Caller), s.PC, s.API, s.Status, s.Evidence))
	}
	sort.Strings(sites)
	b.WriteString(strings.Join(edges, "\n"))
	b.WriteString("\n")
	b.WriteString(strings.Join(sites, "\n"))
	return b.String()
}

func snapshotText(t testing.TB, s *Snapshot, l callgraph.Level) string {
	t.Helper()
	g, err := s.Graph(context.Background(), l)
	if err != nil {
		return "error: " + err.Error()
	}
	ms := s.Index().Hierarchy().Methods()
	return graphText(func(id int32) string { return nodeName(ms, id) }, g)
}

// scratchText analyses st from scratch, without any cache.
func scratchText(t testing.TB, st Settings, l callgraph.Level) string {
	t.Helper()
	ix, err := index.Build(context.Background(), st.Config, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var data []byte
	if st.SpecPath != "" {
		data, _ = os.ReadFile(st.SpecPath)
	}
	opts := st.Options
	opts.Level = l
	opts.Spec = spec.Parse(st.SpecPath, data)
	g, err := analysis.New(ix).Run(context.Background(), opts)
	if err != nil {
		return "error: " + err.Error()
	}
	ms := ix.Hierarchy().Methods()
	return graphText(func(id int32) string { return nodeName(ms, id) }, g)
}
