package consumer

// Vocabulary are the keywords a tool's schema may use, as their documents
// define them: what an allowlist profile is measured against (every one it
// does not take is reported), and what its tests probe it with.
var Vocabulary = []struct {
	Keywords []string
	Source   string
}{
	{[]string{"$schema", "$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment", "$defs",
		"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "prefixItems", "items", "contains",
		"properties", "patternProperties", "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties"},
		"JSON Schema 2020-12 Core (https://json-schema.org/draft/2020-12/json-schema-core): core, applicator and unevaluated vocabularies"},
	{[]string{"type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
		"maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
		"maxProperties", "minProperties", "required", "dependentRequired"},
		"JSON Schema 2020-12 Validation (https://json-schema.org/draft/2020-12/json-schema-validation): validation vocabulary"},
	{[]string{"title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples", "format",
		"contentEncoding", "contentMediaType", "contentSchema"},
		"JSON Schema 2020-12 Validation: meta-data, format-annotation and content vocabularies"},
	{[]string{"$recursiveRef", "$recursiveAnchor"}, "JSON Schema 2019-09 Core"},
	{[]string{"definitions", "dependencies", "additionalItems"}, "JSON Schema draft-07 Validation"},
	{[]string{"id"}, "JSON Schema draft-04 Core"},
	{[]string{"nullable", "example", "discriminator", "externalDocs", "xml"}, "OpenAPI 3.0.3, Schema Object (https://spec.openapis.org/oas/v3.0.3#schema-object)"},
	{[]string{"propertyOrdering"}, "Gemini API reference, Schema (a field of its own)"},
}

// VocabularyKeywords lists every keyword of the vocabulary once.
func VocabularyKeywords() []string {
	var out []string
	seen := map[string]bool{}
	for _, v := range Vocabulary {
		for _, k := range v.Keywords {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}
