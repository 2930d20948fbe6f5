package rules

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

var rootRules = []*lint.Rule{InputSchemaRootObject, OutputSchemaRootObject, RootPropertiesObject, RequiredInProperties}

// InputSchemaRootObject demands an object schema at the root of inputSchema.
var InputSchemaRootObject = &lint.Rule{
	ID:       "input-schema-root-object",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: append([]consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "input-root", Source: "MCP schema.json, Tool.inputSchema, every version (\"type\": {\"const\": \"object\"})"},
		{Consumer: consumer.TSSDK, Line: "input-root", Error: "Invalid input: expected \"object\"", Source: "anthropics/claude-code#8014"},
	}, openaiModes("root-object", "schema must be a JSON Schema of 'type: \"object\"', got 'type: null'.", "chatanywhere/GPT_API_free#403",
		"chatanywhere/GPT_API_free#403 (the same function-parameters check)", "OpenAI Structured Outputs guide, \"Supported schemas\" (the root must be an object)")...),
	Summary: "inputSchema is a JSON Schema object with \"type\": \"object\" at its root",
	Fix:     lint.SafeFix,
	Check:   checkInputRoot,
	Defers:  []*lint.Rule{ZodLeak},
	Doc: `Tool arguments are always a JSON object, and every version of the
specification says so in the Tool type: "inputSchema" is required and its
root carries "type": "object" (schema.json, Tool.inputSchema: "required":
["type"], "type": {"const": "object"}). Clients check it literally. Claude
Code and the other clients built on the MCP TypeScript SDK parse tools/list
with that schema (its Tool type has type: z.literal("object")), and one
tool that fails the check fails the whole list, so the server seems to have
no tools at all (anthropics/claude-code#8014 shows the error for
outputSchema, which has the same check):

    "path": ["tools", 0, "inputSchema", "type"], "message": "Invalid literal value, expected \"object\""

The OpenAI API refuses such a function too ("schema must be a JSON Schema
of 'type: "object"', got 'type: null'").

Generators that emit the bad shapes:

  - schemars (Rust) gives a parameters type such as serde_json::Value a
    schema without "type" ({"title": "AnyValue"}).
  - github.com/invopop/jsonschema's Reflector makes the root a bare
    {"$ref": "#/$defs/Args", "$defs": {...}} unless ExpandedStruct is set.
  - zod-to-json-schema called with a name, zodToJsonSchema(schema, "Args"),
    gives {"$ref": "#/definitions/Args", "definitions": {...}} in draft-07.
  - Derivers that turn a record without fields into a string enum give a
    root "type": "string".

Fixes. Arguments are always an object, so narrowing the root to objects
never refuses a call a client could make; these fixes are safe:

  - a missing or null inputSchema, or the boolean schema true, becomes
    {"type": "object"} (accepts any object; the specification's
    recommended form for a tool without parameters adds
    "additionalProperties": false, which would refuse arguments the server
    may take today, so mcplint leaves that choice to you);
  - a root without "type" ({} included) gets "type": "object", a type
    list that includes "object" (["object", "null"]) becomes "object", and
    "Object" (no type name at all, so no validator took the schema as it
    was) is written in lower case;
  - a root "$ref" gets "type": "object" beside it in 2019-09 and 2020-12
    (the default dialect), where keywords beside "$ref" apply. In draft-07
    and older they are ignored, so the referenced definition is inlined
    instead: references into it are rewritten to point at the root, so
    recursive schemas keep working, and the other definitions stay. A
    draft-07 root with "type": "object" beside its "$ref" is reported as a
    warning and inlined the same way, since validators ignore that "type".

A root that admits no object ("type": "string", a "$ref" to a string
schema, false, a value that is not a schema) has no fix: the server's
handler expects something else, and only its author can wrap the value in
a named property.

Bad:

    {"name": "ping", "inputSchema": {}}
    {"name": "tree", "inputSchema": {"$ref": "#/$defs/Node", "$defs": {"Node": {"type": "object"}}}}

Good:

    {"name": "ping", "inputSchema": {"type": "object"}}
    {"name": "tree", "inputSchema": {"type": "object", "$ref": "#/$defs/Node", "$defs": {"Node": {"type": "object"}}}}

Source: MCP specification, schema.json "Tool" of every version from
2024-11-05 to 2026-07-28 ("inputSchema" required, its "type" the constant
"object"); 2026-07-28 server/tools, "Tool" ("MUST be a valid JSON Schema
object (not null)"); the TypeScript SDK's literal check,
anthropics/claude-code#8014; schemars without "type",
joshrotenberg/tower-mcp#587; zod-to-json-schema, Piotr1215/mcp-obsidian#17;
a string root, tidepool-heavy-industries/exomonad#798; OpenAI,
chatanywhere/GPT_API_free#403.`,
}

