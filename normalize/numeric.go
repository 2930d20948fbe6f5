package normalize

import (
	"math"

	"github.com/mcpfit/mcplint/schema"
)

// Form is the combinator IntegerTolerant joins the numeric schema and its
// string form with. The branches are disjoint (one admits numbers, the other
// strings), so both forms accept the same values; they differ in who reads
// them: OpenAI's strict mode and Gemini's function declarations take anyOf
// but not oneOf.
type Form string

const (
	OneOf Form = "oneOf"
	AnyOf Form = "anyOf"
)

// TolerantOptions tune IntegerTolerant.
type TolerantOptions struct {
	// Form is OneOf (the zero value means OneOf) or AnyOf.
	Form Form
}

// The string forms NumericPattern chooses from. Integers are spelled in
// decimal digits only, as JSON spells an integer literal and as a server's
// integer parser (parseInt, strconv.Atoi) reads them: no fraction, no
// exponent, no plus sign, no leading zeros. Numbers take the whole JSON number
// grammar (RFC 8259, section 6). The bounded forms accept no minus sign at
// all, so they also refuse the spellings of negative zero.
//
// The patterns use only syntax that ECMA-262 (with or without its u and v
// flags) and RE2 read alike: anchors, groups, classes of digits and letters,
// ?, *, +, |, and the escapes \. and \+. Every validator, in JavaScript or in
// Go, accepts exactly the same strings.
const (
	integerPattern            = `^-?(0|[1-9][0-9]*)$`
	nonNegativeIntegerPattern = `^(0|[1-9][0-9]*)$`
	positiveIntegerPattern    = `^[1-9][0-9]*$`
	numberPattern             = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE](\+|-)?[0-9]+)?$`
	nonNegativeNumberPattern  = `^(0|[1-9][0-9]*)(\.[0-9]+)?([eE](\+|-)?[0-9]+)?$`
	// A positive number has a non-zero digit before the exponent.
	positiveNumberPattern = `^(0\.[0-9]*[1-9][0-9]*|[1-9][0-9]*(\.[0-9]+)?)([eE](\+|-)?[0-9]+)?$`
)

// RejectsNumericStrings reports whether s is a schema IntegerTolerant
// rewrites: its own "type" names integer or number but not string, so it
// refuses "1" where it accepts 1. It leaves alone:
//   - schemas without a type of their own (they already accept strings, or
//     take their type from a $ref or a combinator whose other users a rewrite
//     could break);
//   - enum and const schemas: the model copies the listed values as written,
//     and a string list of them would have to guess their spellings;
//   - schemas carrying "x-mcp-header": the MCP specification (2026-07-28,
//     server/tools, "x-mcp-header") requires those parameters to have a
//     primitive type, and clients drop a tool that breaks the rule.
func RejectsNumericStrings(s any) bool {
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range []string{"x-mcp-header", "enum", "const"} {
		if _, ok := m[k]; ok {
			return false
		}
	}
	numeric := schema.HasType(m, "integer") || schema.HasType(m, "number")
	return numeric && !schema.HasType(m, "string")
}

// IntegerTolerant rewrites a numeric schema (see RejectsNumericStrings) so
// that it also accepts the decimal string of a value it accepts:
//
//	{"description": "…", "oneOf": [{"type": "integer", "minimum": 1},
//	                               {"type": "string", "pattern": "^[1-9][0-9]*$"}]}
//
// Keywords that constrain the value (type, bounds, multipleOf, format,
// nullable, $ref, applicators, every other assertion) move into the first
// branch, so none of them applies to the string branch. Keywords that describe
// the parameter stay beside the combinator: annotations (title, description,
// default, examples, deprecated, readOnly, writeOnly, $comment), identifiers
// ($id, $anchor, $schema), $defs (so pointers into them still resolve),
// x-* extensions and every keyword JSON Schema does not define. The pattern is
// NumericPattern's. Any other schema comes back as an unchanged copy.
func IntegerTolerant(s any, o TolerantOptions) any {
	m, ok := s.(map[string]any)
	if !ok || !RejectsNumericStrings(m) {
		return schema.Clone(s)
	}
	pattern, _ := NumericPattern(m)
	numeric := map[string]any{}
	out := map[string]any{}
	for k, v := range m {
		if valueKeywords[k] {
			numeric[k] = schema.Clone(v)
		} else {
			out[k] = schema.Clone(v)
		}
	}
	form := OneOf
	if o.Form == AnyOf {
		form = AnyOf
	}
	out[string(form)] = []any{numeric, map[string]any{"type": "string", "pattern": pattern}}
	return out
}

// valueKeywords are the JSON Schema keywords (2020-12 and the drafts MCP
// servers still emit, plus OpenAPI's nullable) that say what a value must be.
var valueKeywords = map[string]bool{
	"type": true, "enum": true, "const": true, "format": true, "nullable": true,
	"multipleOf": true, "minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"minLength": true, "maxLength": true, "pattern": true, "contentEncoding": true, "contentMediaType": true, "contentSchema": true,
	"items": true, "prefixItems": true, "additionalItems": true, "unevaluatedItems": true, "contains": true,
	"minContains": true, "maxContains": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"properties": true, "patternProperties": true, "additionalProperties": true, "unevaluatedProperties": true,
	"propertyNames": true, "required": true, "dependentRequired": true, "dependentSchemas": true, "dependencies": true,
	"minProperties": true, "maxProperties": true,
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
	"$ref": true, "$dynamicRef": true, "$recursiveRef": true,
}

// NumericPattern returns the pattern of the strings that stand for the values
// numeric schema s accepts, and whether it is exact. It encodes the type
// (integer, or number when the type names number) and the sign its lower
// bound demands; it is exact when that is all there is to say: no bound, or
// for integers minimum 0 or 1 (or exclusiveMinimum 0), for numbers minimum 0
// or exclusiveMinimum 0, and no maximum or multipleOf. Otherwise the pattern
// is wider than the schema, which keeps a fix that adds it safe: the server,
// which must validate its inputs anyway, refuses the rest.
func NumericPattern(s map[string]any) (pattern string, exact bool) {
	exact = true
	for _, k := range []string{"maximum", "exclusiveMaximum", "multipleOf"} {
		if _, ok := s[k]; ok {
			exact = false
		}
	}
	integer := schema.HasType(s, "integer") && !schema.HasType(s, "number")
	b, bounded, known := lowerBound(s)
	if !known {
		exact = false
	}
	if integer {
		if !bounded {
			return integerPattern, exact
		}
		// The least integer the bound admits.
		least := math.Ceil(b.value)
		if b.exclusive {
			least = math.Floor(b.value) + 1
		}
		switch {
		case least == 0:
			return nonNegativeIntegerPattern, exact
		case least == 1:
			return positiveIntegerPattern, exact
		case least > 1:
			return positiveIntegerPattern, false
		}
		return integerPattern, false
	}
	if !bounded {
		return numberPattern, exact
	}
	switch {
	case b.value == 0 && !b.exclusive:
		return nonNegativeNumberPattern, exact
	case b.value == 0:
		return positiveNumberPattern, exact
	case b.value > 0:
		return positiveNumberPattern, false
	}
	return numberPattern, false
}

type bound struct {
	value     float64
	exclusive bool
}

// lowerBound returns the tighter of minimum and exclusiveMinimum, reading
// exclusiveMinimum both as a number (2019-09 and later, draft 6 and 7) and as
// draft 4's boolean modifier of minimum. known is false when a bound is not a
// number mcplint can read.
func lowerBound(s map[string]any) (b bound, bounded, known bool) {
	known = true
	consider := func(c bound) {
		if !bounded || c.value > b.value || c.value == b.value && c.exclusive {
			b, bounded = c, true
		}
	}
	excl, _ := s["exclusiveMinimum"].(bool)
	if v, ok := s["minimum"]; ok {
		if f, ok := number(v); ok {
			consider(bound{f, excl})
		} else {
			known = false
		}
	}
	if v, ok := s["exclusiveMinimum"]; ok {
		if _, isBool := v.(bool); !isBool {
			if f, ok := number(v); ok {
				consider(bound{f, true})
			} else {
				known = false
			}
		}
	}
	return b, bounded, known
}

// number is schema.Number, finite only: a bound of ±Inf or NaN (which only
// a non-JSON decoder yields) bounds nothing a pattern can say.
func number(v any) (float64, bool) {
	f, ok := schema.Number(v)
	return f, ok && !math.IsInf(f, 0) && !math.IsNaN(f)
}
