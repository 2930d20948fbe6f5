package consumer

// The OpenAI profiles. Without strict mode OpenAI documents no keyword list
// for function parameters: it checks the top level and a few shapes, and
// passes the rest to the model. Strict mode (Structured Outputs) documents
// the subset it takes: its guide's "Supported schemas" is the allowlist.

// openAIGuide is the Structured Outputs guide's "Supported schemas".
const openAIGuide = "OpenAI Structured Outputs guide, \"Supported schemas\" (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas)"

// openAIFunctionLines are what both APIs check without strict mode.
func openAIFunctionLines(api string) []Line {
	return []Line{
		{ID: "name", Kind: Name, Text: "the function name is ^[a-zA-Z0-9_-]{1,64}$", Chars: "a-zA-Z0-9_-", Max: 64,
			Error:  "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64",
			Source: "OpenAI API reference, " + api + " function \"name\""},
		{ID: "description", Kind: Limit, Measure: "description", Max: 1024, Text: "the function description has at most 1,024 characters",
			Error: "string too long. Expected a string with maximum length 1024", Source: "the API's error, quoted in getsentry/sentry-mcp#106"},
		{ID: "tools", Kind: Limit, Measure: "tools", Max: 128, Text: "a request carries at most 128 tools",
			Error: "array too long. Expected an array with maximum length 128", Source: "OpenAI API reference, Chat Completions \"tools\" (\"A max of 128 functions are supported\"); the error as quoted in microsoft/vscode-copilot-release#9375"},
		{ID: "root-object", Kind: Check, Text: "the parameters are an object schema (\"type\": \"object\" at the top level)",
			Error: "schema must be a JSON Schema of 'type: \"object\"', got 'type: null'.", Source: "chatanywhere/GPT_API_free#403"},
		{ID: "root-combinators", Kind: Keywords, Refuse: true, At: Root, Keywords: []string{"anyOf", "oneOf", "allOf", "enum", "const", "not"},
			Text:   "no anyOf, oneOf, allOf, enum, const or not at the top level",
			Error:  "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.",
			Source: "langchain-ai/langchainjs#9804, nspady/google-calendar-mcp#39"},
		{ID: "root-properties", Kind: Requires, Type: "object", At: Root, Keywords: []string{"properties"}, Unless: []string{"$ref"},
			Text: "the top-level object lists \"properties\" (\"properties\": {} for no arguments)", Error: "object schema missing properties",
			Source: "github/github-mcp-server#1548; OpenAI API reference, FunctionDefinition.parameters"},
		{ID: "array-items", Kind: Requires, Type: "array", Keywords: []string{"items"},
			Text: "every array schema has \"items\"", Error: "array schema missing items", Source: "sigoden/aichat#1049, meilisearch/meilisearch-mcp#27"},
		{ID: "valid", Kind: Check, Text: "the parameters are valid JSON Schema",
			Error: "Invalid schema for function: [] is not of type 'object', 'boolean'", Source: "FoundationAgents/OpenManus#1162"},
	}
}

var openAIChatProfile = &Profile{
	Consumer: OpenAIChat,
	Basis:    "OpenAI documents no keyword list for function parameters without strict mode (API reference, FunctionDefinition.parameters: \"described as a JSON Schema object\"); the lines are the checks its errors show",
	Lines:    openAIFunctionLines("Chat Completions, FunctionDefinition"),
}

var openAIResponsesProfile = &Profile{
	Consumer: OpenAIResponses,
	Basis:    "the Responses API checks function parameters as Chat Completions does, and documents no keyword list without strict mode (API reference, FunctionTool.parameters)",
	Lines:    openAIFunctionLines("Responses, FunctionTool"),
}

