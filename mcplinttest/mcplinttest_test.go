package mcplinttest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/mcplinttest"
)

func TestCleanServerPasses(t *testing.T) {
	if diags := mcplinttest.Check(t, newServer()); len(diags) != 0 {
		t.Errorf("findings on a clean server: %v", diags)
	}
}

// recorder stands in for *testing.T to see what Check reports.
type recorder struct {
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(f, args...))
}
func (r *recorder) Fatalf(f string, args ...any) { r.fatal = true; r.Errorf(f, args...) }

func TestBrokenServerFails(t *testing.T) {
	s := newServer()
	s.AddTool(&mcp.Tool{Name: "delete note", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	var r recorder
	mcplinttest.Check(&r, s)
	if len(r.errors) != 1 || r.fatal {
		t.Fatalf("reports %q (fatal %v), want one error", r.errors, r.fatal)
	}
	for _, want := range []string{"tool-name-valid", `tool name "delete note" contains a space`, "description-present"} {
		if !strings.Contains(r.errors[0], want) {
			t.Errorf("the failure lacks %q:\n%s", want, r.errors[0])
		}
	}
	// Ignoring the rules lets it pass: every rule that refuses the name
	// (their findings merge into one), and the missing description.
	r = recorder{}
	mcplinttest.Check(&r, s, mcplinttest.Ignore("tool-name-valid", "openai-function-name", "claude-tool-name", "gemini-function-name", "vscode-tool-name", "description-present"))
	if len(r.errors) != 0 {
		t.Errorf("with the rules ignored: %q", r.errors)
	}
}
