package mcpserver

import (
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Options configure the server.
type Options struct {
	// Catalogue is the rules (rules.All).
	Catalogue []*lint.Rule
	// Workspace is the folder whose files the tools may read.
	Workspace string
	// AllowCheck offers the check tool, which runs commands.
	AllowCheck bool
	// Version is mcplint's, for the server's implementation info.
	Version string
	// Limits bound a tool list, given as text or read from a file; zero
	// fields take manifest.DefaultLimits'.
	Limits manifest.Limits
	// CheckTimeout bounds one check of a server (default 30 s).
	CheckTimeout time.Duration
}

// Bounds of what a result carries.
const (
	// MaxText bounds each text of a result (a report, a document, a diff),
	// in bytes.
	MaxText = 128 << 10
	// MaxFindings bounds the findings of a structured result.
	MaxFindings = 200
)

const instructions = `mcplint lints the tool definitions of MCP servers (what tools/list returns) against the MCP specification and what real clients accept (Claude, OpenAI, Gemini, Cursor, VS Code), and repairs what it safely can.
Give a tool list as text (manifest) or as a file of the workspace (path). lint reports findings with the clients each one breaks; fix returns the repaired list and a diff (it writes nothing: apply it yourself, or run mcplint fix -w PATH); convert writes the tools for another API; explain_rule documents a rule. The resources hold every rule's documentation and the consumer matrix.`

// New returns the server. It fails when the workspace cannot be opened.
func New(o Options) (*mcp.Server, error) {
	if o.Workspace == "" {
		o.Workspace = "."
	}
	root, err := os.OpenRoot(o.Workspace)
	if err != nil {
		return nil, err
	}
	if o.CheckTimeout <= 0 {
		o.CheckTimeout = 30 * time.Second
	}
	h := &handlers{o: o, root: root}
	s := mcp.NewServer(&mcp.Implementation{Name: "mcplint", Title: "mcplint", Version: o.Version}, &mcp.ServerOptions{Instructions: instructions})
	h.addTools(s)
	if o.AllowCheck {
		h.addCheck(s)
	}
	h.addResources(s)
	return s, nil
}

// handlers hold what the tools share.
type handlers struct {
	o    Options
	root *os.Root
}
