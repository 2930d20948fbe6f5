package normalize

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

// lossAt is a Loss without its prose: where and which keyword.
type lossAt struct{ Pointer, Keyword string }

func lossesAt(ls []Loss) []lossAt {
	var out []lossAt
	for _, l := range ls {
		out = append(out, lossAt{l.Pointer, l.Keyword})
	}
	return out
}

func TestGemini(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		max    int
		want   string
		losses []lossAt
	}{
		{
			name: "supported schema unchanged",
			in:   `{"type": "object", "description": "d", "properties": {"q": {"type": "string", "minLength": 1, "pattern": "^a", "format": "date-time"}, "n": {"type": "integer", "format": "int64", "minimum": 0}}, "required": ["q"], "propertyOrdering": ["q", "n"]}`,
			want: `{"type": "object", "description": "d", "properties": {"q": {"type": "string", "minLength": 1, "pattern": "^a", "format": "date-time"}, "n": {"type": "integer", "format": "int64", "minimum": 0}}, "required": ["q"], "propertyOrdering": ["q", "n"]}`,
		},
		{
			name: "pydantic defs and refs inlined, metadata dropped silently",
			in: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x", "$comment": "c", "type": "object",
				"properties": {"target": {"$ref": "#/$defs/Target", "description": "where"}},
				"$defs": {"Target": {"type": "object", "description": "a target", "properties": {"id": {"type": "string"}}, "required": ["id"]}, "Unused": {"type": "string"}}}`,
			want: `{"type": "object", "properties": {"target": {"type": "object", "description": "where", "properties": {"id": {"type": "string"}}, "required": ["id"]}}}`,
		},
		{
			name:   "recursion cut at MaxDepth",
			in:     `{"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": {"type": "object", "description": "node", "properties": {"next": {"$ref": "#/$defs/Node"}}}}}`,
			max:    2,
			want:   `{"type": "object", "properties": {"root": {"type": "object", "description": "node", "properties": {"next": {"type": "object", "description": "node", "properties": {"next": {"type": "object", "description": "node"}}}}}}}`,
			losses: []lossAt{{"/$defs/Node/properties/next", "$ref"}},
		},
		{
			name:   "reference outside the document",
			in:     `{"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}`,
			want:   `{"type": "object", "properties": {"a": {}}}`,
			losses: []lossAt{{"/properties/a", "$ref"}},
		},
		{
			name: "type lists: nullable and anyOf split by type",
			in: `{"type": "object", "properties": {
				"a": {"type": ["string", "null"], "maxLength": 3},
				"b": {"type": ["string", "array"], "description": "one or many", "minLength": 1, "items": {"type": "string"}, "maxItems": 5},
				"c": {"type": ["integer", "string", "null"], "minimum": 1, "pattern": "^[0-9]+$"}}}`,
			want: `{"type": "object", "properties": {
				"a": {"type": "string", "nullable": true, "maxLength": 3},
				"b": {"description": "one or many", "anyOf": [{"type": "string", "minLength": 1}, {"type": "array", "items": {"type": "string"}, "maxItems": 5}]},
				"c": {"anyOf": [{"type": "integer", "minimum": 1, "nullable": true}, {"type": "string", "pattern": "^[0-9]+$", "nullable": true}]}}}`,
		},
		{
			name: "anyOf with a null branch becomes nullable",
			in:   `{"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "A"}, "b": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}}}`,
			want: `{"type": "object", "properties": {"a": {"type": "string", "nullable": true, "default": null, "title": "A"}, "b": {"anyOf": [{"type": "string", "nullable": true}, {"type": "integer", "nullable": true}]}}}`,
		},
		{
			name: "const and string enums",
			in:   `{"type": "object", "properties": {"k": {"const": "fixed"}, "e": {"enum": ["a", "b"]}, "n": {"type": "string", "enum": ["a", null], "nullable": true}}}`,
			want: `{"type": "object", "properties": {"k": {"type": "string", "enum": ["fixed"]}, "e": {"type": "string", "enum": ["a", "b"]}, "n": {"type": "string", "enum": ["a"], "nullable": true}}}`,
		},
		{
			name: "integer enums become ranges",
			in: `{"type": "object", "properties": {
				"level": {"type": "integer", "enum": [1, 2, 3]},
				"size": {"enum": [8, 16, 32], "description": "Bits"},
				"one": {"const": 5},
				"ratio": {"type": "number", "enum": [0.5, 1]}}}`,
			want: `{"type": "object", "properties": {
				"level": {"type": "integer", "minimum": 1, "maximum": 3},
				"size": {"type": "integer", "minimum": 8, "maximum": 32, "description": "Bits. Allowed values: 8, 16, 32."},
				"one": {"type": "integer", "minimum": 5, "maximum": 5},
				"ratio": {"type": "number", "minimum": 0.5, "maximum": 1, "description": "Allowed values: 0.5, 1."}}}`,
			losses: []lossAt{{"/properties/ratio", "enum"}, {"/properties/size", "enum"}},
		},
		{
			name: "boolean and mixed enums",
			in: `{"type": "object", "properties": {
				"both": {"enum": [true, false]},
				"yes": {"const": true},
				"mixed": {"enum": ["auto", 0, 1]},
				"obj": {"enum": [{"a": 1}]}}}`,
			want: `{"type": "object", "properties": {
				"both": {"type": "boolean"},
				"yes": {"type": "boolean", "description": "Must be true."},
				"mixed": {"anyOf": [{"type": "string", "enum": ["auto"]}, {"type": "integer", "minimum": 0, "maximum": 1}]},
				"obj": {"type": "object", "description": "Allowed values: {\"a\":1}."}}}`,
			losses: []lossAt{{"/properties/obj", "enum"}, {"/properties/yes", "enum"}},
		},
		{
			name: "enum values the type excludes go without loss",
			in:   `{"type": "object", "properties": {"s": {"type": "string", "enum": ["a", 1]}}}`,
			want: `{"type": "object", "properties": {"s": {"type": "string", "enum": ["a"]}}}`,
		},
		{
			name: "oneOf: disjoint by type, by discriminator, overlapping",
			in: `{"type": "object", "properties": {
				"t": {"oneOf": [{"type": "string"}, {"type": "boolean"}]},
				"d": {"oneOf": [
					{"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "string"}}, "required": ["kind"]},
					{"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}]},
				"o": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
				"c": {"oneOf": [{"const": "open"}, {"const": "closed"}]}}}`,
			want: `{"type": "object", "properties": {
				"t": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
				"d": {"anyOf": [
					{"type": "object", "properties": {"kind": {"type": "string", "enum": ["a"]}, "x": {"type": "string"}}, "required": ["kind"]},
					{"type": "object", "properties": {"kind": {"type": "string", "enum": ["b"]}}, "required": ["kind"]}]},
				"o": {"anyOf": [{"type": "integer"}, {"type": "number"}]},
				"c": {"anyOf": [{"type": "string", "enum": ["open"]}, {"type": "string", "enum": ["closed"]}]}}}`,
			losses: []lossAt{{"/properties/o", "oneOf"}},
		},
		{
			name: "allOf merged, conflicts keep the first",
			in: `{"type": "object", "allOf": [
					{"properties": {"a": {"type": "string", "minLength": 1}}, "required": ["a"]},
					{"properties": {"a": {"maxLength": 9}, "b": {"type": "integer", "minimum": 0}}, "required": ["b"]},
					{"properties": {"b": {"minimum": 2}}}],
				"properties": {"c": {"allOf": [{"type": "string"}, {"type": "integer"}]}}}`,
			want: `{"type": "object",
				"properties": {"a": {"type": "string", "minLength": 1, "maxLength": 9}, "b": {"type": "integer", "minimum": 2}, "c": {"type": "string"}},
				"required": ["a", "b"]}`,
			losses: []lossAt{{"/properties/c", "allOf"}},
		},
		{
			name: "exclusive bounds",
			in: `{"type": "object", "properties": {
				"i": {"type": "integer", "exclusiveMinimum": 3, "exclusiveMaximum": 10},
				"n": {"type": "number", "exclusiveMinimum": 0},
				"d4": {"type": "integer", "minimum": 0, "exclusiveMinimum": true},
				"t": {"type": "number", "minimum": 5, "exclusiveMinimum": 1}}}`,
			want: `{"type": "object", "properties": {
				"i": {"type": "integer", "minimum": 4, "maximum": 9},
				"n": {"type": "number", "minimum": 0},
				"d4": {"type": "integer", "minimum": 1},
				"t": {"type": "number", "minimum": 5}}}`,
			losses: []lossAt{{"/properties/n", "exclusiveMinimum"}},
		},
		{
			name: "unsupported keywords, harmless ones silently",
			in: `{"type": "object", "additionalProperties": false, "properties": {
				"m": {"type": "object", "properties": {"k": {"type": "string"}}, "additionalProperties": true, "propertyNames": {"pattern": "^a"}},
				"u": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "contains": {"const": "x"}},
				"f": {"type": "integer", "multipleOf": 5, "not": {"const": 0}},
				"x": {"type": "string", "format": "email", "x-widget": "email", "examples": ["a@b.c", "d@e.f"], "deprecated": false}}}`,
			want: `{"type": "object", "properties": {
				"m": {"type": "object", "properties": {"k": {"type": "string"}}},
				"u": {"type": "array", "items": {"type": "string"}},
				"f": {"type": "integer"},
				"x": {"type": "string", "example": "a@b.c"}}}`,
			losses: []lossAt{
				{"/properties/f", "multipleOf"}, {"/properties/f", "not"},
				{"/properties/m", "propertyNames"},
				{"/properties/u", "contains"}, {"/properties/u", "uniqueItems"},
				{"/properties/x", "examples"}, {"/properties/x", "format"}, {"/properties/x", "x-widget"},
				{"", "additionalProperties"},
			},
		},
		{
			name:   "shapes Gemini refuses are kept, for GeminiDropShapeless",
			in:     `{"type": "object", "properties": {"tags": {"type": "array"}, "meta": {"type": "object", "additionalProperties": {"type": "string"}}}}`,
			want:   `{"type": "object", "properties": {"tags": {"type": "array"}, "meta": {"type": "object"}}}`,
			losses: []lossAt{{"/properties/meta", "additionalProperties"}},
		},
		{
			name:   "a property or items with only object or array keywords gets their type",
			in:     `{"type": "object", "properties": {"data": {"properties": {"a": {"type": "string"}}, "required": ["a"]}, "list": {"items": {"required": ["k"], "properties": {"k": {"type": "string"}}}}, "any": {"description": "x"}}}`,
			want:   `{"type": "object", "properties": {"data": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, "list": {"type": "array", "items": {"type": "object", "required": ["k"], "properties": {"k": {"type": "string"}}}}, "any": {"description": "x"}}}`,
			losses: []lossAt{{"/properties/data", "type"}, {"/properties/list", "type"}, {"/properties/list/items", "type"}},
		},
		{
			name: "a ref beside other keywords merges them",
			in:   `{"type": "object", "properties": {"a": {"$ref": "#/$defs/S", "maxLength": 4}}, "$defs": {"S": {"type": "string", "minLength": 1}}}`,
			want: `{"type": "object", "properties": {"a": {"type": "string", "minLength": 1, "maxLength": 4}}}`,
		},
		{
			name: "draft-07 ignores keywords beside a ref",
			in:   `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"a": {"$ref": "#/definitions/S", "maxLength": 4, "description": "kept"}}, "definitions": {"S": {"type": "string"}}}`,
			want: `{"type": "object", "properties": {"a": {"type": "string", "description": "kept"}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := schema.Clone(in)
			got, losses := Gemini(in, GeminiOptions{MaxDepth: tt.max})
			if d := cmp.Diff(testenv.JSON(t, tt.want), got); d != "" {
				t.Errorf("Gemini() schema (-want +got):\n%s", d)
			}
			sortLosses := cmpopts.SortSlices(func(a, b lossAt) bool { return a.Pointer+" "+a.Keyword < b.Pointer+" "+b.Keyword })
			if d := cmp.Diff(tt.losses, lossesAt(losses), sortLosses, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("Gemini() losses (-want +got):\n%s\nall: %v", d, losses)
			}
			if d := cmp.Diff(before, in); d != "" {
				t.Errorf("Gemini modified its input:\n%s", d)
			}
			assertGeminiSubset(t, got)
			again, more := Gemini(got, GeminiOptions{MaxDepth: tt.max})
			if d := cmp.Diff(got, again); d != "" {
				t.Errorf("Gemini is not idempotent (-once +twice):\n%s", d)
			}
			for _, l := range more {
				t.Errorf("converted schema still loses %+v", l)
			}
		})
	}
}

// assertGeminiSubset fails when a converted schema holds a keyword outside
// Gemini's Schema object.
func assertGeminiSubset(t *testing.T, v any) {
	t.Helper()
	schema.Walk(v, "", func(n *schema.Node) bool {
		s, ptr := n.Value, n.Pointer()
		for k := range s {
			if !GeminiSupports(k) {
				t.Errorf("%s: keyword %q is outside Gemini's subset", ptr, k)
			}
		}
		if _, isList := s["type"].([]any); isList {
			t.Errorf("%s: type is still a list", ptr)
		}
		if e, ok := s["enum"].([]any); ok {
			for _, v := range e {
				if _, ok := v.(string); !ok {
					t.Errorf("%s: enum value %v is not a string", ptr, v)
				}
			}
		}
		return true
	})
}

func TestGeminiInlineRefs(t *testing.T) {
	tests := []struct {
		name, in, want string
		losses         []lossAt
	}{
		{
			name: "only references change",
			in:   `{"type": "object", "additionalProperties": false, "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": ["string", "null"], "const": "x"}}}`,
			want: `{"type": "object", "additionalProperties": false, "properties": {"a": {"type": ["string", "null"], "const": "x"}}}`,
		},
		{
			name:   "recursion",
			in:     `{"type": "object", "properties": {"n": {"$ref": "#"}}}`,
			want:   `{"type": "object", "properties": {"n": {"type": "object", "properties": {"n": {"type": "object", "properties": {"n": {"type": "object", "properties": {"n": {"type": "object"}}}}}}}}}`,
			losses: []lossAt{{"/properties/n", "$ref"}},
		},
		{
			name: "siblings become allOf for the allOf rewrite",
			in:   `{"type": "object", "properties": {"a": {"$ref": "#/$defs/S", "maxLength": 4, "description": "d"}}, "$defs": {"S": {"type": "string"}}}`,
			want: `{"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"maxLength": 4}], "description": "d"}}}`,
		},
		{
			// Several siblings, in keyword order whatever the map's: the
			// output must not change from one run to the next.
			name: "siblings become allOf branches in keyword order",
			in:   `{"type": "object", "properties": {"a": {"$ref": "#/$defs/S", "maxLength": 4, "pattern": "^x", "minLength": 1, "format": "email"}}, "$defs": {"S": {"type": "string"}}}`,
			want: `{"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"format": "email"}, {"pattern": "^x"}, {"minLength": 1}, {"maxLength": 4}]}}}`,
		},
		{
			name: "an unresolvable reference stays with the definitions",
			in:   `{"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}, "b": {"$ref": "#/$defs/B"}}, "$defs": {"B": {"type": "string"}}}`,
			want: `{"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}, "b": {"type": "string"}}, "$defs": {"B": {"type": "string"}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := schema.Clone(in)
			got, losses := GeminiInlineRefs(in, GeminiOptions{})
			if d := cmp.Diff(testenv.JSON(t, tt.want), got); d != "" {
				t.Errorf("GeminiInlineRefs() (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.losses, lossesAt(losses), cmpopts.EquateEmpty()); d != "" {
				t.Errorf("GeminiInlineRefs() losses (-want +got):\n%s", d)
			}
			if d := cmp.Diff(before, in); d != "" {
				t.Errorf("GeminiInlineRefs modified its input:\n%s", d)
			}
		})
	}
}

func TestGeminiRewrite(t *testing.T) {
	tests := []struct {
		keyword, in, want string
		lossy             bool
	}{
		{"type", `{"type": ["string", "null"], "items": {"type": ["integer", "null"]}}`, `{"type": "string", "nullable": true, "items": {"type": ["integer", "null"]}}`, false},
		{"oneOf", `{"oneOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}`, `{"anyOf": [{"type": "string"}, {"type": "string", "minLength": 2}]}`, true},
		{"allOf", `{"allOf": [{"type": "string"}, {"maxLength": 3}], "description": "d"}`, `{"type": "string", "maxLength": 3, "description": "d"}`, false},
		{"additionalProperties", `{"type": "object", "additionalProperties": false, "x-y": 1}`, `{"type": "object", "x-y": 1}`, true},
		{"$schema", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}`, `{"type": "object"}`, false},
		{"const", `{"const": 3}`, `{"type": "integer", "minimum": 3, "maximum": 3}`, false},
		{"format", `{"type": "string", "format": "uri"}`, `{"type": "string"}`, true},
		{"format", `{"type": "number", "format": "double"}`, `{"type": "number", "format": "double"}`, false},
		{"exclusiveMaximum", `{"type": "number", "exclusiveMaximum": 1.5}`, `{"type": "number", "maximum": 1.5}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.keyword, func(t *testing.T) {
			in := testenv.JSON(t, tt.in).(map[string]any)
			got, losses := GeminiRewrite(in, tt.keyword, "/p")
			if d := cmp.Diff(testenv.JSON(t, tt.want), any(got)); d != "" {
				t.Errorf("GeminiRewrite(%s, %q) (-want +got):\n%s", tt.in, tt.keyword, d)
			}
			if (len(losses) > 0) != tt.lossy {
				t.Errorf("GeminiRewrite(%s, %q) losses = %v, want lossy %v", tt.in, tt.keyword, losses, tt.lossy)
			}
		})
	}
}

