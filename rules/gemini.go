package rules

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

var geminiPacks = []string{"gemini"}

var geminiRules = []*lint.Rule{
	GeminiFunctionName, GeminiRef, GeminiTypeArray, GeminiEnum, GeminiUnsupportedKeyword,
	GeminiFormat, GeminiArrayItems, GeminiObjectProperties, GeminiToolCount,
}

// geminiField is said in every schema rule's doc: which field the pack
// checks, and the way out when a schema needs more.
const geminiField = `The gemini pack checks the schema as Gemini's classic function-declaration
field "parameters" takes it: the Schema object, a subset of OpenAPI 3.0
(type, format, title, description, nullable, enum, default, example, items,
minItems, maxItems, properties, required, propertyOrdering, minProperties,
maxProperties, minimum, maximum, minLength, maxLength, pattern, anyOf). The
newer field "parametersJsonSchema" accepts much more of JSON Schema ($ref,
$defs, oneOf, additionalProperties, ...; only "$schema" must go):
"mcplint convert --to gemini --gemini-json-schema" targets it, and
"mcplint convert --to gemini" writes "parameters" with every rewrite below.`

const geminiSchemaSource = `Gemini API reference, Schema (https://ai.google.dev/api/caching#Schema);
@google/genai types.Schema (https://googleapis.github.io/js-genai/);
Vertex AI reference, Schema
(https://cloud.google.com/vertex-ai/docs/reference/rest/v1/Schema)`

// GeminiFunctionName checks the tool name against Gemini's function names.
var GeminiFunctionName = &lint.Rule{
	ID:       "gemini-function-name",
	Packs:    geminiPacks,
	Subject:  "tool-name",
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Line: "name", Error: "Invalid function name. Must start with a letter or an underscore.", Source: "Finerestaurant/kicad-mcp-python#2"},
		{Consumer: consumer.GeminiJSONSchema, Line: "name", Error: "Invalid function name. Must start with a letter or an underscore.", Source: "Finerestaurant/kicad-mcp-python#2"},
	},
	Summary: "the tool name is a valid Gemini function name: a letter or _ first, then A-Z a-z 0-9 _ . : -, at most 64",
	Fix:     lint.UnsafeFix,
	Check:   checkGeminiFunctionName,
	Doc: `Clients that hand MCP tools to Gemini declare each as a function named
after the tool, and the API refuses the whole request when one name breaks
its rule:

    GenerateContentRequest.tools[0].function_declarations[17].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.

MCP allows names Gemini refuses: a leading digit or dash, a slash, more than
64 characters (up to 128).

The fix replaces each character outside A-Z a-z 0-9 _ . : - by "_" and puts
"_" before a name that does not start with a letter or an underscore. It is
unsafe: a renamed tool breaks every agent and prompt that calls it by its
old name, and two names can become one (tool-name-unique then reports it).
A name longer than 64 characters gets no fix: choose a shorter one.

Bad:

    {"name": "1password/get", "inputSchema": {"type": "object"}}

Good:

    {"name": "onepassword_get", "inputSchema": {"type": "object"}}

Source: the Gemini API's error, quoted in Finerestaurant/kicad-mcp-python#2
(with colons) and CherryHQ/cherry-studio#4087; Gemini API reference,
FunctionDeclaration "name" (https://ai.google.dev/api/caching#FunctionDeclaration).`,
}

func checkGeminiFunctionName(p *lint.Pass) {
	name, _ := p.Value["name"].(string)
	for _, f := range ruleFindings(p, "name") {
		is := nameIssuesOf(f.line, name)
		msg := fmt.Sprintf("tool name %q %s; Gemini refuses the request unless a function name starts with a letter or _ and has at most 64 of A-Z a-z 0-9 _ . : -", name, is)
		d := lint.Diagnostic{RelPointer: "/name", Consumers: f.consumers, Message: msg + "; rename it"}
		if utf8.RuneCountInString(is.fixed) > f.line.Max {
			d.Message = msg + "; choose a shorter name"
		} else {
			d.Fix = &lint.Fix{Message: fmt.Sprintf("rename the tool to %q (callers of the old name break)", is.fixed),
				Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: "/name", Value: is.fixed}}}
		}
		p.Report(d)
	}
}

// geminiDropped are the keywords holding subschemas that Gemini's subset
// drops whole: findings below them would only repeat the one on them.
var geminiDroppedSubschemas = map[string]bool{
	"additionalProperties": true, "additionalItems": true, "contains": true, "not": true,
	"if": true, "then": true, "else": true, "propertyNames": true, "unevaluatedItems": true,
	"unevaluatedProperties": true, "contentSchema": true, "patternProperties": true,
	"dependentSchemas": true, "dependencies": true, "prefixItems": true,
}

// geminiSubsetSchema is the tool's input schema when it is held to the
// classic "parameters" subset: a Gemini declaration read from its
// parametersJsonSchema member holds full JSON Schema, which Gemini accepts
// there (FunctionDeclaration.parametersJsonSchema,
// https://ai.google.dev/api/caching#FunctionDeclaration), so the subset
// rules leave it alone.
func geminiSubsetSchema(p *lint.Pass) (any, bool) {
	if p.Tool != nil && (p.Tool.SchemaKey == "parametersJsonSchema" || p.Tool.SchemaKey == "parameters_json_schema") {
		return nil, false
	}
	return p.InputSchema()
}

// geminiWalk visits the subschemas of the tool's input schema that Gemini
// keeps (or inlines, or merges), not those below a keyword it drops.
func geminiWalk(p *lint.Pass, fn func(n *schema.Node)) {
	if _, ok := geminiSubsetSchema(p); !ok {
		return
	}
	p.Schema("inputSchema").Walk(func(n *schema.Node) bool {
		if geminiDroppedSubschemas[n.Keyword] {
			return false
		}
		fn(n)
		return true
	})
}

// geminiViolations are the violations of the lines of Gemini's parameters
// profile in the schemas Gemini keeps (geminiWalk's).
func geminiViolations(p *lint.Pass, lines ...string) []violation {
	if _, ok := geminiSubsetSchema(p); !ok {
		return nil
	}
	// violationsOf's slice is shared: filter a copy.
	vs := slices.Clone(violationsOf(p, consumer.GeminiParameters, lines...))
	return slices.DeleteFunc(vs, func(v violation) bool { return v.node != nil && below(v.node, geminiDroppedSubschemas) })
}

// lossNote is what a fix loses, for the end of a message ("" for none).
func lossNote(ls []normalize.Loss) string {
	if len(ls) == 0 {
		return ""
	}
	return " (the fix loses: " + lossText(ls) + ")"
}

// geminiRewriteFix is the fix that rewrites one keyword of the node at ptr
// as normalize.GeminiRewrite does: safe when nothing is lost.
// A rewrite that leaves the schema one a consumer in play refuses (a
// typeless property, say) is no fix.
func geminiRewriteFix(p *lint.Pass, n *schema.Node, keyword, action string) (*lint.Fix, []normalize.Loss) {
	s, ptr := n.Value, n.Pointer()
	fixed, losses := normalize.GeminiRewrite(s, keyword, ptr)
	if introduces(p, ptr, isMember(n), s, fixed) {
		return nil, losses
	}
	msg := action
	if len(losses) > 0 {
		msg += " (" + lossText(losses) + ")"
	}
	return lint.DiffFix(msg, len(losses) == 0, ptr, s, fixed), losses
}
