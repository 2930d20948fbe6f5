package normalize

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mcpfit/mcplint/schema"
)

// geminiAnnotation are the keywords that describe a value without
// constraining it; merges keep the first schema's.
var geminiAnnotation = map[string]bool{
	"title": true, "description": true, "default": true, "example": true, "examples": true, "$comment": true,
}

// geminiTypeKeywords says which type each type-specific keyword applies to,
// so that "type": ["string", "array"] splits into branches that each keep
// their own keywords ("number" covers integer too).
var geminiTypeKeywords = map[string]string{
	"minLength": "string", "maxLength": "string", "pattern": "string",
	"contentEncoding": "string", "contentMediaType": "string", "contentSchema": "string",
	"minimum": "number", "maximum": "number", "exclusiveMinimum": "number",
	"exclusiveMaximum": "number", "multipleOf": "number",
	"items": "array", "prefixItems": "array", "additionalItems": "array", "minItems": "array",
	"maxItems": "array", "uniqueItems": "array", "contains": "array", "minContains": "array",
	"maxContains": "array", "unevaluatedItems": "array",
	"properties": "object", "required": "object", "additionalProperties": "object",
	"patternProperties": "object", "propertyNames": "object", "minProperties": "object",
	"maxProperties": "object", "dependentRequired": "object", "dependentSchemas": "object",
	"dependencies": "object", "unevaluatedProperties": "object", "propertyOrdering": "object",
}

// geminiDropped says, for the JSON Schema keywords Gemini's subset lacks,
// what is lost when one goes. A keyword missing here and from the subset is
// not JSON Schema at all.
var geminiDropped = map[string]string{
	"additionalProperties":  "properties the schema does not list are no longer constrained",
	"patternProperties":     "properties matching its patterns are no longer constrained",
	"propertyNames":         "property names are no longer constrained",
	"unevaluatedProperties": "properties no other keyword evaluates are no longer constrained",
	"dependentRequired":     "properties required only when others are present are no longer required",
	"dependentSchemas":      "constraints that apply only when a property is present are no longer checked",
	"dependencies":          "constraints that apply only when a property is present are no longer checked",
	"multipleOf":            "values no longer have to be multiples of it",
	"not":                   "values it excluded are now accepted",
	"if":                    "its conditional constraint is no longer checked",
	"then":                  "its conditional constraint is no longer checked",
	"else":                  "its conditional constraint is no longer checked",
	"contains":              "arrays no longer have to contain a matching item",
	"minContains":           "arrays no longer have to contain a matching item",
	"maxContains":           "arrays no longer have to contain a matching item",
	"uniqueItems":           "duplicate items are now accepted",
	"prefixItems":           "the per-position item schemas are no longer checked",
	"additionalItems":       "items after the listed positions are no longer constrained",
	"unevaluatedItems":      "items no other keyword evaluates are no longer constrained",
	"$dynamicRef":           "the dynamic reference is not followed; any value is accepted there",
	"$recursiveRef":         "the recursive reference is not followed; any value is accepted there",
	"$dynamicAnchor":        "dynamic references to it no longer resolve",
	"$recursiveAnchor":      "recursive references to it no longer resolve",
	"deprecated":            "the model no longer reads that the value is deprecated",
	"readOnly":              "the model no longer reads that the value is read-only",
	"writeOnly":             "the model no longer reads that the value is write-only",
	"contentEncoding":       "the model no longer reads the string's encoding",
	"contentMediaType":      "the model no longer reads the string's media type",
	"contentSchema":         "the string's content is no longer described",
	"id":                    "its draft-04 identifier no longer names the schema",
}

// harmless reports whether dropping keyword k with value v loses nothing:
// it states what holds anyway.
func harmless(k string, v any) bool {
	switch k {
	case "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "additionalItems":
		if b, ok := v.(bool); ok {
			return b
		}
		m, ok := v.(map[string]any)
		return ok && len(m) == 0
	case "uniqueItems", "deprecated", "readOnly", "writeOnly":
		b, ok := v.(bool)
		return ok && !b
	case "minContains":
		f, ok := number(v)
		return ok && f == 1
	}
	return false
}

