package normalize

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

func lossKeys(ls []Loss) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Pointer+" "+l.Keyword)
	}
	return out
}

func TestOpenAIFunction(t *testing.T) {
	tests := []struct {
		name, in, want string
		losses         []string
	}{
		{name: "valid stays", in: `{"type": "object", "properties": {"a": {"type": "string"}}}`,
			want: `{"type": "object", "properties": {"a": {"type": "string"}}}`},
		{name: "root without type", in: `{"properties": {}}`, want: `{"type": "object", "properties": {}}`},
		{name: "arrays get items, nested too",
			in:   `{"type": "object", "properties": {"a": {"type": "array"}, "b": {"type": ["array", "null"], "items": {"type": "array"}}}}`,
			want: `{"type": "object", "properties": {"a": {"type": "array", "items": {}}, "b": {"type": ["array", "null"], "items": {"type": "array", "items": {}}}}}`},
		{name: "root enum, const and not dropped",
			in:     `{"type": "object", "enum": [{}], "const": {}, "not": {"required": ["a"]}}`,
			want:   `{"type": "object", "properties": {}}`,
			losses: []string{" enum", " const", " not"}},
		{name: "root without properties gets an empty one",
			in:   `{"type": "object", "additionalProperties": {"type": "string"}}`,
			want: `{"type": "object", "additionalProperties": {"type": "string"}, "properties": {}}`},
		{name: "root $ref keeps its target's properties",
			in:   `{"type": "object", "$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}}`,
			want: `{"type": "object", "$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}}`},
		{name: "root allOf merged",
			in:   `{"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}]}`,
			want: `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}`},
		{name: "root that admits no object",
			in: `{"type": "string"}`, want: `{"type": "string"}`, losses: []string{" type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := testenv.JSON(t, tt.in)
			got, losses := OpenAIFunction(in)
			if diff := cmp.Diff(testenv.JSON(t, tt.want), got); diff != "" {
				t.Errorf("schema (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.losses, lossKeys(losses)); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("input modified:\n%s", diff)
			}
		})
	}
}

func TestOpenAIStrict(t *testing.T) {
	tests := []struct {
		name, in, want string
		losses         []string
	}{
		{name: "already strict",
			in:   `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}`,
			want: `{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}`},
		{name: "closed and required, optional made nullable",
			in: `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer", "enum": [1, 2]},
				"c": {"$ref": "#/$defs/C", "description": "see C"}, "d": {"anyOf": [{"type": "string"}, {"type": "number"}]},
				"e": {"type": ["string", "null"]}, "f": {"type": "object", "properties": {"x": {"type": "boolean"}}}},
				"required": ["a"], "$defs": {"C": {"type": "object"}}}`,
			want: `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": ["integer", "null"], "enum": [1, 2, null]},
				"c": {"description": "see C", "anyOf": [{"$ref": "#/$defs/C"}, {"type": "null"}]},
				"d": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "null"}]},
				"e": {"type": ["string", "null"]},
				"f": {"type": ["object", "null"], "properties": {"x": {"type": ["boolean", "null"]}}, "required": ["x"], "additionalProperties": false}},
				"required": ["a", "b", "c", "d", "e", "f"], "additionalProperties": false,
				"$defs": {"C": {"type": "object", "additionalProperties": false}}}`,
			losses: []string{"/properties/b required", "/properties/c required", "/properties/d required", "/properties/e required", "/properties/f required", "/properties/f/properties/x required"}},
		{name: "open map closed",
			in:     `{"type": "object", "additionalProperties": {"type": "string"}}`,
			want:   `{"type": "object", "additionalProperties": false, "properties": {}}`,
			losses: []string{"/additionalProperties additionalProperties"}},
		{name: "disjoint oneOf becomes anyOf without loss",
			in:   `{"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["v"]}`,
			want: `{"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}, "required": ["v"], "additionalProperties": false}`},
		{name: "overlapping oneOf becomes anyOf with loss",
			in:     `{"type": "object", "properties": {"v": {"oneOf": [{"type": "number"}, {"type": "integer"}]}}, "required": ["v"]}`,
			want:   `{"type": "object", "properties": {"v": {"anyOf": [{"type": "number"}, {"type": "integer"}]}}, "required": ["v"], "additionalProperties": false}`,
			losses: []string{"/properties/v/oneOf oneOf"}},
		{name: "allOf of objects merged, unsupported keywords removed",
			in: `{"type": "object", "properties": {"p": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"properties": {"b": {"type": "string"}}, "required": ["b"]}],
				"not": {"required": ["c"]}, "if": {}, "then": {}}}, "required": ["p"]}`,
			want: `{"type": "object", "properties": {"p": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a", "b"], "additionalProperties": false}},
				"required": ["p"], "additionalProperties": false}`,
			losses: []string{"/properties/p/if if", "/properties/p/not not", "/properties/p/then then"}},
		{name: "single-branch allOf becomes anyOf",
			in:   `{"type": "object", "properties": {"p": {"allOf": [{"$ref": "#/$defs/P"}], "description": "d"}}, "required": ["p"], "$defs": {"P": {"type": "string"}}}`,
			want: `{"type": "object", "properties": {"p": {"anyOf": [{"$ref": "#/$defs/P"}], "description": "d"}}, "required": ["p"], "additionalProperties": false, "$defs": {"P": {"type": "string"}}}`},
		{name: "typeless schemas typed",
			in: `{"type": "object", "properties": {"any": {"description": "x"}, "list": {"type": "array"}}, "required": ["any", "list"]}`,
			want: `{"type": "object", "properties": {"any": {"description": "x", "anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]},
				"list": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]}}},
				"required": ["any", "list"], "additionalProperties": false}`,
			losses: []string{"/properties/any type", "/properties/list/items type"}},
		{name: "propertyNames removed",
			in:     `{"type": "object", "properties": {"h": {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {"type": "string"}}}, "required": ["h"]}`,
			want:   `{"type": "object", "properties": {"h": {"type": "object", "additionalProperties": false}}, "required": ["h"], "additionalProperties": false}`,
			losses: []string{"/properties/h/propertyNames propertyNames", "/properties/h/additionalProperties additionalProperties"}},
		{name: "undeclared required names dropped",
			in:     `{"type": "object", "properties": {"a": {"type": "string"}, "o": {"type": "object", "required": ["x"]}}, "required": ["a", "ghost", "o", "ghost"]}`,
			want:   `{"type": "object", "properties": {"a": {"type": "string"}, "o": {"type": "object", "additionalProperties": false}}, "required": ["a", "o"], "additionalProperties": false}`,
			losses: []string{"/required required", "/properties/o/required required"}},
		{name: "root ref inlined, recursion kept",
			in:   `{"$ref": "#/$defs/Node", "$defs": {"Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}, "required": ["kids"]}}}`,
			want: `{"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}, "required": ["kids"], "additionalProperties": false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := testenv.JSON(t, tt.in)
			got, losses := OpenAIStrict(in)
			if diff := cmp.Diff(testenv.JSON(t, tt.want), got); diff != "" {
				t.Errorf("schema (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.losses, lossKeys(losses)); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("input modified:\n%s", diff)
			}
		})
	}
}

func TestDisjoint(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`[{"type": "string"}, {"type": "integer"}]`, true},
		{`[{"type": "number"}, {"type": "integer"}]`, false},
		{`[{"const": "a"}, {"enum": ["b", "c"]}]`, true},
		{`[{"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]}, {"type": "object", "properties": {"k": {"const": "b"}}, "required": ["k"]}]`, true},
		{`[{"type": "object", "properties": {"k": {"const": "a"}}}, {"type": "object", "properties": {"k": {"const": "b"}}, "required": ["k"]}]`, false},
		{`[{"$ref": "#/$defs/A"}, {"type": "string"}]`, false},
	}
	for _, tt := range tests {
		var list []any
		for _, v := range testenv.JSON(t, tt.in).([]any) {
			list = append(list, v)
		}
		if got := Disjoint(list); got != tt.want {
			t.Errorf("Disjoint(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestOpenAIStrictSize(t *testing.T) {
	in := testenv.JSON(t, `{"type": "object", "properties": {"ab": {"type": "object", "properties": {"c": {"enum": ["xy", "z", 1]}}},
		"d": {"const": "k"}}, "$defs": {"Def": {"type": "object"}}}`)
	want := StrictSize{Depth: 2, DeepestPointer: "/properties/ab", Properties: 3, EnumValues: 3, StringChars: 2 + 1 + 1 + 3 + 1 + 3}
	if diff := cmp.Diff(want, OpenAIStrictSize(in)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var long []any
	for i := 0; i < 251; i++ {
		long = append(long, "value-number-00000000000000000000000000000000000000000000000000000000000000")
	}
	got := OpenAIStrictSize(map[string]any{"enum": long})
	if len(got.LongEnums) != 1 || got.LongEnums[0].Values != 251 {
		t.Errorf("long enum not found: %+v", got.LongEnums)
	}
}

func TestNullableSchema(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"type", `{"type": "string", "minLength": 1}`, `{"type": ["string", "null"], "minLength": 1}`},
		{"type list", `{"type": ["string", "integer"]}`, `{"type": ["string", "integer", "null"]}`},
		{"enum", `{"type": "string", "enum": ["a"]}`, `{"type": ["string", "null"], "enum": ["a", null]}`},
		{"anyOf beside a type", `{"type": "string", "anyOf": [{"type": "string", "minLength": 2}, {"type": "string", "pattern": "x"}]}`,
			`{"type": ["string", "null"], "anyOf": [{"type": "string", "minLength": 2}, {"type": "string", "pattern": "x"}, {"type": "null"}]}`},
		{"anyOf whose branches let null through", `{"type": "string", "anyOf": [{"minLength": 2}, {"pattern": "x"}]}`,
			`{"type": ["string", "null"], "anyOf": [{"minLength": 2}, {"pattern": "x"}]}`},
		{"ref wrapped, annotations kept outside", `{"$ref": "#/$defs/A", "description": "d", "title": "t"}`,
			`{"description": "d", "title": "t", "anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}`},
		{"const wrapped", `{"const": "x"}`, `{"anyOf": [{"const": "x"}, {"type": "null"}]}`},
		{"oneOf wrapped", `{"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}`,
			`{"anyOf": [{"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}, {"type": "null"}]}`},
		{"already nullable", `{"type": ["string", "null"]}`, `{"type": ["string", "null"]}`},
		{"already nullable anyOf", `{"anyOf": [{"type": "string"}, {"type": "null"}]}`, `{"anyOf": [{"type": "string"}, {"type": "null"}]}`},
		{"typeless accepts null", `{"description": "any"}`, `{"description": "any"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			if diff := cmp.Diff(testenv.JSON(t, tt.want), NullableSchema(in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(testenv.JSON(t, tt.in), in); diff != "" {
				t.Errorf("input modified:\n%s", diff)
			}
		})
	}
}

// StrictKeywords shares what it leaves alone with its input, and must
// never change the input itself, whatever it rewrites.
func TestStrictKeywordsLeavesInput(t *testing.T) {
	for _, src := range []string{
		`{"prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "maxItems": 5}`,
		`{"items": [{"type": "string"}], "additionalItems": {"type": "number"}, "default": [1]}`,
		`{"allOf": [{"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}, "required": ["a"]}], "type": "object"}`,
		`{"oneOf": [{"type": "string"}, {"type": "integer"}], "not": {"const": 1}, "if": {"type": "string"}, "then": {}}`,
		`{"$ref": "#/$defs/A", "dependentSchemas": {"a": {"required": ["b"]}}, "propertyNames": {"pattern": "^a"}}`,
	} {
		for _, ignored := range []bool{false, true} {
			in := testenv.JSON(t, src).(map[string]any)
			before := schema.Clone(in)
			StrictKeywords(in, ignored)
			if diff := cmp.Diff(before, any(in)); diff != "" {
				t.Errorf("%s: the input changed (-before +after):\n%s", src, diff)
			}
		}
	}
}

// StrictClose and StrictRequired change a node's own members and its
// properties' only: the rest stays shared with the input, which must not
// change, even where the lists they extend have room to grow in place.
func TestStrictFixesShare(t *testing.T) {
	src := `{"type": "object", "required": ["a", "gone"], "properties": {
		"a": {"type": "object", "properties": {"deep": {"type": "object", "properties": {}}}},
		"b": {"type": ["string"], "enum": ["x"]},
		"c": {"anyOf": [{"type": "string"}], "description": "d"},
		"d": {"$ref": "#/$defs/D"}}, "$defs": {"D": {"type": "object"}}}`
	in := testenv.JSON(t, src).(map[string]any)
	// Spare capacity: an append that is not a copy would write into it.
	props := in["properties"].(map[string]any)
	in["required"] = append(make([]any, 0, 8), in["required"].([]any)...)
	b := props["b"].(map[string]any)
	b["type"] = append(make([]any, 0, 8), b["type"].([]any)...)
	b["enum"] = append(make([]any, 0, 8), b["enum"].([]any)...)
	c := props["c"].(map[string]any)
	c["anyOf"] = append(make([]any, 0, 8), c["anyOf"].([]any)...)
	before := schema.Clone(in)

	closed, _ := StrictClose(in)
	required, losses := StrictRequired(in)
	if diff := cmp.Diff(before, any(in)); diff != "" {
		t.Fatalf("the input changed (-before +after):\n%s", diff)
	}
	if _, ok := in["additionalProperties"]; ok || closed["additionalProperties"] != false {
		t.Errorf("StrictClose: additionalProperties %v in the result, %v in the input", closed["additionalProperties"], in["additionalProperties"])
	}
	if len(losses) != 4 { // "gone" dropped; b, c, d made nullable
		t.Errorf("StrictRequired: %d losses, want 4: %v", len(losses), losses)
	}
	shared := func(name string, got, want any) {
		t.Helper()
		g, _ := got.(map[string]any)
		w, _ := want.(map[string]any)
		if g == nil || w == nil || schema.Identity(g) != schema.Identity(w) {
			t.Errorf("%s is a copy, not the input's", name)
		}
	}
	// Whatever else appends to the input's lists must not reach the result.
	want := schema.Clone(required)
	_ = append(in["required"].([]any), "X")
	_ = append(b["type"].([]any), "X")
	_ = append(b["enum"].([]any), "X")
	_ = append(c["anyOf"].([]any), "X")
	if diff := cmp.Diff(want, any(required)); diff != "" {
		t.Errorf("StrictRequired's result shares a list's array with the input (-before +after):\n%s", diff)
	}
	shared("StrictClose's properties", closed["properties"], in["properties"])
	shared("StrictClose's $defs", closed["$defs"], in["$defs"])
	shared("StrictRequired's $defs", required["$defs"], in["$defs"])
	shared("StrictRequired's properties/a/properties", required["properties"].(map[string]any)["a"].(map[string]any)["properties"], props["a"].(map[string]any)["properties"])
}

func TestStrictKeywordsNode(t *testing.T) {
	tests := []struct {
		name, in, want string
		ignored        bool
		losses         []string
	}{
		{name: "closed node keeps its allOf apart",
			in:     `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false, "allOf": [{"properties": {"b": {"type": "string"}}}, {"required": ["a"]}]}`,
			want:   `{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}`,
			losses: []string{"/allOf allOf"}},
		{name: "nullable object merged with an object branch",
			in:   `{"type": ["object", "null"], "allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]}`,
			want: `{"type": "object", "properties": {"a": {"type": "string"}}}`},
		{name: "ref beside anyOf",
			in:     `{"$ref": "#/$defs/A", "anyOf": [{"type": "string"}]}`,
			want:   `{"anyOf": [{"type": "string"}]}`,
			losses: []string{"/$ref $ref"}},
		{name: "draft-07 ref drops ignored constraints",
			in: `{"$ref": "#/definitions/A", "type": "string", "description": "d"}`, ignored: true,
			want: `{"description": "d", "anyOf": [{"$ref": "#/definitions/A"}]}`},
		{name: "draft-07 ref ignores a oneOf beside it",
			in: `{"$ref": "#/definitions/A", "oneOf": [{"type": "string"}, {"type": "number"}], "title": "t"}`, ignored: true,
			want: `{"title": "t", "anyOf": [{"$ref": "#/definitions/A"}]}`},
		{name: "2020-12 ref keeps constraints beside anyOf",
			in:   `{"$ref": "#/$defs/A", "minimum": 2}`,
			want: `{"minimum": 2, "anyOf": [{"$ref": "#/$defs/A"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in).(map[string]any)
			before := schema.Clone(in)
			got, losses := StrictKeywords(in, tt.ignored)
			if diff := cmp.Diff(testenv.JSON(t, tt.want), any(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, any(in)); diff != "" {
				t.Errorf("the input changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(tt.losses, lossKeys(losses)); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
		})
	}
}
