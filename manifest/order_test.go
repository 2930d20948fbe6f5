package manifest_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/manifest"
)

// TestEditOrder checks that an edit with an Order writes the maps of names
// in its value in that order, nested ones included, in JSON and in YAML
// (block and flow), and that one without keeps writing them as before
// (schema.SortedKeys).
func TestEditOrder(t *testing.T) {
	rebuilt := map[string]any{"type": "object", "required": []any{"query"},
		"properties": map[string]any{
			"query": map[string]any{"type": "string"},
			"limit": map[string]any{"type": "integer"},
			"after": map[string]any{"type": "object", "properties": map[string]any{
				"tag": map[string]any{}, "properties": map[string]any{"type": "object", "properties": map[string]any{"z": map[string]any{}, "b": map[string]any{}}},
			}},
		}}
	order := map[string]int{"query": 1, "limit": 2, "after": 3, "tag": 4, "properties": 5, "z": 6, "b": 7}
	for name, src := range map[string]string{
		"pretty.json": "{\"tools\": [\n  {\n    \"name\": \"t\",\n    \"inputSchema\": {\"x\": 1}\n  }\n]}\n",
		"block.yaml":  "tools:\n  - name: t\n    inputSchema:\n      x: 1\n",
		"flow.yaml":   "tools: [{name: t, inputSchema: {x: 1}}]\n",
	} {
		m, err := manifest.Load(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, withOrder := range []bool{true, false} {
			e := manifest.Edit{Op: manifest.Replace, Pointer: "/inputSchema", Value: rebuilt}
			want := []string{"after", "properties", "b", "z", "tag", "limit", "query"}
			if withOrder {
				e.Order = order
				want = []string{"query", "limit", "after", "tag", "properties", "z", "b"}
			}
			out, _, err := m.Apply([]manifest.ToolEdit{{Tool: m.Tools[0], Edit: e}})
			if err != nil {
				t.Fatal(err)
			}
			if !inOrder(string(out), want) {
				t.Errorf("%s (order %v): names not in the order %v:\n%s", name, withOrder, want, out)
			}
			checkDecodes(t, out, name, rebuilt)
		}
	}
}

// inOrder reports whether each name of want appears, as a member name,
// after the one before it.
func inOrder(out string, want []string) bool {
	at := 0
	for _, w := range want {
		i := -1
		for _, spelling := range []string{`"` + w + `":`, " " + w + ":", "{" + w + ":"} {
			if j := strings.Index(out[at:], spelling); j >= 0 && (i < 0 || j < i) {
				i = j
			}
		}
		if i < 0 {
			return false
		}
		at += i + 1
	}
	return true
}

func checkDecodes(t *testing.T, out []byte, name string, want any) {
	t.Helper()
	m, err := manifest.Load(name, out)
	if err != nil {
		t.Fatalf("%s: the output does not load: %v\n%s", name, err, out)
	}
	v, err := m.Tools[0].Value()
	if err != nil {
		t.Fatal(err)
	}
	got := v.(map[string]any)["inputSchema"]
	if diff := cmp.Diff(normalizeNumbers(jsonRoundTrip(t, want)), normalizeNumbers(got)); diff != "" {
		t.Errorf("%s: decoded (-want +got):\n%s", name, diff)
	}
}
