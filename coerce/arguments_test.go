package coerce

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/decimaltest"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// tolerant is the schema integer-accepts-string's fix writes for
// {"type": "integer", "minimum": 1}.
const tolerant = `{"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[1-9][0-9]*$"}]}`

func object(props string) string {
	return `{"type": "object", "properties": {` + props + `}}`
}

func TestArguments(t *testing.T) {
	tests := []struct {
		name, schema, args string
		want               string // "" when args must come back unchanged
	}{
		{name: "seed", schema: object(`"thoughtNumber": ` + tolerant), args: `{"thoughtNumber": "5"}`, want: `{"thoughtNumber":5}`},
		{name: "number already", schema: object(`"n": ` + tolerant), args: `{"n": 5}`},
		{name: "plain integer is left to validation", schema: object(`"n": {"type": "integer"}`), args: `{"n": "5"}`},
		{name: "string without pattern", schema: object(`"n": {"oneOf": [{"type": "integer"}, {"type": "string"}]}`), args: `{"n": "5"}`},
		{name: "three branches", schema: object(`"n": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}, {"type": "null"}]}`), args: `{"n": "5"}`},
		{name: "string parameter", schema: object(`"n": ` + tolerant + `, "s": {"type": "string"}`), args: `{"n": "2", "s": "5"}`, want: `{"n":2,"s":"5"}`},
		{
			name:   "anyOf number with exponent",
			schema: object(`"x": {"anyOf": [{"type": "number"}, {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE](\\+|-)?[0-9]+)?$"}]}`),
			args:   `{"x": "-1.5e3"}`, want: `{"x":-1.5e3}`,
		},
		{
			name:   "nullable numeric branch",
			schema: object(`"x": {"oneOf": [{"type": ["integer", "null"]}, {"type": "string", "pattern": "^-?(0|[1-9][0-9]*)$"}]}`),
			args:   `{"x": "-3"}`, want: `{"x":-3}`,
		},
		{
			name:   "digits are kept",
			schema: object(`"x": {"oneOf": [{"type": "number"}, {"type": "string", "pattern": "^[0-9.]+$"}]}`),
			args:   `{"x": "1.50"}`, want: `{"x":1.50}`,
		},
		{
			name:   "an integer past 2^53-1 stays",
			schema: object(`"id": {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9]+$"}]}`),
			args:   `{"id": "123456789012345678901234567890"}`,
		},
		{name: "nested object", schema: object(`"options": ` + object(`"limit": `+tolerant)), args: `{"options": {"limit": "10"}}`, want: `{"options":{"limit":10}}`},
		{name: "array items", schema: object(`"ids": {"type": "array", "items": ` + tolerant + `}`), args: `{"ids": ["1", 2, "3"]}`, want: `{"ids":[1,2,3]}`},
		{
			name:   "prefixItems then items",
			schema: object(`"pair": {"type": "array", "prefixItems": [{"type": "string"}], "items": ` + tolerant + `}`),
			args:   `{"pair": ["7", "7"]}`, want: `{"pair":["7",7]}`,
		},
		{
			name:   "draft tuple and additionalItems",
			schema: object(`"pair": {"type": "array", "items": [` + tolerant + `], "additionalItems": {"type": "string"}}`),
			args:   `{"pair": ["7", "7"]}`, want: `{"pair":[7,"7"]}`,
		},
		{name: "map values", schema: object(`"weights": {"type": "object", "additionalProperties": ` + tolerant + `}`), args: `{"weights": {"a": "4"}}`, want: `{"weights":{"a":4}}`},
		{
			name:   "patternProperties before additionalProperties",
			schema: object(`"m": {"type": "object", "patternProperties": {"^n_": ` + tolerant + `}, "additionalProperties": {"type": "string"}}`),
			args:   `{"m": {"n_a": "4", "s": "4"}}`, want: `{"m":{"n_a":4,"s":"4"}}`,
		},
		{
			name:   "local $ref",
			schema: `{"type": "object", "$defs": {"count": ` + tolerant + `}, "properties": {"n": {"$ref": "#/$defs/count"}}}`,
			args:   `{"n": "8"}`, want: `{"n":8}`,
		},
		{name: "a $ref that loops", schema: `{"type": "object", "properties": {"n": {"$ref": "#/properties/n"}}}`, args: `{"n": "8"}`},
		{name: "pattern Go cannot read", schema: object(`"n": {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^(?=[0-9])[0-9]+$"}]}`), args: `{"n": "8"}`},
		{name: "matches but is no number", schema: object(`"n": {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9a-z]+$"}]}`), args: `{"n": "abc"}`},
		{name: "integer keeps a fraction as a string", schema: object(`"n": {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": "^[0-9.]+$"}]}`), args: `{"n": "1.5"}`},
		{name: "unknown argument", schema: object(`"n": ` + tolerant), args: `{"m": "5"}`},
		{name: "not JSON", schema: object(`"n": ` + tolerant), args: `{"n": "5"`},
		{name: "data after the object", schema: object(`"n": ` + tolerant), args: `{"n": "5"}0`},
		{name: "a second object", schema: object(`"n": ` + tolerant), args: `{"n": "5"} {"n": "6"}`},
		{name: "no arguments", schema: object(`"n": ` + tolerant), args: ``},
		{name: "html is not escaped", schema: object(`"n": ` + tolerant), args: `{"n": "5", "q": "<a&b>"}`, want: `{"n":5,"q":"<a&b>"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Arguments(json.RawMessage(tt.schema), json.RawMessage(tt.args))
			if err != nil {
				t.Fatalf("Arguments: %v", err)
			}
			want := tt.want
			if want == "" {
				want = tt.args
			}
			if string(got) != want {
				t.Errorf("Arguments(%s) = %s, want %s", tt.args, got, want)
			}
		})
	}
}

func TestArgumentsRefuses(t *testing.T) {
	tests := []struct {
		name, schema, args string
		want               []Problem
	}{
		{
			name: "not digits", schema: object(`"count": ` + tolerant), args: `{"count": "five"}`,
			want: []Problem{{Argument: "count", Value: "five", Integer: true, Pattern: "^[1-9][0-9]*$"}},
		},
		{
			name: "below the pattern's bound", schema: object(`"count": ` + tolerant), args: `{"count": "0"}`,
			want: []Problem{{Argument: "count", Value: "0", Integer: true, Pattern: "^[1-9][0-9]*$"}},
		},
		{
			name:   "every one is named",
			schema: object(`"a": ` + tolerant + `, "o": ` + object(`"ids": {"type": "array", "items": `+tolerant+`}`)),
			args:   `{"a": " 1", "o": {"ids": ["2", "x"]}}`,
			want: []Problem{
				{Argument: "a", Value: " 1", Integer: true, Pattern: "^[1-9][0-9]*$"},
				{Argument: "o.ids[1]", Value: "x", Integer: true, Pattern: "^[1-9][0-9]*$"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Arguments(json.RawMessage(tt.schema), json.RawMessage(tt.args))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Arguments(%s) = %s, %v; want an *Error", tt.args, got, err)
			}
			if string(got) != tt.args {
				t.Errorf("refused arguments came back as %s", got)
			}
			if len(e.Problems) != len(tt.want) {
				t.Fatalf("problems %+v, want %+v", e.Problems, tt.want)
			}
			for i := range tt.want {
				if e.Problems[i] != tt.want[i] {
					t.Errorf("problem %d: %+v, want %+v", i, e.Problems[i], tt.want[i])
				}
			}
		})
	}
	_, err := Arguments(json.RawMessage(object(`"count": `+tolerant)), json.RawMessage(`{"count": "five"}`))
	const want = `invalid arguments: argument "count" must be an integer or its decimal string (matching ^[1-9][0-9]*$); got "five"`
	if err == nil || err.Error() != want {
		t.Errorf("message %v, want %s", err, want)
	}
}

// TestDecimal runs the table of decimal strings through Decimal and
// Arguments; the proxy and Middleware run the same table.
func TestDecimal(t *testing.T) {
	for _, c := range decimaltest.Cases {
		got, ok := Decimal(c.In, c.Integer)
		if ok != (c.Want != "") || string(got) != c.Want {
			t.Errorf("Decimal(%q, integer %v) = %q, %v; want %q (%s)", c.In, c.Integer, got, ok, c.Want, c.Why)
		}
		numeric := "number"
		if c.Integer {
			numeric = "integer"
		}
		s := object(`"n": {"anyOf": [{"type": "` + numeric + `"}, {"type": "string", "pattern": "^.*$"}]}`)
		args, _ := json.Marshal(map[string]string{"n": c.In})
		want := string(args)
		if c.Want != "" {
			want = `{"n":` + c.Want + `}`
		}
		out, err := Arguments(json.RawMessage(s), args)
		if err != nil || string(out) != want {
			t.Errorf("Arguments(%s) for an %s = %s, %v; want %s (%s)", args, numeric, out, err, want, c.Why)
		}
	}
}

// TestDecimalLongInteger: a string of digits too long to be within
// 2^53-1 stays a string.
func TestDecimalLongInteger(t *testing.T) {
	s := strings.Repeat("9", 1<<18)
	if n, ok := Decimal(s, true); ok {
		t.Fatalf("Decimal(%d nines) = %.20s…, want it to stay a string", len(s), n)
	}
}

// BenchmarkDecimalLongInteger: such a string is refused by its length, not
// handed to ParseInt, whose error copies the whole string (a model can
// send megabytes of digits): a call allocates far less than the string.
func BenchmarkDecimalLongInteger(b *testing.B) {
	s := strings.Repeat("9", 1<<18)
	b.ReportAllocs()
	for b.Loop() {
		Decimal(s, true)
	}
}

// TestArgumentsFollowsTheFix converts through the schemas normalize writes
// (integer-accepts-string's fix) and checks that a string the widened schema
// accepts is converted, into a value valid for the parameter as it was
// before the fix when the fix's pattern is exact, and that what is refused
// was invalid for the widened schema too.
func TestArgumentsFollowsTheFix(t *testing.T) {
	params := []string{
		`{"type": "integer"}`,
		`{"type": "integer", "minimum": 0}`,
		`{"type": "integer", "minimum": 1, "maximum": 10}`,
		`{"type": "number"}`,
		`{"type": "number", "exclusiveMinimum": 0}`,
		`{"type": ["integer", "null"]}`,
	}
	values := []string{"0", "1", "7", "-3", "10", "11", "1.5", "-0.25", "1e3", "01", "abc", "", "1 ", "+1"}
	for _, p := range params {
		var before any
		if err := json.Unmarshal([]byte(p), &before); err != nil {
			t.Fatal(err)
		}
		for _, f := range []normalize.Form{normalize.OneOf, normalize.AnyOf} {
			after := normalize.IntegerTolerant(before, normalize.TolerantOptions{Form: f})
			root := map[string]any{"type": "object", "properties": map[string]any{"n": after}}
			widened, err := schema.Compile(root)
			if err != nil {
				t.Fatal(err)
			}
			original, err := schema.Compile(map[string]any{"type": "object", "properties": map[string]any{"n": before}})
			if err != nil {
				t.Fatal(err)
			}
			_, exact := normalize.NumericPattern(before.(map[string]any))
			for _, v := range values {
				args, _ := json.Marshal(map[string]string{"n": v})
				got, err := Arguments(root, args)
				widenedAccepts := validates(t, widened, args)
				if err != nil {
					if widenedAccepts {
						t.Errorf("%s (%s): %q refused, but the widened schema accepts it: %v", p, f, v, err)
					}
					continue
				}
				if exact && !strings.Contains(string(got), `"n":"`) && !validates(t, original, got) {
					t.Errorf("%s (%s): %q became %s, which the original schema refuses", p, f, v, got)
				}
				if widenedAccepts && strings.Contains(string(got), `"n":"`) && v != "" {
					t.Errorf("%s (%s): %q was accepted by the widened schema but not converted", p, f, v)
				}
			}
		}
	}
}

