package normalize

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpfit/mcplint/schema"
)

// zod4 rebuilds a serialised Zod 4 schema as z.toJSONSchema (io "input")
// would convert the live one.
func (r *zodRebuild) zod4(m map[string]any, ptr string) map[string]any {
	def := m["def"].(map[string]any) // zodVersion checked it
	t, _ := def["type"].(string)
	switch t {
	case "string":
		return r.string4(def, ptr)
	case "number":
		return r.number4(def, ptr)
	case "boolean":
		return map[string]any{"type": "boolean"}
	case "null":
		return map[string]any{"type": "null"}
	case "any", "unknown":
		return map[string]any{}
	case "never":
		return map[string]any{"not": map[string]any{}}
	case "enum":
		return enum4(m, def)
	case "literal":
		return r.literal4(def, ptr)
	case "array":
		r.checks4(def, ptr)
		return map[string]any{"type": "array", "items": r.schema(def["element"], child(ptr, "items"))}
	case "object":
		return r.object4(def, ptr)
	case "record":
		return r.record4(def, ptr)
	case "union":
		return r.union4(def, ptr)
	case "nullable":
		return nullable(r.schema(def["innerType"], ptr))
	case "optional", "nonoptional":
		return r.schema(def["innerType"], ptr)
	case "default":
		out := r.schema(def["innerType"], ptr)
		if v, ok := def["defaultValue"]; ok {
			out["default"] = v
		} else {
			r.loseAnnotation(ptr, "the default value")
		}
		return out
	case "prefault":
		// A prefault is parsed like a value the caller sent; the converter
		// has no JSON Schema keyword for it.
		return r.schema(def["innerType"], ptr)
	case "catch":
		r.loseAnnotation(ptr, "the .catch() value, published as the default (a function)")
		return r.schema(def["innerType"], ptr)
	case "readonly":
		out := r.schema(def["innerType"], ptr)
		out["readOnly"] = true
		return out
	case "pipe":
		// The input of a pipe is its first stage's, unless that stage is a
		// transform (z.preprocess), whose input is anything.
		if typeName4(def["in"]) == "transform" {
			return r.schema(def["out"], ptr)
		}
		return r.schema(def["in"], ptr)
	case "lazy":
		r.lose(ptr, "a z.lazy() schema (its getter is a function)")
	default:
		r.lose(ptr, fmt.Sprintf("a Zod 4 %s schema, which has no JSON Schema form mcplint can rebuild", t))
	}
	return map[string]any{}
}

// checkDefs returns the definitions of a Zod 4 schema's checks. A format
// schema (z.email(), z.int()) is its own first check. Plain checks (.min(),
// .max(), .length(), .regex(), ...) keep their definition off the enumerable
// members, so they serialise to {} and are reported lost.
func (r *zodRebuild) checkDefs(def map[string]any, ptr string) []map[string]any {
	var out []map[string]any
	if _, ok := def["check"]; ok {
		out = append(out, def)
	}
	list, _ := def["checks"].([]any)
	for _, c := range list {
		cm, _ := c.(map[string]any)
		if cd, ok := cm["def"].(map[string]any); ok {
			out = append(out, cd)
			continue
		}
		r.lose(ptr, "a check such as .min(), .max(), .length() or .regex() (serialised as {})")
	}
	return out
}

// checks4 reports the checks of a schema that takes none mcplint rebuilds.
func (r *zodRebuild) checks4(def map[string]any, ptr string) {
	for _, cd := range r.checkDefs(def, ptr) {
		r.unknownCheck(cd, ptr)
	}
}

func (r *zodRebuild) unknownCheck(cd map[string]any, ptr string) {
	if cd["check"] == "custom" {
		return // .refine(): never part of a JSON Schema
	}
	r.lose(ptr, fmt.Sprintf("a Zod 4 check %q, which mcplint cannot rebuild", cd["check"]))
}

// formats4 maps Zod 4 string formats to JSON Schema's where they differ.
var formats4 = map[string]string{"guid": "uuid", "url": "uri", "datetime": "date-time", "json_string": "json-string"}

func (r *zodRebuild) string4(def map[string]any, ptr string) map[string]any {
	out := map[string]any{"type": "string"}
	for _, cd := range r.checkDefs(def, ptr) {
		if cd["check"] != "string_format" {
			r.unknownCheck(cd, ptr)
			continue
		}
		f, _ := cd["format"].(string)
		if _, ok := cd["pattern"]; ok {
			r.lose(ptr, fmt.Sprintf("the pattern of the %s format (a RegExp serialises as {})", f))
		}
		if f == "base64" || f == "base64url" {
			out["contentEncoding"] = f
		}
		if mapped, ok := formats4[f]; ok {
			f = mapped
		}
		// Formats the keyword cannot express exactly are left out, as the
		// converter does.
		if f == "regex" || f == "time" || cd["local"] == true || cd["precision"] == json.Number("-1") {
			delete(out, "format")
			continue
		}
		out["format"] = f
	}
	return out
}

// numberFormats4 are Zod 4's number formats and their ranges.
var numberFormats4 = map[string][2]string{
	"safeint": {"-9007199254740991", "9007199254740991"},
	"int32":   {"-2147483648", "2147483647"},
	"uint32":  {"0", "4294967295"},
	"float32": {"-3.4028234663852886e+38", "3.4028234663852886e+38"},
	"float64": {"-1.7976931348623157e+308", "1.7976931348623157e+308"},
}

