//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// processExists says whether the process pid is still there.
func processExists(pid int) bool { return syscall.Kill(pid, 0) == nil }

// ownGroup starts cmd in a process group of its own, so that killGroup
// stops what it starts too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// newSession starts cmd in a session of its own (setsid), out of the
// process group a check stops.
func newSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

func killProcess(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