// OutputSchemaRootObject demands an object root of outputSchema up to
// protocol 2025-11-25.
var OutputSchemaRootObject = &lint.Rule{
	ID:       "output-schema-root-object",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "output-root", Source: "MCP schema.json 2025-06-18 and 2025-11-25, Tool.outputSchema"},
		{Consumer: consumer.TSSDK, Line: "output-root", Error: "Invalid literal value, expected \"object\"", Source: "anthropics/claude-code#8014"},
	},
	Summary: "before protocol 2026-07-28, outputSchema has \"type\": \"object\" at its root",
	Fix:     lint.SafeFix,
	Check:   checkOutputRoot,
	Defers:  []*lint.Rule{ZodLeak},
	Doc: `Up to protocol 2025-11-25 a tool's structured result (structuredContent)
is a JSON object, and "outputSchema" is restricted to object schemas:
schema.json gives it the shape of inputSchema ("required": ["type"],
"type": {"const": "object"}), and 2025-11-25 says it in words ("Currently
restricted to type: "object" at the root level"). The MCP TypeScript SDK
checks the literal whatever version was negotiated, and one tool with, say,
an array output schema fails the whole tools/list:

    "path": ["tools", 0, "outputSchema", "type"], "message": "Invalid literal value, expected \"object\""

outputSchema entered the Tool type in 2025-06-18; the rule also checks one
sent by a server that speaks an older version, because those clients parse
it all the same.

From protocol 2026-07-28 an output schema may be any JSON Schema (a
structured result can be any JSON value), so the rule is silent about the
root's type there: checking against 2026-07-28 (the default) accepts
"type": "array" and friends. It still reports an outputSchema that is not
a JSON object at all (null, a boolean, a string), which schema.json of
every version refuses; null is removed and true becomes {} (the same
schema), both safe.

Fixes, safe for the same reason as input-schema-root-object's (a
structured result is an object in these versions): a root without "type"
gets "type": "object", a type list with "object" becomes "object", a root
"$ref" gets "type" beside it (2019-09, 2020-12) or is inlined (draft-07 and
older), the boolean schema true becomes {"type": "object"}, and a null
outputSchema is removed (declaring a schema would oblige the server to send
structured results). An output schema that admits no object, such as
"type": "array", has no fix: wrap the result in a property of an object, or
speak protocol 2026-07-28.

Bad (protocol 2025-11-25):

    {"name": "list_users", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array", "items": {"type": "string"}}}

Good:

    {"name": "list_users", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"users": {"type": "array", "items": {"type": "string"}}}, "required": ["users"]}}

Source: MCP specification 2025-06-18 and 2025-11-25, schema.json and
schema.ts "Tool.outputSchema"; 2026-07-28 schema.ts "Tool.outputSchema"
("This can be any valid JSON Schema 2020-12") and server/tools, "Output
Schema"; anthropics/claude-code#8014 (the TypeScript SDK's check).`,
}

func checkInputRoot(p *lint.Pass) {
	v, ok := p.Value["inputSchema"]
	checkObjectRoot(p, "inputSchema", v, ok)
}

func checkOutputRoot(p *lint.Pass) {
	v, ok := p.Value["outputSchema"]
	if !ok {
		return
	}
	if p.Before("2026-07-28") {
		checkObjectRoot(p, "outputSchema", v, true)
		return
	}
	// Any schema will do, but it must still be a JSON object.
	switch x := v.(type) {
	case map[string]any:
	case nil:
		p.ReportFix("/outputSchema", &lint.Fix{Message: "remove the null outputSchema", Safe: true,
			Edits: []manifest.Edit{{Op: manifest.Remove, Pointer: "/outputSchema"}}},
			"outputSchema is null; remove it, or give a JSON Schema object")
	case bool:
		if x {
			p.ReportFix("/outputSchema", &lint.Fix{Message: "replace true by {}", Safe: true,
				Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: "/outputSchema", Value: map[string]any{}}}},
				"outputSchema is the boolean schema true, but the Tool type wants a JSON object: use {}, which accepts the same")
			break
		}
		p.Reportf("/outputSchema", "outputSchema is the boolean schema false, which no result satisfies; write an object schema")
	default:
		f, _ := diagnoseRoot("outputSchema", v, true)
		p.Reportf("/outputSchema", "%s", f.msg)
	}
}

