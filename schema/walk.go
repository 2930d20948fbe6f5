// Package schema knows the shape of JSON Schema documents as tools carry
// them: which keywords hold subschemas (one walker visits them all, for every
// rule and every transform), which dialect a schema declares, and how local
// references resolve. It reads decoded JSON values (map[string]any and
// friends) and never fetches anything.
package schema

import (
	"strconv"

	"github.com/mcplint/mcplint/manifest"
)

// Keywords whose value is one subschema.
var singleKeywords = []string{
	"additionalProperties", "additionalItems", "contains", "not", "if", "then", "else",
	"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "items",
}

// Keywords whose value maps names to subschemas.
var mapKeywords = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}

// Keywords whose value is a list of subschemas.
var listKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}

// Visit is called for each subschema that is an object (boolean schemas
// have nothing to inspect). Returning false skips the subschemas below it.
type Visit func(s map[string]any, ptr string, depth int) bool

// Walk visits root (at pointer base) and every subschema below it, parents
// before children, members in sorted key order so reports are stable.
func Walk(root any, base string, fn Visit) {
	walk(root, base, 0, fn)
}

func walk(v any, ptr string, depth int, fn Visit) {
	s, ok := v.(map[string]any)
	if !ok || depth > manifest.MaxDepth {
		return
	}
	if !fn(s, ptr, depth) {
		return
	}
	Children(s, ptr, func(c any, cptr string) {
		walk(c, cptr, depth+1, fn)
	})
}

// Children calls fn for each direct subschema of s, with its pointer.
func Children(s map[string]any, ptr string, fn func(child any, ptr string)) {
	for _, k := range singleKeywords {
		if c, ok := s[k]; ok {
			if _, isList := c.([]any); !isList {
				fn(c, ptr+"/"+manifest.EscapePointerToken(k))
			}
		}
	}
	for _, k := range mapKeywords {
		if m, ok := s[k].(map[string]any); ok {
			for _, name := range manifest.SortedKeys(m) {
				if k == "dependencies" {
					if _, isList := m[name].([]any); isList {
						continue
					}
				}
				fn(m[name], ptr+"/"+manifest.EscapePointerToken(k)+"/"+manifest.EscapePointerToken(name))
			}
		}
	}
	for _, k := range listKeywords {
		if l, ok := s[k].([]any); ok {
			for i, c := range l {
				fn(c, ptr+"/"+k+"/"+strconv.Itoa(i))
			}
		}
	}
}

// Types returns the types a schema names with "type" (a string or a list).
func Types(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if str, ok := e.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	return nil
}

// HasType reports whether s names type t.
func HasType(s map[string]any, t string) bool {
	for _, x := range Types(s) {
		if x == t {
			return true
		}
	}
	return false
}

// Clone deep-copies a decoded JSON value, so transforms never alias the
// value they were given.
func Clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Clone(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Clone(e)
		}
		return out
	}
	return v
}
