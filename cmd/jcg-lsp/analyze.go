package main

import (
	"context"
	"errors"
	"io"
)

func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("analyze: not yet available")
}

func runCallgraph(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("callgraph: not yet available")
}
