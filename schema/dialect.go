package schema

import "strings"

// Dialect identifiers, as mcplint names them.
const (
	Draft4       = "draft-04"
	Draft6       = "draft-06"
	Draft7       = "draft-07"
	Draft2019    = "2019-09"
	Draft2020    = "2020-12"
	UnknownDraft = ""
)

var dialectURIs = map[string]string{
	"json-schema.org/draft-04/schema":      Draft4,
	"json-schema.org/draft-06/schema":      Draft6,
	"json-schema.org/draft-07/schema":      Draft7,
	"json-schema.org/draft/2019-09/schema": Draft2019,
	"json-schema.org/draft/2020-12/schema": Draft2020,
}

// Dialect returns the dialect a root schema declares with $schema. MCP
// defaults to 2020-12 when $schema is absent (spec 2025-11-25 and later,
// "JSON Schema Usage"). declared is the raw $schema value ("" when absent);
// dialect is UnknownDraft when the value names no dialect mcplint knows.
func Dialect(root any) (dialect, declared string) {
	s, ok := root.(map[string]any)
	if !ok {
		return Draft2020, ""
	}
	v, ok := s["$schema"].(string)
	if !ok {
		return Draft2020, ""
	}
	u := strings.TrimSuffix(strings.TrimSuffix(v, "#"), "/")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	if d, ok := dialectURIs[u]; ok {
		return d, v
	}
	return UnknownDraft, v
}

// RefSiblingsIgnored reports whether a dialect ignores keywords beside $ref
// (draft-07 and older), so an object root next to a $ref does not count.
func RefSiblingsIgnored(d string) bool {
	return d == Draft4 || d == Draft6 || d == Draft7
}
