package rules

import (
	"fmt"
	"slices"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

var toolFieldRules = []*lint.Rule{ToolFieldsValid}

// toolFields are the members of a tool that describe it to a client, with
// their types as surfaceDefs spells them, and the protocol versions that
// define each (until: the first that no longer does). The types are those of schema.json 2025-11-25, which the
// TypeScript SDK's ToolSchema checks at every version (src/types.ts:
// BaseMetadataSchema, IconsSchema, ToolAnnotationsSchema,
// ToolExecutionSchema); TestSurfaceDefsMatchSpec holds the definitions to
// the official files.
var toolFields = []struct{ member, typ, since, until string }{
	{"title", "string", "2025-06-18", ""},
	{"description", "string", "2024-11-05", ""},
	{"annotations", "ToolAnnotations", "2025-03-26", ""},
	{"icons", "[]Icon", "2025-11-25", ""},
	{"execution", "ToolExecution", "2025-11-25", "2026-07-28"},
}

// toolFieldDefs are the definitions the members are checked against.
var toolFieldDefs = surfaceDefs("2025-11-25")

// ToolFieldsValid checks the members of a tool that describe it to a
// client: title, description, annotations, icons and execution.
var ToolFieldsValid = &lint.Rule{
	ID:       "tool-fields-valid",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.TSSDK, Line: "tool-fields", Error: "Invalid input: expected boolean, received string",
			Source: "modelcontextprotocol/typescript-sdk src/types.ts, ToolSchema (ToolAnnotationsSchema, IconSchema, ToolExecutionSchema)"},
		{Consumer: consumer.MCPSpec, Line: "tool-fields", Source: "MCP schema.json, Tool, ToolAnnotations, Icon, ToolExecution"},
	},
	Summary: "a tool's title, description, annotations, icons and execution have the shapes MCP gives them",
	Fix:     lint.NoFix,
	Check:   checkToolFields,
	Doc: `Besides its name and schemas, a tool may carry a "title", a "description",
"annotations" (a title and four boolean hints: readOnlyHint,
destructiveHint, idempotentHint, openWorldHint), "icons" (objects with a
string "src", and optionally a "mimeType", "sizes" as strings and a
"theme", "light" or "dark") and "execution" ("taskSupport": "forbidden",
"optional" or "required"). The MCP schema gives each a type, and the
TypeScript SDK's client parses every tools/list result with a zod schema
that checks the same types: a member of another kind, such as
"readOnlyHint": "true", fails the parse of the whole result, and the client
gets none of the server's tools (Claude Code, Claude Desktop, Cursor and the
MCP Inspector list tools with it).

The SDK checks these members whatever protocol version was negotiated, so
the rule does too, although 2024-11-05 defines only "description",
annotations came with 2025-03-26, "title" with 2025-06-18 and icons and
execution with 2025-11-25 (and 2026-07-28 dropped execution again); a
finding names the specification only for the versions that define the
member.

There is no fix: write the member with its type in the server's code (a
boolean, not the string "true").

Bad:

    {"name": "delete_file", "annotations": {"destructiveHint": "yes"},
     "icons": [{"url": "https://example.com/icon.png"}]}

Good:

    {"name": "delete_file", "annotations": {"destructiveHint": true},
     "icons": [{"src": "https://example.com/icon.png", "mimeType": "image/png"}]}

Source: MCP schema.json 2025-11-25 and 2026-07-28, "Tool", "ToolAnnotations",
"Icon", "ToolExecution"; @modelcontextprotocol/sdk src/types.ts, ToolSchema,
which ListToolsResultSchema parses every tool with.`,
}

func checkToolFields(p *lint.Pass) {
	for _, f := range toolFields {
		v, ok := p.Value[f.member]
		if !ok {
			continue
		}
		var problems []surfaceProblem
		checkDef(toolFieldDefs, v, f.typ, "/"+f.member, f.member, &problems)
		consumers := p.Rule.Consumers
		if p.Protocol != "" && (!p.Since(f.since) || f.until != "" && p.Since(f.until)) {
			// Where no version checked defines it, the member is any
			// value to the specification; the SDK checks it all the same.
			consumers = slices.DeleteFunc(slices.Clone(consumers), func(r consumer.Refusal) bool { return r.Consumer == consumer.MCPSpec })
		}
		for _, pr := range problems {
			p.Report(lint.Diagnostic{RelPointer: pr.ptr, Consumers: consumers, Message: fmt.Sprintf(
				"%s; the TypeScript SDK's client refuses the whole tools/list with it (every tool of the server is lost)%s: write it as MCP's schema.json gives it",
				pr.msg, specToo(consumers))})
		}
	}
}

// specToo says, for a finding's consumers, whether the specification
// refuses it too.
func specToo(cs []consumer.Refusal) string {
	if slices.ContainsFunc(cs, func(r consumer.Refusal) bool { return r.Consumer == consumer.MCPSpec }) {
		return ", and so does the specification"
	}
	return ""
}