var openAIStrictProfile = &Profile{
	Consumer:  OpenAIStrict,
	Allowlist: true,
	Basis:     openAIGuide + ": the supported types, the supported properties of each, definitions and recursion",
	Unlisted: &Line{ID: "unlisted", Kind: Keywords, Text: "a keyword the guide does not list as supported",
		Error: "In context=(...), 'uniqueItems' is not permitted.", Source: "1jehuang/jcode#687 (uniqueItems), can1357/oh-my-pi#209 (propertyNames)"},
	Lines: append(openAIFunctionLines("FunctionDefinition")[:3:3], []Line{
		{ID: "valid", Kind: Check, Text: "the parameters are valid JSON Schema",
			Error: "Invalid schema for function: [] is not of type 'object', 'boolean'", Source: "FoundationAgents/OpenManus#1162"},
		{ID: "structure", Kind: Keywords, Keywords: []string{"type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const"},
			Text: "objects, arrays, enums and anyOf", Source: openAIGuide + ", \"Supported types\""},
		{ID: "definitions", Kind: Keywords, Keywords: []string{"$ref", "$defs", "definitions"},
			Text: "definitions and (recursive) references", Source: openAIGuide + ", \"Definitions are supported\", \"Recursive schemas are supported\""},
		{ID: "string-keywords", Kind: Keywords, Keywords: []string{"pattern", "format"},
			Text: "pattern and format on strings", Source: openAIGuide + ", \"Supported properties\""},
		{ID: "number-keywords", Kind: Keywords, Keywords: []string{"multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"},
			Text: "bounds and multipleOf on numbers", Source: openAIGuide + ", \"Supported properties\""},
		{ID: "array-keywords", Kind: Keywords, Keywords: []string{"minItems", "maxItems"},
			Text: "minItems and maxItems on arrays", Source: openAIGuide + ", \"Supported properties\""},
		{ID: "annotations", Kind: Keywords, Keywords: []string{"title", "description", "$schema", "$id", "id", "$comment", "$anchor", "examples", "deprecated", "readOnly", "writeOnly", "contentEncoding", "contentMediaType"},
			Text:   "annotations and identifiers, which constrain nothing (\"id\" is draft-04's \"$id\")",
			Source: "openai/openai-agents-python src/agents/strict_schema.py (keeps them in strict schemas: _REF_NON_CONSTRAINING_SIBLINGS); openai/openai-python src/openai/lib/_pydantic.py (keeps pydantic's titles); testdata/realworld/gen-zod3-bigint-date ($schema accepted)"},
		{ID: "composition", Kind: Keywords, Refuse: true, Keywords: []string{"allOf", "oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies"},
			Text: "no allOf, oneOf, not, if/then/else or dependent keywords (anyOf is the only combinator)", Error: "'allOf' is not permitted.",
			Source: openAIGuide + ", \"Some type-specific keywords are not yet supported\"; makenotion/notion-mcp-server#102"},
		{ID: "length-and-default", Kind: Keywords, Refuse: true, Keywords: []string{"default", "minLength", "maxLength"},
			Text: "no default, minLength or maxLength", Source: "openai/openai-node#1988 (\"In strict mode, default, minLength, and maxLength can be rejected by the API\")"},
		{ID: "object-keywords", Kind: Keywords, Refuse: true, Keywords: []string{"patternProperties", "unevaluatedProperties", "propertyNames", "minProperties", "maxProperties"},
			Text: "no patternProperties, unevaluatedProperties, propertyNames, minProperties or maxProperties", Error: "'propertyNames' is not permitted.",
			Source: openAIGuide + " (unsupported object keywords); can1357/oh-my-pi#209"},
		{ID: "array-unsupported", Kind: Keywords, Refuse: true, Keywords: []string{"prefixItems", "unevaluatedItems", "contains", "minContains", "maxContains", "uniqueItems"},
			Text: "no tuples, contains or uniqueItems", Error: "'uniqueItems' is not permitted.",
			Source: openAIGuide + " (unsupported array keywords); 1jehuang/jcode#687"},
		{ID: "types", Kind: Values, Keywords: []string{"type"}, Match: Each, Values: []string{"string", "number", "integer", "boolean", "object", "array", "null"},
			Text: "type is one of string, number, integer, boolean, object, array, null, or a list of them", Source: openAIGuide + ", \"Supported types\""},
		{ID: "format", Kind: Values, Keywords: []string{"format"}, Type: "string", Match: OneOf,
			Values: []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"},
			Text:   "format is date-time, time, date, duration, email, hostname, ipv4, ipv6 or uuid", Error: "'uri' is not a valid format.",
			Source: openAIGuide + ", \"Supported properties\" (string formats); cyanheads/git-mcp-server#47, can1357/oh-my-pi#206"},
		{ID: "pattern", Kind: Values, Keywords: []string{"pattern"}, Match: Without, Values: []string{"(?=", "(?!", "(?<=", "(?<!"}, Action: MayRefuse,
			Text:   "pattern uses no lookahead or lookbehind",
			Source: "pydantic/pydantic-ai pydantic_ai_slim/pydantic_ai/profiles/openai.py (lookarounds make a schema strict-incompatible)"},
		{ID: "ref-siblings", Kind: Check, Text: "a \"$ref\" has no keyword beside it", Error: "$ref cannot have keywords {'description'}.",
			Source: "openai/openai-python src/openai/lib/_pydantic.py (unravels such a $ref: \"we can't use $refs if there are also other properties defined\")"},
		{ID: "typed", Kind: Requires, Keywords: []string{"type"}, At: Nested, Unless: []string{"$ref", "anyOf", "enum", "const"},
			Text: "every schema has a type (or $ref, anyOf, enum or const)", Error: "schema must have a 'type' key.",
			Source: "can1357/oh-my-pi#210, pydantic/pydantic-ai#4706"},
		{ID: "closed", Kind: Requires, Type: "object", Keywords: []string{"additionalProperties"}, Values: []string{"false"},
			Text: "every object has \"additionalProperties\": false", Error: "'additionalProperties' is required to be supplied and to be false",
			Source: openAIGuide + ", \"additionalProperties: false must always be set in objects\"; letta-ai/letta#3137"},
		{ID: "all-required", Kind: Check, Text: "\"required\" lists every property and nothing else",
			Error:  "'required' is required to be supplied and to be an array including every key in properties",
			Source: openAIGuide + ", \"All fields must be required\"; dotnet/extensions#6302 (extra keys)"},
		{ID: "root-object", Kind: Check, Text: "the root is an object schema, not anyOf", Source: openAIGuide + ", \"Root objects must not be anyOf and must be an object\""},
		{ID: "root-combinators", Kind: Keywords, Refuse: true, At: Root, Keywords: []string{"anyOf", "oneOf", "allOf", "enum", "const", "not"},
			Text: "no combinator, enum, const or not at the top level", Source: openAIGuide + ", \"Root objects must not be anyOf\""},
		{ID: "root-properties", Kind: Requires, Type: "object", At: Root, Keywords: []string{"properties"}, Unless: []string{"$ref"},
			Text: "the top-level object lists \"properties\"", Source: "OpenAI API reference, FunctionDefinition.parameters (the form for no arguments)"},
		{ID: "array-items", Kind: Requires, Type: "array", Keywords: []string{"items"},
			Text: "every array schema has \"items\" with a type", Source: openAIGuide + "; pydantic/pydantic-ai#4425 (an untyped array is refused)"},
		{ID: "depth", Kind: Limit, Measure: "depth", Max: 10, Text: "at most 10 levels of object nesting", Source: openAIGuide + ", \"Objects have limitations on nesting and size\""},
		{ID: "properties", Kind: Limit, Measure: "properties", Max: 5000, Text: "at most 5,000 object properties in total", Source: openAIGuide + ", \"Objects have limitations on nesting and size\""},
		{ID: "enum-values", Kind: Limit, Measure: "enum-values", Max: 1000, Text: "at most 1,000 enum values in total", Source: openAIGuide + ", \"Limitations on enum size\""},
		{ID: "string-chars", Kind: Limit, Measure: "string-chars", Max: 120000, Text: "at most 120,000 characters of property names, definition names, enum and const values", Source: openAIGuide + ", \"Limitations on total string size\""},
		{ID: "long-enum", Kind: Limit, Measure: "long-enum", Max: 15000, Text: "a string enum of more than 250 values has at most 15,000 characters", Source: openAIGuide + ", \"Limitations on enum size\""},
	}...),
}
