// Package convert carries tools between the formats their consumers use:
// MCP tools/list, OpenAI function tools (Chat Completions and Responses),
// Anthropic tools, Gemini function declarations, and Zod source for the
// TypeScript SDK.
//
// Every conversion goes through Tool, MCP's view of a tool: FromManifest
// reads one from any manifest the loader accepts (MCP or another provider's
// format), and To writes the target's document. On the way each input
// schema gets MCP's object root (normalize.ObjectRoot) and the target's
// transform from package normalize, which this package calls and never
// re-implements; names the target refuses are renamed uniquely (names.go).
// What the target cannot carry — a keyword, a union, a recursion below the
// cut, a name, a description too long, a property Gemini cannot express —
// comes back as a Warning naming the tool and the pointer, never silently
// dropped; a member such as "title" or "outputSchema", which every tool
// loses alike, as one summary Warning for all of them (Warning.Tools).
//
// Each document written is then read back and judged by the rules that
// protect the target's consumers (verify.go): what they still report is a
// Warning with Refused set, so a caller never takes a document the target
// refuses for an accepted one.
//
// Zod source is code that others import: it is written so that no string
// of the input can be anything but a literal (see ToZod).
//
// Documents are written as the "tools" member of a request body (OpenAI,
// Anthropic), a tools/list result (MCP) or one Gemini Tool
// ({"functionDeclarations": [...]}), indented, with properties in the order
// the source lists them.
package convert
