package coerce_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/coerce"
)

// The example of the README and docs/library.md: a typed handler whose page
// parameter the schema lets clients send as "5" (mcplinttest's
// TestNumbersExample runs the lines they show, as written).
func ExampleMiddleware() {
	widened := json.RawMessage(`{"type": "object", "properties": {"page": {"description": "Page number",
		"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[1-9][0-9]*$"}]}}}`)
	pageHandler := func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Page int `json:"page"`
	}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint("page ", in.Page)}}}, nil, nil
	}

	server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	server.AddReceivingMiddleware(coerce.Middleware()) // "5" → 5 where the schema accepts "5"
	mcp.AddTool(server, &mcp.Tool{Name: "page", Description: "Show one page of notes.", InputSchema: widened}, pageHandler)

	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, _ := server.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()
	for _, page := range []any{5, "5", "five"} {
		res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "page", Arguments: map[string]any{"page": page}})
		fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// false page 5
	// false page 5
	// true invalid arguments: argument "page" must be an integer or its decimal string (matching ^[1-9][0-9]*$); got "five"
}
