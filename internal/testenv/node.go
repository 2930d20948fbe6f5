package testenv

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NPMFolders are the folders (relative to the repository root) whose npm
// packages the tests run: `make test` installs each with `npm ci`.
var NPMFolders = []string{"testdata/oracles", "report/testdata/npm", "live/testdata/reference-servers", "testdata/conformance", "testdata/tokenizer"}

// NPMInstalled says why the packages of folder (one of NPMFolders) cannot
// run, or nil when node is on PATH and `npm ci` has installed them.
func NPMInstalled(root, folder string) error {
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("Node.js (node on PATH) is missing; install it, then `make test` installs the npm packages of %s", folder)
	}
	if _, err := os.Stat(filepath.Join(root, folder, "node_modules", ".package-lock.json")); err != nil {
		return fmt.Errorf("the npm packages of %s are not installed; `make test` installs them (npm ci)", folder)
	}
	return nil
}

// NPM returns the absolute path of folder (one of NPMFolders) when its
// packages can run, and otherwise skips t, or fails it under `make test`
// (see Missing).
func NPM(t testing.TB, folder string) string {
	t.Helper()
	root := RepoRoot(t)
	if err := NPMInstalled(root, folder); err != nil {
		Missing(t, err.Error())
	}
	return filepath.Join(root, folder)
}

// Oracles is the folder of the npm packages that judge mcplint's output
// (testdata/oracles): the MCP TypeScript SDK, Ajv, Zod and tsc.
func Oracles(t testing.TB) string {
	t.Helper()
	return NPM(t, "testdata/oracles")
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

// Conformance returns the node binary (Node.js 22, which the suite needs)
// and the entry script of the official MCP conformance suite installed in
// testdata/conformance, skipping or failing t as NPM does when they are
// missing. Node 22 comes from npm there, so the machine's node may be older.
func Conformance(t testing.TB) (node, suite string) {
	t.Helper()
	dir := NPM(t, "testdata/conformance")
	node = filepath.Join(dir, "node_modules", ".bin", "node")
	if _, err := os.Stat(node); err != nil {
		Missing(t, "Node.js 22 of testdata/conformance is missing (its package is for Linux on x64 only); `make test` installs it with npm ci")
	}
	return node, filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
}
