package convert

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/internal/jscode"
	"github.com/mcpfit/mcplint/schema"
)

// values is the expression of enum and const, exact for every JSON value.
func (e *zodEmitter) values(s map[string]any, ptr string) (string, bool) {
	var vals []any
	has := false
	if c, ok := s["const"]; ok {
		vals, has = []any{c}, true
	}
	if en, ok := s["enum"].([]any); ok {
		if has {
			var both []any
			for _, v := range en {
				if schema.Equal(v, vals[0]) {
					both = append(both, v)
				}
			}
			vals = both
		} else {
			vals, has = en, true
		}
	}
	if !has {
		return "", false
	}
	types := zodTypeSet(s)
	var kept []any
	seen := schema.NewSet() // an enum of 100,000 values was compared pair by pair
	for _, v := range vals {
		if types == nil || types[zodKind(v)] || (zodKind(v) == "integer" && types["number"]) {
			if seen.Add(v) {
				kept = append(kept, v)
			}
		}
	}
	if len(kept) == 0 {
		return "z.never()", true
	}
	allStrings := len(kept) > 1
	for _, v := range kept {
		_, isStr := v.(string)
		allStrings = allStrings && isStr
	}
	if allStrings {
		var lits []string
		for _, v := range kept {
			lits = append(lits, zodJSON(v))
		}
		return "z.enum([" + strings.Join(lits, ", ") + "])", true
	}
	var opts []string
	for _, v := range kept {
		opts = append(opts, e.literal(v))
	}
	if len(opts) == 1 {
		return opts[0], true
	}
	return "z.union([" + strings.Join(opts, ", ") + "])", true
}

// literal is the schema that accepts exactly the JSON value v.
func (e *zodEmitter) literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "z.null()"
	case []any:
		if len(x) == 0 {
			return "z.tuple([])"
		}
		var items []string
		for _, it := range x {
			items = append(items, e.literal(it))
		}
		return "z.tuple([" + strings.Join(items, ", ") + "])"
	case map[string]any:
		var fields []string
		for _, k := range slices.Sorted(maps.Keys(x)) {
			fields = append(fields, zodKey(k)+": "+e.literal(x[k]))
		}
		return e.objectWith("{ "+strings.Join(fields, ", ")+" }", "strict", "")
	}
	return "z.literal(" + zodJSON(v) + ")"
}

// objectWith wraps a shape literal in an object schema of the given mode:
// "strict", "loose" or "catchall" (with its schema).
func (e *zodEmitter) objectWith(shape, mode, catchall string) string {
	switch {
	case mode == "catchall":
		return "z.object(" + shape + ").catchall(" + catchall + ")"
	case e.v4() && mode == "strict":
		return "z.strictObject(" + shape + ")"
	case e.v4():
		return "z.looseObject(" + shape + ")"
	case mode == "strict":
		return "z.object(" + shape + ").strict()"
	}
	return "z.object(" + shape + ").passthrough()"
}

// zodKind is the JSON Schema type of a decoded value ("integer" for a
// number without fraction).
func zodKind(v any) string {
	switch x := v.(type) {
	case nil, bool, string, []any, map[string]any:
		return schema.Kind(v)
	case json.Number:
		if f, err := x.Float64(); err == nil && f == float64(int64(f)) {
			return "integer"
		}
		return "number"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	}
	return ""
}

// zodJSON writes a decoded JSON value as a JavaScript expression, through
// the encoder that keeps every string inert.
func zodJSON(v any) string { return jscode.Value(v) }

// zodKey writes a property name as an object-literal key ("__proto__"
// computed, because as a plain key it would set the prototype).
func zodKey(k string) string { return jscode.Key(k) }
