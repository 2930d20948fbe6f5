package breaking

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

func load(t *testing.T, name, src string) *manifest.Manifest {
	t.Helper()
	m, err := manifest.Load(name, []byte(src))
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return m
}

// tools wraps tool objects in a tools/list result.
func tools(ts ...string) string { return `{"tools": [` + strings.Join(ts, ",\n") + `]}` }

// in builds a tool with an input schema.
func in(name, schema string) string {
	return fmt.Sprintf(`{"name": %q, "inputSchema": %s}`, name, schema)
}

// summary renders findings as "rule old|new pointer" lines.
func summary(r *Report) []string {
	var out []string
	for _, side := range []struct {
		name string
		ds   []lint.Diagnostic
	}{{"new", r.New}, {"old", r.Old}} {
		for _, d := range side.ds {
			out = append(out, fmt.Sprintf("%s %s %s", d.Rule, side.name, d.Pointer))
		}
	}
	return out
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		{
			name: "identical with reordered keys is no change",
			old:  tools(in("a", `{"type": "object", "properties": {"x": {"type": "string", "maxLength": 3}}, "required": ["x"]}`)),
			new:  tools(in("a", `{"required": ["x"], "properties": {"x": {"maxLength": 3, "type": "string"}}, "type": "object"}`)),
		},
		{
			name: "inlined versus $ref is no change",
			old:  tools(in("a", `{"type": "object", "properties": {"p": {"type": "object", "properties": {"q": {"type": "integer"}}}}}`)),
			new:  tools(in("a", `{"type": "object", "$defs": {"P": {"type": "object", "properties": {"q": {"type": "integer"}}}}, "properties": {"p": {"$ref": "#/$defs/P"}}}`)),
		},
		{
			name: "numeric string rewrite is no change, either way",
			old:  tools(in("a", `{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "description": "count"}}}`)),
			new:  tools(in("a", `{"type": "object", "properties": {"n": {"description": "count", "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[1-9]\\d*$"}]}}}`)),
		},
		{
			name: "numeric string rewrite does not hide a tightened bound",
			old:  tools(in("a", `{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}`)),
			new:  tools(in("a", `{"type": "object", "properties": {"n": {"anyOf": [{"type": "integer", "minimum": 2}, {"type": "string", "pattern": "^[0-9]+$"}]}}}`)),
			want: []string{"bound-tightened new /tools/0/inputSchema/properties/n/anyOf/0/minimum"},
		},
		{
			name: "tool removed, added, renamed",
			old:  tools(in("gone", `{"type": "object", "properties": {"g": {"type": "string"}}}`), in("old_name", `{"type": "object", "properties": {"r": {"type": "string"}}}`)),
			new:  tools(in("new_name", `{"properties": {"r": {"type": "string", "description": "d"}}, "type": "object"}`), in("fresh", `{"type": "object"}`)),
			want: []string{
				"tool-renamed new /tools/0/name",
				"tool-added new /tools/1/name",
				"tool-removed old /tools/0/name",
			},
		},
		{
			name: "properties removed, required, added",
			old:  tools(in("a", `{"type": "object", "properties": {"keep": {"type": "string"}, "drop": {"type": "string"}, "req": {"type": "string"}, "was": {"type": "string"}}, "required": ["was"]}`)),
			new:  tools(in("a", `{"type": "object", "properties": {"keep": {"type": "string"}, "req": {"type": "string"}, "was": {"type": "string"}, "opt": {"type": "string"}, "must": {"type": "string"}}, "required": ["req", "must"]}`)),
			want: []string{
				"constraint-relaxed new /tools/0/inputSchema",
				"optional-property-added new /tools/0/inputSchema/properties/opt",
				"required-property-added new /tools/0/inputSchema/properties/must",
				"property-became-required new /tools/0/inputSchema/required/0",
				"property-removed old /tools/0/inputSchema/properties/drop",
			},
		},
		{
			name: "additionalProperties tightened",
			old:  tools(in("a", `{"type": "object"}`)),
			new:  tools(in("a", `{"type": "object", "additionalProperties": false}`)),
			want: []string{"additional-properties-tightened new /tools/0/inputSchema/additionalProperties"},
		},
		{
			name: "types narrowed and widened",
			old:  tools(in("a", `{"type": "object", "properties": {"u": {"type": ["string", "number"]}, "n": {"type": "number"}, "i": {"type": "integer"}, "f": {}}}`)),
			new:  tools(in("a", `{"type": "object", "properties": {"u": {"type": "string"}, "n": {"type": "integer"}, "i": {"type": "number"}, "f": {"type": "string"}}}`)),
			want: []string{
				"type-narrowed new /tools/0/inputSchema/properties/u/type",
				"type-narrowed new /tools/0/inputSchema/properties/n/type",
				"constraint-relaxed new /tools/0/inputSchema/properties/i/type",
				"type-narrowed new /tools/0/inputSchema/properties/f/type",
			},
		},
		{
			name: "enum, const, bounds, format",
			old:  tools(in("a", `{"type": "object", "properties": {"e": {"enum": ["x", "y"]}, "c": {"const": 1}, "s": {"type": "string", "maxLength": 10, "pattern": "^a"}, "m": {"type": "integer", "minimum": 0, "maximum": 9}, "d": {"type": "string"}}}`)),
			new:  tools(in("a", `{"type": "object", "properties": {"e": {"enum": ["x", "z"]}, "c": {"const": 2}, "s": {"type": "string", "maxLength": 5, "pattern": "^b"}, "m": {"type": "integer", "minimum": -1, "maximum": 9}, "d": {"type": "string", "format": "date"}}}`)),
			want: []string{
				"enum-value-removed new /tools/0/inputSchema/properties/e/enum",
				"constraint-relaxed new /tools/0/inputSchema/properties/e/enum",
				"const-changed new /tools/0/inputSchema/properties/c/const",
				"bound-tightened new /tools/0/inputSchema/properties/s/maxLength",
				"bound-tightened new /tools/0/inputSchema/properties/s/pattern",
				"constraint-relaxed new /tools/0/inputSchema/properties/m/minimum",
				"format-added new /tools/0/inputSchema/properties/d/format",
			},
		},
		{
			name: "output direction",
			old:  tools(`{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"t": {"type": "integer"}, "k": {"type": "string", "enum": ["x"]}, "r": {"type": "string"}, "gone": {"type": "string"}}, "required": ["r"]}}`),
			new:  tools(`{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "properties": {"t": {"type": ["integer", "null"]}, "k": {"type": "string", "enum": ["x", "y"]}, "r": {"type": "string"}, "added": {"type": "string", "maxLength": 1}}}}`),
			want: []string{
				"output-type-widened new /tools/0/outputSchema/properties/t/type",
				"output-type-widened new /tools/0/outputSchema/properties/k/enum",
				"output-property-removed new /tools/0/outputSchema/properties/r",
				"output-property-removed old /tools/0/outputSchema/properties/gone",
			},
		},
		{
			name: "output schema removed",
			old:  tools(`{"name": "a", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}`),
			new:  tools(in("a", `{"type": "object"}`)),
			want: []string{"output-schema-removed old /tools/0/outputSchema"},
		},
		{
			name: "annotations",
			old:  tools(`{"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}`, `{"name": "b", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false, "destructiveHint": false}}`),
			new:  tools(`{"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false, "destructiveHint": false}}`, `{"name": "b", "inputSchema": {"type": "object"}}`),
			want: []string{
				"annotation-safety-lowered new /tools/0/annotations/readOnlyHint",
				"annotation-safety-lowered new /tools/1",
			},
		},
		{
			name: "description changes and unclassified keywords",
			old:  tools(`{"name": "a", "description": "old", "inputSchema": {"type": "object", "properties": {"p": {"type": "string", "description": "x"}}, "allOf": [{"required": ["p"]}]}}`),
			new:  tools(`{"name": "a", "description": "new", "inputSchema": {"type": "object", "properties": {"p": {"type": "string", "description": "y"}}, "allOf": [{"required": []}]}}`),
			want: []string{
				"description-changed new /tools/0/description",
				"description-changed new /tools/0/inputSchema/properties/p/description",
				"schema-changed new /tools/0/inputSchema/allOf",
			},
		},
		{
			name: "recursive schemas end",
			old:  tools(in("a", `{"type": "object", "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}, "v": {"type": "number"}}}}, "properties": {"head": {"$ref": "#/$defs/n"}}}`)),
			new:  tools(in("a", `{"type": "object", "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}, "v": {"type": "integer"}}}}, "properties": {"head": {"$ref": "#/$defs/n"}}}`)),
			want: []string{"type-narrowed new /tools/0/inputSchema/$defs/n/properties/v/type"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Compare(load(t, "old.json", tc.old), load(t, "new.json", tc.new), lint.Config{})
			if err != nil {
				t.Fatal(err)
			}
			got := summary(rep)
			// Sort is by position; compare as sets in a stable order.
			if diff := cmp.Diff(sorted(tc.want), sorted(got)); diff != "" {
				t.Errorf("findings (-want +got):\n%s\nmessages:\n%s", diff, messages(rep))
			}
		})
	}
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func messages(r *Report) string {
	var b strings.Builder
	for _, d := range r.All() {
		fmt.Fprintf(&b, "  %s: %s\n", d.Rule, d.Message)
	}
	return b.String()
}

