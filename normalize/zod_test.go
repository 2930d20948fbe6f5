package normalize

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

// zodFixture is one line of testdata/zod/fixtures.json, written by
// testdata/generators/zod-leak/gen.mjs from real Zod 3 and Zod 4 schemas:
// what JSON.stringify made of a schema, and what Zod's own converter made of
// the same live schema.
type zodFixture struct {
	Name      string `json:"name"`
	Version   int    `json:"version"`
	Leak      any    `json:"leak"`
	Converted any    `json:"converted"`
}

// TestFromZodMatchesConverters judges the rebuild against the converters:
// what FromZod makes of the serialised value must be what the converter made
// of the live schema, except for what the serialisation lost, which the
// table names (as edits of the converter's output) and FromZod must report.
func TestFromZodMatchesConverters(t *testing.T) {
	src, err := os.ReadFile("testdata/zod/fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var fixtures []zodFixture
	if err := dec.Decode(&fixtures); err != nil {
		t.Fatal(err)
	}
	obj := func(s string) any { return testenv.JSON(t, s) }
	tests := map[string]struct {
		// lost are the losses FromZod must report, as "pointer: what" with
		// what cut to its first word, and "(annotation)" for annotations.
		lost []string
		// edits turn the converter's output into the expected rebuild:
		// pointer to new value, nil to delete.
		edits map[string]any
		// ordered: the required lists keep the converter's order (Zod 3
		// objects carry their key order in _cached.keys).
		ordered bool
	}{
		"zod3-raw-shape": {
			lost:  []string{"/properties/exact: the (annotation)"},
			edits: map[string]any{"/properties/exact/default": nil},
		},
		"zod3-object-cached": {
			lost:    []string{"/properties/exact: the (annotation)"},
			edits:   map[string]any{"/properties/exact/default": nil},
			ordered: true,
		},
		"zod3-object-lost-shape": {
			lost:  []string{": the"},
			edits: map[string]any{"": obj(`{"type": "object"}`)},
		},
		"zod3-nested-lost-shape": {
			lost:  []string{"/properties/options: the"},
			edits: map[string]any{"/properties/options": obj(`{"type": "object"}`)},
		},
		"zod3-passthrough-catchall": {
			lost:  []string{"/properties/meta: the"},
			edits: map[string]any{"/properties/meta": obj(`{"type": "object"}`)},
		},
		"zod3-regex": {
			lost:  []string{"/properties/code: a"},
			edits: map[string]any{"/properties/code/pattern": nil},
		},
		"zod4-raw-shape": {
			// Zod 4 keeps descriptions in a registry: nothing of them is
			// serialised, so nothing can report them lost.
			edits: map[string]any{"/properties/query/description": nil},
		},
		"zod4-object":        {},
		"zod4-strict-object": {},
		"zod4-bounded": {
			lost: []string{"/properties/email: the", "/properties/limit: a", "/properties/query: a"},
			edits: map[string]any{
				"/properties/query/minLength": nil, "/properties/query/maxLength": nil,
				"/properties/limit/minimum": json.Number("-9007199254740991"), "/properties/limit/maximum": json.Number("9007199254740991"),
				"/properties/email/pattern": nil,
			},
		},
		"zod4-union-record": {},
	}
	seen := map[string]bool{}
	for _, f := range fixtures {
		t.Run(f.Name, func(t *testing.T) {
			tc, ok := tests[f.Name]
			if !ok {
				t.Fatalf("fixture %q has no expectation in this table", f.Name)
			}
			seen[f.Name] = true
			got, lost, ok := FromZod(f.Leak)
			if !ok {
				t.Fatal("FromZod did not recognise the serialised value")
			}
			if _, form := DetectZod(f.Leak); form != f.Version {
				t.Errorf("DetectZod version = %d, want %d", form, f.Version)
			}
			want := schema.Clone(f.Converted)
			for ptr, v := range tc.edits {
				want = setPointer(t, want, ptr, v)
			}
			if !tc.ordered {
				sortRequired(want)
				sortRequired(got)
			}
			if diff := cmp.Diff(want, any(got)); diff != "" {
				t.Errorf("rebuild differs from the converter's output (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.lost, lossSummary(lost)); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
			if _, err := schema.Compile(got); err != nil {
				t.Errorf("rebuilt schema does not compile: %v", err)
			}
		})
	}
	for name := range tests {
		if !seen[name] {
			t.Errorf("no fixture %q in testdata/zod/fixtures.json", name)
		}
	}
}

func lossSummary(lost []ZodLoss) []string {
	var out []string
	for _, l := range lost {
		s := l.Pointer + ": " + strings.Fields(l.What)[0]
		if l.Annotation {
			s += " (annotation)"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// setPointer sets (or, for nil, deletes) the member at ptr.
func setPointer(t *testing.T, doc any, ptr string, v any) any {
	t.Helper()
	if ptr == "" {
		return v
	}
	i := strings.LastIndexByte(ptr, '/')
	parent, ok := schema.Get(doc, ptr[:i])
	pm, isMap := parent.(map[string]any)
	if !ok || !isMap {
		t.Fatalf("no object at %q", ptr[:i])
	}
	name := strings.ReplaceAll(strings.ReplaceAll(ptr[i+1:], "~1", "/"), "~0", "~")
	if v == nil {
		if _, ok := pm[name]; !ok {
			t.Fatalf("nothing to delete at %q", ptr)
		}
		delete(pm, name)
	} else {
		pm[name] = v
	}
	return doc
}

func sortRequired(v any) {
	schema.Walk(v, "", func(n *schema.Node) bool {
		s := n.Value
		if req, ok := s["required"].([]any); ok {
			sort.Slice(req, func(i, j int) bool { return req[i].(string) < req[j].(string) })
		}
		return true
	})
}

func TestFromZod(t *testing.T) {
	tests := []struct {
		name, in, want string
		lost           []string
	}{
		{
			name: "zod 3 native enum drops the reverse entries of numeric members",
			in:   `{"_def": {"typeName": "ZodNativeEnum", "values": {"Low": 0, "0": "Low", "High": "high"}}}`,
			want: `{"type": ["string", "number"], "enum": ["high", 0]}`,
		},
		{
			name: "zod 3 literal null",
			in:   `{"_def": {"typeName": "ZodLiteral", "value": null}}`,
			want: `{"type": "null", "const": null}`,
		},
		{
			name: "zod 3 nullable keeps a described inner schema whole",
			in:   `{"_def": {"typeName": "ZodNullable", "innerType": {"_def": {"typeName": "ZodString", "checks": [], "description": "d"}}}}`,
			want: `{"anyOf": [{"type": "string", "description": "d"}, {"type": "null"}]}`,
		},
		{
			name: "zod 3 description on the wrapper wins over the inner one",
			in:   `{"_def": {"typeName": "ZodOptional", "description": "outer", "innerType": {"_def": {"typeName": "ZodNumber", "checks": [{"kind": "int"}, {"kind": "min", "value": 0, "inclusive": false}], "description": "inner"}}}}`,
			want: `{"type": "integer", "exclusiveMinimum": 0, "description": "outer"}`,
		},
		{
			name: "zod 3 string bounds keep the tighter one; transforms constrain nothing",
			in:   `{"_def": {"typeName": "ZodString", "checks": [{"kind": "min", "value": 2}, {"kind": "length", "value": 5}, {"kind": "trim"}, {"kind": "max", "value": 9}]}}`,
			want: `{"type": "string", "minLength": 5, "maxLength": 5}`,
		},
		{
			name: "zod 3 refine and transform publish their input",
			in:   `{"_def": {"typeName": "ZodEffects", "schema": {"_def": {"typeName": "ZodBoolean"}}, "effect": {"type": "refinement"}}}`,
			want: `{"type": "boolean"}`,
		},
		{
			name: "zod 3 check it does not know",
			in:   `{"_def": {"typeName": "ZodString", "checks": [{"kind": "startsWith", "value": "x"}]}}`,
			want: `{"type": "string"}`,
			lost: []string{": a"},
		},
		{
			name: "zod 3 schema with only ~standard",
			in:   `{"~standard": {"version": 1, "vendor": "zod"}}`,
			want: `{}`,
			lost: []string{": a"},
		},
		{
			name: "zod 3 lazy",
			in:   `{"_def": {"typeName": "ZodLazy"}}`,
			want: `{}`,
			lost: []string{": a"},
		},
		{
			name: "zod 4 enum without its options mirror, numeric entries",
			in:   `{"def": {"type": "enum", "entries": {"A": 1, "1": "A", "B": 2, "2": "B"}}, "type": "enum"}`,
			want: `{"type": "number", "enum": [1, 2]}`,
		},
		{
			name: "zod 4 literal of several values",
			in:   `{"def": {"type": "literal", "values": [1, "one"]}, "type": "literal", "values": {}}`,
			want: `{"enum": [1, "one"]}`,
		},
		{
			name: "zod 4 exclusive union is oneOf",
			in:   `{"def": {"type": "union", "inclusive": false, "options": [{"def": {"type": "string"}, "type": "string"}, {"def": {"type": "boolean"}, "type": "boolean"}]}, "type": "union"}`,
			want: `{"oneOf": [{"type": "string"}, {"type": "boolean"}]}`,
		},
		{
			name: "zod 4 preprocess publishes its output stage",
			in:   `{"def": {"type": "pipe", "in": {"def": {"type": "transform"}, "type": "transform"}, "out": {"def": {"type": "boolean"}, "type": "boolean"}}, "type": "pipe"}`,
			want: `{"type": "boolean"}`,
		},
		{
			name: "zod 4 readonly and catch",
			in:   `{"def": {"type": "readonly", "innerType": {"def": {"type": "catch", "innerType": {"def": {"type": "null"}, "type": "null"}}, "type": "catch"}}, "type": "readonly"}`,
			want: `{"type": "null", "readOnly": true}`,
			lost: []string{": the (annotation)"},
		},
		{
			name: "zod 4 int32 and a lost bound",
			in:   `{"def": {"type": "number", "check": "number_format", "format": "int32", "checks": [{}]}, "type": "number", "isFinite": true}`,
			want: `{"type": "integer", "minimum": -2147483648, "maximum": 2147483647}`,
			lost: []string{": a"},
		},
		{
			name: "zod 4 base64 and date-time formats",
			in:   `{"def": {"type": "object", "shape": {"b": {"def": {"type": "string", "check": "string_format", "format": "base64"}, "type": "string"}, "d": {"def": {"type": "string", "check": "string_format", "format": "datetime", "local": true}, "type": "string"}}}, "type": "object"}`,
			want: `{"type": "object", "properties": {"b": {"type": "string", "format": "base64", "contentEncoding": "base64"}, "d": {"type": "string"}}, "required": ["b", "d"]}`,
		},
		{
			name: "zod 4 optional, nullable and pipe fields",
			in: `{"def": {"type": "object", "shape": {
				"n": {"def": {"type": "nullable", "innerType": {"def": {"type": "optional", "innerType": {"def": {"type": "string"}, "type": "string"}}, "type": "optional"}}, "type": "nullable"},
				"p": {"def": {"type": "pipe", "in": {"def": {"type": "string"}, "type": "string"}, "out": {"def": {"type": "transform"}, "type": "transform"}}, "type": "pipe"},
				"u": {"def": {"type": "unknown"}, "type": "unknown"}}, "catchall": {"def": {"type": "unknown"}, "type": "unknown"}}, "type": "object"}`,
			want: `{"type": "object", "properties": {"n": {"type": ["string", "null"]}, "p": {"type": "string"}, "u": {}}, "required": ["p", "u"], "additionalProperties": {}}`,
		},
		{
			name: "zod 4 date has no JSON form",
			in:   `{"def": {"type": "date"}, "type": "date"}`,
			want: `{}`,
			lost: []string{": a"},
		},
		{
			name: "raw shape mixing versions",
			in:   `{"a": {"def": {"type": "string"}, "type": "string"}, "b": {"_def": {"typeName": "ZodBoolean"}, "~standard": {"vendor": "zod"}}}`,
			want: `{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "boolean"}}, "required": ["a", "b"]}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := testenv.JSON(t, tc.in)
			got, lost, ok := FromZod(in)
			if !ok {
				t.Fatal("FromZod did not recognise the value")
			}
			if diff := cmp.Diff(testenv.JSON(t, tc.want), any(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.lost, lossSummary(lost)); diff != "" {
				t.Errorf("losses (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(testenv.JSON(t, tc.in), in); diff != "" {
				t.Errorf("FromZod modified its input:\n%s", diff)
			}
		})
	}
}

func TestDetectZod(t *testing.T) {
	tests := []struct {
		name, in string
		form     ZodForm
		version  int
	}{
		{"zod 3 schema", `{"_def": {"typeName": "ZodString"}, "~standard": {"vendor": "zod", "version": 1}}`, ZodSchema, 3},
		{"zod 3 object with lost shape", `{"_def": {"typeName": "ZodObject"}, "_cached": null}`, ZodSchema, 3},
		{"zod 4 schema", `{"def": {"type": "optional", "innerType": {}}, "type": "optional"}`, ZodSchema, 4},
		{"zod 4 raw shape", `{"a": {"def": {"type": "string"}, "type": "string"}}`, ZodRawShape, 4},
		{"empty object", `{}`, NotZod, 0},
		{"plain schema", `{"type": "object", "properties": {"a": {"type": "string"}}}`, NotZod, 0},
		{"properties named after Zod members", `{"_def": {"type": "string"}, "shape": {"type": "object"}, "~standard": {"type": "string"}, "def": {"type": "string"}}`, NotZod, 0},
		{"typeName not Zod's", `{"_def": {"typeName": "Custom"}}`, NotZod, 0},
		{"another vendor", `{"~standard": {"vendor": "valibot"}}`, NotZod, 0},
		{"def beside JSON Schema keywords", `{"def": {"type": "string"}, "type": "string", "description": "x"}`, NotZod, 0},
		{"def whose type is not mirrored", `{"def": {"type": "string"}, "type": "number"}`, NotZod, 0},
		{"object def without a shape", `{"def": {"type": "object"}, "type": "object"}`, NotZod, 0},
		{"raw shape with one plain member", `{"a": {"def": {"type": "string"}, "type": "string"}, "b": {"type": "string"}}`, NotZod, 0},
		{"not an object", `["_def"]`, NotZod, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			form, ver := DetectZod(testenv.JSON(t, tc.in))
			if form != tc.form || ver != tc.version {
				t.Errorf("DetectZod = %v, %d; want %v, %d", form, ver, tc.form, tc.version)
			}
		})
	}
}

// FuzzFromZod: on any JSON, FromZod does not panic, leaves its input alone
// and returns a schema that compiles.
func FuzzFromZod(f *testing.F) {
	if src, err := os.ReadFile("testdata/zod/fixtures.json"); err == nil {
		var fixtures []json.RawMessage
		if json.Unmarshal(src, &fixtures) == nil {
			for _, fx := range fixtures {
				var one struct{ Leak json.RawMessage }
				if json.Unmarshal(fx, &one) == nil {
					f.Add(string(one.Leak))
				}
			}
		}
	}
	f.Add(`{"_def": {"typeName": "ZodEnum", "values": "x"}}`)
	f.Add(`{"def": {"type": "array", "element": 1, "checks": [7]}, "type": "array"}`)
	f.Fuzz(func(t *testing.T, in string) {
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		before := schema.Clone(v)
		out, _, ok := FromZod(v)
		if diff := cmp.Diff(before, v); diff != "" {
			t.Fatalf("FromZod modified its input:\n%s", diff)
		}
		if !ok {
			return
		}
		if _, err := schema.Compile(out); err != nil {
			t.Fatalf("rebuilt schema does not compile: %v\nin: %s", err, in)
		}
	})
}
