package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/benchgen"
)

// TestSmallRunsDoNotCollect: linting fifty tools runs no collection
// (quietStart); with a smaller first goal than the default, the same run
// collects, which shows the test can fail.
func TestSmallRunsDoNotCollect(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(path, benchgen.Manifest(50), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "GODEBUG=") {
			env = append(env, kv)
		}
	}
	env = append(env, "GODEBUG=gctrace=1")
	run := func(more ...string) string {
		cmd := asMcplint(append(env, more...), "lint", path)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFindings {
				t.Fatalf("lint: %v\n%s", err, stderr.String())
			}
		}
		return stderr.String()
	}
	if out := run(); strings.Contains(out, "gc 1 @") {
		t.Errorf("a run of fifty tools collected:\n%s", out)
	}
	if out := run("GOGC=25"); !strings.Contains(out, "gc 1 @") {
		t.Errorf("with GOGC=25, a run of fifty tools did not collect (so the test above proves nothing):\n%s", out)
	}
}
