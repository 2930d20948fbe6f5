package normalize

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpfit/mcplint/schema"
)

// zod3 rebuilds a serialised Zod 3 schema as zod-to-json-schema would
// convert the live one.
func (r *zodRebuild) zod3(m map[string]any, ptr string) map[string]any {
	def, ok := m["_def"].(map[string]any)
	if !ok {
		r.lose(ptr, "a Zod schema whose definition was not serialised")
		return map[string]any{}
	}
	typeName, _ := def["typeName"].(string)
	var out map[string]any
	switch typeName {
	case "ZodString":
		out = r.string3(def, ptr)
	case "ZodNumber":
		out = r.number3(def, ptr)
	case "ZodBoolean":
		out = map[string]any{"type": "boolean"}
	case "ZodNull":
		out = map[string]any{"type": "null"}
	case "ZodAny", "ZodUnknown":
		out = map[string]any{}
	case "ZodNever":
		out = map[string]any{"not": map[string]any{}}
	case "ZodLiteral":
		out = r.literal3(def, ptr)
	case "ZodEnum":
		out = r.enum3(def, ptr)
	case "ZodNativeEnum":
		out = nativeEnum3(def)
	case "ZodArray":
		out = r.array3(def, ptr)
	case "ZodObject":
		out = r.object3(m, def, ptr)
	case "ZodRecord":
		out = r.record3(def, ptr)
	case "ZodUnion", "ZodDiscriminatedUnion":
		out = r.union3(def, ptr)
	case "ZodNullable":
		out = r.nullable3(def, ptr)
	case "ZodOptional", "ZodReadonly", "ZodCatch":
		out = r.schema(def["innerType"], ptr)
	case "ZodDefault":
		out = r.schema(def["innerType"], ptr)
		r.loseAnnotation(ptr, "the default value (a function in Zod 3)")
	case "ZodEffects":
		// .refine(), .transform(), .superRefine(): the input is the inner
		// schema's; the function never had a JSON Schema form.
		out = r.schema(def["schema"], ptr)
	case "ZodBranded":
		out = r.schema(def["type"], ptr)
	case "ZodPipeline":
		out = r.schema(def["in"], ptr)
	case "ZodLazy":
		r.lose(ptr, "a z.lazy() schema (its getter is a function)")
		out = map[string]any{}
	default:
		r.lose(ptr, fmt.Sprintf("a Zod 3 %s, which has no JSON Schema form mcplint can rebuild", typeName))
		out = map[string]any{}
	}
	if d, ok := def["description"].(string); ok {
		out["description"] = d
	}
	return out
}

func (r *zodRebuild) string3(def map[string]any, ptr string) map[string]any {
	out := map[string]any{"type": "string"}
	formats := map[string]string{
		"email": "email", "url": "uri", "uuid": "uuid", "datetime": "date-time",
		"date": "date", "time": "time", "duration": "duration",
	}
	for _, c := range checks(def) {
		kind, _ := c["kind"].(string)
		switch kind {
		case "min", "max", "length":
			n, ok := count(c["value"])
			if !ok {
				r.lose(ptr, fmt.Sprintf("a malformed .%s() check", kind))
				continue
			}
			if kind != "max" {
				narrow(out, "minLength", n, true)
			}
			if kind != "min" {
				narrow(out, "maxLength", n, false)
			}
		case "trim", "toLowerCase", "toUpperCase":
			// Transformations: they constrain nothing the caller sends.
		case "regex":
			r.lose(ptr, "a .regex() pattern (a RegExp serialises as {})")
		default:
			f, known := formats[kind]
			switch {
			case !known:
				r.lose(ptr, fmt.Sprintf("a Zod 3 string check %q, which mcplint cannot rebuild", kind))
			case out["format"] != nil:
				r.lose(ptr, fmt.Sprintf("a second string format %q", f))
			default:
				out["format"] = f
			}
		}
	}
	return out
}

