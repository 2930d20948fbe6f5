package rules

import (
	"strings"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/schema"
)

// GeminiFormat reports formats Gemini does not document for the type.
var GeminiFormat = &lint.Rule{
	ID:       "gemini-format",
	Packs:    geminiPacks,
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Line: "format-string", Source: "https://ai.google.dev/api/caching#Schema"},
		{Consumer: consumer.GeminiParameters, Line: "format-number", Source: "https://ai.google.dev/api/caching#Schema"},
		{Consumer: consumer.GeminiParameters, Line: "format-integer", Source: "https://ai.google.dev/api/caching#Schema"},
		{Consumer: consumer.GeminiParameters, Line: "format-other", Source: "https://ai.google.dev/api/caching#Schema"},
	},
	Summary: "\"format\" is one Gemini documents: enum or date-time for strings, float or double, int32 or int64",
	Fix:     lint.UnsafeFix,
	Check:   checkGeminiFormat,
	Doc: `Gemini's reference long listed the formats it supports: "for NUMBER type:
float, double; for INTEGER type: int32, int64; for STRING type: enum,
date-time", and Firebase AI Logic, which sends the same Schema, still says
that with the Gemini Developer API the format "must be either 'enum' or
'date-time', otherwise requests will fail". The current Gemini API reference
says instead "Any value is allowed, but most do not trigger any special
functionality" and Vertex AI lists more ("email", "byte", ...). Because the
endpoints disagree, this is a warning: "email", "uri" or "uuid" may be
refused, and are ignored where they are accepted.

The fix removes the format. It is unsafe: the model no longer reads it;
say it in the description instead ("an email address").

` + geminiField + `

Bad:

    "email": {"type": "string", "format": "email"}

Good:

    "email": {"type": "string", "description": "The recipient's email address."}

Source: google.ai.generativelanguage.Schema, "format"
(https://ai.google.dev/api/python/google/ai/generativelanguage/Schema) and
the v1beta Schema reference it was generated from ("for STRING type: enum,
date-time"); Firebase AI Logic, SchemaShared.format
(https://firebase.google.com/docs/reference/js/ai.schemashared); Gemini API
reference, Schema (https://ai.google.dev/api/caching#Schema, "Any value is
allowed"); Vertex AI
reference, Schema (https://cloud.google.com/vertex-ai/docs/reference/rest/v1/Schema).`,
}

func checkGeminiFormat(p *lint.Pass) {
	for _, v := range geminiViolations(p, "format-string", "format-number", "format-integer", "format-other") {
		s := v.node.Value
		f := s["format"]
		types := schema.Types(s)
		if len(types) == 0 {
			types = []string{""}
		}
		fix, _ := geminiRewriteFix(p, v.node, "format", "remove the format; say it in the description instead")
		p.ReportFix(v.pointer(), fix, "format %s is not one Gemini documents for %s (string: enum, date-time; number: float, double; integer: int32, int64) and may be refused; say it in the description instead", schema.Compact(f), typeLabel(types))
	}
}

func typeLabel(types []string) string {
	if len(types) == 1 && types[0] == "" {
		return "a schema without a type"
	}
	return "type " + strings.Join(types, ", ")
}

// GeminiArrayItems demands "items" on arrays.
var GeminiArrayItems = &lint.Rule{
	ID:       "gemini-array-items",
	Packs:    geminiPacks,
	Subject:  "array-items",
	Severity: lint.Error,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Line: "array-items", Error: "items: missing field", Source: "DEEIX-AI/DEEIX-Chat#546"},
	},
	Summary: "every array schema has an \"items\" schema",
	Fix:     lint.NoFix,
	Check:   checkGeminiArrayItems,
	Doc: `Gemini refuses an array schema without "items", at any depth, and with
it the whole request:

    GenerateContentRequest.tools[0].function_declarations[0].parameters.properties[system_tools].items: missing field.

JSON Schema allows it ({"type": "array"} is any array) and MCP SDKs emit it
for an untyped list. A tuple ("prefixItems", or "items" as a list in older
drafts) has no "items" schema either once Gemini drops what it cannot read.

There is no fix: only the server knows what the elements are. Declare them.

` + geminiField + `

Bad:

    "tags": {"type": "array"}

Good:

    "tags": {"type": "array", "items": {"type": "string"}}

Source: jackmusick/bifrost#225, kkrishnan90/gemini-desktop#7 and
NousResearch/hermes-agent#69924 (the error above); cline/cline#7339;
` + geminiSchemaSource + ` ("items").`,
}

func checkGeminiArrayItems(p *lint.Pass) {
	for _, v := range geminiViolations(p, "array-items") {
		p.Reportf(v.node.Pointer(), "array schema without an \"items\" schema, which Gemini refuses (\"items: missing field\"); declare the type of its elements")
	}
}

// GeminiObjectProperties asks nested objects for properties.
var GeminiObjectProperties = &lint.Rule{
	ID:       "gemini-object-properties",
	Packs:    geminiPacks,
	Severity: lint.Warning,
	Consumers: []consumer.Refusal{
		{Consumer: consumer.GeminiParameters, Line: "object-properties", Error: "should be non-empty for OBJECT type", Source: "langchain-ai/langchain-google#416"},
	},
	Summary: "a nested object schema declares its properties",
	Fix:     lint.NoFix,
	Check:   checkGeminiObjectProperties,
	Doc: `Gemini has no schema for "an object with any keys" (no
additionalProperties in its subset), and refuses an object schema without
properties:

    GenerateContentRequest.tools[0].function_declarations[3].parameters.properties: should be non-empty for OBJECT type

That error is documented for the parameters themselves, where a client
declares a tool without arguments without "parameters" (the client's
business, so the root is not reported). Below the root, a free-form map
({"type": "object", "additionalProperties": {"type": "string"}}) reaches
Gemini as an object without properties; clients report it refused or
ignored, hence a warning.

There is no fix: declare the properties, or take the map as a JSON string.

` + geminiField + `

Bad:

    "headers": {"type": "object", "additionalProperties": {"type": "string"}}

Good:

    "headers": {"type": "string", "description": "HTTP headers as a JSON object of strings."}

Source: lobehub/lobehub#5002, agno-agi/agno#2112 and
pipecat-ai/pipecat-flows#110 (the error above); nanbingxyz/5ire#42 ("gemini
expects the object to be defined"); ` + geminiSchemaSource + `.`,
}

func checkGeminiObjectProperties(p *lint.Pass) {
	for _, v := range geminiViolations(p, "object-properties") {
		p.Reportf(v.node.Pointer(), "object schema without properties, which Gemini refuses (\"should be non-empty for OBJECT type\"); declare its properties, or take it as a JSON string")
	}
}
