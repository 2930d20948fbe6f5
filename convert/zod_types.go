package convert

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/internal/jscode"
	"github.com/mcpfit/mcplint/schema"
)

// zodTypeKeywords maps the keywords that constrain one JSON type only to
// that type: a schema without "type" applies them to values of that type
// and accepts every other value.
var zodTypeKeywords = map[string]string{
	"minLength": "string", "maxLength": "string", "pattern": "string", "format": "string",
	"minimum": "number", "maximum": "number", "exclusiveMinimum": "number",
	"exclusiveMaximum": "number", "multipleOf": "number",
	"items": "array", "prefixItems": "array", "additionalItems": "array", "minItems": "array",
	"maxItems": "array", "uniqueItems": "array", "contains": "array",
	"properties": "object", "required": "object", "additionalProperties": "object",
	"patternProperties": "object", "minProperties": "object", "maxProperties": "object",
	"propertyNames": "object", "dependentRequired": "object", "dependentSchemas": "object",
	"dependencies": "object", "unevaluatedProperties": "object", "unevaluatedItems": "array",
	"minContains": "array", "maxContains": "array",
}

var zodAllTypes = []string{"string", "number", "boolean", "null", "array", "object"}

// zodTypeSet is the set of types s declares ("null" added by OpenAPI's
// nullable), nil when it declares none.
func zodTypeSet(s map[string]any) map[string]bool {
	ts := schema.Types(s)
	if len(ts) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, t := range ts {
		set[t] = true
	}
	if s["nullable"] == true {
		set["null"] = true
	}
	return set
}

// typePart is the expression of "type" and the type-specific keywords;
// "" when the schema does not restrict the type.
func (e *zodEmitter) typePart(s map[string]any, ptr string) string {
	set := zodTypeSet(s)
	if set == nil {
		constrained := false
		for k := range s {
			constrained = constrained || zodTypeKeywords[k] != ""
		}
		if !constrained {
			return ""
		}
		set = map[string]bool{}
		if e.known != "" {
			set[e.known] = true
		} else {
			for _, t := range zodAllTypes {
				set[t] = true
			}
		}
	}
	if set["integer"] && set["number"] {
		delete(set, "integer")
	}
	var opts []string
	order := []string{"string", "integer", "number", "boolean", "array", "object"}
	for _, t := range order {
		if set[t] {
			opts = append(opts, e.typed(t, s, ptr))
		}
	}
	for t := range set {
		if t != "null" && !strings.Contains(strings.Join(order, " "), t) {
			e.warn(ptr+"/type", "unknown type %q: no value of it is accepted", t)
		}
	}
	var code string
	switch len(opts) {
	case 0:
		if set["null"] {
			return "z.null()"
		}
		return "z.never()"
	case 1:
		code = opts[0]
	default:
		code = "z.union([" + strings.Join(opts, ", ") + "])"
	}
	if set["null"] {
		code += ".nullable()"
	}
	return code
}

func (e *zodEmitter) typed(t string, s map[string]any, ptr string) string {
	switch t {
	case "string":
		return e.str(s, ptr)
	case "integer", "number":
		return e.number(s, ptr, t == "integer")
	case "boolean":
		return "z.boolean()"
	case "array":
		return e.array(s, ptr)
	case "object":
		return e.object(s, ptr)
	}
	return "z.never()"
}

// zodFormats4 and zodFormats3 are the formats Zod checks, as each major
// spells the check. Zod's rules are its own (regular expressions, or the
// URL parser for url), so each use is warned about: at the edges they
// accept and reject differently from JSON Schema validators such as
// ajv-formats, and JSON Schema 2020-12 treats format as an annotation
// unless a validator opts in.
var zodFormats4 = map[string]string{
	"email": "z.email()", "uri": "z.url()", "url": "z.url()", "uuid": "z.guid()",
	"date-time": "z.iso.datetime({ offset: true })", "date": "z.iso.date()",
	"ipv4": "z.ipv4()", "ipv6": "z.ipv6()", "hostname": "z.hostname()",
	"duration": "z.iso.duration()",
}

var zodFormats3 = map[string]string{
	"email": "z.string().email()", "uri": "z.string().url()", "url": "z.string().url()",
	"uuid": "z.string().uuid()", "date-time": "z.string().datetime({ offset: true })",
	"date": "z.string().date()", "ipv4": "z.string().ip({ version: \"v4\" })",
	"ipv6": "z.string().ip({ version: \"v6\" })", "duration": "z.string().duration()",
}

