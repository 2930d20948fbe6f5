package normalize

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpfit/mcplint/schema"
)

// geminiEnum rewrites const and enum into what Gemini accepts: string
// enums, ranges for integers, booleans by type.
func geminiEnum(out map[string]any, ptr string, ls *[]Loss) {
	if c, ok := out["const"]; ok {
		delete(out, "const")
		vals := []any{c}
		if e, ok := out["enum"].([]any); ok && !geminiHasValue(e, c) {
			vals = nil
		}
		out["enum"] = vals
	}
	raw, ok := out["enum"]
	if !ok {
		return
	}
	vals, ok := raw.([]any)
	if !ok {
		delete(out, "enum")
		loss(ls, ptr, "enum", "\"enum\" is not a list and is dropped")
		return
	}
	types := schema.Types(out)
	var strs, numeric, bools, others []any
	hasNull, fractional := false, false
	for _, v := range vals {
		kind := schema.Kind(v)
		if kind == "number" {
			if f, ok := number(v); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				kind = "integer"
			}
		}
		if len(types) > 0 && !typeAdmits(types, kind) && !(kind == "null" && out["nullable"] == true) {
			continue // it could never match
		}
		switch kind {
		case "string":
			strs = append(strs, v)
		case "integer":
			numeric = append(numeric, v)
		case "number":
			numeric = append(numeric, v)
			fractional = true
		case "boolean":
			bools = append(bools, v)
		case "null":
			hasNull = true
		default:
			others = append(others, v)
		}
	}
	if hasNull {
		out["nullable"] = true
	}
	groups := 0
	for _, g := range [][]any{strs, numeric, bools, others} {
		if len(g) > 0 {
			groups++
		}
	}
	switch {
	case groups == 0:
		delete(out, "enum")
		if hasNull {
			loss(ls, ptr, "enum", "Gemini's subset has no null type; a schema that only admits null now accepts any value")
		} else {
			loss(ls, ptr, "enum", "the enum admits no value of the schema's type; Gemini cannot say so and it is dropped")
		}
	case groups > 1:
		if _, has := out["anyOf"]; has {
			delete(out, "enum")
			loss(ls, ptr, "enum", "an enum of several types beside anyOf cannot be expressed in Gemini's subset; it is dropped")
			return
		}
		delete(out, "enum")
		delete(out, "type")
		if hasNull {
			delete(out, "nullable") // each branch carries it, beside its type
		}
		var branches []any
		for _, g := range [][]any{strs, numeric, bools, others} {
			if len(g) == 0 {
				continue
			}
			b := map[string]any{"enum": g}
			if hasNull {
				b["nullable"] = true
			}
			geminiEnum(b, ptr, ls)
			branches = append(branches, b)
		}
		out["anyOf"] = branches
	case len(strs) > 0:
		out["enum"] = strs
		if len(types) == 0 {
			out["type"] = "string"
		}
	case len(numeric) > 0:
		enumRange(out, numeric, fractional, ptr, ls)
	case len(bools) > 0:
		delete(out, "enum")
		out["type"] = "boolean"
		if len(bools) == 1 || len(bools) == 2 && bools[0] == bools[1] {
			addNote(out, fmt.Sprintf("Must be %v.", bools[0]))
			loss(ls, ptr, "enum", "Gemini's enum takes only strings; \"must be %v\" is now only said in the description", bools[0])
		}
	default:
		delete(out, "enum")
		if len(types) == 0 {
			// Gemini wants a type where a value was: the values' own,
			// when they share one.
			if k := schema.Kind(others[0]); !slices.ContainsFunc(others, func(v any) bool { return schema.Kind(v) != k }) {
				out["type"] = k
			}
		}
		addNote(out, "Allowed values: "+valueList(others)+".")
		loss(ls, ptr, "enum", "Gemini's enum takes only strings; the allowed values %s are now only listed in the description", valueList(others))
	}
}

// enumRange replaces an enum of numbers by the range it spans: exact when
// it lists every integer of the range.
func enumRange(out map[string]any, all []any, fractional bool, ptr string, ls *[]Loss) {
	lo, hi := all[0], all[0]
	distinct := map[float64]bool{}
	for _, v := range all {
		f, _ := number(v)
		distinct[f] = true
		if l, _ := number(lo); f < l {
			lo = v
		}
		if h, _ := number(hi); f > h {
			hi = v
		}
	}
	delete(out, "enum")
	if !fractional {
		out["type"] = "integer"
	} else if !schema.HasType(out, "number") {
		out["type"] = "number"
	}
	narrow(out, "minimum", lo, true)
	narrow(out, "maximum", hi, false)
	l, _ := number(lo)
	h, _ := number(hi)
	if !fractional && float64(len(distinct)) == h-l+1 {
		return
	}
	addNote(out, "Allowed values: "+valueList(all)+".")
	loss(ls, ptr, "enum", "Gemini's enum takes only strings; the values %s become the range %s to %s, and are listed in the description", valueList(all), schema.Compact(lo), schema.Compact(hi))
}

func typeAdmits(types []string, kind string) bool {
	for _, t := range types {
		if t == kind || t == "number" && kind == "integer" {
			return true
		}
	}
	return false
}

func geminiHasValue(l []any, v any) bool {
	for _, e := range l {
		if reflect.DeepEqual(e, v) {
			return true
		}
	}
	return false
}

func valueList(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = schema.Compact(v)
	}
	return strings.Join(parts, ", ")
}

// addNote appends a sentence to the description.
func addNote(out map[string]any, note string) {
	d, _ := out["description"].(string)
	if d = strings.TrimSpace(d); d != "" {
		if !strings.ContainsAny(d[len(d)-1:], ".!?") {
			d += "."
		}
		note = d + " " + note
	}
	out["description"] = note
}
