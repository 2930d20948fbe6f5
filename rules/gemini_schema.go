package rules

import (
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// GeminiRef reports references, which Gemini's parameters do not resolve.
var GeminiRef = &lint.Rule{
	ID:       "gemini-ref",
	Packs:    geminiPacks,
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Line: "references", Error: "reference to undefined schema", Source: "google-gemini/gemini-cli#13326"},
	},
	Summary: "Gemini parameters have no \"$ref\" or \"$defs\": inline them",
	Fix:     lint.MixedFix,
	Check:   checkGeminiRef,
	Doc: `Gemini's Schema object has no references. Pydantic (the Python MCP SDK),
zod-to-json-schema and many generators put shared types under "$defs" and
point at them with "$ref"; Gemini then refuses the request:

    reference to undefined schema at properties.target_object.anyOf.1

and gemini-cli 0.15.1 skipped such tools ("can't resolve reference
#/$defs/Issue from id #"). A "$ref" with other keywords beside it fails too
("If a schema node has $ref set, then only description and default can be
set alongside it").

The fix inlines every local reference and removes "$defs" and
"definitions". It is safe when no type refers to itself. A recursive type
(a tree, a linked list) cannot be inlined whole: it is expanded 3 levels
deep and cut there; the cut node accepts any value, and the fix says where
it cut (unsafe). Keywords beside a "$ref" (2019-09 and later) are kept
beside the inlined schema through "allOf", which gemini-unsupported-keyword
then merges. A reference that does not resolve is left for ref-resolvable.

` + geminiField + `

Bad:

    {"type": "object", "properties": {"target": {"$ref": "#/$defs/Target"}},
     "$defs": {"Target": {"type": "object", "properties": {"id": {"type": "string"}}}}}

Good:

    {"type": "object", "properties": {"target": {"type": "object", "properties": {"id": {"type": "string"}}}}}

Source: google-gemini/gemini-cli#13326 and #13142; anomalyco/opencode#12295
(refs with siblings); ` + geminiSchemaSource + `.`,
}

func checkGeminiRef(p *lint.Pass) {
	v, ok := geminiSubsetSchema(p)
	if !ok {
		return
	}
	var (
		fix      *lint.Fix
		fixed    any
		lost     []normalize.Loss
		over     *normalize.BudgetError // the budget ran out: no fix
		computed bool
	)
	inlined := func() any {
		if !computed {
			computed = true
			var losses []normalize.Loss
			fixed, losses = normalize.GeminiInlineRefs(v, normalize.GeminiOptions{Budget: refBudget(p)})
			if over = normalize.BudgetExceeded(losses); over != nil {
				return fixed
			}
			lost = losses
			msg := "inline every reference and remove the definitions"
			if len(losses) > 0 {
				msg += " (" + lossText(losses) + ")"
			}
			fix = lint.DiffFix(msg, len(losses) == 0, "/inputSchema", v, fixed)
			if vm, ok := v.(map[string]any); ok {
				if fm, ok := fixed.(map[string]any); ok && introduces(p, "/inputSchema", false, vm, fm) {
					fix = nil // a cut Gemini refuses: a recursion of bare references
				}
			}
		}
		return fixed
	}
	fixFor := func() *lint.Fix {
		inlined()
		return fix
	}
	note := func() string {
		if inlined(); over != nil {
			return fmt.Sprintf("; no fix is offered: inlined, the references stand for more than %s of JSON, the limit (--max-ref-expansion)", manifest.SizeText(over.Limit))
		}
		return lossNote(lost)
	}
	var resolver *schema.Resolver // indexed at the first reference
	for _, viol := range geminiViolations(p, "references") {
		n, s := viol.node, viol.node.Value
		if viol.keyword == "$ref" {
			ref, ok := s["$ref"].(string)
			if !ok {
				continue
			}
			if resolver == nil {
				resolver = schema.NewResolver(v)
			}
			rel := strings.TrimPrefix(n.Pointer(), "/inputSchema")
			if !resolver.Resolve(rel, ref).Found {
				p.Reportf(n.Pointer(), "\"$ref\" %q does not resolve inside the schema, and Gemini's parameters resolve no reference; replace it by the schema it means", ref)
				continue
			}
			f := fixFor()
			p.ReportFix(n.Pointer(), f, "\"$ref\" %q: Gemini's parameters resolve no reference (\"reference to undefined schema\"); inline the schema it points to%s", ref, note())
			continue
		}
		k := viol.keyword
		msg := fmt.Sprintf("%q is not a field of Gemini's Schema; inline the definitions where they are used and remove it", k)
		if _, stays := schema.Get(inlined(), strings.TrimPrefix(n.Pointer(), "/inputSchema")+"/"+k); stays && over == nil {
			// A reference that does not resolve keeps the definitions.
			p.Reportf(viol.pointer(), "%s (once every reference resolves)", msg)
			continue
		}
		if over != nil {
			msg += note()
		}
		p.ReportFix(viol.pointer(), fixFor(), "%s", msg)
	}
}

