//go:build !unix

package main

import "os"

// guardStdio cannot redirect file descriptors here: the stream is standard input
// and output.
func guardStdio() (in, out *os.File, err error) { return os.Stdin, os.Stdout, nil }
