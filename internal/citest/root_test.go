package citest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// sharedDir outlives single tests, for what they share.
var sharedDir string

func TestMain(m *testing.M) {
	var err error
	if sharedDir, err = os.MkdirTemp("", "citest"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(sharedDir)
	os.Exit(code)
}

// run runs a command and fails the test when it fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := command(dir, env, name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func command(dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// goEnv reads a variable of `go env`.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(run(t, "", nil, "go", "env", name))
}
