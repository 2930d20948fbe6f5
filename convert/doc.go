// Package convert carries tools between the formats their consumers use:
// MCP tools/list, OpenAI function tools (Chat Completions and Responses),
// Anthropic tools, Gemini function declarations, and Zod source for the
// TypeScript SDK. Every conversion goes through Tool, MCP's view of a tool,
// and applies the target's transforms from package normalize, so what it
// writes is accepted by the target; what the target cannot express comes
// back as a Warning, never silently dropped.
package convert
