package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sarifRun is what a test reads of a SARIF log's run.
type sarifRun struct {
	Invocations []struct {
		ExecutionSuccessful        bool
		ToolExecutionNotifications []struct {
			Level   string
			Message struct{ Text string }
		}
	}
	Results []json.RawMessage
}

func readSARIF(t *testing.T, b []byte) sarifRun {
	t.Helper()
	var log struct{ Runs []sarifRun }
	if err := json.Unmarshal(b, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v\n%s", err, b)
	}
	return log.Runs[0]
}

// TestFailedRunSaysSo: a lint run that exits 2 (one bad manifest among
// several) and a check that exits 3 (a server that could not be checked)
// do not leave a report that reads as a clean run: SARIF's invocation
// has executionSuccessful false with the error, JSON lists it under
// "errors", and so on; the findings of what was read are kept.
func TestFailedRunSaysSo(t *testing.T) {
	dir := t.TempDir()
	sarif := filepath.Join(dir, "mcplint.sarif")
	r := mcplint(t, runOpts{}, "lint", naming, "--format=sarif="+sarif, "testdata/names.json")
	r.want(t, 1)
	b, _ := os.ReadFile(sarif)
	if run := readSARIF(t, b); len(run.Results) == 0 || len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful {
		t.Fatalf("a clean run: %s", b)
	}

	r = mcplint(t, runOpts{}, "lint", naming, "--format=sarif="+sarif, "testdata/names.json", "testdata/invalid.json")
	r.want(t, 2)
	b, _ = os.ReadFile(sarif)
	run := readSARIF(t, b)
	if len(run.Results) == 0 || len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful {
		t.Fatalf("a failed lint's SARIF: %s", b)
	}
	if n := run.Invocations[0].ToolExecutionNotifications; len(n) != 1 || n[0].Level != "error" || !strings.Contains(n[0].Message.Text, "testdata/invalid.json:3:18: invalid JSON") {
		t.Errorf("notifications %+v", n)
	}
	// On standard output, as `--format sarif > file` writes it.
	r = mcplint(t, runOpts{}, "lint", naming, "--format=sarif", "testdata/invalid.json")
	r.want(t, 2)
	if run := readSARIF(t, []byte(r.stdout)); run.Invocations[0].ExecutionSuccessful {
		t.Errorf("stdout SARIF of a failed run:\n%s", r.stdout)
	}

	// check: one server that cannot be checked, every machine format.
	crash := []string{serverEnvFlag("crash"), "--", os.Args[0]}
	var args []string
	for _, f := range []string{"sarif", "json", "junit", "checkstyle", "gitlab"} {
		args = append(args, "--format="+f+"="+filepath.Join(dir, "check."+f))
	}
	r = mcplint(t, runOpts{}, append(append([]string{"check"}, args...), crash...)...)
	r.want(t, 3)
	b, _ = os.ReadFile(filepath.Join(dir, "check.sarif"))
	run = readSARIF(t, b)
	if run.Invocations[0].ExecutionSuccessful || len(run.Invocations[0].ToolExecutionNotifications) != 1 ||
		!strings.Contains(run.Invocations[0].ToolExecutionNotifications[0].Message.Text, "the server exited") {
		t.Errorf("a failed check's SARIF: %s", b)
	}
	for f, want := range map[string]string{
		"json":       `"errors": [`,
		"junit":      `<error message="the server exited`,
		"checkstyle": `source="mcplint.failure"`,
		"gitlab":     `"severity": "blocker"`,
	} {
		if b, err := os.ReadFile(filepath.Join(dir, "check."+f)); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v, want %q in\n%s", f, err, want, b)
		}
	}

	// Several servers, one of which fails.
	cfg := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(cfg, []byte(`{"mcpServers": {
		"good": {"command": "`+os.Args[0]+`", "args": ["-test.run=^$"], "env": {"`+checkServerEnv+`": "ok"}},
		"crashing": {"command": "`+os.Args[0]+`", "env": {"`+checkServerEnv+`": "crash"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = mcplint(t, runOpts{}, "check", "--fail-on=never", "--format=sarif", "--client-config", cfg)
	r.want(t, 3)
	run = readSARIF(t, []byte(r.stdout))
	if len(run.Results) == 0 || run.Invocations[0].ExecutionSuccessful || len(run.Invocations[0].ToolExecutionNotifications) != 1 ||
		!strings.HasPrefix(run.Invocations[0].ToolExecutionNotifications[0].Message.Text, "crashing: ") {
		t.Errorf("several servers, one failed:\n%s", r.stdout)
	}
}