// checkObjectRoot reports a root of tool member (inputSchema or
// outputSchema) that is not an object schema, with the fix
// normalize.ObjectRoot gives when it gives one.
func checkObjectRoot(p *lint.Pass, member string, v any, present bool) {
	base := "/" + member
	// The plugin-contract shape calls the input schema "schema"; messages
	// use the name the source uses.
	name := member
	if member == "inputSchema" && p.Tool.SchemaKey != "" {
		name = p.Tool.SchemaKey
	}
	f, ok := diagnoseRoot(name, v, present)
	if !ok {
		return
	}
	d := lint.Diagnostic{Severity: f.severity, RelPointer: base + f.at, Message: f.msg}
	switch {
	case !present:
		d.RelPointer = ""
		d.Fix = &lint.Fix{Message: "add \"" + name + "\": {\"type\": \"object\"}", Safe: true, Edits: []manifest.Edit{
			{Op: manifest.Add, Pointer: base, Value: map[string]any{"type": "object"}},
		}}
	case v == nil && member == "outputSchema":
		d.Fix = &lint.Fix{Message: "remove the null outputSchema", Safe: true, Edits: []manifest.Edit{{Op: manifest.Remove, Pointer: base}}}
	case f.fixable && p.Runs(ZodLeak) && isZodLeak(v):
		// Adding "type" to a serialised Zod value would hide it from
		// zod-leak, whose fix rebuilds the real schema from it.
		d.Message += " (zod-leak's fix rebuilds the schema from the serialised Zod value)"
	case f.fixable:
		fixed, err := normalize.ObjectRoot(v)
		if err != nil {
			d.Message += fmt.Sprintf(" (no automatic fix: %v)", err)
			break
		}
		d.Fix = lint.DiffFix(f.fixMsg, true, base, v, fixed)
	}
	p.Report(d)
}

// rootFinding is what is wrong with a schema root.
type rootFinding struct {
	at       string // pointer below the member
	msg      string
	fixMsg   string
	fixable  bool
	severity lint.Severity
}

func diagnoseRoot(member string, v any, present bool) (rootFinding, bool) {
	wrap := "wrap the value in a property of an object schema"
	if member == "outputSchema" {
		wrap = "wrap the result in a property of an object (protocol 2026-07-28 allows any output schema, but clients of older versions refuse it; --protocol 2026-07-28 checks that version alone)"
	}
	switch x := v.(type) {
	case nil:
		if !present {
			return rootFinding{msg: "tool has no \"" + member + "\"; every tool needs one, {\"type\": \"object\"} for a tool without parameters", fixable: true}, true
		}
		if member == "outputSchema" {
			return rootFinding{msg: "outputSchema is null; remove it, or give an object schema"}, true
		}
		return rootFinding{msg: member + " is null; use an object schema, {\"type\": \"object\"} at the least", fixMsg: "replace null by {\"type\": \"object\"}", fixable: true}, true
	case bool:
		if x {
			return rootFinding{msg: member + " is the boolean schema true; MCP requires an object schema: use {\"type\": \"object\"}", fixMsg: "replace true by {\"type\": \"object\"}", fixable: true}, true
		}
		return rootFinding{msg: member + " is the boolean schema false, which no value satisfies; write an object schema"}, true
	case string:
		hint := ""
		if json.Valid([]byte(x)) && strings.HasPrefix(strings.TrimSpace(x), "{") {
			hint = " (it holds JSON text: the schema was encoded twice; send the object itself)"
		}
		return rootFinding{msg: member + " is a string, not a JSON Schema object" + hint}, true
	case map[string]any:
		return diagnoseRootObject(member, x, wrap)
	}
	return rootFinding{msg: fmt.Sprintf("%s is %s, not a JSON Schema object", member, schema.KindWithArticle(v))}, true
}

func refAdmitsObject(root map[string]any, ref string) bool {
	target, ok := schema.Resolve(root, ref)
	return !ok || normalize.AdmitsObject(target, root)
}

