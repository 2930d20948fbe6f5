package testenv

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Oracles is the folder of the npm packages that judge mcplint's output
// (testdata/oracles). The test fails, not skips, when they are not
// installed: CI installs them (.ci/setup.d/oracles.sh), and a developer
// runs `npm ci` there once.
func Oracles(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(RepoRoot(t), "testdata", "oracles")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err != nil {
		t.Fatalf("the oracle packages are not installed: run `npm ci` in %s (%v)", dir, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is needed to run the oracles: %v", err)
	}
	return dir
}

// Node runs a script of the oracle folder with node, stdin as its input,
// and returns its standard output. A non-zero exit fails the test with the
// script's standard error.
func Node(t testing.TB, script string, stdin []byte, args ...string) []byte {
	t.Helper()
	dir := Oracles(t)
	cmd := exec.Command("node", append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	return stdout.Bytes()
}
