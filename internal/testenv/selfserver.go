package testenv

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// SelfServe is the TestMain of a test binary that doubles as the servers
// its tests start: with the environment variable env set, it runs the
// server mode env names through serve instead of the tests. It does not
// return.
func SelfServe(m *testing.M, env string, serve func(mode string) int) {
	if mode := os.Getenv(env); mode != "" {
		os.Exit(serve(mode))
	}
	os.Exit(m.Run())
}

// WritePIDs writes this process's id to the file that the environment
// variable pidVar names, when it names one, so that a test can check that
// no process outlives it. With grandchild it first starts the test binary
// again, in the same process group, as the server mode "sleep" of env, and
// writes that id too: a process the code under test must stop as well.
func WritePIDs(pidVar, env string, grandchild bool) {
	f := os.Getenv(pidVar)
	if f == "" {
		return
	}
	pids := strconv.Itoa(os.Getpid())
	if grandchild {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), env+"=sleep", pidVar+"=")
		if err := cmd.Start(); err == nil {
			pids += " " + strconv.Itoa(cmd.Process.Pid)
		}
	}
	_ = os.WriteFile(f, []byte(pids), 0o644)
}