// alwaysObject says why narrowing the root to objects is safe.
func alwaysObject(member string) string {
	if member == "outputSchema" {
		return "structured results are objects up to protocol 2025-11-25"
	}
	return "tool arguments are always an object"
}

func diagnoseRootObject(member string, s map[string]any, wrap string) (rootFinding, bool) {
	d, _ := schema.Dialect(s)
	t, hasType := s["type"]
	ref, hasRef := s["$ref"]
	refText := schema.Compact(ref)
	if hasRef && schema.RefSiblingsIgnored(d) {
		// Only the target counts: the dialect ignores the keywords beside.
		if r, ok := ref.(string); ok && !refAdmitsObject(s, r) {
			return rootFinding{msg: fmt.Sprintf("%s is a \"$ref\" (%s) to a schema that admits no object; %s", member, refText, wrap)}, true
		}
		if t == "object" {
			return rootFinding{at: "/type", severity: lint.Warning, fixable: true,
				msg:    fmt.Sprintf("%s's \"type\": \"object\" stands beside \"$ref\", where %s ignores it; inline the referenced schema so the root is an object schema", member, d),
				fixMsg: "inline " + refText + " at the root"}, true
		}
		if hasType {
			return rootFinding{at: "/type", fixable: true,
				msg:    fmt.Sprintf("%s's root \"type\" is %s, but MCP requires \"object\"; %s ignores it beside \"$ref\", so inline the referenced schema, which is what validates", member, schema.Compact(t), d),
				fixMsg: "inline " + refText + " at the root"}, true
		}
		return rootFinding{at: "/$ref", fixable: true,
			msg:    fmt.Sprintf("%s is only a \"$ref\" (%s), with no \"type\": \"object\" at the root; in %s keywords beside \"$ref\" are ignored, so inline the referenced schema", member, refText, d),
			fixMsg: "inline " + refText + " at the root"}, true
	}
	if !hasType {
		switch {
		case !normalize.AdmitsObject(s, s) && hasRef:
			return rootFinding{msg: fmt.Sprintf("%s is a \"$ref\" (%s) to a schema that admits no object; %s", member, refText, wrap)}, true
		case !normalize.AdmitsObject(s, s):
			return rootFinding{msg: fmt.Sprintf("%s has no \"type\" and admits no object; %s", member, wrap)}, true
		case len(s) == 0:
			return rootFinding{fixable: true, fixMsg: "add \"type\": \"object\"",
				msg: member + " is {}, with no \"type\"; MCP requires \"type\": \"object\" at the root: use {\"type\": \"object\"}"}, true
		case hasRef:
			return rootFinding{at: "/$ref", fixable: true, fixMsg: "add \"type\": \"object\" beside \"$ref\"",
				msg: fmt.Sprintf("%s is a bare \"$ref\" (%s) with no \"type\" at the root; MCP clients require \"type\": \"object\" there: add it beside \"$ref\"", member, refText)}, true
		}
		return rootFinding{fixable: true, fixMsg: "add \"type\": \"object\"",
			msg: member + " has no \"type\"; MCP requires \"type\": \"object\" at the root: add it"}, true
	}
	switch tt := t.(type) {
	case string:
		if tt == "object" {
			return rootFinding{}, false
		}
		if strings.EqualFold(tt, "object") {
			return rootFinding{at: "/type", fixable: true, fixMsg: "write \"object\" in lower case",
				msg: fmt.Sprintf("%s's root \"type\" is %q; JSON Schema type names are lower case: write \"object\"", member, tt)}, true
		}
		return rootFinding{at: "/type", msg: fmt.Sprintf("%s's root \"type\" is %q, but MCP requires \"object\"; %s", member, tt, wrap)}, true
	case []any:
		if schema.HasType(s, "object") {
			return rootFinding{at: "/type", fixable: true, fixMsg: "set \"type\" to \"object\"",
				msg: fmt.Sprintf("%s's root \"type\" is %s, but MCP requires the string \"object\"; %s, so make it \"object\"", member, schema.Compact(t), alwaysObject(member))}, true
		}
		return rootFinding{at: "/type", msg: fmt.Sprintf("%s's root \"type\" is %s, but MCP requires \"object\"; %s", member, schema.Compact(t), wrap)}, true
	}
	return rootFinding{at: "/type", msg: fmt.Sprintf("%s's root \"type\" is a %s; write \"type\": \"object\"", member, schema.Kind(t))}, true
}
