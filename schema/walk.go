// Package schema knows the shape of JSON Schema documents as tools carry
// them: which keywords hold subschemas (one walker visits them all, for every
// rule and every transform), which dialect a schema declares, how local
// references resolve, and when two values are equal as JSON. It reads
// decoded JSON values (map[string]any and friends) and never fetches
// anything.
package schema

import (
	"slices"
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
	if !ok || depth > manifest.DepthCeiling {
		return
	}
	if !fn(s, ptr, depth) {
		return
	}
	children(s, ptr, true, func(c any, cptr string) {
		walk(c, cptr, depth+1, fn)
	})
}

// Children calls fn for each direct subschema of s, with its pointer.
func Children(s map[string]any, ptr string, fn func(child any, ptr string)) {
	children(s, ptr, false, fn)
}

// keywordAt numbers the keywords that hold subschemas in the order children
// visits them: singleKeywords, then mapKeywords, then listKeywords ("items"
// appears in both the first and the last).
var keywordAt = func() map[string][]int {
	m := map[string][]int{}
	for i, k := range slices.Concat(singleKeywords, mapKeywords, listKeywords) {
		m[k] = append(m[k], i)
	}
	return m
}()

// Pointer prefixes of the keywords, escaped once.
var (
	singlePrefix = prefixes(singleKeywords, "")
	mapPrefix    = prefixes(mapKeywords, "/")
	listPrefix   = prefixes(listKeywords, "/")
)

func prefixes(keywords []string, suffix string) []string {
	out := make([]string, len(keywords))
	for i, k := range keywords {
		out[i] = "/" + manifest.EscapePointerToken(k) + suffix
	}
	return out
}

// children is Children; objectsOnly skips the children that are not
// objects (which Walk does not visit) before building their pointers.
// Every subschema's pointer is built, so it looks up only the keywords s
// has: most schemas have a few members, and the keywords are many.
func children(s map[string]any, ptr string, objectsOnly bool, fn func(child any, ptr string)) {
	var present uint64 // bit i: keyword i of keywordAt
	if len(s) < len(keywordAt) {
		for k := range s {
			for _, i := range keywordAt[k] {
				present |= 1 << i
			}
		}
	} else {
		present = ^uint64(0)
	}
	if present == 0 {
		return
	}
	for i, k := range singleKeywords {
		if present&(1<<i) == 0 {
			continue
		}
		if c, ok := s[k]; ok {
			if _, isList := c.([]any); !isList && (!objectsOnly || isObject(c)) {
				fn(c, ptr+singlePrefix[i])
			}
		}
	}
	bit := len(singleKeywords)
	for i, k := range mapKeywords {
		if present&(1<<(bit+i)) == 0 {
			continue
		}
		if m, ok := s[k].(map[string]any); ok {
			var small [16]string
			for _, name := range manifest.SortedKeysInto(small[:0], m) {
				c := m[name]
				if k == "dependencies" {
					if _, isList := c.([]any); isList {
						continue
					}
				}
				if objectsOnly && !isObject(c) {
					continue
				}
				fn(c, ptr+mapPrefix[i]+manifest.EscapePointerToken(name))
			}
		}
	}
	bit += len(mapKeywords)
	for i, k := range listKeywords {
		if present&(1<<(bit+i)) == 0 {
			continue
		}
		if l, ok := s[k].([]any); ok {
			for j, c := range l {
				if objectsOnly && !isObject(c) {
					continue
				}
				fn(c, ptr+listPrefix[i]+strconv.Itoa(j))
			}
		}
	}
}

func isObject(v any) bool {
	_, ok := v.(map[string]any)
	return ok
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

// Kind names the JSON type of a decoded value, as messages spell it.
func Kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "number"
}
