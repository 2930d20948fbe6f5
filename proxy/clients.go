package proxy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/convert"
)

// Auto is the --for value that picks the client from the clientInfo the
// client sends (initialize's, or the _meta of a 2026-07-28 request).
const Auto = "auto"

// Fors are the values Options.For takes: "" (every mainstream client),
// each of convert.Clients, and Auto.
var Fors = append(append([]string{""}, convert.Clients...), Auto)

// clientNames maps the clientInfo names of well-known clients to the
// client the proxy adapts for, from the list kept in
// apify/mcp-client-capabilities (src/mcp_client_capabilities/mcp-clients.json).
// A name not listed gets what every mainstream client takes.
var clientNames = map[string]string{
	"claude-ai":             "claude",
	"claude-code":           "claude",
	"cursor-vscode":         "cursor",
	"Visual Studio Code":    "vscode",
	"Visual-Studio-Code":    "vscode",
	"gemini-cli-mcp-client": "gemini",
	"codex-mcp-client":      "openai",
	"Codex":                 "openai",
	"ChatGPT":               "openai",
}

// ForClientInfo is the client Auto picks for the clientInfo name given,
// "" (every mainstream client) for a name it does not know.
func ForClientInfo(name string) string { return clientNames[name] }

// resultFailure says how a client treats a tools/call result whose
// structuredContent breaks the tool's outputSchema (or that has none while
// the tool declares one): whether it fails the whole call, and the source
// that shows it.
type resultFailure struct {
	fails  bool
	source string
}

// Sources of the clients' treatment of results (checked in the clients'
// code):
//   - the MCP TypeScript SDK's Client.callTool validates structuredContent
//     against the outputSchema it cached from tools/list and throws
//     McpError "Structured content does not match the tool's output
//     schema", and throws when a tool with an outputSchema returns no
//     structuredContent unless isError is set
//     (modelcontextprotocol/typescript-sdk, src/client/index.ts, callTool);
//     Claude Code, Claude Desktop, Cursor and Gemini CLI are built on it;
//   - the MCP Python SDK's ClientSession.call_tool raises RuntimeError
//     "Invalid structured content returned by tool", and skips the check
//     when isError is set (modelcontextprotocol/python-sdk,
//     src/mcp/client/session.py, _validate_tool_result); the OpenAI Agents
//     SDK is built on it;
//   - VS Code hands structuredContent to the model as JSON text without
//     checking it (microsoft/vscode,
//     src/vs/workbench/contrib/mcp/common/mcpLanguageModelToolContribution.ts).
var (
	tsSDKResults = resultFailure{true, "the MCP TypeScript SDK's Client.callTool (modelcontextprotocol/typescript-sdk src/client/index.ts) throws on it"}
	pySDKResults = resultFailure{true, "the MCP Python SDK's ClientSession.call_tool (modelcontextprotocol/python-sdk src/mcp/client/session.py) raises on it"}
	vscodeKeeps  = resultFailure{false, "VS Code passes structuredContent to the model without checking it (microsoft/vscode mcpLanguageModelToolContribution.ts)"}
)

// results is how the client the proxy adapts for treats a broken result.
// For every mainstream client, the strictest: most are built on the
// TypeScript SDK.
func results(client string) resultFailure {
	switch client {
	case "openai", "openai-strict":
		return pySDKResults
	case "vscode":
		return vscodeKeeps
	}
	return tsSDKResults
}

// label is how the log names a client.
func label(client string) string {
	if client == "" {
		return "mainstream"
	}
	return client
}

// CheckFor checks a --for value.
func CheckFor(v string) error {
	if slices.Contains(Fors, v) {
		return nil
	}
	return fmt.Errorf("unknown client %q (want %s or %s; without --for, every mainstream client)", v, strings.Join(convert.Clients, ", "), Auto)
}
