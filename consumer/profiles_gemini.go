package consumer

// The Gemini profiles: the classic "parameters" field is a fixed message
// type (the Schema object, an OpenAPI 3.0 subset), so its field list is an
// allowlist; "parametersJsonSchema" takes JSON Schema.

const geminiSchemaRef = "Gemini API reference, Schema (https://ai.google.dev/api/caching#Schema); googleapis/python-genai google/genai/types.py, class Schema"

// geminiTools bounds the function declarations of a request, whichever
// field carries their schemas.
var geminiTools = Line{ID: "tools", Kind: Limit, Measure: "tools", Max: 512,
	Text:  "a request declares at most 512 functions",
	Error: "tools[0].function_declarations: [FIELD_INVALID] At most 512 function declarations can be specified.",
	Source: "the Gemini API's error, quoted in google-gemini/gemini-cli#19083 and #25440 (Gemini CLI sends every MCP tool); " +
		"the Vertex AI and Firebase AI Logic references document a lower bound (FunctionDeclarationsTool.functionDeclarations: \"Maximum 64 function declarations can be provided\", " +
		"https://firebase.google.com/docs/reference/js/ai.functiondeclarationstool), which the Gemini API does not enforce"}

// geminiName is the function name rule both fields share.
var geminiName = Line{ID: "name", Kind: Name, Chars: "A-Za-z0-9_.:-", First: "A-Za-z_", Max: 64,
	Text:   "the function name starts with a letter or _ and has at most 64 of A-Z a-z 0-9 _ . : -",
	Error:  "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.",
	Source: "Gemini API reference, FunctionDeclaration.name (https://ai.google.dev/api/caching#FunctionDeclaration); the error quoted in Finerestaurant/kicad-mcp-python#2"}