func (e *zodEmitter) str(s map[string]any, ptr string) string {
	code := "z.string()"
	if f, ok := s["format"].(string); ok {
		table := zodFormats3
		if e.v4() {
			table = zodFormats4
		}
		if c, ok := table[f]; ok {
			code = c
			e.warn(ptr+"/format", "format %q is checked by Zod's own rule, which differs from JSON Schema validators on edge cases", f)
		} else {
			e.warn(ptr+"/format", "format %q has no Zod check: any string is accepted", f)
		}
	}
	if n, ok := zodCount(s, "minLength"); ok {
		code += fmt.Sprintf(".min(%d)", n)
	}
	if n, ok := zodCount(s, "maxLength"); ok {
		code += fmt.Sprintf(".max(%d)", n)
	}
	if p, ok := s["pattern"].(string); ok {
		code += ".regex(" + e.regex(p, ptr+"/pattern", "no string matches") + ")"
	}
	return code
}

// regex is the JavaScript expression of the pattern p at ptr: a regular
// expression literal with the u flag, rebuilt from the pattern's parse
// tree, as JSON Schema validators compile patterns. A pattern the parser
// refuses is never written as a literal (a literal the engine refuses is a
// syntax error for the whole module): it goes, as an inert string, to the
// pattern helper, which compiles it when the module loads, with the u flag
// or else without it (the legacy syntax that accepts escapes such as \_),
// and matches nothing when neither compiles. noMatch says what that means
// where p is used.
func (e *zodEmitter) regex(p, ptr, noMatch string) string {
	lit, err := jscode.Regexp(p)
	if err == nil {
		return lit
	}
	e.warn(ptr, "pattern %q is not written as a regular expression literal: %v in Unicode mode, the mode Ajv and other JSON Schema validators compile patterns in; the module compiles it when it loads, without the u flag if need be, and if that fails too, %s", p, err, noMatch)
	return e.use("pattern") + "(" + jscode.String(p) + ")"
}

func (e *zodEmitter) number(s map[string]any, ptr string, integer bool) string {
	code := "z.number()"
	if integer {
		code += ".int()"
		if e.v4() && zodUnsafeInts(s) {
			e.warn(ptr, "Zod 4's .int() accepts only safe integers (up to 2^53-1 in magnitude), and this schema names larger ones")
		}
	}
	num := func(k string) (string, bool) {
		n, ok := s[k].(json.Number)
		if !ok {
			return "", false
		}
		return jscode.Number(string(n))
	}
	if m, ok := num("minimum"); ok {
		if s["exclusiveMinimum"] == true {
			code += ".gt(" + m + ")"
		} else {
			code += ".gte(" + m + ")"
		}
	}
	if m, ok := num("maximum"); ok {
		if s["exclusiveMaximum"] == true {
			code += ".lt(" + m + ")"
		} else {
			code += ".lte(" + m + ")"
		}
	}
	if m, ok := num("exclusiveMinimum"); ok {
		code += ".gt(" + m + ")"
	}
	if m, ok := num("exclusiveMaximum"); ok {
		code += ".lt(" + m + ")"
	}
	if m, ok := num("multipleOf"); ok {
		code += ".multipleOf(" + m + ")"
		if zodKind(json.Number(m)) != "integer" {
			e.warn(ptr+"/multipleOf", "a fractional multipleOf is checked with floating-point tolerance by Zod and exactly by JSON Schema validators; they may disagree")
		}
	}
	return code
}

// zodCount reads a non-negative integer keyword.
func zodCount(s map[string]any, k string) (int64, bool) {
	n, ok := s[k].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	if err != nil || f < 0 || f > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// zodUnsafeInts reports whether a schema's bounds or listed values go
// beyond the integers JavaScript represents exactly.
func zodUnsafeInts(s map[string]any) bool {
	var vals []any
	for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "default", "const"} {
		vals = append(vals, s[k])
	}
	for _, k := range []string{"enum", "examples"} {
		if l, ok := s[k].([]any); ok {
			vals = append(vals, l...)
		}
	}
	for _, v := range vals {
		if n, ok := v.(json.Number); ok {
			if f, err := n.Float64(); err == nil && (f > 1<<53-1 || f < -(1<<53-1)) {
				return true
			}
		}
	}
	return false
}
