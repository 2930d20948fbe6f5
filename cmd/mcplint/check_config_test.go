package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// projectWithServers writes a .mcplint.yaml whose servers are this test
// binary serving testServer, plus extra lines, and enters its folder.
func projectWithServers(t *testing.T, extra string) string {
	t.Helper()
	dir := t.TempDir()
	server := fmt.Sprintf(`{command: %q, args: ["-test.run=^$"], env: {%s: ok}}`, os.Args[0], checkServerEnv)
	cfg := "servers:\n  alpha: " + server + "\n  beta: " + server + "\n" + extra
	if err := os.WriteFile(filepath.Join(dir, ".mcplint.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	return dir
}

// TestCheckFollowsConfig: check reads .mcplint.yaml as lint does, and with
// no target checks every server it lists.
func TestCheckFollowsConfig(t *testing.T) {
	projectWithServers(t, `select: [tool-name-valid, context-budget]
fail-on: warning
severity:
  tool-name-valid: error
options:
  context-budget: {description-bytes: 12}
`)
	r := mcplint(t, runOpts{}, "check")
	r.want(t, 1)
	for _, want := range []string{
		"== alpha\nserver cli-test-server 2.0.0, protocol 2026-07-28 over stdio: 2 tools, 0 prompts, 0 resources, 0 resource templates\n",
		"== beta\n",
		`alpha: tool "read file": error tool-name-valid`,                // named as configured
		`error tool-name-valid: tool name "read file" contains a space`, // severity from the file
		"warning context-budget:",                                       // its option from the file
		"alpha: 2 tools, 0 prompts, 0 resources, 0 resource templates; 1 error, 1 warning\nbeta: 2 tools, 0 prompts, 0 resources, 0 resource templates; 1 error, 1 warning\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	// The flags win over the file.
	r = mcplint(t, runOpts{}, "check", "--fail-on=never", "--select=tool-name-valid", "--quiet")
	r.want(t, 0)
	if r.stdout != "alpha: 2 tools, 0 prompts, 0 resources, 0 resource templates; 1 error, 0 warnings\nbeta: 2 tools, 0 prompts, 0 resources, 0 resource templates; 1 error, 0 warnings\n" {
		t.Errorf("--quiet prints more than the summary lines:\n%s", r.stdout)
	}
}

func TestCheckConfigIgnoreAndFailOn(t *testing.T) {
	projectWithServers(t, `select: [tool-name-valid, description-present]
fail-on: info
ignore:
  - rule: tool-name-valid
    tool: "read *"
    reason: the name is kept for existing clients
`)
	r := mcplint(t, runOpts{}, "check", "--format=json")
	r.want(t, 0)
	var doc struct {
		Servers []struct {
			Name        string
			Diagnostics []struct{ Rule, Tool string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Servers) != 2 {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	for _, s := range doc.Servers {
		if len(s.Diagnostics) != 0 {
			t.Errorf("%s: the ignored finding is reported: %+v", s.Name, s.Diagnostics)
		}
	}
	// A command line target checks only that server, with the file's
	// settings still applied (fail-on info, the ignore entry).
	r = mcplint(t, runOpts{}, "check", "--select=tool-name-valid,description-present", serverEnvFlag("ok"), "--", os.Args[0], "-test.run=^$")
	r.want(t, 0)
	if strings.Contains(r.stdout, "== ") || !strings.Contains(r.stdout, "0 errors, 0 warnings, 0 infos") {
		t.Errorf("output:\n%s", r.stdout)
	}
}

func TestCheckConfigErrors(t *testing.T) {
	dir := projectWithServers(t, "protocol: \"1999-01-01\"\n")
	r := mcplint(t, runOpts{}, "check")
	r.want(t, 2)
	if !strings.Contains(r.stderr, ".mcplint.yaml:4:1: protocol: unknown MCP protocol version \"1999-01-01\"; want one of") {
		t.Errorf("stderr %q", r.stderr)
	}
	// --config names mcplint's configuration; a client configuration given
	// there is explained.
	client := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(client, []byte(`{"mcpServers": {"a": {"command": "x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = mcplint(t, runOpts{}, "check", "--config", client)
	r.want(t, 2)
	if r.stderr != "mcplint: --config "+client+": an MCP client configuration, not mcplint's; check its servers with --client-config "+client+" (--config names mcplint's own configuration, as for lint)\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

// TestLockFollowsConfig: lock with no target pins the servers of
// .mcplint.yaml, which check --locked then checks against it.
func TestLockFollowsConfig(t *testing.T) {
	dir := projectWithServers(t, "select: [tool-name-valid]\nfail-on: never\n")
	r := mcplint(t, runOpts{}, "lock")
	r.want(t, 0)
	for _, want := range []string{"locked alpha: 2 tools", "locked beta: 2 tools", "wrote mcplint.lock (2 servers)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lock output lacks %q:\n%s", want, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mcplint.lock")); err != nil {
		t.Fatal(err)
	}
	r = mcplint(t, runOpts{}, "check", "--locked", "-q")
	r.want(t, 0)
}
