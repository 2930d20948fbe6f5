package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/mcpserver"
)

const serverEnv = "MCPSERVER_TEST_SERVER"

// TestMain is also the server the check tool checks: the test binary run
// with serverEnv set.
func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "" {
		os.Exit(m.Run())
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "checked", Version: "1.2.3"}, nil)
	s.AddTool(&mcp.Tool{Name: "read file", Description: "Read a file.", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// TestCheck: the check tool exists only with AllowCheck, says why in its
// description, and lints what a running server lists.
func TestCheck(t *testing.T) {
	list, err := connect(t, mcpserver.Options{Workspace: t.TempDir()}).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if tool.Name == "check" {
			t.Fatal("check is offered without AllowCheck")
		}
	}
	cs := connect(t, mcpserver.Options{Workspace: t.TempDir(), AllowCheck: true})
	list, err = cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var check *mcp.Tool
	for _, tool := range list.Tools {
		if tool.Name == "check" {
			check = tool
		}
	}
	if check == nil || !strings.Contains(check.Description, "--allow-check") || !strings.Contains(check.Description, "runs the given command") ||
		check.Annotations == nil || check.Annotations.ReadOnlyHint || check.Annotations.DestructiveHint == nil || !*check.Annotations.DestructiveHint {
		t.Fatalf("check: %+v", check)
	}

	t.Setenv(serverEnv, "1")
	text, out, isErr := call(t, cs, "check", map[string]any{"command": []string{os.Args[0], "-test.run=^$"}})
	if isErr || !strings.Contains(out["server"].(string), "checked 1.2.3") || !strings.Contains(text, "warning tool-name-valid") ||
		out["summary"].(map[string]any)["tools"] != 1.0 {
		t.Errorf("check: %v %v\n%s", isErr, out, text)
	}
	if text, _, isErr = call(t, cs, "check", map[string]any{}); !isErr || !strings.Contains(text, "give command") {
		t.Errorf("check of nothing: %v %s", isErr, text)
	}
	if text, _, isErr = call(t, cs, "check", map[string]any{"command": []string{"/nonexistent/server"}}); !isErr || !strings.Contains(text, "/nonexistent/server") {
		t.Errorf("check of a missing program: %v %s", isErr, text)
	}
	// A URL's credentials are not echoed into the conversation (nothing
	// listens on port 1: the connection is refused at once).
	if text, _, isErr = call(t, cs, "check", map[string]any{"url": "http://user:hunter2-pass@127.0.0.1:1/mcp?token=hunter2-tok"}); !isErr || strings.Contains(text, "hunter2") || !strings.Contains(text, "127.0.0.1:1") {
		t.Errorf("check of an unreachable URL with credentials: %v %s", isErr, text)
	}
}
