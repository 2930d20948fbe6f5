package normalize

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

func TestDanglingRequired(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Dangling
	}{
		{name: "all declared", in: `{"properties": {"a": {}}, "required": ["a"]}`},
		{name: "one dangling", in: `{"properties": {"a": {}}, "required": ["a", "b"]}`,
			want: []Dangling{{Pointer: "", Names: []string{"b"}}}},
		{name: "repeated name reported once", in: `{"properties": {}, "required": ["b", "b", 3]}`,
			want: []Dangling{{Pointer: "", Names: []string{"b"}}}},
		{name: "no properties at all", in: `{"required": ["a"]}`,
			want: []Dangling{{Pointer: "", Names: []string{"a"}}}},
		{name: "unsatisfiable with additionalProperties false", in: `{"properties": {"a": {}}, "required": ["z"], "additionalProperties": false}`,
			want: []Dangling{{Pointer: "", Names: []string{"z"}, Unsatisfiable: true}}},
		{name: "nested in properties, items and definitions",
			in: `{"properties": {"p": {"properties": {}, "required": ["x"]}, "l": {"items": {"required": ["y"]}}}, "$defs": {"D": {"required": ["w"]}}}`,
			want: []Dangling{
				{Pointer: "/properties/l/items", Names: []string{"y"}},
				{Pointer: "/properties/p", Names: []string{"x"}},
				{Pointer: "/$defs/D", Names: []string{"w"}},
			}},
		{name: "a property named like a keyword is no branch",
			in:   `{"properties": {"a": {}, "not": {"required": ["a"]}}}`,
			want: []Dangling{{Pointer: "/properties/not", Names: []string{"a"}}}},

		{name: "anyOf branches see the parent", in: `{"properties": {"a": {}, "b": {}}, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}`},
		{name: "oneOf nested twice", in: `{"properties": {"a": {}}, "oneOf": [{"allOf": [{"required": ["a"]}]}]}`},
		{name: "sibling branch declares", in: `{"allOf": [{"properties": {"a": {}}}, {"required": ["a"]}]}`},
		{name: "branch declares for the parent", in: `{"required": ["a"], "anyOf": [{"properties": {"a": {}}}, {"properties": {"a": {}, "b": {}}}]}`},
		{name: "if/then/else and not", in: `{"properties": {"k": {}, "p": {}}, "if": {"required": ["k"]}, "then": {"required": ["p"]}, "else": {"not": {"required": ["p"]}}}`},
		{name: "dependentSchemas", in: `{"properties": {"c": {}, "v": {}}, "dependentSchemas": {"c": {"required": ["v"]}}}`},
		{name: "draft-07 dependencies", in: `{"properties": {"c": {}, "v": {}}, "dependencies": {"c": {"required": ["v"]}, "v": ["c"]}}`},
		{name: "ref target declares", in: `{"$ref": "#/$defs/B", "required": ["a"], "$defs": {"B": {"properties": {"a": {}}}}}`},
		{name: "mixin definition used through allOf", in: `{"properties": {"t": {}}, "allOf": [{"$ref": "#/$defs/M"}], "$defs": {"M": {"required": ["t"]}}}`},
		{name: "definition referenced directly with siblings", in: `{"properties": {"t": {}}, "$ref": "#/$defs/M", "$defs": {"M": {"required": ["t"]}}}`},
		{name: "recursive definition", in: `{"$ref": "#/$defs/N", "$defs": {"N": {"properties": {"k": {"items": {"$ref": "#/$defs/N"}}}, "required": ["k"]}}}`},
		{name: "patternProperties", in: `{"patternProperties": {"^x-": {}}, "required": ["x-a"]}`},
		{name: "additionalProperties schema", in: `{"additionalProperties": {"type": "string"}, "required": ["any"]}`},
		{name: "unevaluatedProperties schema", in: `{"unevaluatedProperties": {}, "required": ["any"]}`},
		{name: "unresolvable ref", in: `{"allOf": [{"$ref": "other.json"}], "required": ["a"]}`},
		{name: "dynamic ref", in: `{"$dynamicRef": "#meta", "required": ["a"]}`},
		{name: "pattern Go cannot compile", in: `{"patternProperties": {"(?<=a)b": {}}, "required": ["a"]}`},

		{name: "non-matching pattern", in: `{"patternProperties": {"^x-": {}}, "required": ["y"]}`,
			want: []Dangling{{Pointer: "", Names: []string{"y"}}}},
		{name: "additionalProperties true declares nothing", in: `{"additionalProperties": true, "required": ["y"]}`,
			want: []Dangling{{Pointer: "", Names: []string{"y"}}}},
		{name: "items do not declare for the parent", in: `{"items": {"properties": {"a": {}}}, "required": ["a"]}`,
			want: []Dangling{{Pointer: "", Names: []string{"a"}}}},
		{name: "a property's schema does not declare for its parent", in: `{"properties": {"p": {"properties": {"a": {}}}}, "required": ["a"]}`,
			want: []Dangling{{Pointer: "", Names: []string{"a"}}}},
		{name: "unevaluatedProperties false", in: `{"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false, "required": ["a", "b"]}`,
			want: []Dangling{{Pointer: "", Names: []string{"b"}, Unsatisfiable: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DanglingRequired(testenv.JSON(t, tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("DanglingRequired(%s) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestDropDanglingRequired(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{name: "nothing to drop", in: `{"properties": {"a": {}}, "required": ["a"]}`, want: `{"properties": {"a": {}}, "required": ["a"]}`},
		{name: "drop one, keep order", in: `{"properties": {"a": {}, "c": {}}, "required": ["c", "b", "a"]}`, want: `{"properties": {"a": {}, "c": {}}, "required": ["c", "a"]}`},
		{name: "empty required is removed", in: `{"type": "object", "required": ["x"]}`, want: `{"type": "object"}`},
		{name: "nested", in: `{"properties": {"p": {"properties": {"k": {}}, "required": ["k", "q"]}}, "required": ["p", "r"]}`,
			want: `{"properties": {"p": {"properties": {"k": {}}, "required": ["k"]}}, "required": ["p"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := schema.Clone(in)
			got := DropDanglingRequired(in)
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("DropDanglingRequired modified its input (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(testenv.JSON(t, tt.want), got); diff != "" {
				t.Errorf("DropDanglingRequired(%s) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