func (r *zodRebuild) number4(def map[string]any, ptr string) map[string]any {
	out := map[string]any{"type": "number"}
	for _, cd := range r.checkDefs(def, ptr) {
		f, _ := cd["format"].(string)
		bounds, ok := numberFormats4[f]
		if cd["check"] != "number_format" || !ok {
			r.unknownCheck(cd, ptr)
			continue
		}
		if f != "float32" && f != "float64" {
			out["type"] = "integer"
		}
		narrow(out, "minimum", json.Number(bounds[0]), true)
		narrow(out, "maximum", json.Number(bounds[1]), false)
	}
	return out
}

// enum4 takes the values in order from the "options" mirror when it is
// there; def.entries maps names to values, and a numeric TypeScript enum's
// reverse entries are not values.
func enum4(m, def map[string]any) map[string]any {
	values, ok := m["options"].([]any)
	if !ok {
		entries, _ := def["entries"].(map[string]any)
		numeric := map[string]bool{}
		for _, v := range entries {
			if n, ok := v.(json.Number); ok {
				numeric[n.String()] = true
			}
		}
		for _, k := range slices.Sorted(maps.Keys(entries)) {
			if !numeric[k] {
				values = append(values, entries[k])
			}
		}
	}
	if len(values) == 0 {
		return map[string]any{"not": map[string]any{}}
	}
	out := map[string]any{"enum": values}
	if t, ok := enumType(values); ok {
		out["type"] = t
	}
	return out
}

func (r *zodRebuild) literal4(def map[string]any, ptr string) map[string]any {
	values, _ := def["values"].([]any)
	switch len(values) {
	case 0:
		r.lose(ptr, "the value of a literal (undefined, or a value JSON cannot hold)")
		return map[string]any{}
	case 1:
		return map[string]any{"type": schema.Kind(values[0]), "const": values[0]}
	}
	out := map[string]any{"enum": values}
	kind := schema.Kind(values[0])
	for _, v := range values[1:] {
		if schema.Kind(v) != kind {
			return out
		}
	}
	out["type"] = kind
	return out
}

func (r *zodRebuild) object4(def map[string]any, ptr string) map[string]any {
	r.checks4(def, ptr)
	shape, _ := def["shape"].(map[string]any)
	out := r.shape4(shape, ptr)
	if catchall, ok := def["catchall"].(map[string]any); ok {
		if typeName4(catchall) == "never" {
			out["additionalProperties"] = false
		} else {
			out["additionalProperties"] = r.schema(catchall, child(ptr, "additionalProperties"))
		}
	}
	return out
}

// shape4 rebuilds the properties of a Zod 4 shape. JSON.stringify keeps the
// shape's order but decoding does not, so required lists are in source
// order when it is known, and sorted otherwise.
func (r *zodRebuild) shape4(shape map[string]any, ptr string) map[string]any {
	props := map[string]any{}
	var required []string
	for _, name := range schema.SortedNames(shape, r.order) {
		props[name] = r.schema(shape[name], child(ptr, "properties", name))
		if !optional4(shape[name]) {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = stringList(required)
	}
	return out
}

// optional4 is the converter's reading of whether a field may be left out
// of the input.
func optional4(v any) bool {
	m, _ := v.(map[string]any)
	def, _ := m["def"].(map[string]any)
	switch typeName4(v) {
	case "optional", "default", "prefault":
		return true
	case "nullable", "readonly", "catch":
		return optional4(def["innerType"])
	case "pipe":
		if typeName4(def["in"]) == "transform" {
			return optional4(def["out"])
		}
		return optional4(def["in"])
	case "union":
		options, _ := def["options"].([]any)
		for _, o := range options {
			if optional4(o) {
				return true
			}
		}
	}
	return false
}

func (r *zodRebuild) record4(def map[string]any, ptr string) map[string]any {
	out := map[string]any{
		"type":                 "object",
		"additionalProperties": r.schema(def["valueType"], child(ptr, "additionalProperties")),
	}
	key, _ := def["keyType"].(map[string]any)
	keyDef, _ := key["def"].(map[string]any)
	if typeName4(key) != "string" || keyDef["checks"] != nil || keyDef["check"] != nil {
		r.lose(ptr, "the key schema of a record")
	}
	out["propertyNames"] = map[string]any{"type": "string"}
	return out
}

func (r *zodRebuild) union4(def map[string]any, ptr string) map[string]any {
	options, _ := def["options"].([]any)
	if len(options) == 0 {
		r.lose(ptr, "the options of a union")
		return map[string]any{}
	}
	// Exclusive unions (z.xor, discriminated unions) say "exactly one".
	kw := "anyOf"
	if def["inclusive"] == false {
		kw = "oneOf"
	}
	branches := make([]any, len(options))
	for i, o := range options {
		branches[i] = r.schema(o, child(ptr, kw, fmt.Sprint(i)))
	}
	out := map[string]any{kw: branches}
	if kw == "anyOf" {
		out = compactTypeUnion(out)
	}
	return out
}

func typeName4(v any) string {
	m, _ := v.(map[string]any)
	def, _ := m["def"].(map[string]any)
	t, _ := def["type"].(string)
	return t
}
