package normalize

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

func TestNumericPattern(t *testing.T) {
	tests := []struct {
		schema  string
		pattern string
		exact   bool
	}{
		{`{"type": "integer"}`, integerPattern, true},
		{`{"type": ["integer", "null"]}`, integerPattern, true},
		{`{"type": "integer", "minimum": 0}`, nonNegativeIntegerPattern, true},
		{`{"type": "integer", "minimum": 1}`, positiveIntegerPattern, true},
		{`{"type": "integer", "minimum": 0.5}`, positiveIntegerPattern, true},
		{`{"type": "integer", "exclusiveMinimum": 0}`, positiveIntegerPattern, true},
		{`{"type": "integer", "exclusiveMinimum": -1}`, nonNegativeIntegerPattern, true},
		{`{"type": "integer", "minimum": 0, "exclusiveMinimum": true}`, positiveIntegerPattern, true},
		{`{"type": "integer", "minimum": 1, "exclusiveMinimum": 0}`, positiveIntegerPattern, true},
		{`{"type": "integer", "minimum": 1, "maximum": 10}`, positiveIntegerPattern, false},
		{`{"type": "integer", "minimum": 5}`, positiveIntegerPattern, false},
		{`{"type": "integer", "minimum": -3}`, integerPattern, false},
		{`{"type": "integer", "multipleOf": 2}`, integerPattern, false},
		{`{"type": "integer", "minimum": "1"}`, integerPattern, false},
		{`{"type": "number"}`, numberPattern, true},
		{`{"type": ["integer", "number"], "minimum": 1}`, positiveNumberPattern, false},
		{`{"type": "number", "minimum": 0}`, nonNegativeNumberPattern, true},
		{`{"type": "number", "exclusiveMinimum": 0}`, positiveNumberPattern, true},
		{`{"type": "number", "minimum": 0, "exclusiveMinimum": true}`, positiveNumberPattern, true},
		{`{"type": "number", "minimum": 0.1}`, positiveNumberPattern, false},
		{`{"type": "number", "minimum": -1}`, numberPattern, false},
		{`{"type": "number", "maximum": 1}`, numberPattern, false},
	}
	for _, tt := range tests {
		p, exact := NumericPattern(testenv.JSON(t, tt.schema).(map[string]any))
		if p != tt.pattern || exact != tt.exact {
			t.Errorf("NumericPattern(%s) = %q, %v; want %q, %v", tt.schema, p, exact, tt.pattern, tt.exact)
		}
	}
}

var allPatterns = []string{
	integerPattern, nonNegativeIntegerPattern, positiveIntegerPattern,
	numberPattern, nonNegativeNumberPattern, positiveNumberPattern,
}

// TestPatternStrings pins down, string by string, what each pattern accepts.
func TestPatternStrings(t *testing.T) {
	inputs := []string{"0", "1", "42", "01", "-1", "-0", "1.5", "0.5", "0.0", "-1.5", "1e3", "1E-3", "0e5",
		"", " 1", "1 ", "1\n", "+1", ".5", "5.", "1.", "0x10", "1_000", "١", "abc", "Infinity", "NaN"}
	want := map[string][]string{
		integerPattern:            {"0", "1", "42", "-1", "-0"},
		nonNegativeIntegerPattern: {"0", "1", "42"},
		positiveIntegerPattern:    {"1", "42"},
		numberPattern:             {"0", "1", "42", "-1", "-0", "1.5", "0.5", "0.0", "-1.5", "1e3", "1E-3", "0e5"},
		nonNegativeNumberPattern:  {"0", "1", "42", "1.5", "0.5", "0.0", "1e3", "1E-3", "0e5"},
		positiveNumberPattern:     {"1", "42", "1.5", "0.5", "1e3", "1E-3"},
	}
	for _, p := range allPatterns {
		re, err := regexp.Compile(p)
		if err != nil {
			t.Fatalf("pattern %q does not compile: %v", p, err)
		}
		var got []string
		for _, in := range inputs {
			if re.MatchString(in) {
				got = append(got, in)
			}
		}
		if diff := cmp.Diff(want[p], got); diff != "" {
			t.Errorf("strings matching %q (-want +got):\n%s", p, diff)
		}
	}
}

// TestPatternSyntax keeps the patterns to syntax ECMA-262 (with or without
// the u and v flags) and RE2 read the same way: classes of letters, digits and
// ranges only (the v flag refuses a bare "-" or "+" in a class), no escapes
// but \. and \+, no shorthand classes (\d is wider under some Unicode-aware
// engines), no lookaround, no flags.
func TestPatternSyntax(t *testing.T) {
	class := regexp.MustCompile(`\[([0-9a-zA-Z]-[0-9a-zA-Z]|[0-9a-zA-Z])+\]`)
	rest := regexp.MustCompile(`^\^([-0-9a-zA-Z()|?*+]|\\[.+]|#)*\$$`)
	for _, p := range allPatterns {
		if !rest.MatchString(class.ReplaceAllString(p, "#")) {
			t.Errorf("pattern %q uses syntax outside the subset ECMA-262 and RE2 share", p)
		}
	}
}

