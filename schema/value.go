package schema

import (
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/internal/schematype"
)

// Types returns the types a schema names with "type" (a string or a list).
func Types(s map[string]any) []string { return schematype.Names(s) }

// HasType reports whether s names type t.
func HasType(s map[string]any, t string) bool {
	switch x := s["type"].(type) {
	case string:
		return x == t
	case []any:
		for _, e := range x {
			if e == any(t) {
				return true
			}
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

// KindWithArticle is Kind for a sentence: "an array", "a string", "null".
func KindWithArticle(v any) string {
	if v == nil {
		return "null"
	}
	return english.A(Kind(v))
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
