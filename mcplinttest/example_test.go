package mcplinttest_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/mcplinttest"
)

// The example of docs/library.md, kept compiling and passing.

type forecastInput struct {
	City string `json:"city" jsonschema:"the city to forecast"`
}

func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "forecast", Description: "Get tomorrow's forecast for a city."},
		func(ctx context.Context, req *mcp.CallToolRequest, in forecastInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	return s
}

func TestToolsLint(t *testing.T) {
	mcplinttest.Check(t, newServer())
}
