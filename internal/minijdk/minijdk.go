// Package minijdk gives tests a JDK of a few classes copied from the real one: enough
// for the dynamic features to be recognised, few enough for runs of milliseconds (and
// fast under -race).
package minijdk

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jcg-lsp/jcg-lsp/index/classpath"
	"github.com/jcg-lsp/jcg-lsp/internal/javatest"
)

// Classes are the JDK classes of the mini JDK.
var Classes = []string{"java/lang/Object", "java/lang/Class", "java/lang/String",
	"java/lang/System", "java/lang/Runnable", "java/lang/Thread", "java/lang/ClassLoader",
	"java/lang/Throwable", "java/lang/Exception", "java/lang/RuntimeException",
	"java/lang/reflect/Method", "java/lang/reflect/Constructor", "java/lang/reflect/Executable",
	"java/lang/reflect/AccessibleObject", "java/lang/reflect/Member", "java/io/PrintStream",
	"java/io/Serializable", "java/lang/Comparable", "java/lang/CharSequence",
	"java/lang/ReflectiveOperationException", "java/lang/ClassNotFoundException",
	"java/util/function/Supplier", "java/security/AccessController", "java/security/PrivilegedAction",
	"java/security/PrivilegedExceptionAction"}

var (
	once sync.Once
	dir  string
	err  error
)

// Dir returns a class directory holding Classes, written once per test binary to a
// temporary directory that Cleanup removes.
func Dir(t testing.TB) string {
	t.Helper()
	home := javatest.JDKHome(t)
	once.Do(func() { dir, err = write(home) })
	if err != nil {
		t.Fatalf("minijdk: %v", err)
	}
	return dir
}

func write(home string) (string, error) {
	cp, err := classpath.Open(context.Background(), classpath.Config{JDKHome: home})
	if err != nil {
		return "", err
	}
	defer cp.Close()
	d, err := os.MkdirTemp("", "jcg-minijdk-")
	if err != nil {
		return "", err
	}
	for _, n := range Classes {
		c := cp.Lookup(n)
		if c == nil {
			return "", fmt.Errorf("no %s in the JDK at %s", n, home)
		}
		p := filepath.Join(d, filepath.FromSlash(n)+".class")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, c.Data, 0o644); err != nil {
			return "", err
		}
	}
	return d, nil
}

// Cleanup removes the directory Dir wrote; call it from TestMain after the tests.
func Cleanup() {
	if dir != "" {
		os.RemoveAll(dir)
	}
}

// Main runs a package's tests and then Cleanup: the TestMain of a package whose
// tests call Dir.
func Main(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}
