//go:build unix && !linux

package live

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts the command in a process group of its own, so that
// killing the group reaches whatever it starts (npx starts node, a shell
// script starts its server). Unlike Linux, these systems have no
// parent-death signal: a server outlives an mcplint killed with SIGKILL
// until it reads the end of its standard input.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func start(cmd *exec.Cmd, _ <-chan struct{}) error { return cmd.Start() }

// killTree kills the process group: what left it (setsid) is out of reach
// here.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
