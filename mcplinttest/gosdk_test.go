package mcplinttest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/mcplinttest"
)

// What an ordinary go-sdk server takes: integers, optional fields,
// slices, pointers, a nested struct.
type searchInput struct {
	Query  string   `json:"query" jsonschema:"the text to look for"`
	Limit  int      `json:"limit,omitempty" jsonschema:"how many results at most"`
	Page   *int     `json:"page,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	Filter struct {
		Since int64 `json:"since"`
	} `json:"filter"`
}

type searchOutput struct {
	Count int      `json:"count"`
	Items []string `json:"items"`
}

func ordinaryServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "search_notes", Description: "Search the notes by text."},
		func(context.Context, *mcp.CallToolRequest, searchInput) (*mcp.CallToolResult, searchOutput, error) {
			return nil, searchOutput{}, nil
		})
	return s
}

func TestOrdinaryServerPasses(t *testing.T) {
	var r recorder
	diags := mcplinttest.Check(&r, ordinaryServer())
	if len(r.errors) != 0 {
		t.Errorf("an ordinary go-sdk server fails the default check:\n%s", strings.Join(r.errors, "\n"))
	}
	// Its integers draw an info (a client that validates refuses "1"),
	// below the default FailOn.
	infos := 0
	for _, d := range diags {
		if d.Severity == lint.Info && d.Rule == "integer-accepts-string" {
			infos++
		}
	}
	if infos == 0 {
		t.Errorf("no integer-accepts-string info on the int fields: %v", diags)
	}
}

func noArguments(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	return nil, nil, nil
}

// TestToolWithoutArguments: the SDK publishes {"type": "object"} for a tool
// without arguments, which OpenAI refuses; the failure says so and gives the
// Go that fixes it, and that Go does fix it.
func TestToolWithoutArguments(t *testing.T) {
	s := ordinaryServer()
	mcp.AddTool(s, &mcp.Tool{Name: "sync_notes", Description: "Sync the notes now."}, noArguments)
	var r recorder
	mcplinttest.Check(&r, s)
	if len(r.errors) != 1 {
		t.Fatalf("reports %q, want one failure", r.errors)
	}
	msg := r.errors[0]
	for _, want := range []string{
		`mcplint found 1 problem in the tools that server "notes" lists:`,
		`tool "sync_notes": warning openai-object-properties:`,
		"refused by: OpenAI Chat Completions",
		"in Go: the SDK publishes {\"type\": \"object\"} for a tool without arguments",
		"InputSchema: json.RawMessage(`{\"type\": \"object\", \"properties\": {}}`)",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the failure lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "mcplint fix") {
		t.Errorf("the failure tells a Go author to run mcplint fix:\n%s", msg)
	}
	// The advice, followed.
	s = ordinaryServer()
	mcp.AddTool(s, &mcp.Tool{Name: "sync_notes", Description: "Sync the notes now.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {}}`)}, noArguments)
	r = recorder{}
	mcplinttest.Check(&r, s)
	if len(r.errors) != 0 {
		t.Errorf("the advised InputSchema still fails:\n%s", strings.Join(r.errors, "\n"))
	}
}

// TestMessagesNameTheGoField: a finding inside a property names the tool,
// the property by its json tag, and the struct tag to change.
func TestMessagesNameTheGoField(t *testing.T) {
	type input struct {
		Path string `json:"path" jsonschema:"the path\u200b of the note"`
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "read_note", Description: "Read a note."},
		func(context.Context, *mcp.CallToolRequest, input) (*mcp.CallToolResult, any, error) {
			return nil, nil, nil
		})
	var r recorder
	mcplinttest.Check(&r, s)
	if len(r.errors) != 1 {
		t.Fatalf("reports %q, want one failure", r.errors)
	}
	for _, want := range []string{
		`tool "read_note", input property "path" (the field tagged json:"path"): error invisible-characters:`,
		"in Go: the description comes from the field's jsonschema struct tag: `json:\"path\" jsonschema:\"...\"`",
	} {
		if !strings.Contains(r.errors[0], want) {
			t.Errorf("the failure lacks %q:\n%s", want, r.errors[0])
		}
	}
}

func TestOptions(t *testing.T) {
	// The strict pack: optional fields are not all required.
	var r recorder
	mcplinttest.Check(&r, ordinaryServer(), mcplinttest.ExtendSelect("openai-strict"))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], `tool "search_notes": error openai-strict-required:`) {
		t.Errorf("ExtendSelect(openai-strict): %q", r.errors)
	}
	// A rule option.
	r = recorder{}
	mcplinttest.Check(&r, ordinaryServer(), mcplinttest.RuleOption("context-budget", "description-bytes", 10))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "context-budget") {
		t.Errorf("RuleOption(context-budget, description-bytes, 10): %q", r.errors)
	}
	// The server name clients prefix tool names with.
	r = recorder{}
	mcplinttest.Check(&r, ordinaryServer(), mcplinttest.ServerName(strings.Repeat("n", 60)))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "claude-prefixed-name-length") {
		t.Errorf("ServerName: %q", r.errors)
	}
	// A mistake in an option fails the test before anything runs.
	for _, opt := range []mcplinttest.Option{
		mcplinttest.RuleOption("no-such-rule", "x", 1),
		mcplinttest.RuleOption("context-budget", "no-such-option", 1),
		mcplinttest.RuleOption("context-budget", "description-bytes", "many"),
	} {
		r = recorder{}
		mcplinttest.Check(&r, ordinaryServer(), opt)
		if !r.fatal {
			t.Errorf("a bad option did not fail the test: %q", r.errors)
		}
	}
}
