package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/schema"
)

var toolFieldRules = []*lint.Rule{ToolFieldsValid}

// toolField is the shape the MCP schema and the TypeScript SDK give one
// member of a tool (other than its name, schemas and _meta, which rules
// of their own check): its JSON kind, the strings it may be, and the
// protocol version that defined it.
type toolField struct {
	// path is the member's place in the tool; "*" stands for every element
	// of an array.
	path   []string
	kind   string   // "string", "boolean", "object" or "array"
	values []string // the strings it may be, when an enum
	// required, for a member of an object that is present.
	required bool
	since    string
}

// toolFields are the members of Tool in schema.json (2025-11-25:
// ToolAnnotations, Icon, ToolExecution) and in the TypeScript SDK's
// ToolSchema (src/types.ts: BaseMetadataSchema, IconsSchema,
// ToolAnnotationsSchema, ToolExecutionSchema), which agree.
var toolFields = []toolField{
	{path: []string{"description"}, kind: "string", since: "2024-11-05"},
	{path: []string{"title"}, kind: "string", since: "2025-06-18"},
	{path: []string{"annotations"}, kind: "object", since: "2025-03-26"},
	{path: []string{"annotations", "title"}, kind: "string", since: "2025-03-26"},
	{path: []string{"annotations", "readOnlyHint"}, kind: "boolean", since: "2025-03-26"},
	{path: []string{"annotations", "destructiveHint"}, kind: "boolean", since: "2025-03-26"},
	{path: []string{"annotations", "idempotentHint"}, kind: "boolean", since: "2025-03-26"},
	{path: []string{"annotations", "openWorldHint"}, kind: "boolean", since: "2025-03-26"},
	{path: []string{"icons"}, kind: "array", since: "2025-11-25"},
	{path: []string{"icons", "*"}, kind: "object", since: "2025-11-25"},
	{path: []string{"icons", "*", "src"}, kind: "string", required: true, since: "2025-11-25"},
	{path: []string{"icons", "*", "mimeType"}, kind: "string", since: "2025-11-25"},
	{path: []string{"icons", "*", "sizes"}, kind: "array", since: "2025-11-25"},
	{path: []string{"icons", "*", "sizes", "*"}, kind: "string", since: "2025-11-25"},
	{path: []string{"icons", "*", "theme"}, kind: "string", values: []string{"light", "dark"}, since: "2025-11-25"},
	{path: []string{"execution"}, kind: "object", since: "2025-11-25"},
	{path: []string{"execution", "taskSupport"}, kind: "string", values: []string{"forbidden", "optional", "required"}, since: "2025-11-25"},
}

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
execution with 2025-11-25.

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
		checkToolField(p, f, p.Value, "", f.path)
	}
}

// checkToolField walks the rest of a field's path from the value v at ptr
// and reports the members there that break it.
func checkToolField(p *lint.Pass, f toolField, v any, ptr string, rest []string) {
	if len(rest) == 0 {
		if problem := fieldProblem(f, v); problem != "" {
			cs := fieldConsumers(p, f)
			who := "the TypeScript SDK's client takes"
			if len(cs) > 1 {
				who = "MCP and the TypeScript SDK's client take"
			}
			p.Report(lint.Diagnostic{RelPointer: ptr, Consumers: cs,
				Message: fmt.Sprintf("%s is %s; %s %s only, and the SDK refuses the whole tools/list otherwise (every tool of the server is lost): write %s",
					fieldName(ptr), problem, who, fieldWant(f), fieldAdvice(f, v))})
		}
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if rest[0] == "*" {
			return
		}
		child, ok := x[rest[0]]
		if !ok {
			if len(rest) == 1 && f.required {
				p.Report(lint.Diagnostic{RelPointer: ptr, Consumers: fieldConsumers(p, f),
					Message: fmt.Sprintf("%s has no %q; MCP requires it, and the TypeScript SDK's client refuses the whole tools/list without it (every tool of the server is lost): add it",
						fieldName(ptr), rest[0])})
			}
			return
		}
		checkToolField(p, f, child, ptr+"/"+rest[0], rest[1:])
	case []any:
		if rest[0] != "*" {
			return
		}
		for i, e := range x {
			checkToolField(p, f, e, ptr+"/"+strconv.Itoa(i), rest[1:])
		}
	}
}

// fieldProblem says how v breaks the field's shape; "" when it does not.
func fieldProblem(f toolField, v any) string {
	if schema.Kind(v) != f.kind {
		return schema.KindWithArticle(v)
	}
	if s, ok := v.(string); ok && len(f.values) > 0 && !slices.Contains(f.values, s) {
		return strconv.Quote(s)
	}
	return ""
}

// fieldWant says what the field takes.
func fieldWant(f toolField) string {
	if len(f.values) > 0 {
		quoted := make([]string, len(f.values))
		for i, s := range f.values {
			quoted[i] = strconv.Quote(s)
		}
		return strings.Join(quoted, ", ")
	}
	return articled(f.kind)
}

// fieldAdvice says what to write instead of v.
func fieldAdvice(f toolField, v any) string {
	if s, ok := v.(string); ok && f.kind == "boolean" && (s == "true" || s == "false") {
		return s + " without quotes"
	}
	if len(f.values) > 0 {
		return "one of them"
	}
	return articled(f.kind)
}

func articled(kind string) string {
	if kind == "array" || kind == "object" {
		return "an " + kind
	}
	return "a " + kind
}

// fieldName is a member's place in the tool as a reader names it
// ("annotations.readOnlyHint", "icons[0].src").
func fieldName(ptr string) string {
	var b strings.Builder
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if _, err := strconv.Atoi(seg); err == nil {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

// fieldConsumers are the refusals of a finding: the SDK's at every
// version, the specification's from the version that defines the field.
func fieldConsumers(p *lint.Pass, f toolField) []consumer.Refusal {
	if p.Protocol == "" || p.Since(f.since) {
		return p.Rule.Consumers
	}
	return p.Rule.Consumers[:1]
}
