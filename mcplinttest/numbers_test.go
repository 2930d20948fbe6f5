package mcplinttest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/coerce"
	"github.com/mcpfit/mcplint/mcplinttest"
)

// input is ping's input: a string, nothing a number could be sent for.
type input struct {
	Path string `json:"path" jsonschema:"the path of the note"`
}

type pageInput struct {
	Query string `json:"query"`
	Page  int    `json:"page"`
}

// pageSchema declares page's string form, as integer-accepts-string's fix
// writes it; query is required.
var pageSchema = json.RawMessage(`{"type": "object", "required": ["query"], "properties": {
	"query": {"type": "string", "description": "What to look for"},
	"page": {"description": "Page number", "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[1-9][0-9]*$"}]}}}`)

// searchServer has a tool "search" declaring a string form, and "ping",
// which declares none. calls counts the calls of each.
func searchServer(withMiddleware bool, calls map[string]int) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "search", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "search", Description: "Search the notes and return one page of matches.", InputSchema: pageSchema},
		func(_ context.Context, _ *mcp.CallToolRequest, in pageInput) (*mcp.CallToolResult, any, error) {
			calls["search"]++
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "page " + strconv.Itoa(in.Page) + " of " + in.Query}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ping", Description: "Check that the server answers."},
		func(context.Context, *mcp.CallToolRequest, input) (*mcp.CallToolResult, any, error) {
			calls["ping"]++
			return &mcp.CallToolResult{}, nil, nil
		})
	if withMiddleware {
		s.AddReceivingMiddleware(coerce.Middleware())
	}
	return s
}

func TestStringNumbersWithoutConversion(t *testing.T) {
	calls := map[string]int{}
	var r recorder
	mcplinttest.Check(&r, searchServer(false, calls), mcplinttest.StringNumbers())
	if len(r.errors) != 1 || r.fatal {
		t.Fatalf("reports %q (fatal %v), want one error", r.errors, r.fatal)
	}
	for _, want := range []string{`tool "search"`, `{"page":1,"query":""}`, `{"page":"1","query":""}`, "an error", "coerce.Middleware()"} {
		if !strings.Contains(r.errors[0], want) {
			t.Errorf("the failure lacks %q:\n%s", want, r.errors[0])
		}
	}
	if calls["search"] != 2 || calls["ping"] != 0 {
		t.Errorf("calls %v: want search's handler reached twice (the numeric calls) and ping never called", calls)
	}
}

func TestStringNumbersWithConversion(t *testing.T) {
	calls := map[string]int{}
	var r recorder
	mcplinttest.Check(&r, searchServer(true, calls), mcplinttest.StringNumbers())
	if len(r.errors) != 0 {
		t.Fatalf("a server with coerce.Middleware fails: %q", r.errors)
	}
	if calls["search"] != 3 {
		t.Errorf("search called %d times, want 3", calls["search"])
	}
	// Without the option, no tool runs.
	calls = map[string]int{}
	mcplinttest.Check(t, searchServer(true, calls))
	if len(calls) != 0 {
		t.Errorf("tools called without StringNumbers: %v", calls)
	}
}

// A tool that answers differently each time is judged on success alone.
func TestStringNumbersChangingResults(t *testing.T) {
	for _, withMiddleware := range []bool{true, false} {
		s := mcp.NewServer(&mcp.Implementation{Name: "clock", Version: "1.0.0"}, nil)
		n := 0
		mcp.AddTool(s, &mcp.Tool{Name: "tick", Description: "Advance the clock and return the new time.", InputSchema: pageSchema},
			func(context.Context, *mcp.CallToolRequest, pageInput) (*mcp.CallToolResult, any, error) {
				n++
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.Itoa(n)}}}, nil, nil
			})
		if withMiddleware {
			s.AddReceivingMiddleware(coerce.Middleware())
		}
		var r recorder
		mcplinttest.Check(&r, s, mcplinttest.StringNumbers())
		if got := len(r.errors) != 0; got == withMiddleware {
			t.Errorf("with the middleware %v: reports %q", withMiddleware, r.errors)
		}
	}
}

func TestStringNumbersNamedTools(t *testing.T) {
	calls := map[string]int{}
	var r recorder
	mcplinttest.Check(&r, searchServer(false, calls), mcplinttest.StringNumbers("ping"))
	if len(r.errors) != 0 || len(calls) != 0 {
		t.Errorf("only ping named: reports %q, calls %v", r.errors, calls)
	}
}

func TestStringNumbersCannotBuild(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "codes", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "lookup", Description: "Look up a product code and return its page.", InputSchema: json.RawMessage(`{"type": "object", "required": ["code"], "properties": {
		"code": {"type": "string", "pattern": "^[A-Z]{3}$", "description": "Product code"},
		"page": {"description": "Page number", "oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)$"}]}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			t.Error("lookup was called")
			return &mcp.CallToolResult{}, nil
		})
	var r recorder
	mcplinttest.Check(&r, s, mcplinttest.StringNumbers())
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], `cannot build arguments`) || !strings.Contains(r.errors[0], `"code":""`) {
		t.Errorf("reports %q, want that it cannot build lookup's arguments", r.errors)
	}
}

// TestNumbersExample runs the README's Go example ("Go servers") as it is
// written there, between the two marker comments.
func TestNumbersExample(t *testing.T) {
	widened := pageSchema
	pageHandler := func(_ context.Context, _ *mcp.CallToolRequest, in pageInput) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "page " + strconv.Itoa(in.Page)}}}, nil, nil
	}
	// README example start
	server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	server.AddReceivingMiddleware(coerce.Middleware()) // "5" → 5 where the schema accepts "5"
	mcp.AddTool(server, &mcp.Tool{Name: "page", Description: "Show one page of notes.", InputSchema: widened}, pageHandler)
	// and in its tests:
	mcplinttest.Check(t, server, mcplinttest.StringNumbers())
	// README example end
}

// TestReadmeShowsNumbersExample: the README and docs/library.md show the
// example TestNumbersExample runs.
func TestReadmeShowsNumbersExample(t *testing.T) {
	self, err := os.ReadFile("numbers_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, code, _ := strings.Cut(string(self), "// README example start\n")
	code, _, _ = strings.Cut(code, "\t// README example end")
	code = strings.TrimPrefix(strings.ReplaceAll(code, "\n\t", "\n"), "\t")
	for _, page := range []string{"README.md", "docs/library.md"} {
		src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		_, block, ok := strings.Cut(string(src), "```go\nserver := mcp.NewServer(")
		if !ok {
			t.Errorf("%s has no Go block starting with server := mcp.NewServer(", page)
			continue
		}
		if block, _, _ = strings.Cut("server := mcp.NewServer("+block, "```"); block != code {
			t.Errorf("the example of %s differs from the one this file runs:\n%s:\n%s\nhere:\n%s", page, page, block, code)
		}
	}
}
