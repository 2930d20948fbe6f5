package oracletest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestOpenAIStrictChecker proves the checker on hand-written samples: it
// must find each kind of violation, and pass schemas the documentation
// shows as valid.
func TestOpenAIStrictChecker(t *testing.T) {
	for _, c := range []struct {
		name, schema string
		want         string // fragment of the one expected violation; "" for none
	}{
		// Good: the documentation's own examples and forms.
		{"docs-weather", `{"type": "object", "properties": {"location": {"type": "string", "description": "City"}, "unit": {"type": ["string", "null"], "enum": ["F", "C"]}}, "required": ["location", "unit"], "additionalProperties": false}`, ""},
		{"no-parameters", `{"type": "object", "properties": {}, "required": [], "additionalProperties": false}`, ""},
		{"nested-anyOf", `{"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"c": {"type": "string"}}, "required": ["c"], "additionalProperties": false}]}}, "required": ["v"], "additionalProperties": false}`, ""},
		{"defs-and-recursion", `{"type": "object", "properties": {"node": {"$ref": "#/$defs/node"}, "root": {"$ref": "#"}}, "required": ["node", "root"], "additionalProperties": false, "$defs": {"node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}}, "required": ["kids"], "additionalProperties": false}}}`, ""},
		{"supported-constraints", `{"type": "object", "properties": {"s": {"type": "string", "pattern": "^a", "format": "date-time"}, "n": {"type": "number", "minimum": 0, "exclusiveMaximum": 5, "multipleOf": 0.5}, "a": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3}}, "required": ["s", "n", "a"], "additionalProperties": false, "title": "Args"}`, ""},

		// The root.
		{"root-not-object-value", `[]`, "not a JSON object"},
		{"root-type-string", `{"type": "string"}`, `the root must have type "object"`},
		{"root-anyOf", `{"type": "object", "additionalProperties": false, "anyOf": [{"type": "object", "additionalProperties": false}]}`, `"anyOf" at the root`},
		{"root-enum", `{"type": "object", "additionalProperties": false, "enum": [{}]}`, `"enum" at the root`},
		{"root-const", `{"type": "object", "additionalProperties": false, "const": {}}`, `"const" at the root`},

		// Objects.
		{"additionalProperties-missing", `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`, `"additionalProperties": false`},
		{"additionalProperties-true", `{"type": "object", "properties": {}, "additionalProperties": true}`, `"additionalProperties": false`},
		{"nested-object-open", `{"type": "object", "properties": {"o": {"type": "object", "properties": {}}}, "required": ["o"], "additionalProperties": false}`, `/properties/o: an object must have "additionalProperties": false`},
		{"optional-property", `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a"], "additionalProperties": false}`, `property "b" is not in "required"`},
		{"required-missing", `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}`, `property "a" is not in "required"`},
		{"required-extra", `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "recipe"], "additionalProperties": false}`, `"required" lists "recipe", which "properties" does not declare`},

		// Keywords, types and formats.
		{"allOf-nested", `{"type": "object", "properties": {"a": {"type": "object", "allOf": [], "additionalProperties": false}}, "required": ["a"], "additionalProperties": false}`, `keyword "allOf"`},
		{"oneOf-nested", `{"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}], "type": "string"}}, "required": ["a"], "additionalProperties": false}`, `keyword "oneOf"`},
		{"default", `{"type": "object", "properties": {"a": {"type": "string", "default": "x"}}, "required": ["a"], "additionalProperties": false}`, `keyword "default"`},
		{"minLength", `{"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}, "required": ["a"], "additionalProperties": false}`, `keyword "minLength"`},
		{"patternProperties", `{"type": "object", "properties": {}, "patternProperties": {}, "additionalProperties": false}`, `keyword "patternProperties"`},
		{"if-then", `{"type": "object", "properties": {}, "additionalProperties": false, "if": {}}`, `keyword "if"`},
		{"no-type", `{"type": "object", "properties": {"a": {"type": "array", "items": {}}}, "required": ["a"], "additionalProperties": false}`, `must have a "type"`},
		{"typeless-enum-and-const", `{"type": "object", "properties": {"a": {"enum": ["x", 1]}, "b": {"anyOf": [{"const": "y"}, {"type": "null"}]}}, "required": ["a", "b"], "additionalProperties": false}`, ""},
		{"boolean-schema", `{"type": "object", "properties": {"a": true}, "required": ["a"], "additionalProperties": false}`, "must be a JSON object"},
		{"unknown-type", `{"type": "object", "properties": {"a": {"type": "any"}}, "required": ["a"], "additionalProperties": false}`, `type "any"`},
		{"unsupported-format", `{"type": "object", "properties": {"a": {"type": "string", "format": "uri"}}, "required": ["a"], "additionalProperties": false}`, `format "uri"`},

		// References.
		{"ref-with-sibling", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/x", "description": "d"}}, "required": ["a"], "additionalProperties": false, "$defs": {"x": {"type": "string"}}}`, `beside it (has "description")`},
		{"ref-escaped", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/a~1b%20c"}}, "required": ["a"], "additionalProperties": false, "$defs": {"a/b c": {"type": "string"}}}`, ""},
		{"ref-unresolved", `{"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}, "required": ["a"], "additionalProperties": false}`, "does not name a definition"},
		{"ref-definitions", `{"type": "object", "properties": {"a": {"$ref": "#/definitions/x"}}, "required": ["a"], "additionalProperties": false}`, "does not name a definition"},

		// Limits.
		{"nesting-11", nested(11), "11 levels of object nesting"},
		{"nesting-10", nested(10), ""},
		{"properties-5001", wide(5001), "5001 object properties"},
		{"enum-1001", enumOf(1001, 1), "1001 enum values"},
		{"long-string-enum", enumOf(251, 60), "over the limit of 15,000"},
		{"chars-120001", enumOf(2, 60001), "120003 characters"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v any
			dec := json.NewDecoder(strings.NewReader(c.schema))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			got := checkOpenAIStrict(v)
			switch {
			case c.want == "" && len(got) > 0:
				t.Errorf("violations in a valid schema: %q", got)
			case c.want != "" && len(got) != 1:
				t.Errorf("want one violation with %q, got %q", c.want, got)
			case c.want != "" && !strings.Contains(got[0], c.want):
				t.Errorf("want a violation with %q, got %q", c.want, got[0])
			}
		})
	}
}

// nested is a strict schema of n levels of objects.
func nested(n int) string {
	s := `{"type": "object", "properties": {}, "required": [], "additionalProperties": false}`
	for range n - 1 {
		s = `{"type": "object", "properties": {"o": ` + s + `}, "required": ["o"], "additionalProperties": false}`
	}
	return s
}

// wide is a strict schema of n string properties.
func wide(n int) string {
	props, req := make([]string, n), make([]string, n)
	for i := range n {
		props[i] = fmt.Sprintf(`"p%d": {"type": "string"}`, i)
		req[i] = fmt.Sprintf(`"p%d"`, i)
	}
	return `{"type": "object", "properties": {` + strings.Join(props, ",") + `}, "required": [` + strings.Join(req, ",") + `], "additionalProperties": false}`
}

// enumOf is a strict schema with a string enum of n distinct values of
// size characters each.
func enumOf(n, size int) string {
	vals := make([]string, n)
	for i := range n {
		v := fmt.Sprintf("%d", i)
		vals[i] = `"` + v + strings.Repeat("x", max(0, size-len(v))) + `"`
	}
	return `{"type": "object", "properties": {"e": {"type": "string", "enum": [` + strings.Join(vals, ",") + `]}}, "required": ["e"], "additionalProperties": false}`
}