// TestPatternsMatchSchemas checks the exact patterns against the validator:
// a spelling matches the pattern exactly when the numeric schema accepts the
// number it spells.
func TestPatternsMatchSchemas(t *testing.T) {
	spellings := []string{"0", "1", "2", "7", "10", "42", "-1", "-2", "-42",
		"0.0", "0.5", "0.05", "1.5", "2.0", "-0.5", "1e3", "1E-3", "0e5", "0.0e1", "5e-1", "-1e2", "0.000e-3"}
	schemas := []string{
		`{"type": "integer"}`,
		`{"type": "integer", "minimum": 0}`,
		`{"type": "integer", "minimum": 1}`,
		`{"type": "integer", "exclusiveMinimum": 0}`,
		`{"type": "number"}`,
		`{"type": "number", "minimum": 0}`,
		`{"type": "number", "exclusiveMinimum": 0}`,
	}
	for _, src := range schemas {
		s := testenv.JSON(t, src).(map[string]any)
		p, exact := NumericPattern(s)
		if !exact {
			t.Fatalf("%s: pattern %q should be exact", src, p)
		}
		compiled, err := schema.Compile(s)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(p)
		integer := schema.HasType(s, "integer")
		for _, sp := range spellings {
			if integer && strings.ContainsAny(sp, ".eE") {
				// Integers are spelled in digits only, whatever their value.
				if re.MatchString(sp) {
					t.Errorf("%s: %q matches %q", src, p, sp)
				}
				continue
			}
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(sp))
			if err != nil {
				t.Fatal(err)
			}
			accepts := compiled.Validate(v) == nil
			if re.MatchString(sp) != accepts {
				t.Errorf("%s: pattern %q matches %q: %v, but the schema accepts %s: %v", src, p, sp, !accepts, sp, accepts)
			}
		}
	}
}

