package ide

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/analysis"
	"github.com/jcg-lsp/jcg-lsp/analysis/callgraph"
	"github.com/jcg-lsp/jcg-lsp/incremental"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
	"github.com/jcg-lsp/jcg-lsp/internal/minijdk"
)

// TestPropertySites checks the diagnostics and quick fixes of sites that the analysed
// environment decides (testdata/lsp/envprops: Main loads the class that system
// property demo.plugin names, and the one demo.theme names, demo.Light by default),
// with the mini JDK, where no reachable code sets a property:
//   - nothing configured, Correct-JDK: demo.plugin is unset, so its site loads
//     nothing, and demo.theme's loads demo.Light: both are resolved, for this
//     environment only, and say so as information, with a fix per program class
//     ("Analyse with demo.plugin=demo.Fast");
//   - demo.plugin configured: its site loads what it names, with nothing to say;
//   - Correct-String: the environment is unknown, both sites are unresolved, and no
//     fix offers a property.
func TestPropertySites(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "testdata", "lsp", "envprops", "src", "main", "java"))
	if err != nil {
		t.Fatal(err)
	}
	classes := javatest.Compile(t, src, javatest.Release(17))
	project := func() *incremental.Project {
		return &incremental.Project{
			ClassPath: []incremental.ClassPathEntry{
				{Path: minijdk.Dir(t), Origin: classpath.JDK}, {Path: classes, Origin: classpath.Application}},
			SourceRoots: []string{src},
		}
	}
	st := Settings{Severity: SeverityWarning, NativeSeverity: 0, HoverTargets: 10, MaxCallItems: 100}
	s := NewSession(func() Settings { return st }, func(msg string) { t.Errorf("bug: %s", msg) }, nil)
	type want struct {
		severity Severity
		message  string   // a part of the message
		fixes    []string // titles of the property fixes
	}
	const pluginLine, themeLine = 16, 17
	fixes := func(key string) []string {
		var out []string
		for _, c := range []string{"demo.Dark", "demo.Fast", "demo.Light", "demo.Main", "demo.Slow"} {
			out = append(out, "Analyse with "+key+"="+c+" (jcg.env)")
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		level callgraph.Level
		env   map[string]string
		want  map[int]want // by source line (1-based)
	}{
		{"unset", callgraph.CorrectJDK, nil, map[int]want{
			pluginLine: {SeverityInformation, "demo.plugin is unset in the analysed environment, so at Correct-JDK this site has no targets", fixes("demo.plugin")},
			themeLine:  {SeverityInformation, "demo.theme is unset in the analysed environment, so at Correct-JDK this site has 1 target", fixes("demo.theme")},
		}},
		{"configured", callgraph.CorrectJDK, map[string]string{"demo.plugin": "demo.Fast"}, map[int]want{
			themeLine: {SeverityInformation, "demo.theme is unset", fixes("demo.theme")},
		}},
		{"unknown", callgraph.CorrectString, nil, map[int]want{
			pluginLine: {SeverityWarning, "unresolved at Correct-String", nil},
			themeLine:  {SeverityWarning, "unresolved at Correct-String", nil},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := analyse(t, project(), analysis.Options{Level: tc.level, Algorithm: callgraph.CHA, Mains: []string{"demo.Main"}, Env: tc.env})
			got := map[int]bool{}
			for path, ds := range s.Diagnostics(context.Background(), &st, snap) {
				if filepath.Base(path) != "Main.java" {
					t.Errorf("diagnostics in %s: %v", path, ds)
					continue
				}
				for _, d := range ds {
					line := int(d.Range.Start.Line) + 1
					w, ok := tc.want[line]
					if !ok {
						t.Errorf("line %d: unexpected %q", line, d.Message)
						continue
					}
					got[line] = true
					if d.Severity != w.severity || !strings.Contains(d.Message, w.message) {
						t.Errorf("line %d: severity %d %q, want %d and %q", line, d.Severity, d.Message, w.severity, w.message)
					}
					var titles []string
					for _, f := range s.Fixes(snap, d.Data) {
						if f.Property != nil {
							titles = append(titles, f.Title)
							if !strings.HasPrefix(f.Title, "Analyse with "+f.Property.Key+"="+f.Property.Value) {
								t.Errorf("line %d: fix %q sets %+v", line, f.Title, *f.Property)
							}
						}
					}
					if !slices.Equal(titles, w.fixes) {
						t.Errorf("line %d: property fixes %q, want %q", line, titles, w.fixes)
					}
				}
			}
			for line := range tc.want {
				if !got[line] {
					t.Errorf("line %d: no diagnostic", line)
				}
			}
		})
	}
}
