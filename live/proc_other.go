//go:build !unix

package live

import "os/exec"

// Without process groups, only the server process itself is stopped.
func setProcessGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
