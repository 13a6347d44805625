package server

import (
	"fmt"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// NewLogger returns a zap logger writing to stderr and, when file is not empty, to
// that file as well. It never writes to stdout, which carries the LSP stream.
func NewLogger(level, file string) (*zap.Logger, error) {
	cfg := zap.NewDevelopmentConfig()
	cfg.DisableStacktrace = true
	cfg.Development = false
	lvl, err := zapcore.ParseLevel(strings.ToLower(level))
	if err != nil {
		return nil, fmt.Errorf("log level %q: %w", level, err)
	}
	cfg.Level = zap.NewAtomicLevelAt(lvl)
	cfg.OutputPaths = []string{"stderr"}
	cfg.ErrorOutputPaths = []string{"stderr"}
	if file != "" {
		cfg.OutputPaths = append(cfg.OutputPaths, file)
		cfg.ErrorOutputPaths = append(cfg.ErrorOutputPaths, file)
	}
	return cfg.Build()
}
