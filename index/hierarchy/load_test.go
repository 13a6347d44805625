package hierarchy_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/index/hierarchy"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// The JDK is parsed once per test binary and shared: it is immutable, and parsing
// 27,000 classes for every test would dominate the run time.
var jdkState struct {
	once   sync.Once
	inputs []hierarchy.Input
	err    error
}

// jdkInputs returns the parsed classes of the JDK that javatest's javac belongs to.
// The class path stays open for the life of the test binary: the parsed files point
// into its memory mapping.
func jdkInputs(t testing.TB) []hierarchy.Input {
	t.Helper()
	home := javatest.JDKHome(t)
	jdkState.once.Do(func() {
		cp, err := classpath.Open(context.Background(), classpath.Config{JDKHome: home})
		if err != nil {
			jdkState.err = err
			return
		}
		files := make([]*classfile.File, len(cp.Classes))
		errs := make([]error, len(cp.Classes))
		var wg sync.WaitGroup
		workers := runtime.GOMAXPROCS(0)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; i < len(files); i += workers {
					files[i], errs[i] = classfile.Parse(cp.Classes[i].Data)
				}
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				jdkState.err = fmt.Errorf("%s: %s: %w", cp.Classes[i].Container, cp.Classes[i].Entry, err)
				return
			}
			jdkState.inputs = append(jdkState.inputs, hierarchy.Input{File: files[i], Origin: hierarchy.JDK})
		}
	})
	if jdkState.err != nil {
		t.Fatalf("loading the JDK: %v", jdkState.err)
	}
	return jdkState.inputs
}

// classDir parses every class file under dir, skipping the classes whose names
// start with one of the excluded prefixes.
func classDir(t testing.TB, dir string, exclude []string) []hierarchy.Input {
	t.Helper()
	var inputs []hierarchy.Input
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".class") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".class")
		for _, p := range exclude {
			if strings.HasPrefix(name, p) {
				return nil
			}
		}
		f, err := classfile.Open(path)
		if err != nil {
			return err
		}
		inputs = append(inputs, hierarchy.Input{File: f, Origin: hierarchy.Application})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return inputs
}

// withJDK builds a hierarchy of the JDK followed by app, so that the JDK wins
// name clashes as it does on a real class path.
func withJDK(t testing.TB, app []hierarchy.Input) *hierarchy.Hierarchy {
	t.Helper()
	jdk := jdkInputs(t)
	inputs := make([]hierarchy.Input, 0, len(jdk)+len(app))
	inputs = append(append(inputs, jdk...), app...)
	return hierarchy.New(inputs)
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
