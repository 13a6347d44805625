package facts

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classfile"
	"github.com/jcg-lsp/jcg-lsp/index/classpath"
)

// extractedJDK is a JDK image extracted to class files, used when the class path
// cannot find a JDK.
const extractedJDK = "/tmp/jdk17x"

type jdkClass struct {
	name string
	data []byte
}

var (
	jdkOnce    sync.Once
	jdkClasses []jdkClass
	jdkErr     error
)

// jdk returns the class files of the JDK: the one classpath.Open finds (JAVA_HOME, or
// java on PATH), else the extracted image at extractedJDK. It skips the test when
// neither is there.
func jdk(tb testing.TB) []jdkClass {
	tb.Helper()
	jdkOnce.Do(func() {
		cp, err := classpath.Open(context.Background(), classpath.Config{})
		if err == nil {
			// The class bytes of the image are memory-mapped; the mapping lives as
			// long as the test binary, which is what the tests want.
			for _, c := range cp.Classes {
				if c.Origin == classpath.JDK {
					jdkClasses = append(jdkClasses, jdkClass{c.Container + "!" + c.Entry, c.Data})
				}
			}
			if len(jdkClasses) > 0 {
				return
			}
		}
		if _, statErr := os.Stat(extractedJDK); statErr != nil {
			jdkErr = errors.Join(err, statErr)
			return
		}
		jdkErr = filepath.WalkDir(extractedJDK, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".class") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			jdkClasses = append(jdkClasses, jdkClass{path, b})
			return nil
		})
	})
	if jdkErr != nil || len(jdkClasses) == 0 {
		tb.Skipf("no JDK classes (classpath.Open found no JDK and %s is missing): %v", extractedJDK, jdkErr)
	}
	return jdkClasses
}

func TestExtractJDK(t *testing.T) {
	classes := jdk(t)
	var methods, calls, indys, allocs int
	for _, c := range classes {
		f, err := classfile.Parse(c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		fc, err := Extract(f)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if len(fc.Methods) != len(f.Methods) {
			t.Fatalf("%s: %d method facts for %d methods", c.name, len(fc.Methods), len(f.Methods))
		}
		if msg := nilRef(fc); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
		for _, m := range fc.Methods {
			methods++
			calls += len(m.Calls)
			allocs += len(m.Allocs)
			for _, cl := range m.Calls {
				if cl.Indy != nil {
					indys++
				}
			}
		}
	}
	t.Logf("%d classes, %d methods, %d call sites (%d invokedynamic), %d allocations", len(classes), methods, calls, indys, allocs)
}

func TestAnalyzeJDK(t *testing.T) {
	classes := jdk(t)
	n := 3000
	if testing.Short() {
		n = 300
	}
	n = min(n, len(classes))
	analyzed := 0
	for _, c := range classes[:n] {
		f, err := classfile.Parse(c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for i := range f.Methods {
			m := &f.Methods[i]
			if !m.HasCode() {
				continue
			}
			fl, err := Analyze(f, m)
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			analyzed++
			checkFlow(t, c.name, f, m, fl)
		}
	}
	t.Logf("analyzed %d methods of %d classes", analyzed, n)
}
