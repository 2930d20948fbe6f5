package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// manyToolsServer publishes MCPLINT_CHECK_TEST_TOOLS clean tools.
func manyToolsServer() *mcp.Server {
	n, _ := strconv.Atoi(os.Getenv("MCPLINT_CHECK_TEST_TOOLS"))
	s := mcp.NewServer(&mcp.Implementation{Name: "many-tools", Version: "1.0.0"}, nil)
	for i := range n {
		s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool_%03d", i), Description: "Look up one record by its identifier.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"The record's identifier."}},"required":["id"]}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	return s
}

// TestDiscoverTotals: check --discover adds up the servers of each
// client, as the client loads them together: their tools and what their
// definitions cost in the context, and a client's cap applies to the sum
// (Cursor's 80 tools here, over two servers that are each under it),
// with the rule's option as configured; VS Code's 128 is not reached.
func TestDiscoverTotals(t *testing.T) {
	home := t.TempDir()
	t.Chdir(t.TempDir())
	entry := func(tools int) string {
		b, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{"-test.run=^$"},
			"env": map[string]string{checkServerEnv: "many", "MCPLINT_CHECK_TEST_TOOLS": strconv.Itoa(tools)}})
		return string(b)
	}
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {"a": `+entry(50)+`, "b": `+entry(45)+`}}`)
	write(filepath.Join(home, ".codex", "config.toml"), "[mcp_servers.c]\ncommand = "+strconv.Quote(os.Args[0])+"\nargs = [\"-test.run=^$\"]\nenv = { "+checkServerEnv+" = \"many\", MCPLINT_CHECK_TEST_TOOLS = \"3\" }\n")
	env := map[string]string{"HOME": home}

	r := mcplint(t, runOpts{env: env}, "check", "--discover", "--yes")
	r.want(t, 0) // the caps are warnings
	for _, want := range []string{
		"Cursor: 2 servers, 95 tools, about ",
		" tokens of tool definitions together (~/.cursor/mcp.json)\n  warning cursor-tool-count: Cursor loads 95 tools from its 2 servers together, and takes at most 80 (option max-tools)",
		"Codex: 1 server, 3 tools, about ",
		"context: 98 tools, about ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Count(r.stdout, "cursor-tool-count") != 1 || strings.Contains(r.stdout, "openai-tool-count") {
		t.Errorf("a cap reported for a server alone, or for Codex's three tools:\n%s", r.stdout)
	}

	r = mcplint(t, runOpts{env: env}, "check", "--discover", "--yes", "--format=json", "--fail-on=warning")
	r.want(t, 1) // the total's finding counts
	var doc struct {
		Servers []struct {
			Summary struct{ ContextTokens int }
		}
		Clients []struct {
			Client         string
			Configurations []string
			Servers, Tools int
			ContextTokens  int
			Diagnostics    []struct{ Rule, Severity, File, Message string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if len(doc.Clients) != 2 {
		t.Fatalf("clients: %+v", doc.Clients)
	}
	sum := 0
	for _, s := range doc.Servers {
		sum += s.Summary.ContextTokens
	}
	cursor := doc.Clients[1]
	if doc.Clients[0].Client != "Codex" || cursor.Client != "Cursor" || cursor.Servers != 2 || cursor.Tools != 95 ||
		cursor.ContextTokens+doc.Clients[0].ContextTokens != sum || cursor.ContextTokens < 95*20 ||
		len(cursor.Diagnostics) != 1 || cursor.Diagnostics[0].Rule != "cursor-tool-count" || cursor.Diagnostics[0].File != filepath.Join(home, ".cursor", "mcp.json") {
		t.Errorf("totals: %+v (servers' tokens %d)", doc.Clients, sum)
	}

	// The cap is the rule's option, and the rule can be ignored.
	r = mcplint(t, runOpts{env: env}, "check", "--discover", "--yes", "--option", "cursor-tool-count.max-tools=100", "--option", "openai-tool-count.max-tools=2")
	if strings.Contains(r.stdout, "cursor-tool-count") || !strings.Contains(r.stdout, "warning openai-tool-count: Codex loads 3 tools from its 1 server together, and takes at most 2 (option max-tools)") {
		t.Errorf("with options:\n%s", r.stdout)
	}
	r = mcplint(t, runOpts{env: env}, "check", "--discover", "--yes", "--ignore", "cursor-tool-count")
	if strings.Contains(r.stdout, "cursor-tool-count") {
		t.Errorf("an ignored cap was applied:\n%s", r.stdout)
	}
}

// TestDiscoverTotalsSuppressed: a cap's finding on a total is taken in as
// the run's own findings are, so a configuration's ignore entry for the
// rule and the client's configuration file drops it, and a severity set
// for the rule applies.
func TestDiscoverTotalsSuppressed(t *testing.T) {
	home := t.TempDir()
	t.Chdir(t.TempDir())
	b, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{"-test.run=^$"},
		"env": map[string]string{checkServerEnv: "many", "MCPLINT_CHECK_TEST_TOOLS": "2"}})
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".cursor", "mcp.json"), []byte(`{"mcpServers": {"a": `+string(b)+`, "b": `+string(b)+`}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home}
	cfg := "options:\n  cursor-tool-count: {max-tools: 3}\nseverity:\n  cursor-tool-count: error\n"
	if err := os.WriteFile(".mcplint.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mcplint(t, runOpts{env: env}, "check", "--discover", "--yes")
	if !strings.Contains(r.stdout, "error cursor-tool-count: Cursor loads 4 tools") {
		t.Errorf("the configured severity was not applied:\n%s", r.stdout)
	}
	cfg += "ignore:\n  - rule: cursor-tool-count\n    file: mcp.json\n    reason: the project accepts it\n"
	if err := os.WriteFile(".mcplint.yaml", []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	r = mcplint(t, runOpts{env: env}, "check", "--discover", "--yes")
	if strings.Contains(r.stdout, "cursor-tool-count") || !strings.Contains(r.stdout, "Cursor: 2 servers, 4 tools") {
		t.Errorf("a suppressed cap was reported:\n%s", r.stdout)
	}
}
