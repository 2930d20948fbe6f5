package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

var zodRules = []*lint.Rule{ZodLeak}

// ZodLeak finds Zod schemas published through JSON.stringify instead of a
// JSON Schema converter.
var ZodLeak = &lint.Rule{
	ID:       "zod-leak",
	Packs:    []string{"mcp"},
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.MCPSpec, Line: "json-schema", Source: "MCP schema.json, Tool.inputSchema"},
		{Consumer: consumer.TSSDK, Line: "json-schema", Source: "anthropics/claude-code#8014 (a Zod value has no \"type\": \"object\")"},
	},
	Summary: "inputSchema and outputSchema are JSON Schema, not a serialised Zod schema",
	Fix:     lint.MixedFix,
	Check:   checkZodLeak,
	Doc: `A tool's inputSchema and outputSchema are JSON Schema. A server built on
Zod has to convert its Zod schemas (z.toJSONSchema in Zod 4, zod-to-json-schema
in Zod 3); when a Zod value reaches the wire without that step, as when a
server hands a Zod object or a raw shape ({field: z.string(), ...}) to code
that expects JSON Schema and serialises it as it is, JSON.stringify publishes
Zod's internals instead. It is the mirror image of handing a plain JSON Schema
to an SDK that expects a Zod shape, where the schema lists fine but every call
fails: here the server validates calls with its Zod schema, but no client can
read the schema it published.

What clients receive:

  - Zod 3: {"_def": {"typeName": "ZodString", "checks": [...]}, "~standard":
    {"vendor": "zod", ...}} for every field. A root without "type": "object"
    makes the MCP TypeScript SDK's client reject the whole tools/list; Gemini
    rejects the unknown members ("Unknown name '~standard'"); clients that
    accept it show the model no types at all.
  - Zod 4: {"def": {...}, "type": "optional"}: "optional", "default",
    "nullable", "enum", "pipe" are not JSON Schema types, so the schema does
    not compile. A serialised z.object() is {"def": {...}, "type": "object"}:
    valid, and accepting any object, so the model sees no parameters.

The rule looks for Zod's own members in schema positions (the root, a
property's schema, items, ...), never in property names: a property called
"shape" or "_def" is fine. It reports a whole root, a "properties" map all of
whose members are Zod schemas (a raw shape), or a single leaked subschema.

The fix rebuilds the JSON Schema from the serialised definition tree, as
Zod's own converter would have made it from the live schema: zod-to-json-schema
for Zod 3 (the MCP TypeScript SDK 1.x's settings: a strip object gets
"additionalProperties": false) and z.toJSONSchema with io "input" for Zod 4.
It keeps types, optional versus required, arrays, enums, literals, unions,
records, nullable, nested objects, bounds, formats, descriptions and defaults,
as far as they survived JSON.stringify. The fix is safe when the rebuild is
exact. It is unsafe, and the message says what is missing, when something
the server checks did not survive:

  - Zod 3 keeps an object's shape behind a function; it is serialised only
    once the object has parsed a value (in "_cached"). Otherwise nothing of
    the object's fields is left: the fix can only publish {"type": "object"}
    and the tool's contract must be restored from the server's source.
  - Zod 4 serialises checks such as .min(), .max(), .length() and .regex() as
    {}: the rebuilt schema lacks those bounds and patterns.
  - A RegExp serialises as {}: .regex() patterns are lost in both versions.

Two things are lost without a trace or without changing what is accepted:
a Zod 3 default value is a function (the rebuilt field stays optional, with
no "default"; the message names it), and Zod 4 keeps .describe() in a
registry, not on the schema, so Zod 4 descriptions must be restored by hand.
The rebuilt properties, and "required", are listed in the order the source
lists the fields (the shape's order, which is the order a model reads them in).

Bad (a Zod 3 raw shape serialised as the inputSchema):

    {"name": "search", "inputSchema": {
      "query": {"_def": {"checks": [{"kind": "min", "value": 1}], "typeName": "ZodString"}, "~standard": {"version": 1, "vendor": "zod"}},
      "limit": {"_def": {"innerType": {"_def": {"checks": [{"kind": "int"}], "typeName": "ZodNumber"}}, "typeName": "ZodOptional"}, "~standard": {"version": 1, "vendor": "zod"}}}}

Good:

    {"name": "search", "inputSchema": {
      "type": "object",
      "properties": {"query": {"type": "string", "minLength": 1}, "limit": {"type": "integer"}},
      "required": ["query"],
      "additionalProperties": false}}

Source: MCP specification 2026-07-28, server/tools, "Data Types" / "Tool"
("inputSchema: JSON Schema defining expected parameters", "outputSchema:
Optional JSON Schema defining expected output structure"; the same in every
version); Zod documentation, "Metadata and registries"
(https://zod.dev/metadata: Zod 4 keeps metadata in registries);
anthropics/claude-code#8014 (the TypeScript SDK client rejects a whole
tools/list when one inputSchema lacks "type": "object"); BrainDAO/adk-ts#466
(Gemini rejects serialised Zod members: "Unknown name '~standard'");
modelcontextprotocol/typescript-sdk#1028 (a Zod value handed where the SDK
expects another form publishes a wrong schema). The serialised forms were
produced with zod 3.25.76 and 4.6.7 (testdata/generators/zod-leak).`,
}

