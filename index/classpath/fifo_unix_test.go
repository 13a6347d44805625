//go:build unix

package classpath

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNamedPipeNeverBlocks gives a named pipe as a class-path entry and as a
// class file (a symbolic link X.class to a pipe) in a class directory. Opening a
// pipe for reading blocks until a writer comes, so before the fix Open never
// returned; now each is a warning naming the path and the rest still loads.
func TestNamedPipeNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "app.jar")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	classes := writeClassDir(t, filepath.Join(dir, "classes"), map[string][]byte{"p/A.class": fakeClass("A")})
	if err := os.Symlink(pipe, filepath.Join(classes, "p", "B.class")); err != nil {
		t.Fatal(err)
	}

	type result struct {
		cp  *ClassPath
		err error
	}
	done := make(chan result, 1)
	go func() {
		cp, err := Open(context.Background(), Config{NoJDK: true, Sources: []Source{{Path: pipe}, {Path: classes}}})
		done <- result{cp, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		// Unblock the reader so that the test binary can end.
		if f, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("Open blocked on a named pipe")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	defer r.cp.Close()
	assertWarningContains(t, r.cp, pipe, "named pipe")
	assertWarningContains(t, r.cp, classes, "B.class")
	if got := names(r.cp); len(got) != 1 || got[0] != "p/A" {
		t.Errorf("classes = %v, want [p/A]", got)
	}
}
