//go:build unix

package jvmrecord

import (
	"os/exec"
	"syscall"
)

func processGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the process group that cmd leads, so that the JVM started by a
// wrapper (xvfb-run) does not outlive a timeout.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
