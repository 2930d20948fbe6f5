package normalize

import (
	"encoding/json"
	"strings"

	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// A Zod leak is a Zod schema that reached the wire through JSON.stringify
// instead of through a JSON Schema converter. JSON.stringify keeps a Zod
// schema's enumerable own properties and drops its functions, so what a
// client receives is Zod's internal definition tree:
//
//   - Zod 3: every schema is {"_def": {"typeName": "ZodString", "checks":
//     [...], "description": ...}, "~standard": {"vendor": "zod", ...}}. A
//     ZodObject keeps its shape behind a function, so the shape survives only
//     in "_cached", which Zod fills on the object's first parse ("_cached":
//     null otherwise). A ZodDefault's value is a function too and is lost.
//   - Zod 4: every schema is {"def": {"type": "string", ...}, "type":
//     "string"} plus a few mirrors of def ("element", "options", ...). Shapes
//     and default values survive; checks such as .min(), .max() and .regex()
//     serialise to {}, and .describe() and .meta() live in a registry, not on
//     the schema, so bounds, patterns and descriptions are lost.
//
// FromZod rebuilds, from what survived, the JSON Schema that Zod's own
// converter would have made of the live schema: zod-to-json-schema for Zod 3
// (as the MCP TypeScript SDK 1.x calls it: a strip object gets
// "additionalProperties": false) and z.toJSONSchema with io "input" for Zod 4
// (a strip object gets no "additionalProperties"). Whatever did not survive
// is reported as a ZodLoss.

// ZodForm says what kind of serialised Zod value a JSON value is.
type ZodForm int

const (
	// NotZod is any value that is not a serialised Zod value.
	NotZod ZodForm = iota
	// ZodSchema is one serialised Zod schema: z.string(), z.object({...}), ...
	ZodSchema
	// ZodRawShape is a serialised raw shape: a non-empty object every member
	// of which is a Zod schema, as in {name: z.string(), age: z.number()}.
	ZodRawShape
)

// ZodLoss is something a serialised Zod value no longer carries, so the
// schema rebuilt from it cannot say it.
type ZodLoss struct {
	// Pointer locates the loss in the rebuilt schema ("" for its root).
	Pointer string
	// What says what was lost.
	What string
	// Annotation is true when only an annotation was lost (a default
	// value): what the rebuilt schema accepts is still exact.
	Annotation bool
}

// DetectZod reports whether v is a serialised Zod schema or raw shape, and
// the Zod major version it came from (3 or 4; 0 when a raw shape mixes
// versions).
func DetectZod(v any) (ZodForm, int) {
	if ver := zodVersion(v); ver != 0 {
		return ZodSchema, ver
	}
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return NotZod, 0
	}
	ver := -1
	for _, member := range m {
		mv := zodVersion(member)
		switch {
		case mv == 0:
			return NotZod, 0
		case ver == -1:
			ver = mv
		case ver != mv:
			ver = 0
		}
	}
	return ZodRawShape, ver
}

// zod4InstanceKeys are the members JSON.stringify finds on a Zod 4 schema.
var zod4InstanceKeys = map[string]bool{
	"def": true, "type": true, "isFinite": true, "values": true, "enum": true, "options": true,
	"element": true, "keyType": true, "valueType": true, "in": true, "out": true,
}

// zod4Types are the values of def.type in Zod 4.
var zod4Types = map[string]bool{
	"string": true, "number": true, "int": true, "boolean": true, "bigint": true, "symbol": true,
	"null": true, "undefined": true, "void": true, "never": true, "any": true, "unknown": true,
	"date": true, "object": true, "record": true, "file": true, "array": true, "tuple": true,
	"union": true, "intersection": true, "map": true, "set": true, "enum": true, "literal": true,
	"nullable": true, "optional": true, "nonoptional": true, "success": true, "transform": true,
	"default": true, "prefault": true, "catch": true, "nan": true, "pipe": true, "readonly": true,
	"template_literal": true, "promise": true, "lazy": true, "function": true, "custom": true,
}

// zodVersion is 3 or 4 when v is one serialised Zod schema, 0 otherwise.
// The markers are Zod's own members, looked for in the value itself, never
// in the names of a schema's properties.
func zodVersion(v any) int {
	m, ok := v.(map[string]any)
	if !ok {
		return 0
	}
	if def, ok := m["_def"].(map[string]any); ok {
		if t, ok := def["typeName"].(string); ok && strings.HasPrefix(t, "Zod") {
			return 3
		}
	}
	// Only Zod 3 serialises "~standard"; Zod 4 defines it lazily, off the
	// enumerable members.
	if std, ok := m["~standard"].(map[string]any); ok && std["vendor"] == "zod" {
		return 3
	}
	def, ok := m["def"].(map[string]any)
	if !ok {
		return 0
	}
	t, _ := def["type"].(string)
	if !zod4Types[t] || m["type"] != t {
		return 0
	}
	for k := range m {
		if !zod4InstanceKeys[k] {
			return 0
		}
	}
	if _, hasShape := def["shape"].(map[string]any); t == "object" && !hasShape {
		return 0
	}
	return 4
}

