package rules

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// RootPropertiesObject demands the root "properties" and "required" shapes
// that the Tool type spells out.
var RootPropertiesObject = &lint.Rule{
	ID:       "root-properties-object",
	Packs:    []string{"mcp"},
	Subject:  "schema-shape",
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "root-properties", Source: "MCP schema.json 2024-11-05 to 2025-11-25, Tool.inputSchema.properties (an object of objects)"},
		{Consumer: consumer.TSSDK, Line: "root-properties", Source: "anthropics/claude-code#82949 and #92900 (a boolean property schema drops every tool of the server)"},
	},
	Summary: "the root \"properties\" of inputSchema and outputSchema maps names to object schemas, and \"required\" lists strings",
	Fix:     lint.SafeFix,
	Check:   checkRootProperties,
	Doc: `The Tool type does not leave the root of a tool's schemas entirely to JSON
Schema: up to protocol 2025-11-25, schema.json gives inputSchema (and
outputSchema) a "properties" member that is an object whose every value is
an object, and a "required" member that is an array of strings. The MCP
TypeScript SDK checks the same at every protocol version (ToolSchema:
properties is a record of objects), so a tool that breaks it fails the
whole tools/list in Claude Code, Cursor and the other clients built on it:
Claude Code then shows the server with no tools at all
(anthropics/claude-code#82949, #92900).

JSON Schema 2020-12 allows a boolean schema as a property (true accepts
anything, false forbids the property), and generators emit it: Go's
google/jsonschema-go and invopop/jsonschema for an interface{} field,
schemars 0.8 for serde_json::Value (GaloyMoney/drua#230). An empty array
for "properties" ("properties": []) is no JSON Schema at all, and OpenAI
refuses it too ("[] is not of type 'object'").

The rule looks at the root only, where the Tool type makes its demands.
Fixes, all safe because the schema keeps its meaning:

  - a property schema true becomes {}, which accepts the same values;
  - a property schema false becomes {"not": {}}, which refuses the same;
  - "properties": [] becomes {} (no property declared either way).

Any other "properties" or "required" value has no fix: only the author
knows what was meant.

Bad:

    {"type": "object", "properties": {"payload": true}}

Good:

    {"type": "object", "properties": {"payload": {}}}

Source: MCP schema.json of 2024-11-05, 2025-03-26, 2025-06-18 and
2025-11-25 (Tool.inputSchema and Tool.outputSchema); the TypeScript SDK's
ToolSchema; anthropics/claude-code#82949 and #92900; GaloyMoney/drua#230;
prism-php/prism#746 for OpenAI and "properties": [].`,
}

func checkRootProperties(p *lint.Pass) {
	for _, key := range schemaKeys {
		root, ok := p.Value[key].(map[string]any)
		if !ok {
			continue
		}
		base := "/" + key
		checkPropertiesMember(p, key, base, root)
		if req, ok := root["required"]; ok {
			if !allStrings(req) {
				p.Reportf(base+"/required", "%s's \"required\" is %s; the Tool type wants a list of property names", key, schema.KindWithArticle(req))
			}
		}
	}
}

func checkPropertiesMember(p *lint.Pass, key, base string, root map[string]any) {
	props, ok := root["properties"]
	if !ok {
		return
	}
	ptr := base + "/properties"
	switch x := props.(type) {
	case map[string]any:
		for _, name := range slices.Sorted(maps.Keys(x)) {
			v := x[name]
			at := ptr + "/" + pointer.Escape(name)
			switch b := v.(type) {
			case map[string]any:
			case bool:
				repl, what := map[string]any{}, "{}, which accepts the same values"
				if !b {
					repl, what = map[string]any{"not": map[string]any{}}, "{\"not\": {}}, which refuses the same"
				}
				p.ReportFix(at, &lint.Fix{Message: fmt.Sprintf("write %s", schema.Compact(repl)), Safe: true,
					Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: at, Value: repl}}},
					"%s property %q is the boolean schema %v; the Tool type wants an object schema for every property (the TypeScript SDK refuses the whole tool list): write %s", key, name, b, what)
			default:
				p.Reportf(at, "%s property %q is %s, not a schema; write an object schema", key, name, schema.KindWithArticle(v))
			}
		}
	case []any:
		// Not JSON Schema at all, so OpenAI and VS Code refuse it too.
		d := lint.Diagnostic{RelPointer: ptr, Consumers: append(slices.Clone(p.Rule.Consumers), notAnObject...),
			Message: key + "'s \"properties\" is an array; it must be an object mapping each property name to its schema"}
		if len(x) == 0 {
			d.Message = key + "'s \"properties\" is an empty array; it must be an object mapping names to schemas: write {}"
			d.Fix = &lint.Fix{Message: "write {}", Safe: true,
				Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: ptr, Value: map[string]any{}}}}
		}
		p.Report(d)
	default:
		p.Reportf(ptr, "%s's \"properties\" is %s; it must be an object mapping each property name to its schema", key, schema.KindWithArticle(props))
	}
}

// notAnObject are the consumers that refuse "properties": [], beyond the
// Tool type's own.
var notAnObject = []consumer.Refusal{
	{Consumer: consumer.OpenAIChat, Error: "[] is not of type 'object'", Source: "prism-php/prism#746"},
	{Consumer: consumer.OpenAIResponses, Error: "[] is not of type 'object'", Source: "prism-php/prism#746"},
	{Consumer: consumer.OpenAIStrict, Error: "[] is not of type 'object'", Source: "prism-php/prism#746"},
	{Consumer: consumer.VSCode, Source: "microsoft/vscode-copilot-chat, toolSchemaNormalizer.ts (validates tools against the draft-07 meta-schema)"},
}

func allStrings(v any) bool {
	l, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range l {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}