var geminiParametersProfile = &Profile{
	Consumer:  GeminiParameters,
	Allowlist: true,
	Basis:     geminiSchemaRef + ": the fields of the Schema object; newer versions of the API add additionalProperties, defs and ref, which other endpoints still refuse",
	Unlisted: &Line{ID: "unlisted", Kind: Keywords, Text: "a member that is not a field of the Schema object",
		Error:  "Invalid JSON payload received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[8].parameters.properties[1].value.items': Cannot find field.",
		Source: "nanbingxyz/5ire#42 (additionalProperties), router-for-me/CLIProxyAPI#97 ($schema), zendev-sh/zenflow#14 (propertyNames, exclusiveMinimum), kaitranntt/ccs#459 (keys that are not JSON Schema)"},
	Lines: []Line{
		geminiName,
		geminiTools,
		{ID: "fields", Kind: Keywords, Keywords: []string{"anyOf", "default", "description", "enum", "example", "format", "items", "maxItems", "maxLength",
			"maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "nullable", "pattern", "properties", "propertyOrdering",
			"required", "title", "type"},
			Text: "the 22 fields of the Schema object", Source: geminiSchemaRef},
		{ID: "references", Kind: Keywords, Refuse: true, Keywords: []string{"$ref", "$defs", "definitions"},
			Text: "no references or definitions: the Schema object has none", Error: "reference to undefined schema at properties.target_object.anyOf.1",
			Source: "google-gemini/gemini-cli#13326; anomalyco/opencode#12295"},
		{ID: "const", Kind: Keywords, Refuse: true, Keywords: []string{"const"},
			Text: "no const (an enum of one string says the same)", Error: "Invalid JSON payload received. Unknown name \"const\"",
			Source: "zed-extensions/mcp-server-brave-search#12; " + geminiSchemaRef},
		{ID: "types", Kind: Values, Keywords: []string{"type"}, Match: OneOf, Values: []string{"string", "number", "integer", "boolean", "array", "object", "null"},
			Text: "type is one name of the Type enum: not a list", Error: "Proto field is not repeating, cannot start list.",
			Source: "zed-industries/zed#44875, n8n-io/n8n#15553; zereight/gitlab-mcp#166 (\"int\"); googleapis/python-genai types.py, class Type"},
		{ID: "null-branch", Kind: Check, Text: "no anyOf branch of type null (use \"nullable\")", Error: "Invalid enum value NULL for enum type google.cloud.aiplatform.v1beta1.Type",
			Source: "langchain-ai/langchain-google#1216, taylorwilsdon/google_workspace_mcp#1099"},
		{ID: "enum", Kind: Values, Keywords: []string{"enum"}, Match: Kinds, Values: []string{"string"},
			Text: "enum lists strings, on a string schema", Error: "enum: only allowed for STRING type",
			Source: "anomalyco/opencode#12911; " + geminiSchemaRef + " (\"enum\": string[])"},
		{ID: "enum-type", Kind: Requires, Keywords: []string{"type"}, Values: []string{`"string"`}, When: []string{"enum"},
			Text: "an enum stands on a string schema", Error: "enum: only allowed for STRING type", Source: "decolua/9router#380; anomalyco/opencode#12911"},
		{ID: "format-string", Kind: Values, Keywords: []string{"format"}, Type: "string", Match: OneOf, Values: []string{"enum", "date-time"}, Action: MayRefuse,
			Text:   "format on a string is enum or date-time",
			Source: "google.ai.generativelanguage.Schema (https://ai.google.dev/api/python/google/ai/generativelanguage/Schema, \"for STRING type: enum, date-time\"); Firebase AI Logic, SchemaShared.format"},
		{ID: "format-number", Kind: Values, Keywords: []string{"format"}, Type: "number", Match: OneOf, Values: []string{"float", "double"}, Action: MayRefuse,
			Text: "format on a number is float or double", Source: "google.ai.generativelanguage.Schema (\"for NUMBER type: float, double\")"},
		{ID: "format-integer", Kind: Values, Keywords: []string{"format"}, Type: "integer", Match: OneOf, Values: []string{"int32", "int64"}, Action: MayRefuse,
			Text: "format on an integer is int32 or int64", Source: "google.ai.generativelanguage.Schema (\"for INTEGER type: int32, int64\")"},
		{ID: "format-other", Kind: Values, Keywords: []string{"format"}, Match: OneOf, Action: MayRefuse,
			Text: "no format on other types", Source: "google.ai.generativelanguage.Schema (formats are documented for NUMBER, INTEGER and STRING only)"},
		{ID: "typed", Kind: Requires, At: Member, Keywords: []string{"type"}, Unless: []string{"anyOf", "oneOf", "allOf", "$ref", "enum", "const"},
			Text: "every property and array element has a type", Error: "type: must be specified when not using one_of, any_of or all_of fields",
			Source: "danny-avila/LibreChat#6971"},
		{ID: "array-items", Kind: Requires, Type: "array", Keywords: []string{"items"}, Schema: true,
			Text: "every array schema has an \"items\" schema", Error: "items: missing field",
			Source: "DEEIX-AI/DEEIX-Chat#546, jackmusick/bifrost#225, cline/cline#7339"},
		{ID: "object-properties", Kind: Requires, Type: "object", At: Nested, Keywords: []string{"properties"}, NonEmpty: true, Action: MayRefuse,
			Text: "a nested object declares its properties", Error: "should be non-empty for OBJECT type",
			Source: "langchain-ai/langchain-google#416, lobehub/lobehub#5002; nanbingxyz/5ire#42"},
	},
}

var geminiJSONSchemaProfile = &Profile{
	Consumer: GeminiJSONSchema,
	Basis: "FunctionDeclaration.parametersJsonSchema takes JSON Schema (https://ai.google.dev/api/caching#FunctionDeclaration); " +
		"Gemini's list of supported JSON Schema keywords (GenerateContentConfig.responseJsonSchema: $id, $defs, $ref, $anchor, type, format, title, description, enum, items, prefixItems, minItems, maxItems, minimum, maximum, anyOf, oneOf, properties, additionalProperties, required) " +
		"says others \"may be sent\" but are not supported: they are ignored, not refused, so the lines are the refusals",
	Lines: []Line{
		geminiName,
		geminiTools,
		{ID: "references", Kind: Check, Text: "every \"$ref\" resolves inside the schema", Error: "can't resolve reference #/$defs/Issue from id #",
			Source: "google-gemini/gemini-cli#13142"},
	},
}