// refBudget is the budget that inlining the references of the tool's
// manifest spends, one for all its tools (manifest.Limits.RefExpansion).
func refBudget(p *lint.Pass) *normalize.Budget {
	m := p.Tool.M
	budget := func() any { return normalize.NewBudget(m.Limits().RefExpansion) }
	if p.Run == nil {
		return m.Shared("gemini-ref/budget", budget).(*normalize.Budget)
	}
	// Per run: a second lint of the same manifest finds what the first
	// found, the budget whole again.
	return p.Run.Get("gemini-ref/budget", budget).(*normalize.Budget)
}

// GeminiTypeArray reports lists of types.
var GeminiTypeArray = &lint.Rule{
	ID:       "gemini-type-array",
	Packs:    geminiPacks,
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Line: "types", Error: "Proto field is not repeating, cannot start list.", Source: "zed-industries/zed#44875"},
		{Consumer: consumer.GeminiParameters, Line: "typed", Error: "type: must be specified when not using one_of, any_of or all_of fields", Source: "danny-avila/LibreChat#6971"},
		{Consumer: consumer.GeminiParameters, Line: "null-branch", Error: "Invalid enum value NULL", Source: "langchain-ai/langchain-google#1216"},
	},
	Summary: "\"type\" is one type Gemini knows, on every property: not a list, not null, not missing",
	Fix:     lint.MixedFix,
	Check:   checkGeminiTypeArray,
	Defers:  []*lint.Rule{OpenAIStrictRequired},
	Doc: `Gemini's "type" is a single enum value (STRING, INTEGER, ...), not a list,
so "type": ["string", "null"], the way most SDKs write an optional value,
fails the whole request:

    Invalid JSON payload received. Unknown name "type" at 'tools[0].function_declarations[3].parameters.properties[3].value': Proto field is not repeating, cannot start list.

The fix writes ["T", "null"] as "type": "T" with "nullable": true, and
several types as an anyOf of one schema per type, each keeping the
keywords of its type (minLength with the string, items with the array).
Both accept exactly what the list did (safe). An anyOf already beside the
list cannot take a second one: only the first type is kept (unsafe).

When openai-strict-required runs too (the openai-strict pack, --strict),
there is no fix: OpenAI's strict mode
writes an optional property as ["T", "null"] and has no "nullable", so no
one schema satisfies both. Use "mcplint convert --to gemini" and
"mcplint convert --to openai --strict" to write one schema per target.

` + geminiField + `

Bad:

    "limit": {"type": ["integer", "null"]}

Good:

    "limit": {"type": "integer", "nullable": true}

A property or array element with no "type" at all (and no anyOf, $ref,
enum or const to stand for one) is refused too ("type: must be specified
when not using one_of, any_of or all_of fields", danny-avila/LibreChat#6971),
and so is a type name Gemini's enum lacks, such as "int"
(zereight/gitlab-mcp#166). Neither has a fix: only the author knows the
type.

The same goes for an anyOf branch {"type": "null"}, the way pydantic writes
Optional: the Type enum of several Gemini and Vertex AI versions has no
NULL ("Invalid enum value NULL for enum type
google.cloud.aiplatform.v1beta1.Type"). The fix drops the branch and marks
the schema "nullable": true; a single branch left is lifted into the schema
(safe).

Source: zed-industries/zed#44875 and n8n-io/n8n#15553 (the error above);
langchain-ai/langchain-google#1216 and
taylorwilsdon/google_workspace_mcp#1099 (null in anyOf);
` + geminiSchemaSource + ` ("type", "nullable", "anyOf").`,
}

func checkGeminiTypeArray(p *lint.Pass) {
	// openai-strict-required writes optional values as ["T", "null"] or
	// with a null branch: a fix here would undo its fix.
	strict := p.Runs(OpenAIStrictRequired)
	geminiWalk(p, func(n *schema.Node) {
		s := n.Value
		if branches, ok := s["anyOf"].([]any); ok {
			for i, b := range branches {
				if m, ok := b.(map[string]any); !ok || m["type"] != "null" {
					continue
				}
				at := fmt.Sprintf("%s/anyOf/%d/type", n.Pointer(), i)
				msg := "an anyOf branch of type \"null\", which Gemini's type enum lacks on several endpoints (\"Invalid enum value NULL\")"
				if strict {
					p.Reportf(at, "%s, and OpenAI's strict mode (openai-strict-required, also selected) writes optional values this way and has no \"nullable\"; write one schema per target with mcplint convert --to gemini and --to openai --strict", msg)
					continue
				}
				fix, losses := geminiRewriteFix(p, n, "anyOf", "drop the null branch and mark the schema \"nullable\": true")
				p.ReportFix(at, fix, "%s; drop the branch and use \"nullable\": true%s", msg, lossNote(losses))
			}
		}
	})
	for _, v := range geminiViolations(p, "types", "typed") {
		n, s := v.node, v.node.Value
		if v.line.ID == "typed" {
			p.Reportf(n.Pointer(), "a schema without \"type\" (a property, or an array's elements), which Gemini refuses (\"type: must be specified when not using one_of, any_of or all_of fields\"); give it a type, or an anyOf of the types it takes")
			continue
		}
		switch t := s["type"].(type) {
		case string:
			p.Reportf(v.pointer(), "\"type\" is %q, which is no type Gemini knows (\"Invalid value at ... type\"); use string, number, integer, boolean, array or object", t)
			continue
		case []any:
		default:
			continue
		}
		msg := fmt.Sprintf("\"type\" is the list %s; Gemini takes one type (\"Proto field is not repeating\")", schema.Compact(s["type"]))
		if strict {
			p.Reportf(v.pointer(), "%s, and OpenAI's strict mode (openai-strict-required, also selected) writes optional values this way and has no \"nullable\"; no schema satisfies both: write one per target with mcplint convert --to gemini and --to openai --strict", msg)
			continue
		}
		fix, losses := geminiRewriteFix(p, n, "type", "write it as one type with \"nullable\": true, or an anyOf of one schema per type")
		p.ReportFix(v.pointer(), fix, "%s; use \"nullable\": true for null and an anyOf for several types%s", msg, lossNote(losses))
	}
}

