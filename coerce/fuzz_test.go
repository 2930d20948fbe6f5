package coerce

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzArguments: whatever the schema and the arguments, Arguments returns
// the arguments unchanged, JSON that holds as many members, or an *Error;
// it never panics.
func FuzzArguments(f *testing.F) {
	f.Add(object(`"n": `+tolerant), `{"n": "5"}`)
	f.Add(object(`"ids": {"type": "array", "items": `+tolerant+`}`), `{"ids": ["1", "x", 2]}`)
	f.Add(`{"type": "object", "$defs": {"c": `+tolerant+`}, "properties": {"n": {"$ref": "#/$defs/c"}}}`, `{"n": "0"}`)
	f.Add(`{"properties": {"n": {"anyOf": [{"type": "number"}, {"type": "string", "pattern": "^[0-9.eE+-]+$"}]}}}`, `{"n": "-.5e+3"}`)
	f.Add(`true`, `[]`)
	f.Fuzz(func(t *testing.T, schema, args string) {
		got, err := Arguments(json.RawMessage(schema), json.RawMessage(args))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if string(got) == args {
			return
		}
		var before, after any
		if json.Unmarshal([]byte(args), &before) != nil || json.Unmarshal(got, &after) != nil {
			t.Fatalf("changed arguments %q into %q, not JSON", args, got)
		}
		b, _ := before.(map[string]any)
		a, _ := after.(map[string]any)
		if len(a) != len(b) {
			t.Fatalf("%s became %s: members lost or added", args, got)
		}
	})
}
