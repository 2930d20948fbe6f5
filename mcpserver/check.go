package mcpserver

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/redact"
	"github.com/mcpfit/mcplint/report"
)

// CheckInput is the check tool's input.
type CheckInput struct {
	Command []string `json:"command,omitempty" jsonschema:"The command that starts the server over stdio, as program and arguments: [\"node\", \"build/index.js\"]. It runs in the workspace folder. Give this or url."`
	URL     string   `json:"url,omitempty" jsonschema:"The Streamable HTTP (or SSE) endpoint of a running server. Give this or command."`
	Selection
}

// CheckOutput is the check tool's structured result.
type CheckOutput struct {
	Server   string    `json:"server" jsonschema:"The server's name and version, as it says, and the protocol it negotiated."`
	Summary  Summary   `json:"summary"`
	Findings []Finding `json:"findings" jsonschema:"The findings, in the order of the listing (at most 200)."`
	More     int       `json:"more" jsonschema:"Findings left out of findings past the first 200."`
}

// checkDescription says what check does and why it is offered only on
// request: it runs the command it is given.
const checkDescription = "Start an MCP server (a command over stdio, run in the workspace folder) or connect to one (a URL), " +
	"list its tools, prompts and resources as a client does, and lint what it really publishes, as lint does for a file. " +
	"This runs the given command with the user's rights, like a shell: so mcplint offers this tool only when the user " +
	"started it with mcplint mcp --allow-check."

func (h *handlers) addCheck(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "check",
		Title:       "Check a running server",
		Description: checkDescription,
		Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true), OpenWorldHint: new(true)},
	}, h.check)
}

func (h *handlers) check(ctx context.Context, _ *mcp.CallToolRequest, in CheckInput) (*mcp.CallToolResult, CheckOutput, error) {
	if (len(in.Command) == 0) == (in.URL == "") {
		return errorResult(errors.New("give command (the server's program and arguments) or url, one of them")), CheckOutput{}, nil
	}
	l, err := h.linter(in.config())
	if err != nil {
		return errorResult(err), CheckOutput{}, nil
	}
	target := live.Target{Command: in.Command, URL: in.URL, Dir: h.root.Name()}
	if in.URL != "" {
		target.Dir = ""
	}
	// A URL's user information and query values are credentials: shown
	// masked, as live's own errors show them.
	name := redact.URL(in.URL)
	if in.URL == "" {
		name = strings.Join(in.Command, " ")
	}
	res := live.CheckAll(ctx, []live.ConfiguredServer{{Name: "server", Target: target}}, live.CheckOptions{
		Timeout: h.o.CheckTimeout,
		Linter:  func(live.ConfiguredServer, *live.Listing) (*lint.Linter, error) { return l, nil },
	})[0]
	if res.Err != nil {
		return errorResult(errors.New(name + ": " + res.Err.Error())), CheckOutput{}, nil
	}
	files := []report.File{{Manifest: res.Listing.Manifest, Diagnostics: res.Diagnostics}}
	srv := res.Listing.Server
	out := CheckOutput{Server: guard.Log(srv.Name + " " + srv.Version + ", protocol " + srv.Protocol), Summary: summary(files)}
	out.Findings, out.More = findings(files)
	text := "server " + out.Server + "\n\n" + textReport(files, 0)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: clip(text)}}}, out, nil
}