func validates(t *testing.T, s interface{ Validate(any) error }, doc []byte) bool {
	t.Helper()
	var v any
	if err := decodeNumbers(doc, &v); err != nil {
		t.Fatal(err)
	}
	return s.Validate(v) == nil
}

func TestStringForm(t *testing.T) {
	tests := []struct {
		schema  string
		integer bool
		pattern string
		ok      bool
	}{
		{tolerant, true, "^[1-9][0-9]*$", true},
		{`{"anyOf": [{"type": "string", "pattern": "^x$"}, {"type": ["number", "null"]}]}`, false, "^x$", true},
		{`{"oneOf": [{"type": ["integer", "string"]}, {"type": "string", "pattern": "^x$"}]}`, false, "", false},
		{`{"oneOf": [{"type": "boolean"}, {"type": "string", "pattern": "^x$"}]}`, false, "", false},
		{`{"oneOf": [{"type": "integer"}, {"type": "string"}]}`, false, "", false},
		{`{"type": "integer"}`, false, "", false},
		{`true`, false, "", false},
	}
	for _, tt := range tests {
		var s any
		if err := json.Unmarshal([]byte(tt.schema), &s); err != nil {
			t.Fatal(err)
		}
		integer, pattern, ok := StringForm(s)
		if integer != tt.integer || pattern != tt.pattern || ok != tt.ok {
			t.Errorf("StringForm(%s) = %v, %q, %v; want %v, %q, %v", tt.schema, integer, pattern, ok, tt.integer, tt.pattern, tt.ok)
		}
	}
}
