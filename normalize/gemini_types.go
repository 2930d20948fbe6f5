package normalize

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/mcpfit/mcplint/schema"
)

// geminiTypeList turns a list of types into one type and nullable, or into
// an anyOf of one schema per type.
func geminiTypeList(out map[string]any, ptr string, ls *[]Loss) {
	list, ok := out["type"].([]any)
	if !ok {
		return
	}
	var types []string
	hasNull := false
	listed := map[string]bool{}
	for _, t := range list {
		s, _ := t.(string)
		switch {
		case s == "null":
			hasNull = true
		case s != "" && !listed[s]:
			listed[s] = true
			types = append(types, s)
		}
	}
	delete(out, "type")
	switch {
	case len(types) == 0:
		if hasNull {
			out["nullable"] = true
			loss(ls, ptr, "type", "Gemini's subset has no null type; the schema is now nullable without a type and accepts any value")
		}
		return
	case len(types) == 1:
		out["type"] = types[0]
		if hasNull {
			out["nullable"] = true
		}
		return
	}
	if _, has := out["anyOf"]; has {
		out["type"] = types[0]
		if hasNull {
			out["nullable"] = true
		}
		loss(ls, ptr, "type", "a list of types beside anyOf cannot be expressed in Gemini's subset; only %q is kept", types[0])
		return
	}
	var branches []any
	for _, t := range types {
		b := map[string]any{"type": t}
		for k, v := range out {
			kt := geminiTypeKeywords[k]
			if kt == t || kt == "number" && t == "integer" {
				b[k] = schema.Clone(v)
			}
		}
		if f, ok := out["format"].(string); ok && GeminiFormatSupported(t, f) {
			b["format"] = f
		}
		for _, k := range []string{"enum", "const"} {
			if v, ok := out[k]; ok {
				b[k] = schema.Clone(v)
			}
		}
		if hasNull {
			b["nullable"] = true
		}
		geminiEnum(b, ptr, ls)
		geminiExclusive(b, "exclusiveMinimum", ptr, ls)
		geminiExclusive(b, "exclusiveMaximum", ptr, ls)
		branches = append(branches, b)
	}
	for k := range out {
		if geminiTypeKeywords[k] != "" || k == "enum" || k == "const" {
			delete(out, k)
		}
	}
	if f, ok := out["format"].(string); ok && formatPlaced(branches, f) {
		delete(out, "format")
	}
	out["anyOf"] = branches
}

func formatPlaced(branches []any, f string) bool {
	for _, b := range branches {
		if b.(map[string]any)["format"] == f {
			return true
		}
	}
	return false
}

// geminiNullBranches turns the anyOf branches that only admit null into
// "nullable": true, and lifts a single remaining branch into the node.
func geminiNullBranches(out map[string]any, ptr string, ls *[]Loss) {
	branches, ok := out["anyOf"].([]any)
	if !ok {
		return
	}
	var rest []any
	for _, b := range branches {
		if !onlyNull(b) {
			rest = append(rest, b)
		}
	}
	if len(rest) == len(branches) {
		return
	}
	if len(rest) == 0 {
		delete(out, "anyOf")
		out["nullable"] = true
		loss(ls, ptr, "anyOf", "Gemini's subset has no null type; the schema is now nullable without a type and accepts any value")
		return
	}
	if len(rest) == 1 {
		if m, ok := rest[0].(map[string]any); ok && liftable(out, m) {
			delete(out, "anyOf")
			for k, v := range m {
				if _, has := out[k]; !has {
					out[k] = v
				}
			}
			out["nullable"] = true
			return
		}
	}
	for i, b := range rest {
		if m, ok := b.(map[string]any); ok {
			m = schema.Clone(m).(map[string]any)
			m["nullable"] = true
			rest[i] = m
		}
	}
	out["anyOf"] = rest
}

// onlyNull reports whether a branch admits null and nothing else.
func onlyNull(b any) bool {
	m, ok := b.(map[string]any)
	if !ok {
		return false
	}
	if t, ok := m["type"].(string); !ok || t != "null" {
		return false
	}
	for k := range m {
		if k != "type" && !geminiAnnotation[k] {
			return false
		}
	}
	return true
}

// liftable reports whether branch b can move into the node: no keyword of
// the node other than anyOf and annotations would meet one of b's.
func liftable(out, b map[string]any) bool {
	for k := range b {
		if _, has := out[k]; has && !geminiAnnotation[k] {
			return false
		}
	}
	for k := range out {
		if k != "anyOf" && !geminiAnnotation[k] && k != "nullable" {
			return false
		}
	}
	return true
}

// geminiExamples keeps the first of "examples" as Gemini's "example".
func geminiExamples(out map[string]any, ptr string, ls *[]Loss) {
	v, ok := out["examples"]
	if !ok {
		return
	}
	delete(out, "examples")
	l, _ := v.([]any)
	if _, has := out["example"]; has || len(l) == 0 {
		if len(l) > 0 {
			loss(ls, ptr, "examples", "Gemini keeps one example; \"examples\" is dropped beside \"example\"")
		}
		return
	}
	out["example"] = l[0]
	if len(l) > 1 {
		loss(ls, ptr, "examples", "Gemini keeps one example; the first is kept as \"example\", %d more are dropped", len(l)-1)
	}
}

// geminiFormat drops a format Gemini does not document for the type.
func geminiFormat(out map[string]any, ptr string, ls *[]Loss) {
	v, ok := out["format"]
	if !ok {
		return
	}
	f, isString := v.(string)
	types := schema.Types(out)
	if len(types) == 0 {
		types = []string{""}
	}
	for _, t := range types {
		if isString && GeminiFormatSupported(t, f) {
			return
		}
	}
	delete(out, "format")
	loss(ls, ptr, "format", "format %s is not one Gemini documents for this type (%s) and is dropped", schema.Compact(v), formatList())
}

func formatList() string {
	return "string: enum, date-time; number: float, double; integer: int32, int64"
}

// geminiExclusive turns an exclusive bound into an inclusive one: exact for
// integers, one value wider otherwise.
func geminiExclusive(out map[string]any, k, ptr string, ls *[]Loss) {
	v, ok := out[k]
	if !ok {
		return
	}
	delete(out, k)
	isMin := k == "exclusiveMinimum"
	inclusive := "maximum"
	if isMin {
		inclusive = "minimum"
	}
	if b, isBool := v.(bool); isBool {
		// Draft 4: a modifier of minimum/maximum.
		if !b || out[inclusive] == nil {
			return
		}
		v = out[inclusive]
		delete(out, inclusive)
	}
	x, ok := number(v)
	if !ok {
		loss(ls, ptr, k, "%q is not a number and is dropped", k)
		return
	}
	integer := schema.HasType(out, "integer") && !schema.HasType(out, "number")
	bound, exact := v, false
	if integer && math.Abs(x) < 1<<53 {
		if isMin {
			bound = json.Number(strconv.FormatFloat(math.Floor(x)+1, 'f', -1, 64))
		} else {
			bound = json.Number(strconv.FormatFloat(math.Ceil(x)-1, 'f', -1, 64))
		}
		exact = true
	}
	if cur, ok := number(out[inclusive]); ok {
		b, _ := number(bound)
		if isMin && cur > x || !isMin && cur < x || exact && (isMin && cur >= b || !isMin && cur <= b) {
			return // the inclusive bound is already tighter
		}
	}
	out[inclusive] = bound
	if !exact {
		loss(ls, ptr, k, "%s %s becomes %s %s: the value %s itself is now accepted", k, schema.Compact(v), inclusive, schema.Compact(v), schema.Compact(v))
	}
}
