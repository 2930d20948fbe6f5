package oracletest

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestGeminiChecker proves the checker on hand-written declarations: it
// must find each kind of violation, and pass what the reference allows.
func TestGeminiChecker(t *testing.T) {
	const p = `"name": "f", "parameters": `
	for _, c := range []struct {
		name, decl string
		want       string // fragment of the one expected violation; "" for none
	}{
		{"no-parameters", `{"name": "list_all", "description": "d"}`, ""},
		{"all-fields", `{` + p + `{"type": "OBJECT", "title": "T", "description": "d", "nullable": false, "properties": {
			"s": {"type": "STRING", "format": "date-time", "minLength": "1", "maxLength": 9, "pattern": "^a", "enum": ["a", "b"], "default": "a", "example": "a"},
			"n": {"type": "number", "minimum": 0, "maximum": 1.5, "nullable": true},
			"i": {"type": "INTEGER", "format": "enum", "enum": ["1", "2"]},
			"a": {"type": "ARRAY", "items": {"type": "BOOLEAN"}, "minItems": 1, "maxItems": "3"},
			"o": {"type": "OBJECT", "properties": {"x": {"type": "STRING"}}, "required": ["x"], "propertyOrdering": ["x"], "minProperties": 1, "maxProperties": 1},
			"u": {"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]}},
			"required": ["s"]}}`, ""},
		{"json-schema-form", `{"name": "f", "parametersJsonSchema": {"type": "object", "properties": {"a": {"type": ["string", "null"], "additionalProperties": false}}, "$defs": {}}}`, ""},
		{"name-ok", `{"name": "ns.tool:v1-x_y"}`, ""},

		{"declaration-not-object", `[]`, "must be a JSON object"},
		{"declaration-unknown-field", `{"name": "f", "input_schema": {}}`, `unknown field "input_schema" of FunctionDeclaration`},
		{"name-digit", `{"name": "1tool"}`, "invalid function name"},
		{"name-slash", `{"name": "a/b"}`, "invalid function name"},
		{"name-65", `{"name": "` + strings.Repeat("a", 65) + `"}`, "invalid function name"},
		{"both-parameter-forms", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}, "parametersJsonSchema": {"type": "object"}}`, "mutually exclusive"},
		{"root-not-object", `{` + p + `{"type": "STRING"}}`, "parameters must have type OBJECT"},
		{"root-empty-object", `{` + p + `{"type": "OBJECT"}}`, "should be non-empty for OBJECT type"},
		{"additionalProperties", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "additionalProperties": false}}`, `unknown field "additionalProperties"`},
		{"schema-keyword", `{` + p + `{"$schema": "x", "type": "OBJECT", "properties": {"a": {"type": "STRING"}}}}`, `unknown field "$schema"`},
		{"ref", `{` + p + `{"type": "OBJECT", "properties": {"a": {"$ref": "#/$defs/a"}}}}`, `unknown field "$ref"`},
		{"oneOf", `{` + p + `{"type": "OBJECT", "properties": {"a": {"oneOf": [{"type": "STRING"}]}}}}`, `unknown field "oneOf"`},
		{"exclusiveMinimum", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "NUMBER", "exclusiveMinimum": 0}}}}`, `unknown field "exclusiveMinimum"`},
		{"type-list", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": ["STRING", "NULL"]}}}}`, "type must be one name"},
		{"type-unknown", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "ANY"}}}}`, `type "ANY" is not a Gemini Type`},
		{"enum-integers", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "STRING", "enum": ["a", 1]}}}}`, "enum values must be strings"},
		{"enum-on-integer", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "INTEGER", "enum": ["1"]}}}}`, "only allowed for type STRING"},
		{"nested-empty-object", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "OBJECT"}}}}`, "/parameters/properties/a: properties should be non-empty"},
		{"array-without-items", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "ARRAY"}}}}`, "items: missing field"},
		{"items-list", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "ARRAY", "items": [{"type": "STRING"}]}}}}`, "a Schema must be a JSON object"},
		{"int64-fraction", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "ARRAY", "items": {"type": "STRING"}, "maxItems": 1.5}}}}`, "maxItems must be an integer"},
		{"minimum-string", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "NUMBER", "minimum": "1"}}}}`, "minimum must be a number"},
		{"nullable-string", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "STRING", "nullable": "yes"}}}}`, "nullable must be a boolean"},
		{"required-not-names", `{` + p + `{"type": "OBJECT", "properties": {"a": {"type": "STRING"}}, "required": [1]}}`, "required must list names"},
		{"json-schema-root", `{"name": "f", "parametersJsonSchema": {"type": "string"}}`, "must describe an object"},
		{"json-schema-dollar-schema", `{"name": "f", "parametersJsonSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}}`, `"$schema" is refused`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v any
			dec := json.NewDecoder(strings.NewReader(c.decl))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			got := checkGeminiDeclaration(v)
			switch {
			case c.want == "" && len(got) > 0:
				t.Errorf("violations in a valid declaration: %q", got)
			case c.want != "" && len(got) != 1:
				t.Errorf("want one violation with %q, got %q", c.want, got)
			case c.want != "" && !strings.Contains(got[0], c.want):
				t.Errorf("want a violation with %q, got %q", c.want, got[0])
			}
		})
	}
}