func (r *zodRebuild) number3(def map[string]any, ptr string) map[string]any {
	out := map[string]any{"type": "number"}
	for _, c := range checks(def) {
		kind, _ := c["kind"].(string)
		inclusive := c["inclusive"] == true
		if _, isNumber := c["value"].(json.Number); !isNumber && (kind == "min" || kind == "max" || kind == "multipleOf") {
			r.lose(ptr, fmt.Sprintf("a malformed .%s() check", kind))
			continue
		}
		switch kind {
		case "int":
			out["type"] = "integer"
		case "min":
			out[map[bool]string{true: "minimum", false: "exclusiveMinimum"}[inclusive]] = c["value"]
		case "max":
			out[map[bool]string{true: "maximum", false: "exclusiveMaximum"}[inclusive]] = c["value"]
		case "multipleOf":
			if f, _ := schema.Number(c["value"]); f <= 0 {
				r.lose(ptr, "a .multipleOf() divisor JSON Schema cannot express")
				continue
			}
			out["multipleOf"] = c["value"]
		case "finite":
			// JSON has no infinities to exclude.
		default:
			r.lose(ptr, fmt.Sprintf("a Zod 3 number check %q, which mcplint cannot rebuild", kind))
		}
	}
	return out
}

func (r *zodRebuild) literal3(def map[string]any, ptr string) map[string]any {
	v, ok := def["value"]
	switch {
	case !ok:
		r.lose(ptr, "the value of a literal (undefined, or a value JSON cannot hold)")
		return map[string]any{}
	case v == nil:
		return map[string]any{"type": "null", "const": nil}
	}
	return map[string]any{"type": schema.Kind(v), "const": v}
}

// nativeEnum3 follows zod-to-json-schema: a numeric TypeScript enum also maps
// each value back to its name, and those reverse entries are not values.
func nativeEnum3(def map[string]any) map[string]any {
	obj, _ := def["values"].(map[string]any)
	var values []any
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if target, ok := obj[k].(string); ok {
			if _, reverse := obj[target].(json.Number); reverse {
				continue
			}
		}
		values = append(values, obj[k])
	}
	out := map[string]any{"enum": values}
	if t, ok := enumType(values); ok {
		out["type"] = t
	} else {
		out["type"] = []any{"string", "number"}
	}
	return out
}

func (r *zodRebuild) array3(def map[string]any, ptr string) map[string]any {
	out := map[string]any{"type": "array"}
	if item, ok := def["type"].(map[string]any); ok && typeName3(item) != "ZodAny" {
		out["items"] = r.schema(item, child(ptr, "items"))
	}
	// An exact length is applied last, as zod-to-json-schema does.
	for _, b := range []struct {
		member   string
		keywords []string
	}{
		{"minLength", []string{"minItems"}},
		{"maxLength", []string{"maxItems"}},
		{"exactLength", []string{"minItems", "maxItems"}},
	} {
		member, keywords := b.member, b.keywords
		l, ok := def[member].(map[string]any)
		if !ok {
			continue
		}
		n, ok := count(l["value"])
		if !ok {
			r.lose(ptr, "a malformed array length")
			continue
		}
		for _, k := range keywords {
			out[k] = n
		}
	}
	return out
}

func (r *zodRebuild) enum3(def map[string]any, ptr string) map[string]any {
	values, ok := def["values"].([]any)
	if !ok {
		r.lose(ptr, "the values of an enum")
		return map[string]any{}
	}
	return map[string]any{"type": "string", "enum": values}
}

func (r *zodRebuild) object3(m, def map[string]any, ptr string) map[string]any {
	cached, _ := m["_cached"].(map[string]any)
	shape, ok := cached["shape"].(map[string]any)
	if !ok {
		r.lose(ptr, "the object's fields (Zod 3 serialises a shape only after the object's first parse)")
		return map[string]any{"type": "object"}
	}
	var order []string
	if keys, ok := cached["keys"].([]any); ok && len(keys) == len(shape) {
		for _, k := range keys {
			if s, ok := k.(string); ok {
				order = append(order, s)
			}
		}
	}
	out := r.shape3(shape, order, ptr)
	catchall, _ := def["catchall"].(map[string]any)
	switch {
	case catchall != nil && typeName3(catchall) != "ZodNever":
		out["additionalProperties"] = r.schema(catchall, child(ptr, "additionalProperties"))
	case def["unknownKeys"] == "passthrough":
		out["additionalProperties"] = true
	default:
		// "strict", and "strip" as zod-to-json-schema publishes it.
		out["additionalProperties"] = false
	}
	return out
}

