package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/config"
)

// A manifest with a test-schema-type finding (safe fix) in two tools and a
// test-trim-description one in "legacy_list".
const twoTools = `{
  "tools": [
    {"name": "get_item", "description": "Get one item.", "inputSchema": {}},
    {"name": "legacy_list", "description": "List items. ", "inputSchema": {}}
  ]
}
`

// project makes a directory with a git marker, the given files, and makes
// it the current directory.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

func TestConfigFileDrivesLint(t *testing.T) {
	project(t, map[string]string{
		"tools/a.json": twoTools,
		".mcplint.yaml": `select: [test]
files: ["tools/*.json"]
severity:
  test-trim-description: info
ignore:
  - rule: test-schema-type
    tool: "legacy_*"
    reason: legacy tools keep their schemas
`,
	})
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir("sub") // found by walking up; files are relative to the config
	r := mcplint(t, runOpts{}, "lint", "--format", "json")
	r.want(t, 1)
	var doc struct {
		Diagnostics []struct{ Rule, Tool, Severity, File string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, d := range doc.Diagnostics {
		got = append(got, d.Rule+"/"+d.Tool+"/"+d.Severity+"/"+d.File)
	}
	want := []string{"test-schema-type/get_item/error/../tools/a.json", "test-trim-description/legacy_list/info/../tools/a.json"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("findings %v, want %v", got, want)
	}

	// Flags override the file: --select replaces, --fail-on too.
	r = mcplint(t, runOpts{}, "lint", "--select", "test-trim-description", "--fail-on", "warning")
	r.want(t, 0)
	// --no-config reads none: no files, so standard input.
	r = mcplint(t, runOpts{stdin: twoTools}, "lint", "--no-config", "--select", "test")
	r.want(t, 1)
	if !strings.Contains(r.stdout, "2 errors, 1 warning") {
		t.Errorf("without the configuration, want every finding:\n%s", r.stdout)
	}
}

func TestConfigFileErrors(t *testing.T) {
	project(t, map[string]string{".mcplint.yaml": "select: [test]\nfail-on: sometimes\n"})
	r := mcplint(t, runOpts{stdin: twoTools}, "lint")
	r.want(t, 2)
	if !strings.Contains(r.stderr, ".mcplint.yaml:2:1: at fail-on") {
		t.Errorf("stderr %q lacks the position of the bad value", r.stderr)
	}
	r = mcplint(t, runOpts{stdin: twoTools}, "lint", "--config", "missing.yaml")
	r.want(t, 2)
	os.WriteFile(".mcplint.yaml", []byte("severity: {no-such-rule: info}\n"), 0o644)
	r = mcplint(t, runOpts{stdin: twoTools}, "fix")
	r.want(t, 2)
	if !strings.Contains(r.stderr, `.mcplint.yaml:1:12: severity: unknown rule "no-such-rule"; `) {
		t.Errorf("stderr: %q", r.stderr)
	}
}

func TestFixHonoursConfig(t *testing.T) {
	project(t, map[string]string{
		"a.json": twoTools,
		"conf.json": `{"select": ["test"], "ignore": [{"rule": "test-schema-type", "tool": "legacy_*", "reason": "kept"}],
		 "options": {"test-schema-type": {"type": "string"}}}`,
	})
	r := mcplint(t, runOpts{}, "fix", "--config", "conf.json", "--fail-on", "never", "a.json")
	r.want(t, 0)
	want := strings.Replace(twoTools, `"Get one item.", "inputSchema": {}`, `"Get one item.", "inputSchema": {"type": "string"}`, 1)
	if r.stdout != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", r.stdout, want)
	}
}

func TestBaseline(t *testing.T) {
	project(t, map[string]string{"a.json": twoTools})
	r := mcplint(t, runOpts{}, "lint", "--select", "test", "--write-baseline", "base.json", "a.json")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "recorded 3 findings in base.json") {
		t.Errorf("stderr: %q", r.stderr)
	}
	r = mcplint(t, runOpts{}, "lint", "--select", "test", "--baseline", "base.json", "a.json")
	r.want(t, 0)
	// A new tool before the others moves every line and index; only its
	// finding is new.
	edited := strings.Replace(twoTools, `"tools": [`, `"tools": [
    {"name": "new_tool", "description": "New.", "inputSchema": {}},`, 1)
	if err := os.WriteFile("a.json", []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r = mcplint(t, runOpts{}, "lint", "--select", "test", "--baseline", "base.json", "--format", "json", "a.json")
	r.want(t, 1)
	var doc struct{ Diagnostics []struct{ Tool string } }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Diagnostics) != 1 || doc.Diagnostics[0].Tool != "new_tool" {
		t.Errorf("with the baseline, want only new_tool's finding: %s", r.stdout)
	}
	r = mcplint(t, runOpts{}, "lint", "--baseline", "nope.json", "a.json")
	r.want(t, 2)
}

func TestReportFormats(t *testing.T) {
	dir := project(t, map[string]string{"a.json": twoTools})
	summary := filepath.Join(dir, "summary.md")
	os.WriteFile(summary, []byte("earlier step\n"), 0o644)
	r := mcplint(t, runOpts{env: map[string]string{"GITHUB_STEP_SUMMARY": summary}}, "lint", "--select", "test", "--format", "github", "a.json")
	r.want(t, 1)
	if !strings.HasPrefix(r.stdout, "::error file=a.json,line=3,col=") || !strings.Contains(r.stdout, "title=mcplint test-schema-type::") {
		t.Errorf("github format:\n%s", r.stdout)
	}
	sum, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(sum), "earlier step\n### ❌ mcplint") {
		t.Errorf("step summary not appended:\n%s", sum)
	}
	for format, prefix := range map[string]string{
		"sarif":      "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\"",
		"junit":      "<?xml",
		"checkstyle": "<?xml",
	} {
		r := mcplint(t, runOpts{}, "lint", "--select", "test", "--format", format, "a.json")
		r.want(t, 1)
		if !strings.HasPrefix(r.stdout, prefix) {
			t.Errorf("%s: output starts %.80q", format, r.stdout)
		}
	}
	// fix reports what remains in the format asked, on standard error.
	r = mcplint(t, runOpts{}, "fix", "--select", "test", "--format", "checkstyle", "a.json")
	r.want(t, 0)
	if !strings.Contains(r.stderr, `source="mcplint.test-trim-description"`) {
		t.Errorf("fix --format checkstyle: %s", r.stderr)
	}
}

func TestSchemaConfigCommand(t *testing.T) {
	r := mcplint(t, runOpts{}, "schema", "config")
	r.want(t, 0)
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$id"] != config.SchemaID {
		t.Errorf("$id = %v", doc["$id"])
	}
}

func TestInit(t *testing.T) {
	project(t, map[string]string{
		"server/tools.json": twoTools,
		"package.json":      `{"name": "x"}`,
		".mcp.json":         `{"mcpServers": {"mine": {"command": "node", "args": ["server.js"]}}}`,
	})
	r := mcplint(t, runOpts{}, "init")
	r.want(t, 0)
	f, err := config.Load(".mcplint.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Files) != 1 || f.Files[0] != "server/tools.json" || f.Servers["mine"].Command != "node" {
		t.Errorf("init found files %v, servers %v", f.Files, f.Servers)
	}
	mcplint(t, runOpts{}, "init").want(t, 2)
	mcplint(t, runOpts{}, "init", "--force").want(t, 0)
	// The starter configuration works as it is.
	mcplint(t, runOpts{}, "lint", "--select", "test", "--fail-on", "never").want(t, 0)
}
