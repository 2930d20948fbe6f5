package schema

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// CloneShell shares exactly the subschemas EachChild visits: writing into
// the copy's containers, or into any value that is not such a subschema,
// leaves the original as it was.
func TestCloneShell(t *testing.T) {
	const src = `{
		"type": "object", "enum": [["a"], {"b": 1}], "default": {"x": [1]},
		"properties": {"p": {"type": "string"}, "q": true},
		"dependencies": {"p": ["q"], "q": {"required": ["p"]}},
		"items": {"type": "integer"}, "prefixItems": [{"const": 1}, false],
		"anyOf": [{"minimum": 1}], "not": {"const": 2}, "$defs": {"d": {"type": "null"}}
	}`
	var s map[string]any
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		t.Fatal(err)
	}
	before := Clone(s)
	out := CloneShell(s)
	if diff := cmp.Diff(s, out); diff != "" {
		t.Fatalf("the copy differs (-s +copy):\n%s", diff)
	}
	var shared []string
	EachChild(s, func(c any, kw, name string, idx int) {
		if m, ok := c.(map[string]any); ok {
			shared = append(shared, kw+"/"+name)
			m["touched"] = true // through the original: the copy shares it
		}
	})
	EachChild(out, func(c any, kw, name string, idx int) {
		if m, ok := c.(map[string]any); ok && m["touched"] != true {
			t.Errorf("%s/%s: the copy does not share the subschema", kw, name)
		}
	})
	EachChild(s, func(c any, kw, name string, idx int) {
		if m, ok := c.(map[string]any); ok {
			delete(m, "touched")
		}
	})
	// Everything else is the copy's own.
	out["enum"].([]any)[0].([]any)[0] = "changed"
	out["default"].(map[string]any)["x"].([]any)[0] = 2
	out["properties"].(map[string]any)["p"] = "replaced"
	out["dependencies"].(map[string]any)["p"].([]any)[0] = "changed"
	out["prefixItems"].([]any)[0] = "replaced"
	out["anyOf"].([]any)[0] = "replaced"
	out["$defs"].(map[string]any)["d"] = "replaced"
	if diff := cmp.Diff(before, any(s)); diff != "" {
		t.Errorf("writing into the copy changed the original (-before +after):\n%s", diff)
	}
	if len(shared) < 7 {
		t.Errorf("only %d subschemas shared: %v", len(shared), shared)
	}
}
