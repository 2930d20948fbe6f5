//go:build !unix

package live

import "os/exec"

// Without process groups, only the server process itself is stopped.
func setProcessGroup(*exec.Cmd) {}

func start(cmd *exec.Cmd, _ <-chan struct{}) error { return cmd.Start() }

func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
