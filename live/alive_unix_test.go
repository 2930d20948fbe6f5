//go:build unix

package live

import (
	"errors"
	"os/exec"
	"syscall"
)

// alive reports whether a process exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// newSession starts cmd in a session of its own (setsid).
func newSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