func TestIntegerTolerant(t *testing.T) {
	tests := []struct {
		name, in string
		opts     TolerantOptions
		want     string
	}{
		{
			name: "seed",
			in:   `{"type": "integer", "minimum": 1, "description": "Current thought number"}`,
			want: `{"description": "Current thought number", "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[1-9][0-9]*$"}]}`,
		},
		{
			name: "anyOf",
			in:   `{"type": "number"}`,
			opts: TolerantOptions{Form: AnyOf},
			want: `{"anyOf": [{"type": "number"}, {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE](\\+|-)?[0-9]+)?$"}]}`,
		},
		{
			name: "keyword placement",
			in: `{"type": ["integer", "null"], "title": "Limit", "description": "d", "default": 10, "examples": [5],
				"deprecated": false, "readOnly": false, "$comment": "c", "x-unit": "rows", "unit": "rows", "example": 3,
				"$defs": {"n": {"type": "integer"}}, "minimum": 0, "maximum": 100, "multipleOf": 5, "format": "int32",
				"nullable": true, "allOf": [{"$ref": "#/properties/limit/$defs/n"}]}`,
			want: `{"title": "Limit", "description": "d", "default": 10, "examples": [5], "deprecated": false, "readOnly": false,
				"$comment": "c", "x-unit": "rows", "unit": "rows", "example": 3, "$defs": {"n": {"type": "integer"}},
				"oneOf": [{"type": ["integer", "null"], "minimum": 0, "maximum": 100, "multipleOf": 5, "format": "int32",
				"nullable": true, "allOf": [{"$ref": "#/properties/limit/$defs/n"}]},
				{"type": "string", "pattern": "^(0|[1-9][0-9]*)$"}]}`,
		},
		{
			name: "existing oneOf moves into the numeric branch",
			in:   `{"type": "integer", "oneOf": [{"minimum": 10}, {"maximum": 0}]}`,
			want: `{"oneOf": [{"type": "integer", "oneOf": [{"minimum": 10}, {"maximum": 0}]}, {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)$"}]}`,
		},
		{name: "string already allowed", in: `{"type": ["integer", "string"]}`, want: `{"type": ["integer", "string"]}`},
		{name: "untyped", in: `{"minimum": 1}`, want: `{"minimum": 1}`},
		{name: "boolean", in: `{"type": "boolean"}`, want: `{"type": "boolean"}`},
		{name: "enum", in: `{"type": "integer", "enum": [1, 2]}`, want: `{"type": "integer", "enum": [1, 2]}`},
		{name: "const", in: `{"type": "number", "const": 1.5}`, want: `{"type": "number", "const": 1.5}`},
		{name: "header", in: `{"type": "integer", "x-mcp-header": "Page"}`, want: `{"type": "integer", "x-mcp-header": "Page"}`},
		{
			name: "already tolerant",
			in:   `{"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)$"}]}`,
			want: `{"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)$"}]}`,
		},
		{name: "boolean schema", in: `true`, want: `true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := schema.Clone(in)
			got := IntegerTolerant(in, tt.opts)
			if diff := cmp.Diff(testenv.JSON(t, tt.want), got); diff != "" {
				t.Errorf("IntegerTolerant (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("IntegerTolerant modified its input:\n%s", diff)
			}
			if m, ok := got.(map[string]any); ok && RejectsNumericStrings(m) {
				t.Errorf("the result still rejects numeric strings")
			}
		})
	}
}

// TestIntegerTolerantWidens validates instances against the schema before and
// after: everything accepted before still is, and the string forms are too.
func TestIntegerTolerantWidens(t *testing.T) {
	tests := []struct {
		schema        string
		newlyAccepted []string
		stillRejected []string
		stillAccepted []string
	}{
		{`{"type": "integer", "minimum": 1}`, []string{`"1"`, `"42"`}, []string{`"0"`, `"01"`, `"-1"`, `"1.5"`, `""`, `" 1"`, `0`, `1.5`, `null`}, []string{`1`, `42`, `1.0`}},
		{`{"type": "integer", "minimum": 0}`, []string{`"0"`, `"7"`}, []string{`"-1"`, `"01"`, `-1`}, []string{`0`}},
		{`{"type": "integer", "maximum": 10}`, []string{`"5"`, `"11"`}, []string{`"1e3"`}, []string{`-5`, `10`}},
		{`{"type": ["number", "null"], "exclusiveMinimum": 0}`, []string{`"0.5"`, `"1e3"`}, []string{`"0"`, `"-1"`, `0`}, []string{`null`, `0.5`}},
	}
	for _, tt := range tests {
		for _, form := range []Form{OneOf, AnyOf} {
			in := testenv.JSON(t, tt.schema)
			before, err := schema.Compile(in)
			if err != nil {
				t.Fatal(err)
			}
			out := IntegerTolerant(in, TolerantOptions{Form: form})
			after, err := schema.Compile(out)
			if err != nil {
				t.Fatalf("%s (%s): rewritten schema does not compile: %v", tt.schema, form, err)
			}
			check := func(inst string, wantBefore, wantAfter bool) {
				v, err := jsonschema.UnmarshalJSON(strings.NewReader(inst))
				if err != nil {
					t.Fatal(err)
				}
				if got := before.Validate(v) == nil; got != wantBefore {
					t.Errorf("%s accepts %s: %v before the rewrite, want %v", tt.schema, inst, got, wantBefore)
				}
				if got := after.Validate(v) == nil; got != wantAfter {
					t.Errorf("%s (%s) accepts %s: %v after the rewrite, want %v", tt.schema, form, inst, got, wantAfter)
				}
			}
			for _, inst := range tt.newlyAccepted {
				check(inst, false, true)
			}
			for _, inst := range tt.stillRejected {
				check(inst, false, false)
			}
			for _, inst := range tt.stillAccepted {
				check(inst, true, true)
			}
		}
	}
}

// FuzzIntegerTolerant: on any schema the rewrite does not panic, leaves its
// input alone, leaves nothing to rewrite, and keeps a compiling schema
// compiling.
func FuzzIntegerTolerant(f *testing.F) {
	for _, s := range []string{
		`{"type": "integer", "minimum": 1, "description": "n"}`,
		`{"type": ["number", "null"], "exclusiveMinimum": 0, "maximum": 5}`,
		`{"type": "integer", "minimum": 0, "exclusiveMinimum": true, "$schema": "http://json-schema.org/draft-04/schema#"}`,
		`{"type": "integer", "oneOf": [{"minimum": 1}], "$defs": {"a": {}}, "x-a": 1}`,
		`{"type": "number", "minimum": "x"}`,
		`{"type": "boolean"}`,
		`true`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d := json.NewDecoder(strings.NewReader(src))
		d.UseNumber()
		var in any
		if d.Decode(&in) != nil {
			return
		}
		before := schema.Clone(in)
		for _, form := range []Form{OneOf, AnyOf} {
			out := IntegerTolerant(in, TolerantOptions{Form: form})
			if diff := cmp.Diff(before, in); diff != "" {
				t.Fatalf("input modified:\n%s", diff)
			}
			if RejectsNumericStrings(out) {
				t.Fatalf("result still rejects numeric strings: %v", out)
			}
			if _, err := schema.Compile(in); err == nil {
				if _, err := schema.Compile(out); err != nil {
					t.Fatalf("%s compiles but its rewrite does not: %v", src, err)
				}
			}
		}
	})
}
