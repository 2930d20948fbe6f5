// Package testenv locates what the tests read beside the code: the
// repository root, and the official MCP schemas kept next to the repository
// as oracles (never copied into it). It also holds the few helpers that
// the tests of several packages share (JSON, Golden, Buffer).
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// RepoRoot walks up from the test's working directory to go.mod.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}