// GeminiEnum reports enums Gemini refuses, and const.
var GeminiEnum = &lint.Rule{
	ID:       "gemini-enum",
	Packs:    geminiPacks,
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Line: "enum", Error: "only allowed for STRING type", Source: "anomalyco/opencode#12911"},
		{Consumer: consumer.GeminiParameters, Line: "enum-type", Error: "only allowed for STRING type", Source: "decolua/9router#380"},
		{Consumer: consumer.GeminiParameters, Line: "const", Error: "Unknown name \"const\"", Source: "zed-extensions/mcp-server-brave-search#12"},
	},
	Summary: "enum lists strings on a string schema; no const",
	Fix:     lint.MixedFix,
	Check:   checkGeminiEnum,
	Doc: `Gemini's "enum" is a list of strings and only allowed on a string schema;
there is no "const". Integer enums, an enum without "type", and const
(which zod and pydantic emit for literals) fail the request:

    GenerateContentRequest.tools[0].function_declarations[32].parameters.properties[format].any_of[0].enum: only allowed for STRING type
    Invalid value at '...parameters.properties[16].value.enum[0]' (TYPE_STRING), 2
    Invalid JSON payload received. Unknown name "const" at '...parameters.properties[8].value.any_of[0]': Cannot find field.

The fix keeps what the schema accepts where it can:

  - const becomes an enum of one value;
  - a string enum without "type" gets "type": "string" (safe);
  - an integer enum becomes "minimum"/"maximum": exact (safe) when it lists
    every integer of its range, such as [1, 2, 3]; otherwise (unsafe) the
    range is wider and the values are listed in the description, for the
    model to read. The values stay numbers: writing them as strings ("1")
    would make the model send strings to a server that expects numbers;
  - [true, false] becomes "type": "boolean" (safe); a single boolean, a
    fraction, an object or an array is only said in the description
    (unsafe);
  - values of several types become an anyOf of one schema per type;
  - null in an enum becomes "nullable": true.

` + geminiField + `

Bad:

    "level": {"type": "integer", "enum": [1, 2, 3]}

Good:

    "level": {"type": "integer", "minimum": 1, "maximum": 3}

Source: anomalyco/opencode#12911 (the first error, from Notion, Memory and
Obsidian MCP servers); microsoft/azure-devops-mcp#145 (the second);
zed-extensions/mcp-server-brave-search#12 (const); decolua/9router#380 (an
enum without "type"); ` + geminiSchemaSource + ` ("enum": string[]).`,
}

func checkGeminiEnum(p *lint.Pass) {
	reported := map[*schema.Node]bool{}
	for _, v := range geminiViolations(p, "const", "enum", "enum-type") {
		n, s := v.node, v.node.Value
		if reported[n] {
			continue // const first, then one finding on the enum
		}
		reported[n] = true
		switch v.line.ID {
		case "const":
			fix, losses := geminiRewriteFix(p, n, "const", "write it as an enum Gemini takes")
			p.ReportFix(v.pointer(), fix, "Gemini's Schema has no \"const\" (%s); write it as an enum of one string, or as a range or type for other values%s", schema.Compact(s["const"]), lossNote(losses))
		case "enum":
			list, isList := s["enum"].([]any)
			if !isList {
				continue // not an enum at all: schema-valid's finding
			}
			var others []any
			for _, x := range list {
				if _, isString := x.(string); !isString {
					others = append(others, x)
				}
			}
			fix, losses := geminiRewriteFix(p, n, "enum", "rewrite the enum as Gemini takes it")
			p.ReportFix(v.pointer(), fix, "Gemini's enum takes only strings, and this one lists %s; use a range, a boolean type, or a string enum the server also accepts%s", schema.Compact(others), lossNote(losses))
		default:
			if _, isList := s["enum"].([]any); !isList || schema.HasType(s, "string") {
				continue // a list of types with "string" is gemini-type-array's
			}
			fix, _ := geminiRewriteFix(p, n, "enum", "rewrite the enum as Gemini takes it")
			p.ReportFix(n.Pointer()+"/enum", fix, "Gemini allows \"enum\" only on a string schema (\"only allowed for STRING type\"); add \"type\": \"string\"")
		}
	}
}
