package convert

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// TestRoundTrip converts testdata/tools.json to each target and reads the
// result back: every tool is still there, in order, with its description
// and (unless the target refused it, with a warning) its name, and every
// property its input schema declares, at any depth up to the one where
// Gemini cuts recursion, unless a warning says it was left out.
func TestRoundTrip(t *testing.T) {
	tools := loadTools(t, "testdata/tools.json")
	for _, c := range goldenCases {
		if c.target == "mcp" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			out, warns, err := To(c.target, tools, c.o)
			if err != nil {
				t.Fatal(err)
			}
			back := readBack(t, c.name, out)
			if len(back) != len(tools) {
				t.Fatalf("%d tools read back, want %d", len(back), len(tools))
			}
			for i, orig := range tools {
				got := back[i]
				if got.Name != orig.Name && !renamed(warns, i, got.Name) {
					t.Errorf("tool %d: name %q became %q without a warning", i, orig.Name, got.Name)
				}
				if got.Description != orig.Description {
					t.Errorf("tool %d: description %q became %q", i, orig.Description, got.Description)
				}
				want, have := properties(orig.InputSchema), properties(got.InputSchema)
				var missing []string
				for p := range want {
					if !have[p] && !leftOut(warns, orig.Index, p) {
						missing = append(missing, p)
					}
				}
				slices.Sort(missing)
				if len(missing) > 0 {
					t.Errorf("tool %q lost properties %v", orig.Name, missing)
				}
			}
		})
	}
}

// leftOut reports whether a warning says that the property at path
// ("filter/lang"), or one holding it, was left out of tool index.
func leftOut(warns []Warning, index int, path string) bool {
	names := strings.Split(path, "/")
	for _, w := range warns {
		if w.Index != index || !strings.Contains(w.Message, "is left out") {
			continue
		}
		for _, n := range names {
			if strings.HasSuffix(w.Pointer, "/properties/"+pointer.Escape(n)) {
				return true
			}
		}
	}
	return false
}

func renamed(warns []Warning, index int, name string) bool {
	for _, w := range warns {
		if w.Index == index && w.Pointer == "/name" && strings.Contains(w.Message, "renamed to "+quote(name)) {
			return true
		}
	}
	return false
}

// readBack reads a converted document as MCP tools: through the loader
// when it recognises the shape, so the test also checks that what convert
// writes, mcplint reads.
func readBack(t *testing.T, name string, doc []byte) []Tool {
	t.Helper()
	m, err := manifest.Load(name+".json", doc)
	if err != nil {
		t.Fatalf("the loader does not read the converted document: %v", err)
	}
	tools, err := FromManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

// maxPropertyDepth is how deep properties compares property paths: as
// deep as Gemini keeps a recursive schema by default.
const maxPropertyDepth = 3

// properties lists the property paths ("filter/lang") a schema declares,
// looking through combinators, array items and local references, the
// places targets move properties to or from.
func properties(root map[string]any) map[string]bool {
	out := map[string]bool{}
	var visit func(s any, path []string, hops int)
	visit = func(s any, path []string, hops int) {
		m, ok := s.(map[string]any)
		if !ok || len(path) >= maxPropertyDepth || hops > 8 {
			return
		}
		if ref, ok := m["$ref"].(string); ok && strings.HasPrefix(ref, "#") {
			if target, ok := schema.Get(root, ref[1:]); ok {
				visit(target, path, hops+1)
			}
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for name, sub := range props {
				p := append(slices.Clone(path), name)
				out[strings.Join(p, "/")] = true
				visit(sub, p, hops)
			}
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf"} {
			if list, ok := m[k].([]any); ok {
				for _, b := range list {
					visit(b, path, hops)
				}
			}
		}
		visit(m["items"], path, hops)
	}
	visit(root, nil, 0)
	return out
}

// TestRoundTripMCP: MCP to MCP keeps every tool as it was, but for the
// object root MCP requires of a missing schema.
func TestRoundTripMCP(t *testing.T) {
	tools := loadTools(t, "testdata/tools.json")
	out, warns, err := To("mcp", tools, Options{})
	if err != nil || len(warns) > 0 {
		t.Fatalf("err %v, warnings %v", err, warns)
	}
	back := readBack(t, "mcp", out)
	want := slices.Clone(tools)
	want[len(want)-1].InputSchema = map[string]any{"type": "object"} // ping had none
	ignoreOrder := cmpopts.IgnoreFields(Tool{}, "Order")
	if diff := cmp.Diff(normalizeNumbers(want), normalizeNumbers(back), ignoreOrder); diff != "" {
		t.Errorf("MCP round trip (-want +got):\n%s", diff)
	}
	// Written again, the document is the same, member order included.
	again, _, err := To("mcp", back, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(out), string(again)); diff != "" {
		t.Errorf("MCP written twice (-first +second):\n%s", diff)
	}
}

// normalizeNumbers re-decodes tools so that numbers compare by value.
func normalizeNumbers(tools []Tool) []Tool {
	b, _ := json.Marshal(tools)
	var out []Tool
	_ = json.Unmarshal(b, &out)
	return out
}
