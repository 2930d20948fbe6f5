package normalize

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

func TestObjectRoot(t *testing.T) {
	tests := []struct {
		name, in, want string
		notObject      bool // the error wraps ErrNotObject
		fails          bool // some other error
	}{
		{name: "null", in: `null`, want: `{"type": "object"}`},
		{name: "true", in: `true`, want: `{"type": "object"}`},
		{name: "empty", in: `{}`, want: `{"type": "object"}`},
		{name: "properties without type", in: `{"properties": {"a": {"type": "string"}}, "required": ["a"]}`,
			want: `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`},
		{name: "already object", in: `{"type": "object", "additionalProperties": false}`, want: `{"type": "object", "additionalProperties": false}`},
		{name: "type list with object", in: `{"type": ["object", "null"]}`, want: `{"type": "object"}`},
		{name: "capitalised", in: `{"type": "Object"}`, want: `{"type": "object"}`},
		{name: "anyOf of objects", in: `{"anyOf": [{"type": "object"}, {"required": ["a"]}]}`,
			want: `{"type": "object", "anyOf": [{"type": "object"}, {"required": ["a"]}]}`},
		{name: "ref in 2020-12 gets type beside it",
			in:   `{"$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}}`,
			want: `{"type": "object", "$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}}`},
		{name: "unresolvable ref gets type beside it",
			in: `{"$ref": "https://example.com/a.json"}`, want: `{"type": "object", "$ref": "https://example.com/a.json"}`},
		{name: "ref in draft-07 is inlined",
			in:   `{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/A", "definitions": {"A": {"type": "object", "properties": {"x": {"type": "number"}}}}}`,
			want: `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"x": {"type": "number"}}}`},
		{name: "draft-07 type beside ref is inlined too",
			in:   `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "$ref": "#/definitions/A", "definitions": {"A": {"type": "object"}}}`,
			want: `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}`},
		{name: "draft-07 chain of refs", in: `{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/A", "definitions": {"A": {"$ref": "#/definitions/B"}, "B": {"properties": {}}}}`,
			want: `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {}}`},
		{name: "unknown dialect without type is inlined", in: `{"$schema": "https://example.com/dialect", "$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}}`,
			want: `{"$schema": "https://example.com/dialect", "type": "object"}`},

		{name: "string root", in: `{"type": "string"}`, notObject: true},
		{name: "type list without object", in: `{"type": ["string", "null"]}`, notObject: true},
		{name: "false", in: `false`, notObject: true},
		{name: "enum of strings", in: `{"enum": ["a", "b"]}`, notObject: true},
		{name: "const string", in: `{"const": "a"}`, notObject: true},
		{name: "object type with a string const", in: `{"type": "object", "const": "a"}`, notObject: true},
		{name: "anyOf of scalars", in: `{"anyOf": [{"type": "string"}, {"type": "integer"}]}`, notObject: true},
		{name: "allOf with a scalar branch", in: `{"allOf": [{"type": "string"}]}`, notObject: true},
		{name: "ref to a string", in: `{"$ref": "#/$defs/S", "$defs": {"S": {"type": "string"}}}`, notObject: true},
		{name: "draft-07 ref to a string", in: `{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/S", "definitions": {"S": {"type": "string"}}}`, notObject: true},
		{name: "a string is not a schema", in: `"{}"`, fails: true},
		{name: "an array is not a schema", in: `[]`, fails: true},
		{name: "draft-07 ref that cannot be inlined", in: `{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/properties/a", "properties": {"a": {}}}`, fails: true},
		{name: "draft-07 ref loop", in: `{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/A", "definitions": {"A": {"$ref": "#/definitions/A"}}}`, fails: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := schema.Clone(in)
			got, err := ObjectRoot(in)
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("ObjectRoot modified its input (-before +after):\n%s", diff)
			}
			switch {
			case tt.notObject:
				if !errors.Is(err, ErrNotObject) {
					t.Fatalf("got %v, %v; want an ErrNotObject error", got, err)
				}
				return
			case tt.fails:
				if err == nil || errors.Is(err, ErrNotObject) {
					t.Fatalf("got %v, %v; want an error other than ErrNotObject", got, err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			if diff := cmp.Diff(testenv.JSON(t, tt.want), got); diff != "" {
				t.Errorf("ObjectRoot(%s) (-want +got):\n%s", tt.in, diff)
			}
			if _, err := schema.Compile(got); err != nil && !strings.Contains(tt.in, "example.com") {
				t.Errorf("result does not compile: %v", err)
			}
		})
	}
}

// TestObjectRootShares checks that a schema needing no change comes back
// as itself: converting copied every input schema here, once more than the
// target's transform does.
func TestObjectRootShares(t *testing.T) {
	for _, in := range []string{
		`{"type": "object"}`,
		`{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`,
	} {
		v := testenv.JSON(t, in)
		got, err := ObjectRoot(v)
		if err != nil {
			t.Fatal(err)
		}
		if !sameMap(got.(map[string]any), v.(map[string]any)) {
			t.Errorf("ObjectRoot(%s) copied a schema it did not change", in)
		}
	}
	// A change is made on a copy.
	v := testenv.JSON(t, `{"properties": {}}`)
	got, err := ObjectRoot(v)
	if err != nil {
		t.Fatal(err)
	}
	if sameMap(got.(map[string]any), v.(map[string]any)) {
		t.Error("ObjectRoot changed its input's map")
	}
}

func TestAdmitsObject(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`{}`, true},
		{`true`, true},
		{`false`, false},
		{`{"type": "object"}`, true},
		{`{"type": ["null", "object"]}`, true},
		{`{"type": "array"}`, false},
		{`{"enum": [{"a": 1}, "b"]}`, true},
		{`{"enum": ["a", 1]}`, false},
		{`{"const": {}}`, true},
		{`{"oneOf": [{"type": "string"}, {"properties": {}}]}`, true},
		{`{"oneOf": [{"type": "string"}, false]}`, false},
		{`{"allOf": [{}, {"type": "number"}]}`, false},
		{`{"$ref": "#/$defs/nowhere"}`, true},
		{`{"type": 5}`, true}, // invalid, so not plainly a non-object
	}
	for _, tt := range tests {
		v := testenv.JSON(t, tt.in)
		if got := AdmitsObject(v, v); got != tt.want {
			t.Errorf("AdmitsObject(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
