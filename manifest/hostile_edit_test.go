package manifest_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	yamlv4 "go.yaml.in/yaml/v4"

	"github.com/mcpfit/mcplint/internal/hostile"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
)

// hostileSources are manifests in the spellings a fix writes into: JSON
// spread over lines and on one line, YAML in block and flow style, with
// comments.
var hostileSources = map[string]string{
	"pretty.json": "{\n  \"tools\": [\n    {\n      \"name\": \"t\",\n      \"inputSchema\": {\n        \"type\": \"object\",\n" +
		"        \"properties\": {\n          \"a\": {\"type\": \"string\", \"description\": \"x\"}\n        },\n        \"required\": [\"a\"]\n      }\n    }\n  ]\n}\n",
	"compact.json": `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string","description":"x"}},"required":["a"]}}]}`,
	"block.yaml": "# tools\ntools:\n  - name: t # the tool\n    inputSchema:\n      type: object\n      properties:\n" +
		"        a:\n          type: string\n          description: x # said\n      required:\n        - a\n",
	"flow.yaml":       "tools: [{name: t, inputSchema: {type: object, properties: {a: {type: string, description: x}}, required: [a]}}]\n",
	"indentless.yaml": "tools:\n- name: t\n  inputSchema:\n    type: object\n    properties:\n      a: {type: string, description: x}\n    required:\n    - a\n",
}

// TestEditHostileStrings splices every hostile string, as a key and as a
// value, into each source the ways fixes do (a new member, a replaced
// scalar, an appended element, a rewritten object), and reads the output
// back with the loader's own parser, and YAML also with a second one: the
// document must be exactly the one intended, whatever the string.
func TestEditHostileStrings(t *testing.T) {
	for name, src := range hostileSources {
		m, err := manifest.Load(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tool := m.Tools[0]
		before, err := tool.Value()
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hostile.Strings {
			prop := "/inputSchema/properties/" + pointer.Escape(h)
			for _, e := range []manifest.Edit{
				ed(add, prop, map[string]any{"type": "string", "description": h, "default": h, "enum": []any{h, "x"}, h: []any{h}}),
				ed(replace, "/inputSchema/properties/a/description", h),
				ed(add, "/inputSchema/required/-", h),
				ed(add, "/inputSchema/required/0", h),
				ed(replace, "/inputSchema", map[string]any{"type": "object", "properties": map[string]any{h: map[string]any{"title": h}}, "required": []any{h}}),
				ed(add, "/"+pointer.Escape(h), h),
			} {
				out, skipped, err := m.Apply([]manifest.ToolEdit{{Tool: tool, Edit: e}})
				if err != nil || skipped[0] {
					t.Errorf("%s: %s %.80s %.80q: not applied (%v)", name, e.Op, e.Pointer, h, err)
					continue
				}
				m2, err := manifest.Load(name, out)
				if err != nil {
					t.Errorf("%s: %s %.80s: the output does not load: %v\n%s", name, e.Op, e.Pointer, err, out)
					continue
				}
				if len(m2.Tools) != 1 {
					t.Errorf("%s: %s %.80s: %d tools\n%s", name, e.Op, e.Pointer, len(m2.Tools), out)
					continue
				}
				got, err := m2.Tools[0].Value()
				if err != nil {
					t.Errorf("%s: %s %.80s: %v", name, e.Op, e.Pointer, err)
					continue
				}
				want := applyModel(t, before, []manifest.Edit{e})
				if diff := cmp.Diff(normalizeNumbers(want), normalizeNumbers(got)); diff != "" {
					t.Errorf("%s: %s %.80s %.80q: decoded (-want +got):\n%s\n%s", name, e.Op, e.Pointer, h, diff, out)
					continue
				}
				if m.Format == manifest.YAML {
					var doc map[string]any
					if err := yamlv4.Unmarshal(out, &doc); err != nil {
						t.Errorf("%s: %s %.80s %.80q: another YAML parser refuses the output: %v\n%s", name, e.Op, e.Pointer, h, err, out)
					} else if tools, _ := doc["tools"].([]any); len(tools) != 1 || !cmp.Equal(normalizeNumbers(jsonRoundTrip(t, tools[0])), normalizeNumbers(got)) {
						t.Errorf("%s: %s %.80s %.80q: another YAML parser reads %v\n%s", name, e.Op, e.Pointer, h, doc, out)
					}
				}
			}
		}
	}
}
