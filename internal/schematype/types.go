// Package schematype reads the "type" keyword of a decoded JSON Schema with
// nothing but the language itself, so that package schema and the packages
// that must not link it (coerce, which Go servers import without the rest of
// mcplint) read it the same way.
package schematype

// Names returns the types a schema names with "type" (a string or a list);
// members of a list that are not strings are skipped.
func Names(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if name, ok := e.(string); ok {
				out = append(out, name)
			}
		}
		return out
	}
	return nil
}
