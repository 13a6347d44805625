//go:build !unix

package jvmrecord

import (
	"os/exec"
	"syscall"
)

func processGroup() *syscall.SysProcAttr { return nil }

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
