//go:build !unix

package main

import (
	"os"
)

// guardStdout cannot redirect file descriptors here: the stream is standard output.
func guardStdout() (*os.File, error) { return os.Stdout, nil }
