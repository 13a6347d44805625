//go:build unix

package main

import (
	"os"
	"syscall"
)

// guardStdio returns the files of the LSP stream. Output goes to a duplicate of
// standard output, and file descriptor 1 is pointed at standard error, so that a stray
// print (ours, a library's or a child process's) lands in the log instead of
// corrupting the stream. Input is a non-blocking duplicate of standard input, so that
// closing it ends a pending read when the client exits without closing the pipe.
func guardStdio() (in, out *os.File, err error) {
	ofd, err := syscall.Dup(1)
	if err != nil {
		return nil, nil, err
	}
	syscall.CloseOnExec(ofd)
	if err := dup2(2, 1); err != nil {
		syscall.Close(ofd)
		return nil, nil, err
	}
	out = os.NewFile(uintptr(ofd), "lsp-stdout")
	ifd, err := syscall.Dup(0)
	if err != nil {
		return os.Stdin, out, nil
	}
	syscall.CloseOnExec(ifd)
	if err := syscall.SetNonblock(ifd, true); err != nil {
		syscall.Close(ifd)
		return os.Stdin, out, nil
	}
	// os.NewFile registers a non-blocking descriptor with the runtime poller (for
	// pipes and sockets; a regular file stays blocking, and ends with EOF anyway).
	return os.NewFile(uintptr(ifd), "lsp-stdin"), out, nil
}