func checkZodLeak(p *lint.Pass) {
	for _, member := range []string{"inputSchema", "outputSchema"} {
		root, ok := p.Value[member]
		if !ok {
			continue
		}
		if member == "inputSchema" && !zodInInput(p, root) {
			continue // none of the leaks looked for below (zodInside's test)
		}
		base := "/" + member
		if form, ver := detectZodLeak(root); form != normalize.NotZod {
			reportZodLeak(p, base, member, root, false, form, ver)
			continue
		}
		// The subschemas of a raw shape reported under "properties" are
		// its fields, rebuilt by its fix: nothing to say about them.
		var covered map[*schema.Node]bool
		p.Schema(member).Walk(func(n *schema.Node) bool {
			s := n.Value
			if n.Keyword == "properties" && covered[n.Parent] {
				return false
			}
			if form, ver := detectZodLeak(s); n.Depth > 0 && form != normalize.NotZod {
				reportZodLeak(p, n.Pointer(), "this subschema", s, false, form, ver)
				return false
			}
			props, ok := s["properties"].(map[string]any)
			if !ok {
				return true
			}
			if form, ver := normalize.DetectZod(props); form == normalize.ZodRawShape {
				if covered == nil {
					covered = map[*schema.Node]bool{}
				}
				covered[n] = true
				reportZodLeak(p, n.Pointer(), `"properties"`, s, true, form, ver)
			}
			return true
		})
	}
}

// isZodLeak reports whether a schema root is a serialised Zod value.
func isZodLeak(v any) bool {
	form, _ := detectZodLeak(v)
	return form != normalize.NotZod
}

// detectZodLeak is normalize.DetectZod in a schema position. A schema whose
// members are all Zod-like is a raw shape only if none of them is a keyword
// whose value is data: {"const": <a Zod value>} documents one.
func detectZodLeak(v any) (normalize.ZodForm, int) {
	form, ver := normalize.DetectZod(v)
	if form == normalize.ZodRawShape {
		m := v.(map[string]any)
		if _, ok := m["const"]; ok {
			return normalize.NotZod, 0
		}
		if _, ok := m["default"]; ok {
			return normalize.NotZod, 0
		}
	}
	return form, ver
}

// reportZodLeak reports the leaked value at ptr: the schema s itself or,
// when inProperties, the raw shape under s's "properties". The fix replaces
// s.
func reportZodLeak(p *lint.Pass, ptr, subject string, s any, inProperties bool, form normalize.ZodForm, ver int) {
	leaked := s
	if inProperties {
		leaked = s.(map[string]any)["properties"]
	}
	// The rebuilt fields keep the order the source lists them in, which
	// is the shape's order and the one a model reads them in.
	order := map[string]int{}
	shapeOrder(p, ptr, s, inProperties || form == normalize.ZodRawShape, order)
	rebuilt, lost, _ := normalize.FromZodInOrder(leaked, order)
	where, replacement := ptr, any(rebuilt)
	if inProperties {
		// A raw shape under "properties" of a hand-written object: the
		// properties are rebuilt, and "required" added when the author gave
		// none, since a raw shape's fields are required unless optional.
		where = ptr + "/properties"
		parent := schema.Clone(s).(map[string]any)
		parent["properties"] = rebuilt["properties"]
		if req, ok := rebuilt["required"]; ok && parent["required"] == nil {
			parent["required"] = req
		}
		replacement = parent
	}
	exact, annotations := groupLosses(lost, ptr, false), groupLosses(lost, ptr, true)
	msg := fmt.Sprintf("%s is a serialised Zod %s, not JSON Schema: clients get Zod's internals (%s) where JSON Schema belongs; convert it with %s before publishing it",
		subject, zodLabel(leaked, form, ver), zodMarkers(ver), zodConverter(ver))
	edits := lint.Diff(ptr, s, replacement)
	for i := range edits {
		edits[i].Order = order
	}
	fix := &lint.Fix{Safe: len(exact) == 0, Edits: edits}
	switch {
	case len(exact) == 1 && lost[0].Pointer == "" && normalize.ZodTypeName(leaked) == "ZodObject" && rebuilt["properties"] == nil:
		msg += `; Zod 3 serialises an object's shape only after the object's first parse, so none of its fields survived: restore them from the server's source (the unsafe fix publishes {"type": "object"}, which accepts any object)`
		fix.Message = `replace it with {"type": "object"}: the tool's contract was lost`
	case len(exact) > 0:
		msg += "; the rebuild cannot restore " + listLosses(exact) + ", so it accepts more than the server does"
		fix.Message = "rebuild the JSON Schema from what survived serialisation"
	default:
		fix.Message = "rebuild the JSON Schema from the serialised Zod definition"
	}
	if len(annotations) > 0 {
		msg += "; left out: " + listLosses(annotations)
	}
	p.ReportFix(where, fix, "%s", msg)
}