func TestCompareSelection(t *testing.T) {
	old := load(t, "old.json", tools(in("a", `{"type": "object"}`)))
	new := load(t, "new.json", tools(in("a", `{"type": "object"}`), in("b", `{"type": "object"}`)))
	rep, err := Compare(old, new, lint.Config{Ignore: []string{NonBreakingPack}})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(rep); len(got) != 0 {
		t.Errorf("--ignore non-breaking kept %v", got)
	}
	rep, err = Compare(old, new, lint.Config{Severity: map[string]lint.Severity{"tool-added": lint.Error}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.New) != 1 || rep.New[0].Severity != lint.Error {
		t.Errorf("severity override: got %+v", rep.New)
	}
	if _, err := Compare(old, new, lint.Config{Select: []string{"no-such-rule"}}); err == nil {
		t.Error("unknown rule accepted")
	}
}

// TestRulesDocumented keeps the catalogue complete: every rule has a doc
// with an example and a source, and the IDs are unique.
func TestRulesDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		if seen[r.ID] {
			t.Errorf("rule %s listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Summary == "" || !strings.Contains(r.Doc, "Source:") || !strings.Contains(r.Doc, "\n    ") {
			t.Errorf("rule %s: summary, an indented example and a Source: line are required", r.ID)
		}
		if r.Check != nil || r.CheckList != nil || !r.InPack(Pack) {
			t.Errorf("rule %s: breaking rules have no Check and are in pack %q", r.ID, Pack)
		}
	}
}
