package main

import (
	"os"
	"os/exec"
)

// processExists says whether the process pid is still there: on Windows,
// FindProcess opens it, which fails once it is gone.
func processExists(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

func ownGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

func newSession(*exec.Cmd) {}

func killProcess(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