// shape3 rebuilds the properties of a Zod 3 shape, in order when the order
// is known, from the object's cached keys or the source (required lists
// follow it).
func (r *zodRebuild) shape3(shape map[string]any, order []string, ptr string) map[string]any {
	if len(order) != len(shape) {
		order = schema.SortedNames(shape, r.order)
	}
	props := map[string]any{}
	var required []string
	for _, name := range order {
		field, ok := shape[name]
		if !ok {
			continue
		}
		props[name] = r.schema(field, child(ptr, "properties", name))
		if !optional3(field) {
			required = append(required, name)
		}
	}
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = stringList(required)
	}
	return out
}

// optional3 is Zod 3's isOptional(): whether the field accepts undefined,
// that is, may be left out.
func optional3(v any) bool {
	m, _ := v.(map[string]any)
	def, _ := m["_def"].(map[string]any)
	switch typeName3(m) {
	case "ZodOptional", "ZodDefault", "ZodAny", "ZodUnknown", "ZodCatch", "ZodUndefined", "ZodVoid":
		return true
	case "ZodNullable", "ZodReadonly":
		return optional3(def["innerType"])
	case "ZodEffects":
		return optional3(def["schema"])
	case "ZodBranded":
		return optional3(def["type"])
	case "ZodPipeline":
		return optional3(def["in"])
	case "ZodUnion", "ZodDiscriminatedUnion":
		options, _ := def["options"].([]any)
		for _, o := range options {
			if optional3(o) {
				return true
			}
		}
	}
	return false
}

func (r *zodRebuild) record3(def map[string]any, ptr string) map[string]any {
	out := map[string]any{"type": "object"}
	if v, ok := def["valueType"].(map[string]any); ok {
		out["additionalProperties"] = r.schema(v, child(ptr, "additionalProperties"))
	}
	key, _ := def["keyType"].(map[string]any)
	keyDef, _ := key["_def"].(map[string]any)
	switch typeName3(key) {
	case "ZodString":
		if len(checks(keyDef)) > 0 {
			names := r.string3(keyDef, child(ptr, "propertyNames"))
			delete(names, "type")
			out["propertyNames"] = names
		}
	case "ZodEnum":
		out["propertyNames"] = r.enum3(keyDef, child(ptr, "propertyNames"))
		delete(out["propertyNames"].(map[string]any), "type")
	default:
		r.lose(ptr, "the key schema of a record")
	}
	return out
}

func (r *zodRebuild) union3(def map[string]any, ptr string) map[string]any {
	options, _ := def["options"].([]any)
	if len(options) == 0 {
		r.lose(ptr, "the options of a union")
		return map[string]any{}
	}
	branches := make([]any, len(options))
	for i, o := range options {
		branches[i] = r.schema(o, child(ptr, "anyOf", fmt.Sprint(i)))
	}
	out := compactTypeUnion(map[string]any{"anyOf": branches})
	// zod-to-json-schema writes a union of literals as one enum.
	var values []any
	for _, b := range branches {
		bm, _ := b.(map[string]any)
		c, ok := bm["const"]
		if !ok || len(bm) != 2 {
			return out
		}
		values = append(values, c)
	}
	types := map[string]bool{}
	var typeList []any
	for _, v := range values {
		if t := schema.Kind(v); !types[t] {
			types[t] = true
			typeList = append(typeList, t)
		}
	}
	lit := map[string]any{"type": typeList, "enum": values}
	if len(typeList) == 1 {
		lit["type"] = typeList[0]
	}
	return lit
}

func (r *zodRebuild) nullable3(def map[string]any, ptr string) map[string]any {
	return nullable(r.schema(def["innerType"], ptr))
}

func typeName3(m map[string]any) string {
	def, _ := m["_def"].(map[string]any)
	t, _ := def["typeName"].(string)
	return t
}

func checks(def map[string]any) []map[string]any {
	list, _ := def["checks"].([]any)
	var out []map[string]any
	for _, c := range list {
		if cm, ok := c.(map[string]any); ok {
			out = append(out, cm)
		}
	}
	return out
}