// GeminiRewrite returns a copy of node with one keyword rewritten the way
// Gemini does it, and what that loses. Only node's own keywords change; its
// subschemas are left as they are. keyword is one Gemini rewrites ("allOf",
// "oneOf", "type", "anyOf", "const", "enum", "exclusiveMinimum",
// "exclusiveMaximum", "format", "examples") or any other keyword outside
// the subset, which is removed. A keyword that is only removed leaves the
// copy sharing node's other values, which neither side may then change: the
// rules ask this of the root of every schema ("additionalProperties"), and
// a deep copy each time was most of their work.
func GeminiRewrite(node map[string]any, keyword, ptr string) (map[string]any, []Loss) {
	var out map[string]any
	if geminiRewritten[keyword] {
		out = schema.Clone(node).(map[string]any)
	} else {
		out = maps.Clone(node)
	}
	var ls []Loss
	rewriteKeyword(out, keyword, ptr, &ls)
	return out, ls
}

// geminiRewritten are the keywords rewriteKeyword rewrites; it removes any
// other.
var geminiRewritten = map[string]bool{
	"allOf": true, "oneOf": true, "type": true, "anyOf": true, "const": true, "enum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "format": true, "examples": true,
}

func rewriteKeyword(out map[string]any, k, ptr string, ls *[]Loss) {
	switch k {
	case "allOf":
		geminiAllOf(out, ptr, ls)
	case "oneOf":
		geminiOneOf(out, ptr, ls)
	case "type":
		geminiTypeList(out, ptr, ls)
	case "anyOf":
		geminiNullBranches(out, ptr, ls)
	case "const", "enum":
		geminiEnum(out, ptr, ls)
	case "exclusiveMinimum", "exclusiveMaximum":
		geminiExclusive(out, k, ptr, ls)
	case "format":
		geminiFormat(out, ptr, ls)
	case "examples":
		geminiExamples(out, ptr, ls)
	default:
		if _, ok := out[k]; ok && !geminiKeywords[k] {
			dropKeyword(out, k, ptr, ls)
		}
	}
}

// geminiLocal rewrites all of a node's own keywords, in an order where each
// step sees what the previous ones produced.
func geminiLocal(out map[string]any, ptr string) []Loss {
	var ls []Loss
	for i := 0; i < 8 && out["allOf"] != nil; i++ {
		geminiAllOf(out, ptr, &ls)
	}
	for _, k := range []string{"oneOf", "type", "anyOf", "enum", "exclusiveMinimum", "exclusiveMaximum", "format", "examples"} {
		rewriteKeyword(out, k, ptr, &ls)
	}
	for _, k := range slices.Sorted(maps.Keys(out)) {
		if !geminiKeywords[k] {
			dropKeyword(out, k, ptr, &ls)
		}
	}
	geminiMalformed(out, ptr, &ls)
	return ls
}

// geminiMalformed drops the subset's subschema keywords whose value has a
// shape Gemini cannot read: "items" as a list (a tuple, before 2020-12),
// "properties" that is not an object, "anyOf" that is not a list.
func geminiMalformed(out map[string]any, ptr string, ls *[]Loss) {
	if v, ok := out["items"]; ok {
		switch v.(type) {
		case map[string]any:
		case bool:
			out["items"] = map[string]any{}
			if v == false {
				loss(ls, ptr, "items", "\"items\": false (no items allowed) cannot be said in Gemini's subset; any item is accepted")
			}
		default:
			delete(out, "items")
			loss(ls, ptr, "items", "\"items\" as a list (a tuple) is dropped: the per-position item schemas are no longer checked")
		}
	}
	if v, ok := out["properties"]; ok {
		if _, isMap := v.(map[string]any); !isMap {
			delete(out, "properties")
			loss(ls, ptr, "properties", "\"properties\" is not an object and is dropped")
		}
	}
	if v, ok := out["anyOf"]; ok {
		if _, isList := v.([]any); !isList {
			delete(out, "anyOf")
			loss(ls, ptr, "anyOf", "\"anyOf\" is not a list and is dropped")
		}
	}
}

