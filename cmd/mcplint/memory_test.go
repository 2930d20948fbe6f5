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
// collects, which shows the test can fail. It runs mcplint as built for a
// release, not this test binary: the test-only packages' initialisation
// (a Markdown parser, go-cmp) takes the heap near the runtime's first goal
// before main starts, so a collection there would say nothing of mcplint.
func TestSmallRunsDoNotCollect(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcplint")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
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
		cmd := exec.Command(bin, "lint", path)
		cmd.Env = append(env, more...)
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
