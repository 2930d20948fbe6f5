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

import (
	"slices"
	"strings"
)

// ID names a consumer in rule declarations, in reports and in the
// real-world corpus (testdata/realworld/*/case.yaml).
type ID string

const (
	MCPSpec          ID = "mcp-spec"
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
	// Uses are the consumers this one hands tools to: what they refuse,
	// this one's users meet too (Claude Code parses tools/list with the
	// TypeScript SDK and sends tools to the Anthropic API).
	Uses []ID
	// Users are the clients behind the consumer.
	Users string
	// Source documents the consumer as a whole (a reference page); each
	// refusal cites its own.
	Source string
}

// All is the matrix, in the order reports list consumers.
var All = []*Consumer{
	{
		ID: MCPSpec, Name: "MCP specification", Default: true,
		Mode:   "schema.json and the MUST rules of every protocol version in use (2024-11-05 to 2026-07-28)",
		Users:  "every conforming client",
		Source: "https://modelcontextprotocol.io/specification (schema.json, basic and server/tools of each version)",
	},
	{
		ID: TSSDK, Name: "MCP TypeScript SDK", Default: true,
		Mode:   "ListToolsResultSchema, which the client parses every tools/list result with",
		Users:  "Claude Code, Claude Desktop, Cursor, the MCP Inspector and most TypeScript clients",
		Source: "https://github.com/modelcontextprotocol/typescript-sdk (src/types.ts, ToolSchema)",
	},
	{
		ID: Anthropic, Name: "Anthropic API", Default: true,
		Mode:   "Messages API tools[]: name and input_schema",
		Users:  "Claude Code, Claude Desktop, claude.ai and every client that gives MCP tools to Claude",
		Source: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
	},
	{
		ID: ClaudeCode, Name: "Claude Code", Default: true, Uses: []ID{TSSDK, Anthropic},
		Mode:   "its mcp__<server>__<tool> names, deferred by tool search, and its validation of results",
		Users:  "Claude Code",
		Source: "https://docs.anthropic.com/en/docs/claude-code/mcp",
	},
	{
		ID: ClaudeAI, Name: "claude.ai connectors", Default: true, Uses: []ID{Anthropic},
		Mode:   "remote MCP connectors of claude.ai and Claude Desktop",
		Users:  "claude.ai, Claude Desktop",
		Source: "https://support.anthropic.com/en/articles/11175166-about-custom-integrations-using-remote-mcp",
	},
	{
		ID: OpenAIChat, Name: "OpenAI Chat Completions", Default: true,
		Mode:   "function tools, strict off",
		Users:  "LangChain ChatOpenAI, LiteLLM and most OpenAI-compatible MCP clients",
		Source: "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools",
	},
	{
		ID: OpenAIResponses, Name: "OpenAI Responses", Default: true,
		Mode:   "function tools with strict false, as MCP clients send them",
		Users:  "the OpenAI Agents SDK (convert_schemas_to_strict off by default), Codex",
		Source: "https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools",
	},
	{
		ID: OpenAIStrict, Name: "OpenAI strict mode", Default: false,
		Mode:   "strict: true (Structured Outputs), either API; the client turns it on",
		Users:  "clients that enable strict function calling (pydantic-ai, Spring AI, LangChain's bind_tools(strict=True))",
		Source: "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
	},
	{
		ID: GeminiParameters, Name: "Gemini parameters", Default: false,
		Mode:   "FunctionDeclaration.parameters, an OpenAPI 3.0 subset; clients that send it mostly sanitize first (Google ADK, @ai-sdk/google, langchain-google-genai, opencode), so only unsanitized clients (Zed, Cline) meet its refusals",
		Users:  "clients that convert MCP tools to Gemini's classic Schema",
		Source: "https://ai.google.dev/api/caching#Schema",
	},
	{
		ID: GeminiJSONSchema, Name: "Gemini parametersJsonSchema", Default: true,
		Mode:   "FunctionDeclaration.parametersJsonSchema (JSON Schema), as Gemini CLI sends MCP tools",
		Users:  "Gemini CLI, and @ai-sdk/google since it switched to parametersJsonSchema",
		Source: "https://ai.google.dev/api/caching#FunctionDeclaration",
	},
	{
		ID: VSCode, Name: "VS Code", Default: true,
		Mode:   "Copilot Chat agent mode (its own MCP client and tool-schema checks)",
		Users:  "VS Code Copilot Chat",
		Source: "https://code.visualstudio.com/docs/copilot/chat/mcp-servers",
	},
	{
		ID: Cursor, Name: "Cursor", Default: true, Uses: []ID{TSSDK},
		Mode:   "agent with MCP servers",
		Users:  "Cursor",
		Source: "https://docs.cursor.com/context/model-context-protocol",
	},
}

// Reached returns the consumers a refusal by the given ones reaches: those
// IDs, and every consumer that uses one of them (Uses), transitively.
func Reached(ids ...ID) []ID {
	out := slices.Clone(ids)
	for changed := true; changed; {
		changed = false
		for _, c := range All {
			if slices.Contains(out, c.ID) {
				continue
			}
			for _, u := range c.Uses {
				if slices.Contains(out, u) {
					out = append(out, c.ID)
					changed = true
					break
				}
			}
		}
	}
	return out
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
	// Line is the ID of the line of the consumer's profile that the rule
	// reports (ProfileOf): it says what the consumer does (Action).
	Line string
	// Some is true when only some findings of the rule carry this refusal
	// (each reported with its own consumers and severity): it does not set
	// the rule's default severity.
	Some bool
	// Error is the consumer's own message, where a public source quotes it.
	Error string
	// Source is the public report or document that shows the refusal.
	Source string
}

// ProfileLine returns the profile line the refusal reports; nil when it
// names none.
func (r Refusal) ProfileLine() *Line {
	if r.Line == "" {
		return nil
	}
	if p := ProfileOf(r.Consumer); p != nil {
		return p.Line(r.Line)
	}
	return nil
}

// Action is what the consumer does with what the rule reports: its
// profile line's action, or else Rewrites for a consumer that mangles and
// Refuses for one that refuses.
func (r Refusal) Action() Action {
	if l := r.ProfileLine(); l != nil {
		return l.Action
	}
	if r.Mangles {
		return Rewrites
	}
	return Refuses
}

// Discouraged reports whether the refusal is only a recommendation: the
// consumer's document says SHOULD NOT and no refusal is documented.
func (r Refusal) Discouraged() bool { return r.Action() == Discourages }

// Names joins the names of the consumers that refuse, or mangle, as a
// finding shows them: "refused by: Anthropic API, Claude Code; renamed by:
// VS Code" is built from two calls. Unknown IDs are skipped.
func Names(rs []Refusal, mangles bool) string {
	return NamesOf(rs, func(r Refusal) bool { return r.Mangles == mangles })
}

// NamesOf joins, once each and in order, the names of the consumers of the
// refusals that keep accepts.
func NamesOf(rs []Refusal, keep func(Refusal) bool) string {
	var names []string
	seen := map[string]bool{}
	for _, r := range rs {
		c := ByID(r.Consumer)
		if c == nil || !keep(r) || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		names = append(names, c.Name)
	}
	return strings.Join(names, ", ")
}
