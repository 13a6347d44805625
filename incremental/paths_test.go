package incremental

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"github.com/jcg-lsp/jcg-lsp/index"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/fspath"
)

// TestFoldCaseFolders discovers projects as on macOS's (and Windows's)
// case-insensitive file system, where /work/Proj and /work/PROJ are one folder and
// /work/proj/sub is inside /work/Proj: one project, not two analyses of the same
// classes. On Linux the same spellings are different folders.
func TestFoldCaseFolders(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"Proj/target/classes", "Proj/src/main/java", "Proj/sub", "Other/target/classes"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	proj, other := filepath.Join(root, "Proj"), filepath.Join(root, "Other")
	spelled, sub := filepath.Join(root, "PROJ"), filepath.Join(root, "proj", "sub")
	src := filepath.Join(root, "proj", "src", "main", "java", "p", "A.java")
	st := Discovery{SpecFile: "jcg-spec.txt"}
	folders := func(ps []*Project) [][]string {
		var out [][]string
		for _, p := range ps {
			out = append(out, p.Folders)
		}
		return out
	}

	mac := fspath.For("darwin")
	ps := discoverProjects(mac, []string{proj, spelled, other}, &st)
	if got, want := folders(ps), [][]string{{proj}, {other}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("folders %q (two spellings of one), want %q", got, want)
	}
	ps = discoverProjects(mac, []string{other, sub, proj}, &st)
	if got, want := folders(ps), [][]string{{other}, {sub, proj}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("folders %q (one inside the other), want %q", got, want)
	}
	if !ps[1].Contains(src) || ps[0].Contains(src) {
		t.Errorf("%s is in %v, %v", src, ps[0].Contains(src), ps[1].Contains(src))
	}
	if !ps[1].Contains(filepath.Join(root, "PROJ", "JCG-SPEC.TXT")) {
		t.Errorf("the specification file is not in its project when spelled in capitals")
	}

	// Linux: a folder per spelling, and the document in neither.
	ps = discoverProjects(fspath.For("linux"), []string{proj, spelled, other}, &st)
	if len(ps) != 3 || ps[0].Contains(src) {
		t.Errorf("Linux: folders %q, contains %s: %v", folders(ps), src, ps[0].Contains(src))
	}
}

// TestProjectContainsWindows: a document's path from its URI (c:\work\proj\...)
// belongs to the project of the folder C:\Work\Proj, and one on a share to the
// project whose source root is there.
func TestProjectContainsWindows(t *testing.T) {
	p := &Project{
		Folders:     []string{`C:\Work\Proj`},
		SourceRoots: []string{`\\fileserver\share\src`},
		ClassPath:   []ClassPathEntry{{Path: `D:\`}},
		SpecFile:    `C:\Work\Proj\jcg-spec.txt`,
		paths:       fspath.For("windows"),
	}
	for path, want := range map[string]bool{
		`c:\work\proj\src\main\java\A.java`: true,
		`c:/Work/Proj/B.java`:               true,
		`C:\Work\Project\A.java`:            false,
		`\\FILESERVER\share\src\p\B.java`:   true,
		`\\fileserver\share2\src\p\B.java`:  false,
		`d:\lib\x.jar`:                      true,
		`e:\lib\x.jar`:                      false,
		`c:\work\proj\JCG-SPEC.TXT`:         true,
	} {
		if got := p.Contains(path); got != want {
			t.Errorf("Contains(%s) = %v, want %v", path, got, want)
		}
	}
}

// TestWatcherFoldCase: on a case-insensitive file system a specification file
// configured as JCG-Spec.txt is the jcg-spec.txt the editor writes. The event
// names the file as the directory spells it; the watcher reports it as
// configured, which is how the host knows the specification file.
func TestWatcherFoldCase(t *testing.T) {
	dir := t.TempDir()
	classes := filepath.Join(dir, "target", "classes")
	if err := os.MkdirAll(classes, 0o755); err != nil {
		t.Fatal(err)
	}
	configured := filepath.Join(dir, "JCG-Spec.txt")
	mac := fspath.For("darwin")
	got := make(chan ChangeSet, 4)
	w, err := Watch(index.Config{Sources: []classpath.Source{{Path: classes}}}, []string{configured},
		func(_ context.Context, cs ChangeSet) ([]string, error) { got <- cs; return nil, nil },
		WatchOptions{Quiet: 50 * time.Millisecond, Logger: zaptest.NewLogger(t), paths: &mac})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := os.WriteFile(filepath.Join(dir, "jcg-spec.txt"), []byte("# reviewed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case cs := <-got:
		if !slices.Contains(cs.Paths, configured) {
			t.Errorf("change set %+v, want %s", cs, configured)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no change set for the specification file written as jcg-spec.txt")
	}
}
