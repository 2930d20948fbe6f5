// Package consumer is mcplint's consumer matrix: the programs that read a
// server's tool definitions (the MCP schema itself, the TypeScript SDK that
// most clients parse tools/list with, the model providers' APIs that clients
// forward tools to, and the clients with limits of their own), each in the
// mode it runs in, with the public source that documents it.
//
// Rules name the consumers they protect (lint.Rule.Consumers, each a Refusal
// with its own source), every finding names them ("refused by: Anthropic
// API"), and the default selection is derived from this list: a rule runs
// without flags when any consumer it protects runs that way by default. A
// mode a client must choose (OpenAI's strict mode, Gemini's classic
// "parameters" subset) stays behind its opt-in pack.
//
// The package is a leaf: it knows consumers, not rules.
package consumer

import "strings"

// ID names a consumer in rule declarations, in reports and in the
// real-world corpus (testdata/realworld/*/case.yaml).
type ID string

const (
	MCPSchema        ID = "mcp-schema"
	TSSDK            ID = "ts-sdk"
	Anthropic        ID = "anthropic"
	ClaudeCode       ID = "claude-code"
	ClaudeAI         ID = "claude-ai"
	OpenAIChat       ID = "openai-chat"
	OpenAIResponses  ID = "openai-responses"
	OpenAIStrict     ID = "openai-strict"
	GeminiParameters ID = "gemini-parameters"
	GeminiJSONSchema ID = "gemini-json-schema"
	VSCode           ID = "vscode"
	Cursor           ID = "cursor"
)

// Consumer is one reader of tool definitions in one mode.
type Consumer struct {
	ID ID
	// Name is what findings call it.
	Name string
	// Mode says which of the consumer's modes this entry describes.
	Mode string
	// Default is true when clients use this mode without being asked: a
	// server author cannot opt out of it, so what it refuses is in
	// mcplint's default selection. Modes a client must choose stay opt-in.
	Default bool
	// Users are the clients behind the consumer.
	Users string
	// Source documents the consumer as a whole (a reference page); each
	// refusal cites its own.
	Source string
}

// All is the matrix, in the order reports list consumers.
var All = []*Consumer{
	{
		ID: MCPSchema, Name: "MCP schema", Mode: "every protocol version in use (2024-11-05 to 2026-07-28)", Default: true,
		Users:  "every conforming client and server",
		Source: "https://modelcontextprotocol.io/specification (schema.json of each version)",
	},
	{
		ID: TSSDK, Name: "MCP TypeScript SDK", Mode: "ListToolsResultSchema, parsed by the client on every tools/list", Default: true,
		Users:  "Claude Code, Claude Desktop, VS Code, Cursor, the MCP Inspector and most TypeScript clients",
		Source: "https://github.com/modelcontextprotocol/typescript-sdk (src/types.ts, ToolSchema)",
	},
	{
		ID: Anthropic, Name: "Anthropic API", Mode: "Messages API tools[]: name and input_schema", Default: true,
		Users:  "Claude Code, Claude Desktop, claude.ai and every client that forwards MCP tools to Claude",
		Source: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
	},
	{
		ID: ClaudeCode, Name: "Claude Code", Mode: "its mcp__<server>__<tool> names, deferred by tool search", Default: true,
		Users:  "Claude Code",
		Source: "https://docs.anthropic.com/en/docs/claude-code/mcp",
	},
	{
		ID: ClaudeAI, Name: "claude.ai connectors", Mode: "remote MCP connectors", Default: true,
		Users:  "claude.ai, Claude Desktop connectors",
		Source: "https://support.anthropic.com/en/articles/11175166-about-custom-integrations-using-remote-mcp",
	},
	{
		ID: OpenAIChat, Name: "OpenAI Chat Completions", Mode: "function tools, strict off", Default: true,
		Users:  "LangChain ChatOpenAI, LiteLLM, and most OpenAI-compatible MCP clients",
		Source: "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools",
	},
	{
		ID: OpenAIResponses, Name: "OpenAI Responses", Mode: "function tools with strict false, as MCP clients send them", Default: true,
		Users:  "the OpenAI Agents SDK, Codex",
		Source: "https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools",
	},
	{
		ID: OpenAIStrict, Name: "OpenAI strict mode", Mode: "strict: true (Structured Outputs), either API; the client turns it on", Default: false,
		Users:  "clients that enable strict function calling (pydantic-ai, Spring AI, the Agents SDK's strict schemas)",
		Source: "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
	},
	{
		ID: GeminiParameters, Name: "Gemini parameters", Mode: "FunctionDeclaration.parameters, an OpenAPI 3.0 subset; the client chooses it", Default: false,
		Users:  "clients that convert MCP tools to Gemini's classic Schema",
		Source: "https://ai.google.dev/api/caching#Schema",
	},
	{
		ID: GeminiJSONSchema, Name: "Gemini parametersJsonSchema", Mode: "FunctionDeclaration.parametersJsonSchema (JSON Schema)", Default: true,
		Users:  "Gemini CLI and clients that pass MCP schemas to Gemini as JSON Schema",
		Source: "https://ai.google.dev/api/caching#FunctionDeclaration",
	},
	{
		ID: VSCode, Name: "VS Code", Mode: "Copilot Chat agent mode", Default: true,
		Users:  "VS Code Copilot Chat",
		Source: "https://code.visualstudio.com/docs/copilot/chat/mcp-servers",
	},
	{
		ID: Cursor, Name: "Cursor", Mode: "agent with MCP servers", Default: true,
		Users:  "Cursor",
		Source: "https://docs.cursor.com/context/model-context-protocol",
	},
}

// ByID finds a consumer of the matrix; nil when there is none.
func ByID(id ID) *Consumer {
	for _, c := range All {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Refusal is what a rule protects one consumer from: the consumer refuses
// (or, with Mangles, silently rewrites) what the rule reports.
type Refusal struct {
	Consumer ID
	// Mangles is true when the consumer accepts the tool but changes it
	// (renames it, drops it from what the model sees) instead of failing.
	Mangles bool
	// Error is the consumer's own message, where a public source quotes it.
	Error string
	// Source is the public report or document that shows the refusal.
	Source string
}

// Names joins the names of the consumers that refuse, or mangle, as a
// finding shows them: "refused by: Anthropic API, Claude Code; renamed by:
// VS Code" is built from two calls. Unknown IDs are skipped.
func Names(rs []Refusal, mangles bool) string {
	var names []string
	seen := map[string]bool{}
	for _, r := range rs {
		c := ByID(r.Consumer)
		if c == nil || r.Mangles != mangles || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}
