// Command server is a stdio MCP server for the Action's live tests: one
// clean tool and one whose name has a space.
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type noteInput struct {
	Path string `json:"path" jsonschema:"the path of the note"`
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "citest-server", Version: "1.0.0"}, nil)
	handler := func(context.Context, *mcp.CallToolRequest, noteInput) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{}, nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "read_note", Description: "Read a note."}, handler)
	mcp.AddTool(s, &mcp.Tool{Name: "read note", Description: "Read a note again."}, handler)
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
