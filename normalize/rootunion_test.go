package normalize

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

func TestRootCombinators(t *testing.T) {
	tests := []struct {
		name, in, want string
		// loss is a fragment of the single Loss's What ("" for none).
		loss string
	}{
		{name: "no combinator", in: `{"type": "object", "properties": {"a": {}}}`, want: `{"type": "object", "properties": {"a": {}}}`},
		{name: "not an object", in: `"x"`, want: `"x"`},
		{name: "allOf of objects",
			in:   `{"type": "object", "allOf": [{"properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "object", "properties": {"b": {"type": "number"}}, "required": ["b"]}]}`,
			want: `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "number"}}, "required": ["a", "b"]}`},
		{name: "allOf same property twice",
			in:   `{"allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"maxLength": 3}}}, {"properties": {"a": {"type": "string"}}}]}`,
			want: `{"properties": {"a": {"allOf": [{"type": "string"}, {"maxLength": 3}]}}}`},
		{name: "allOf through refs and nested allOf",
			in:   `{"type": "object", "allOf": [{"$ref": "#/$defs/Base"}, {"allOf": [{"properties": {"b": {"$ref": "#/$defs/B"}}}]}], "$defs": {"Base": {"type": "object", "title": "Base", "description": "Common.", "properties": {"a": {"type": "string"}}, "required": ["a"]}, "B": {"type": "integer"}}}`,
			want: `{"type": "object", "title": "Base", "description": "Common.", "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/B"}}, "required": ["a"], "$defs": {"Base": {"type": "object", "title": "Base", "description": "Common.", "properties": {"a": {"type": "string"}}, "required": ["a"]}, "B": {"type": "integer"}}}`},
		{name: "allOf descriptions joined, root title wins",
			in:   `{"title": "T", "description": "Root.", "allOf": [{"title": "U", "description": "Branch."}]}`,
			want: `{"title": "T", "description": "Root.\n\nBranch."}`},
		{name: "allOf closed branch naming every property",
			in:   `{"allOf": [{"properties": {"a": {}, "b": {}}, "additionalProperties": false}, {"properties": {"a": {"type": "string"}}}]}`,
			want: `{"properties": {"a": {"allOf": [{}, {"type": "string"}]}, "b": {}}, "additionalProperties": false}`},
		{name: "allOf draft-07 ref siblings ignored",
			in:   `{"$schema": "http://json-schema.org/draft-07/schema#", "allOf": [{"$ref": "#/definitions/A", "required": ["zzz"]}], "definitions": {"A": {"properties": {"a": {}}}}}`,
			want: `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"a": {}}, "definitions": {"A": {"properties": {"a": {}}}}}`},
		{name: "allOf true branch", in: `{"allOf": [true, {"required": ["a"]}]}`, want: `{"required": ["a"]}`},

		{name: "allOf closed branch and another property", in: `{"allOf": [{"properties": {"a": {}}, "additionalProperties": false}, {"properties": {"b": {}}}]}`,
			loss: `forbids with "additionalProperties"`},
		{name: "allOf non-object branch", in: `{"allOf": [{"type": "string"}]}`, loss: `not an object schema`},
		{name: "allOf conflicting keyword", in: `{"maxProperties": 2, "allOf": [{"maxProperties": 3}]}`, loss: `conflicts`},
		{name: "allOf false branch", in: `{"allOf": [false]}`, loss: `schema false`},
		{name: "allOf unresolvable ref", in: `{"allOf": [{"$ref": "https://example.com/x.json"}]}`, loss: `not a definition`},
		{name: "allOf ref to root", in: `{"allOf": [{"$ref": "#"}]}`, loss: `root itself`},
		{name: "allOf branch with $id", in: `{"allOf": [{"$id": "https://example.com/b", "properties": {}}]}`, loss: `references resolve`},
		{name: "allOf not a list", in: `{"allOf": {"properties": {}}}`, loss: `not a list`},
		{name: "ref into the combinator", in: `{"anyOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"$ref": "#/anyOf/0/properties/a"}}}]}`,
			loss: `inline it first`},

		{name: "anyOf discriminated union",
			in:   `{"type": "object", "description": "Do it.", "anyOf": [{"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "string"}}, "required": ["kind", "x"], "additionalProperties": false}, {"type": "object", "properties": {"kind": {"const": "b"}, "y": {"type": "number"}}, "required": ["kind"], "additionalProperties": false}]}`,
			want: `{"type": "object", "description": "Do it.\n\nArguments must match at least one of these shapes: (1) kind=\"a\"; requires x (2) kind=\"b\".", "properties": {"kind": {"anyOf": [{"const": "a"}, {"const": "b"}]}, "x": {"type": "string"}, "y": {"type": "number"}}, "required": ["kind"], "additionalProperties": false}`,
			loss: `at least one of 2 shapes`},
		{name: "oneOf open variants leave a property named once unconstrained",
			in:   `{"oneOf": [{"properties": {"x": {"type": "string", "description": "X."}}}, {"properties": {"y": {"type": "number"}}, "required": ["y"]}]}`,
			want: `{"description": "Arguments must match exactly one of these shapes: (1) no further requirement (2) requires y.", "properties": {"x": {"description": "X."}, "y": {}}}`,
			loss: `properties; "x", "y" now take any value`},
		{name: "oneOf without anything to describe",
			in:   `{"type": "object", "properties": {"z": {}}, "oneOf": [{"properties": {"z": {"type": "string"}}}, {"properties": {"z": {"type": "integer"}}}]}`,
			want: `{"type": "object", "properties": {"z": {"allOf": [{}, {"anyOf": [{"type": "string"}, {"type": "integer"}]}]}}}`,
			loss: `exactly one of 2 shapes`},
		{name: "anyOf with a true variant", in: `{"type": "object", "anyOf": [true, {"required": ["a"]}]}`, want: `{"type": "object"}`, loss: `at least one`},
		{name: "anyOf of refs with titles",
			in:   `{"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "$defs": {"A": {"title": "ByName", "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}, "B": {"title": "ById", "type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}}}`,
			want: `{"type": "object", "description": "Arguments must match at least one of these shapes: (1) ByName; requires name (2) ById; requires id.", "properties": {"name": {}, "id": {}}, "$defs": {"A": {"title": "ByName", "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}, "B": {"title": "ById", "type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}}}`,
			loss: `at least one of 2`},
		{name: "allOf bringing up an anyOf",
			in:   `{"allOf": [{"anyOf": [{"properties": {"a": {}}, "additionalProperties": false}, {"properties": {"a": {}}, "additionalProperties": false}]}]}`,
			want: `{"properties": {"a": {}}, "additionalProperties": false}`,
			loss: `at least one of 2`},
		{name: "anyOf of scalars", in: `{"anyOf": [{"type": "string"}, {"type": "object"}]}`, loss: `not an object schema`},
		{name: "anyOf empty", in: `{"anyOf": []}`, loss: `non-empty list`},
		{name: "invalid required entries do not panic",
			in:   `{"required": [{}], "allOf": [{"required": [{}, [1]]}], "anyOf": [{"required": [[1], "a"]}, {"required": [[1]]}]}`,
			want: `{"description": "Arguments must match at least one of these shapes: (1) requires a (2) no further requirement.", "required": [{}, [1]]}`,
			loss: `at least one of 2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := schema.Clone(in)
			got, losses := RootCombinators(in)
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("RootCombinators modified its input (-before +after):\n%s", diff)
			}
			want := in
			if tt.want != "" {
				want = testenv.JSON(t, tt.want)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			switch {
			case tt.loss == "" && len(losses) != 0:
				t.Errorf("losses = %+v, want none", losses)
			case tt.loss != "" && (len(losses) != 1 || !strings.Contains(losses[0].What, tt.loss)):
				t.Errorf("losses = %+v, want one saying %q", losses, tt.loss)
			}
		})
	}
}

// TestRootCombinatorsWidens validates samples against the input and the
// rewrite: a union merge accepts everything the input accepted, an allOf
// merge accepts exactly the same.
func TestRootCombinatorsWidens(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		exact   bool
		samples []string
	}{
		{name: "allOf", exact: true,
			in:      `{"type": "object", "allOf": [{"$ref": "#/$defs/A"}, {"properties": {"a": {"maxLength": 2}, "b": {"type": "integer"}}, "required": ["b"]}], "$defs": {"A": {"properties": {"a": {"type": "string"}}, "required": ["a"]}}}`,
			samples: []string{`{}`, `{"a": "x", "b": 1}`, `{"a": "xyz", "b": 1}`, `{"a": 1, "b": 1}`, `{"a": "x"}`, `{"b": 1}`, `{"a": "x", "b": "1"}`, `{"a": "x", "b": 1, "c": null}`}},
		{name: "allOf closed", exact: true,
			in:      `{"allOf": [{"properties": {"a": {}, "b": {}}, "additionalProperties": false}, {"properties": {"a": {"type": "string"}}}]}`,
			samples: []string{`{}`, `{"a": "x"}`, `{"a": 1}`, `{"b": 1}`, `{"c": 1}`}},
		{name: "closed anyOf",
			in:      `{"type": "object", "anyOf": [{"properties": {"kind": {"const": "a"}, "x": {"type": "string"}}, "required": ["kind", "x"], "additionalProperties": false}, {"properties": {"kind": {"const": "b"}, "y": {"type": "number"}}, "required": ["kind"], "additionalProperties": false}]}`,
			samples: []string{`{"kind": "a", "x": "s"}`, `{"kind": "b"}`, `{"kind": "b", "y": 2}`, `{"kind": "a"}`, `{"kind": "c"}`, `{"kind": "a", "x": "s", "y": 1}`, `{"z": 1}`}},
		{name: "open oneOf",
			in:      `{"oneOf": [{"properties": {"x": {"type": "string"}}, "required": ["x"]}, {"properties": {"y": {"type": "number"}}, "required": ["y"]}]}`,
			samples: []string{`{"x": "s"}`, `{"y": 1}`, `{"x": 1, "y": 1}`, `{"x": "s", "y": "t"}`, `{"x": "s", "y": 1}`, `{}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			out, losses := RootCombinators(in)
			if HasRootCombinator(out) {
				t.Fatalf("root combinator left in place: %+v", losses)
			}
			if tt.exact && len(losses) > 0 {
				t.Errorf("exact merge reported losses %+v", losses)
			}
			before, err := schema.Compile(in)
			if err != nil {
				t.Fatalf("compile input: %v", err)
			}
			after, err := schema.Compile(out)
			if err != nil {
				t.Fatalf("compile rewrite %s: %v", schema.Compact(out), err)
			}
			for _, s := range tt.samples {
				v := testenv.JSON(t, s)
				was, is := before.Validate(v) == nil, after.Validate(v) == nil
				if was && !is {
					t.Errorf("%s: accepted by the input, refused by the rewrite %s", s, schema.Compact(out))
				}
				if tt.exact && is && !was {
					t.Errorf("%s: refused by the input, accepted by the exact rewrite %s", s, schema.Compact(out))
				}
			}
		})
	}
}

// FuzzRootCombinators: no input makes RootCombinators panic or modify its
// input, and a rewrite never leaves a combinator at the root.
func FuzzRootCombinators(f *testing.F) {
	for _, s := range []string{
		`{"allOf": [{"$ref": "#/$defs/A"}], "$defs": {"A": {"properties": {"a": {}}}}}`,
		`{"anyOf": [{"properties": {"a": {"type": "string"}}, "additionalProperties": false}, {"required": ["b"]}]}`,
		`{"oneOf": [true, false, {"allOf": [{"anyOf": [{}]}]}]}`,
		`{"allOf": [{"$ref": "#"}], "anyOf": [{"$ref": "#/anyOf/0"}]}`,
		`{"allOf": [{"type": ["object", "null"], "required": [1, {}]}], "type": "number"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		var in any
		if d.Decode(&in) != nil {
			return
		}
		before := schema.Clone(in)
		out, losses := RootCombinators(in)
		if !cmp.Equal(before, in) {
			t.Fatalf("input modified: %s", s)
		}
		if HasRootCombinator(out) && len(losses) == 0 {
			t.Fatalf("combinator left without a loss: %s", s)
		}
	})
}