// ZodTypeName names the kind of a serialised Zod schema as its version
// spells it: "ZodObject" in Zod 3, "object" in Zod 4; "" when v is not one.
func ZodTypeName(v any) string {
	switch zodVersion(v) {
	case 3:
		return typeName3(v.(map[string]any))
	case 4:
		return typeName4(v)
	}
	return ""
}

// FromZod rebuilds a JSON Schema from a serialised Zod schema or raw shape
// (a raw shape is rebuilt as the object z.object would make of it). It
// returns the schema, what could not be rebuilt (nil when the rebuild is
// faithful) and false when v is not a serialised Zod value. A part that
// cannot be rebuilt becomes the schema that accepts anything ({}), or
// {"type": "object"} for an object whose shape was lost; a loss says where.
func FromZod(v any) (map[string]any, []ZodLoss, bool) { return FromZodInOrder(v, nil) }

// FromZodInOrder is FromZod for a value whose source order is known: order
// ranks member names by where the source first spells them (manifest's
// Tool.NameOrder), and the fields of every object are rebuilt in that
// order, "required" included, as Zod's converters list them (in shape
// order). Without it, decoding has lost the shape's order, and fields are
// sorted by name unless a Zod 3 object's cached keys give the order.
func FromZodInOrder(v any, order map[string]int) (map[string]any, []ZodLoss, bool) {
	form, ver := DetectZod(v)
	if form == NotZod {
		return nil, nil, false
	}
	r := &zodRebuild{order: order}
	if form == ZodSchema {
		return r.schema(v, ""), r.lost, true
	}
	shape := v.(map[string]any)
	var out map[string]any
	if ver == 3 {
		out = r.shape3(shape, nil, "")
		out["additionalProperties"] = false
	} else {
		out = r.shape4(shape, "")
	}
	return out, r.lost, true
}

type zodRebuild struct {
	// order ranks member names by their place in the source (nil when
	// unknown).
	order map[string]int
	lost  []ZodLoss
}

func (r *zodRebuild) lose(ptr, what string) {
	r.add(ZodLoss{Pointer: ptr, What: what})
}

func (r *zodRebuild) loseAnnotation(ptr, what string) {
	r.add(ZodLoss{Pointer: ptr, What: what, Annotation: true})
}

// add records a loss once: two .min() checks of one field are one loss.
func (r *zodRebuild) add(l ZodLoss) {
	for _, o := range r.lost {
		if o == l {
			return
		}
	}
	r.lost = append(r.lost, l)
}

// schema rebuilds one Zod schema of either version at pointer ptr.
func (r *zodRebuild) schema(v any, ptr string) map[string]any {
	switch zodVersion(v) {
	case 3:
		return r.zod3(v.(map[string]any), ptr)
	case 4:
		return r.zod4(v.(map[string]any), ptr)
	}
	r.lose(ptr, "a value that is not a Zod schema")
	return map[string]any{}
}

func child(ptr string, tokens ...string) string {
	for _, t := range tokens {
		ptr += "/" + pointer.Escape(t)
	}
	return ptr
}

// nullable is what both converters make of a nullable schema: a bare type
// gains "null" in a type list, anything else is one branch of an anyOf.
func nullable(inner map[string]any) map[string]any {
	return compactTypeUnion(map[string]any{"anyOf": []any{inner, map[string]any{"type": "null"}}})
}

// compactTypeUnion rewrites an anyOf whose branches are bare type
// assertions into a type list, as both converters do; the two say the same.
func compactTypeUnion(s map[string]any) map[string]any {
	branches, ok := s["anyOf"].([]any)
	if !ok || len(branches) == 0 || s["type"] != nil {
		return s
	}
	var types []any
	seen := map[string]bool{}
	for _, b := range branches {
		bm, ok := b.(map[string]any)
		if !ok || len(bm) != 1 {
			return s
		}
		var names []any
		switch t := bm["type"].(type) {
		case string:
			names = []any{t}
		case []any:
			names = t
		default:
			return s
		}
		for _, n := range names {
			name, ok := n.(string)
			if !ok {
				return s
			}
			if !seen[name] {
				seen[name] = true
				types = append(types, name)
			}
		}
	}
	out := make(map[string]any, len(s))
	for k, v := range s {
		if k != "anyOf" {
			out[k] = v
		}
	}
	if len(types) == 1 {
		out["type"] = types[0]
	} else {
		out["type"] = types
	}
	return out
}

// enumType is the "type" both converters give an enum: "string" or
// "number" when every value is one, none otherwise.
func enumType(values []any) (string, bool) {
	kind := ""
	for i, v := range values {
		k := schema.Kind(v)
		if k != "string" && k != "number" || i > 0 && k != kind {
			return "", false
		}
		kind = k
	}
	return kind, kind != ""
}

func stringList(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// narrow sets a bound, keeping the tighter of two: the larger minimum or
// the smaller maximum.
func narrow(s map[string]any, key string, v any, isMin bool) {
	nv, ok := schema.Number(v)
	if !ok {
		return
	}
	if old, ok := schema.Number(s[key]); ok && (isMin && old >= nv || !isMin && old <= nv) {
		return
	}
	s[key] = v
}

// count is a length bound as JSON Schema takes it: a non-negative integer.
func count(v any) (json.Number, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return "", false
	}
	i, err := n.Int64()
	return n, err == nil && i >= 0
}