// shapeOrder ranks the field names of the serialised shapes in v (at ptr in
// the tool; v itself is a shape when isShape) by the offset where the
// source first spells each as a field. Only the members of shapes count:
// the names of Zod's own members ("type", "kind", "checks") are everywhere
// in a serialised value, and a field called the same must rank by its own
// place.
func shapeOrder(p *lint.Pass, ptr string, v any, isShape bool, order map[string]int) {
	m, ok := v.(map[string]any)
	if !ok {
		if list, ok := v.([]any); ok {
			for i, c := range list {
				shapeOrder(p, ptr+"/"+strconv.Itoa(i), c, false, order)
			}
		}
		return
	}
	for k, c := range m {
		cp := ptr + "/" + pointer.Escape(k)
		if isShape {
			if off := p.Tool.Locate(cp).Offset; !hasRank(order, k) || off < order[k] {
				order[k] = off
			}
		}
		// A shape is under "shape": Zod 4's def.shape, Zod 3's
		// _cached.shape (and _def.shape when it was serialised), or under
		// "properties" where a raw shape leaked into a hand-written object.
		shapeOrder(p, cp, c, !isShape && (k == "shape" || k == "properties"), order)
	}
}

func hasRank(order map[string]int, k string) bool {
	_, ok := order[k]
	return ok
}

// groupLosses says each kind of loss once, with every place it happened:
// "a .min() check ... at /inputSchema/properties/a, /inputSchema/properties/b".
func groupLosses(lost []normalize.ZodLoss, base string, annotation bool) []string {
	var order []string
	where := map[string][]string{}
	for _, l := range lost {
		if l.Annotation != annotation {
			continue
		}
		if _, ok := where[l.What]; !ok {
			order = append(order, l.What)
		}
		where[l.What] = append(where[l.What], base+l.Pointer)
	}
	out := make([]string, len(order))
	for i, what := range order {
		out[i] = what + " at " + strings.Join(where[what], ", ")
	}
	return out
}

func listLosses(items []string) string {
	const shown = 3
	if len(items) <= shown {
		return strings.Join(items, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(items[:shown], "; "), len(items)-shown)
}

// zodLabel says what was serialised: "3 ZodEnum", "4 object schema", "3
// raw shape ({field: z.string(), ...})".
func zodLabel(v any, form normalize.ZodForm, ver int) string {
	version := ""
	if ver != 0 {
		version = fmt.Sprintf("%d ", ver)
	}
	name := normalize.ZodTypeName(v)
	switch {
	case form == normalize.ZodRawShape:
		return version + "raw shape ({field: z.string(), ...})"
	case name == "":
		return version + "schema"
	case ver == 4:
		return version + name + " schema"
	}
	return version + name
}

func zodMarkers(ver int) string {
	switch ver {
	case 3:
		return `"_def", "~standard"`
	case 4:
		return `"def"`
	}
	return `"_def", "def"`
}

func zodConverter(ver int) string {
	switch ver {
	case 3:
		return "zod-to-json-schema"
	case 4:
		return "z.toJSONSchema()"
	}
	return "z.toJSONSchema() or zod-to-json-schema"
}
