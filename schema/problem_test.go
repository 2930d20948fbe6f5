package schema

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
)

func TestCompileProblems(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []Problem
	}{
		{"valid", `{"type": "object", "properties": {"a": {"type": "string"}}}`, nil},
		{"bad type name", `{"type": "object", "properties": {"a": {"type": "strin"}}}`, []Problem{
			{Pointer: "/properties/a/type", Message: "value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'"},
		}},
		{"two locations", `{"properties": {"a": {"minimum": "1"}}, "required": "a"}`, []Problem{
			{Pointer: "/properties/a/minimum", Message: "must be a number, not a string"},
			{Pointer: "/required", Message: "must be an array, not a string"},
		}},
		{"escaped property name", `{"properties": {"a/b": {"minLength": -1}}}`, []Problem{
			{Pointer: "/properties/a~1b/minLength", Message: "must be at least 0, not -1"},
		}},
		{"draft-07 tuple is valid under draft-07", `{"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]}`, nil},
		{"draft-07 tuple under 2020-12", `{"items": [{"type": "string"}]}`, []Problem{
			{Pointer: "/items", Message: "must be a boolean or an object, not an array"},
		}},
		{"https spelling of draft-07", `{"$schema": "https://json-schema.org/draft-07/schema", "items": [{"type": "string"}]}`, nil},
		{"unknown dialect", `{"$schema": "https://example.com/my-dialect", "type": "object"}`, []Problem{
			{Kind: ProblemDialect, Pointer: "/$schema", Message: `unknown JSON Schema dialect "https://example.com/my-dialect"`},
		}},
		{"missing pointer target", `{"properties": {"a": {"$ref": "#/$defs/nope"}}}`, []Problem{
			{Kind: ProblemReference, Message: `json-pointer in "#/$defs/nope" not found`},
		}},
		{"reference to a non-schema", `{"required": ["a"], "properties": {"a": {"$ref": "#/required"}}}`, []Problem{
			{Kind: ProblemReference, Pointer: "/required", Message: "a $ref points at a value that is not a schema (/required)"},
		}},
		{"network reference", `{"$ref": "https://example.com/s.json"}`, []Problem{
			{Kind: ProblemReference, Message: `failing loading "https://example.com/s.json": mcplint does not load external schemas (https://example.com/s.json)`},
		}},
		{"duplicate anchor", `{"$defs": {"a": {"$anchor": "x"}, "b": {"$anchor": "x"}}}`, []Problem{
			{Pointer: "/$defs/b", Message: `anchor "x" is declared twice, at /$defs/a and /$defs/b`},
		}},
		{"ECMA lookahead is accepted", `{"properties": {"a": {"pattern": "^(?!tmp)[a-z]+$"}}}`, nil},
		{"ECMA unicode escape is accepted", `{"properties": {"a": {"pattern": "^[\\u0041-\\u005A]+$"}}}`, nil},
		{"broken pattern", `{"properties": {"a": {"pattern": "(ab"}}}`, []Problem{
			{Pointer: "/properties/a/pattern", Message: "'(ab' is not valid regex: error parsing regexp: missing closing ): `(ab`"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile(testenv.JSON(t, tt.doc))
			if diff := cmp.Diff(tt.want, Problems(err)); diff != "" {
				t.Errorf("problems (-want +got):\n%s\nerror: %v", diff, err)
			}
		})
	}
}

func TestCompileDialectAssumed(t *testing.T) {
	doc := testenv.JSON(t, `{"items": [{"type": "string"}], "additionalItems": false}`)
	if _, err := CompileDialect(doc, Draft7); err != nil {
		t.Errorf("draft-07 tuple assumed draft-07: %v", err)
	}
	if _, err := CompileDialect(doc, Draft2020); err == nil {
		t.Error("draft-07 tuple assumed 2020-12 compiled")
	}
	var ude *UnknownDialectError
	if _, err := CompileDialect(testenv.JSON(t, `{"$schema": "x"}`), Draft7); !errors.As(err, &ude) {
		t.Errorf("unknown $schema: got %v, want *UnknownDialectError", err)
	}
}

func TestCompileDoesNotMutate(t *testing.T) {
	doc := testenv.JSON(t, `{"$schema": "http://json-schema.org/draft-07/schema", "type": "object"}`)
	if _, err := Compile(doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.(map[string]any)["$schema"]; !ok {
		t.Error("Compile removed $schema from its argument")
	}
}
