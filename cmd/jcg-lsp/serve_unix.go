//go:build unix

package main

import (
	"os"
	"syscall"
)

// guardStdout returns a new file for the LSP stream on what was standard output and
// points file descriptor 1 at standard error, so that a stray print (ours, a
// library's or a child process's) lands in the log instead of corrupting the stream.
func guardStdout() (*os.File, error) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, err
	}
	syscall.CloseOnExec(fd)
	if err := dup2(2, 1); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "lsp-stdout"), nil
}
