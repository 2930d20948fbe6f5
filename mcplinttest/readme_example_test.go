package mcplinttest_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/coerce"
	"github.com/mcpfit/mcplint/mcplinttest"
)

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
	self, err := os.ReadFile("readme_example_test.go")
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