func TestGeminiJSONSchema(t *testing.T) {
	in := testenv.JSON(t, `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": ["string", "null"]}}, "additionalProperties": false}`)
	before := schema.Clone(in)
	got, losses := GeminiJSONSchema(in)
	want := testenv.JSON(t, `{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": ["string", "null"]}}, "additionalProperties": false}`)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("GeminiJSONSchema (-want +got):\n%s", d)
	}
	if len(losses) != 0 {
		t.Errorf("GeminiJSONSchema losses = %v", losses)
	}
	if d := cmp.Diff(before, in); d != "" {
		t.Errorf("GeminiJSONSchema modified its input:\n%s", d)
	}
}

func TestGeminiExpansionBudget(t *testing.T) {
	// Each definition uses the next twice: 2^30 expansions if unbounded.
	defs := map[string]any{"D30": map[string]any{"type": "string"}}
	for i := 29; i >= 0; i-- {
		next := map[string]any{"$ref": "#/$defs/D" + strconv.Itoa(i+1)}
		defs["D"+strconv.Itoa(i)] = map[string]any{"type": "object", "properties": map[string]any{"a": next, "b": next}}
	}
	in := map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"$ref": "#/$defs/D0"}}, "$defs": defs}
	_, losses := Gemini(in, GeminiOptions{})
	if BudgetExceeded(losses) == nil {
		t.Fatalf("Gemini did not cut the expansion: losses %v", losses)
	}
}

