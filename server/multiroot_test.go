package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/incremental"
	"go.lsp.dev/uri"
)

// TestMultiRootProjects: two unrelated folders with the same classes are two
// analyses. In one class path the second folder's classes would be shadowed by the
// first's, and its files would have no diagnostics; analysed separately, both do,
// and requests on each file are answered from its own project. Each project's
// specification file is watched.
func TestMultiRootProjects(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses the whole JDK twice")
	}
	a, b := workspace(t, "plugins"), workspace(t, "plugins")
	e := newEnv(t, a, envOptions{config: map[string]any{"level": "correct-string"}, folders: []string{b}})
	st := e.waitReady(0)
	if !strings.Contains(st.Message, filepath.Base(a)+": ") || !strings.Contains(st.Message, filepath.Base(b)+": ") {
		t.Errorf("status names one project: %q", st.Message)
	}
	factory := filepath.Join("src", "main", "java", "app", "Factory.java")
	for _, dir := range []string{a, b} {
		u := uri.File(filepath.Join(dir, factory))
		e.waitFor("diagnostics in "+dir, func() bool { return len(e.diags[u]) > 0 })
		text, err := os.ReadFile(u.FsPath())
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(a, u.FsPath()) // e.hover takes paths relative to the first folder
		if h := e.hover(rel, posIn(t, string(text), `Class\.(forName)\(name\)`)); !strings.Contains(h, "Class.forName") {
			t.Errorf("hover in %s: %q", dir, h)
		}
	}

	// The second project's specification file, written outside the editor (a git
	// checkout, say): the watcher rebuilds, and the site it specifies is resolved
	// in that project only.
	unresolved := func(dir string) bool {
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, d := range e.diags[uri.File(filepath.Join(dir, factory))] {
			if d.Range.Start.Line == 17 && strings.Contains(fmt.Sprint(d.Message), "Class.forName: unresolved") {
				return true
			}
		}
		return false
	}
	if !unresolved(a) || !unresolved(b) {
		t.Fatal("Factory.create's Class.forName is resolved before any specification")
	}
	n := e.numStatuses()
	if err := os.WriteFile(filepath.Join(b, "jcg-spec.txt"), []byte("app.Factory.create @ 18 => app.plugins.Hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := e.waitReady(n); got.Reason != string(incremental.ReasonSpec) {
		t.Errorf("status after writing the second project's specification: %+v", got)
	}
	if !unresolved(a) || unresolved(b) {
		t.Errorf("after the second project's specification: unresolved in the first %v (want true), in the second %v (want false)", unresolved(a), unresolved(b))
	}

	var cp string
	if err := e.command(cmdShowClassPath, &cp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cp, "Project 2 of 2") || !strings.Contains(cp, filepath.Join(b, "target", "classes")) {
		t.Errorf("class path of two projects:\n%s", cp)
	}
}
