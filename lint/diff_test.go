package lint_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

func TestDiff(t *testing.T) {
	type E = manifest.Edit
	for _, tc := range []struct {
		name     string
		old, new string
		want     []E
	}{
		{"equal", `{"a":[1,{"b":2}]}`, `{"a":[1,{"b":2}]}`, nil},
		{"equal numbers spelled differently", `{"a":1.0,"b":1e2}`, `{"a":1,"b":100}`, nil},
		{"scalar", `"a"`, `"b"`, []E{{Op: manifest.Replace, Pointer: "/x", Value: "b"}}},
		{"type change", `{"a":1}`, `[1]`, []E{{Op: manifest.Replace, Pointer: "/x", Value: []any{json.Number("1")}}}},
		{"member changed", `{"a":1,"b":2}`, `{"a":1,"b":3}`, []E{{Op: manifest.Replace, Pointer: "/x/b", Value: json.Number("3")}}},
		{"members removed in key order", `{"c":1,"a":1,"b":2}`, `{"b":2}`, []E{
			{Op: manifest.Remove, Pointer: "/x/a"}, {Op: manifest.Remove, Pointer: "/x/c"},
		}},
		{"members added in schema order", `{"z":1}`, `{"z":1,"y":2,"type":"object","description":"d"}`, []E{
			{Op: manifest.Add, Pointer: "/x/description", Value: "d"},
			{Op: manifest.Add, Pointer: "/x/type", Value: "object"},
			{Op: manifest.Add, Pointer: "/x/y", Value: json.Number("2")},
		}},
		{"removes, then changes, then adds", `{"a":1,"b":{"c":1},"d":1}`, `{"b":{"c":2},"d":1,"e":1}`, []E{
			{Op: manifest.Remove, Pointer: "/x/a"},
			{Op: manifest.Replace, Pointer: "/x/b/c", Value: json.Number("2")},
			{Op: manifest.Add, Pointer: "/x/e", Value: json.Number("1")},
		}},
		{"keys that need escaping", `{"a/b":1,"m~n":{"x":1,"y":2}}`, `{"a/b":2,"m~n":{"y":2}}`, []E{
			{Op: manifest.Replace, Pointer: "/x/a~1b", Value: json.Number("2")},
			{Op: manifest.Remove, Pointer: "/x/m~0n/x"},
		}},
		{"no surviving member replaces the object", `{"a":1,"b":2}`, `{"c":3}`, []E{
			{Op: manifest.Replace, Pointer: "/x", Value: map[string]any{"c": json.Number("3")}},
		}},
		{"an object emptied", `{"a":1}`, `{}`, []E{{Op: manifest.Replace, Pointer: "/x", Value: map[string]any{}}}},
		{"an empty object filled", `{}`, `{"type":"object","properties":{}}`, []E{
			{Op: manifest.Add, Pointer: "/x/type", Value: "object"},
			{Op: manifest.Add, Pointer: "/x/properties", Value: map[string]any{}},
		}},
		{"array elements", `[1,{"a":1},3]`, `[1,{"a":2},4]`, []E{
			{Op: manifest.Replace, Pointer: "/x/1/a", Value: json.Number("2")},
			{Op: manifest.Replace, Pointer: "/x/2", Value: json.Number("4")},
		}},
		{"array length change replaces the array", `[1,2]`, `[1,2,3]`, []E{
			{Op: manifest.Replace, Pointer: "/x", Value: []any{json.Number("1"), json.Number("2"), json.Number("3")}},
		}},
		{"null and missing differ", `{"a":null}`, `{}`, []E{{Op: manifest.Replace, Pointer: "/x", Value: map[string]any{}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := lint.Diff("/x", testenv.JSON(t, tc.old), testenv.JSON(t, tc.new))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Diff (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDiffApplied turns schemas into others through Diff and Apply: the
// result decodes to the new value and every member Diff did not touch keeps
// its bytes and its place.
func TestDiffApplied(t *testing.T) {
	src := `{
  "name": "t",
  "inputSchema": {
    "type": "object",
    "description": "Keeps   its    spacing",
    "properties": {
      "b": {"type": "integer", "minimum": 1.0},
      "a": {"type": "string"},
      "z": {}
    },
    "required": ["b", "a"],
    "additionalProperties": {}
  }
}`
	m, err := manifest.Load("d.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	old, err := m.Tools[0].Value()
	if err != nil {
		t.Fatal(err)
	}
	newSchema := testenv.JSON(t, `{
		"type": "object",
		"description": "Keeps   its    spacing",
		"properties": {
			"b": {"type": ["integer", "string"], "minimum": 1, "pattern": "^[0-9]+$"},
			"a": {"type": "string"},
			"z": {"type": "object", "properties": {}}
		},
		"required": ["b"],
		"additionalProperties": false
	}`)
	edits := lint.Diff("/inputSchema", old.(map[string]any)["inputSchema"], newSchema)
	var tes []manifest.ToolEdit
	for _, e := range edits {
		tes = append(tes, manifest.ToolEdit{Tool: m.Tools[0], Edit: e})
	}
	out, skipped, err := m.Apply(tes)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range skipped {
		if s {
			t.Errorf("edit %v skipped", edits[i])
		}
	}
	want := `{
  "name": "t",
  "inputSchema": {
    "type": "object",
    "description": "Keeps   its    spacing",
    "properties": {
      "b": {"type": ["integer", "string"], "minimum": 1.0, "pattern": "^[0-9]+$"},
      "a": {"type": "string"},
      "z": {"type": "object", "properties": {}}
    },
    "required": ["b"],
    "additionalProperties": false
  }
}`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	m2, err := manifest.Load("d.json", out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m2.Tools[0].Value()
	if err != nil {
		t.Fatal(err)
	}
	if !lint.Equal(got.(map[string]any)["inputSchema"], newSchema) {
		t.Errorf("applied Diff gives %v", got)
	}
}

func TestEqual(t *testing.T) {
	n := func(s string) json.Number { return json.Number(s) }
	// An object or array is equal to itself without being read: NaN, which
	// no decoded JSON holds and which equals nothing, shows that it was not.
	nan := map[string]any{"x": math.NaN()}
	nans := []any{math.NaN()}
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{nil, nil, true},
		{n("1"), n("1.0"), true},
		{n("100"), n("1e2"), true},
		{n("1"), float64(1), true},
		{n("1"), 1, true},
		{int64(7), n("7"), true},
		{n("0.1"), n("0.10"), true},
		{n("1"), n("2"), false},
		{n("1"), "1", false},
		{n("9007199254740993"), n("9007199254740992"), false},
		{n("9007199254740993"), n("9007199254740993.0"), true},
		{n("0.1"), n("0.1000000000000000055511151231257827"), false},
		{n("1e400"), n("1e400"), true},
		{n("1e999999999"), n("1e999999999"), true},
		{true, true, true},
		{true, false, false},
		{"a", "a", true},
		{nil, map[string]any{}, false},
		{[]any{n("1"), "a"}, []any{float64(1), "a"}, true},
		{[]any{"a", "b"}, []any{"b", "a"}, false},
		{[]any{}, map[string]any{}, false},
		{map[string]any{"a": nil}, map[string]any{"b": nil}, false},
		{map[string]any{"a": nil}, map[string]any{}, false},
		{map[string]any{"a": map[string]any{"b": n("2.50")}}, map[string]any{"a": map[string]any{"b": 2.5}}, true},
		{nan, nan, true},
		{nans, nans, true},
		{nan, map[string]any{"x": math.NaN()}, false},
		{nans, []any{math.NaN()}, false},
		{map[string]any{"s": nan}, map[string]any{"s": nan}, true},
	} {
		if got := lint.Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v", tc.a, tc.b, got)
		}
		if got := lint.Equal(tc.b, tc.a); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v (reversed)", tc.b, tc.a, got)
		}
	}
}