func FuzzGemini(f *testing.F) {
	for _, s := range []string{
		`{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": ["string", "null"], "enum": ["x", 1, null]}}}`,
		`{"oneOf": [], "allOf": [true, false, {"allOf": [{"type": "integer", "exclusiveMinimum": true}]}], "type": [1, "null"]}`,
		`{"anyOf": [{"type": "null"}], "const": {"a": [1]}, "items": [{"$ref": "#"}], "properties": [], "enum": 3}`,
		`{"$ref": "#/properties/a", "properties": {"a": {"$ref": "#"}}, "exclusiveMaximum": "x", "format": 7}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := testenv.ParseJSON(string(data))
		if err != nil {
			return
		}
		before := schema.Clone(in)
		out, _ := Gemini(in, GeminiOptions{MaxDepth: 2})
		GeminiInlineRefs(in, GeminiOptions{})
		if m, ok := in.(map[string]any); ok {
			for k := range m {
				GeminiRewrite(m, k, "")
			}
		}
		if !reflect.DeepEqual(before, in) {
			t.Fatalf("input modified")
		}
		if _, ok := in.(map[string]any); ok {
			assertGeminiSubset(t, out)
		}
	})
}

// Dropping a draft-07 declaration changes how a 2020-12 reader takes the
// schema, so it must be said.
func TestGeminiJSONSchemaOtherDialect(t *testing.T) {
	in := testenv.JSON(t, `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"p": {"type": "array", "items": [{"type": "string"}]}}}`)
	got, losses := GeminiJSONSchema(in)
	if _, ok := got.(map[string]any)["$schema"]; ok {
		t.Errorf("$schema kept: %v", got)
	}
	if len(losses) != 1 || losses[0].Keyword != "$schema" || !strings.Contains(losses[0].What, "draft-07") {
		t.Errorf("losses = %+v, want one naming the draft-07 $schema", losses)
	}
}