func loss(ls *[]Loss, ptr, k, format string, args ...any) {
	*ls = append(*ls, Loss{Pointer: ptr, Keyword: k, What: fmt.Sprintf(format, args...)})
}

func dropKeyword(out map[string]any, k, ptr string, ls *[]Loss) {
	v := out[k]
	delete(out, k)
	switch {
	case geminiMetadata[k] || harmless(k, v):
	case geminiDropped[k] != "":
		loss(ls, ptr, k, "%q is dropped: %s", k, geminiDropped[k])
	default:
		loss(ls, ptr, k, "%q is dropped: it is not JSON Schema, and Gemini refuses unknown fields", k)
	}
}

// geminiAllOf merges the branches of allOf into the node.
func geminiAllOf(out map[string]any, ptr string, ls *[]Loss) {
	branches, ok := out["allOf"].([]any)
	delete(out, "allOf")
	if !ok {
		return
	}
	var g merger
	for _, b := range branches {
		switch x := b.(type) {
		case map[string]any:
			*ls = append(*ls, g.merge(out, schema.Clone(x).(map[string]any), ptr, "allOf")...)
		case bool:
			if !x {
				loss(ls, ptr, "allOf", "a branch false accepts no value; Gemini cannot say so")
			}
		}
	}
}

// geminiOneOf turns oneOf into anyOf. They accept the same values when no
// value can match two branches.
func geminiOneOf(out map[string]any, ptr string, ls *[]Loss) {
	branches, ok := out["oneOf"].([]any)
	if !ok {
		return
	}
	delete(out, "oneOf")
	if _, has := out["anyOf"]; has {
		loss(ls, ptr, "oneOf", "oneOf beside anyOf cannot be expressed in Gemini's subset; the oneOf branches are dropped")
		return
	}
	out["anyOf"] = branches
	if !disjoint(branches) {
		loss(ls, ptr, "oneOf", "oneOf becomes anyOf: a value that matches several branches, refused before, is now accepted")
	}
}

// disjoint reports whether no value can match two of the branches: each
// names one type no other names (integer and number overlap), or each
// requires one property to hold values no other branch allows.
func disjoint(branches []any) bool {
	seen := map[string]bool{}
	byType := true
	for _, b := range branches {
		m, ok := b.(map[string]any)
		t := schema.Types(m)
		if !ok || len(t) != 1 || seen[t[0]] || m["nullable"] == true && seen["null"] {
			byType = false
			break
		}
		seen[t[0]] = true
		if m["nullable"] == true {
			seen["null"] = true
		}
	}
	if len(branches) == 0 || byType && !(seen["integer"] && seen["number"]) {
		return true
	}
	if disjointValues(branches) {
		return true
	}
	first, _ := branches[0].(map[string]any)
	props, _ := first["properties"].(map[string]any)
	req := make([]map[string]bool, len(branches))
	for i, b := range branches {
		m, _ := b.(map[string]any)
		req[i] = requiredSet(m)
	}
	for _, p := range slices.Sorted(maps.Keys(props)) {
		taken := map[string]bool{}
		ok := true
		for i, b := range branches {
			vals, found := discriminator(b, req[i], p)
			if !found {
				ok = false
				break
			}
			for _, v := range vals {
				if taken[v] {
					ok = false
				}
				taken[v] = true
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// disjointValues reports whether every branch lists its values (const or
// enum) and no value is listed twice: a value matches a branch only if the
// branch lists it.
func disjointValues(branches []any) bool {
	return distinctValues(len(branches), func(i int) ([]any, bool) {
		m, _ := branches[i].(map[string]any)
		return values(m)
	})
}

// discriminator returns the string values a branch requires property p to
// hold, when it requires p and limits it with enum or const.
func discriminator(b any, req map[string]bool, p string) ([]string, bool) {
	m, _ := b.(map[string]any)
	if !req[p] {
		return nil, false
	}
	props, _ := m["properties"].(map[string]any)
	ps, _ := props[p].(map[string]any)
	var raw []any
	if c, ok := ps["const"]; ok {
		raw = []any{c}
	} else if e, ok := ps["enum"].([]any); ok {
		raw = e
	} else {
		return nil, false
	}
	var out []string
	for _, v := range raw {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, len(out) > 0
}
