package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestMCPServerWithTypeScriptClient: the MCP TypeScript SDK's Client runs
// mcplint mcp --allow-check over stdio and calls every tool it lists, each
// result validated by the SDK against the tool's outputSchema, and reads
// the resources.
func TestMCPServerWithTypeScriptClient(t *testing.T) {
	oracles := testenv.Oracles(t)
	ws := t.TempDir()
	example, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "testdata", "example", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "tools.json"), example, 0o644); err != nil {
		t.Fatal(err)
	}
	plan := map[string]any{
		"calls": []map[string]any{
			{"name": "lint", "arguments": map[string]any{"path": "tools.json"}},
			{"name": "lint", "arguments": map[string]any{"manifest": string(example), "strict": true}},
			{"name": "fix", "arguments": map[string]any{"path": "tools.json", "unsafeFixes": true}},
			{"name": "convert", "arguments": map[string]any{"path": "tools.json", "to": "gemini"}},
			{"name": "explain_rule", "arguments": map[string]any{"rule": "openai-tool-count"}},
			// The server this test binary is, once more: mcplint mcp
			// --allow-check (the environment says so).
			{"name": "check", "arguments": map[string]any{"command": []string{os.Args[0]}}},
			{"name": "lint", "arguments": map[string]any{"path": "../outside.json"}},
		},
		"resources": []string{"mcplint://consumers", "mcplint://rules/cursor-tool-count"},
	}
	in, _ := json.Marshal(plan)
	args, _ := json.Marshal([]string{"mcp", "--allow-check", "--workspace", ws})
	cmd := exec.Command("node", filepath.Join(oracles, "mcp-client.mjs"), os.Args[0])
	cmd.Dir = oracles
	cmd.Env = append(os.Environ(), checkServerEnv+"=cli", "MCPLINT_CHECK_TEST_ARGS="+string(args))
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client: %v\n%s", err, stderr.String())
	}
	var out struct {
		Server    struct{ Name string }
		Tools     []string
		Resources int
		Results   []struct {
			Name              string
			IsError           bool
			Text              string
			StructuredContent map[string]any
		}
		Read []struct {
			URI, MimeType string
			Length        int
		}
	}
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if out.Server.Name != "mcplint" || out.Resources < 50 || len(out.Read) != 2 || out.Read[0].Length < 1000 || out.Read[1].MimeType != "text/markdown" {
		t.Errorf("server %+v, %d resources, read %+v", out.Server, out.Resources, out.Read)
	}
	called := map[string]bool{}
	for _, r := range out.Results {
		called[r.Name] = true
	}
	for _, name := range out.Tools {
		if !called[name] {
			t.Errorf("the test does not call the tool %s", name)
		}
	}
	slices.Sort(out.Tools)
	if strings.Join(out.Tools, " ") != "check convert explain_rule fix lint" {
		t.Errorf("tools %v", out.Tools)
	}
	want := []func(text string, s map[string]any) bool{
		func(text string, s map[string]any) bool {
			return strings.Contains(text, "error input-schema-root-object") && s["summary"].(map[string]any)["errors"].(float64) >= 1
		},
		func(text string, s map[string]any) bool { return strings.Contains(text, "openai-strict") },
		func(text string, s map[string]any) bool {
			return strings.Contains(s["diff"].(string), "+++ b/tools.json") && s["applied"].(float64) >= 3
		},
		func(text string, s map[string]any) bool {
			return strings.Contains(s["document"].(string), "functionDeclarations")
		},
		func(text string, s map[string]any) bool { return strings.Contains(s["markdown"].(string), "128") },
		func(text string, s map[string]any) bool {
			sum := s["summary"].(map[string]any)
			return strings.Contains(s["server"].(string), "mcplint") && sum["errors"] == 0.0 && sum["warnings"] == 0.0 && sum["infos"] == 0.0 && sum["tools"] == 5.0
		},
		nil, // an error
	}
	for i, r := range out.Results {
		if want[i] == nil {
			if !r.IsError || !strings.Contains(r.Text, "outside the workspace") {
				t.Errorf("call %d (%s) should fail outside the workspace: %+v", i, r.Name, r)
			}
			continue
		}
		if r.IsError || r.StructuredContent == nil || !want[i](r.Text, r.StructuredContent) {
			t.Errorf("call %d (%s): error %v\n%.2000s\n%v", i, r.Name, r.IsError, r.Text, r.StructuredContent)
		}
	}
}
