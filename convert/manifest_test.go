package convert

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/manifest"
)

// load reads the tools of the manifest src, named name, failing t when
// the loader or FromManifest refuses them.
func load(t *testing.T, name, src string) []Tool {
	t.Helper()
	m, err := manifest.Load(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tools, err := FromManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	return tools
}

func TestFromManifestShapes(t *testing.T) {
	want := map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}
	for _, tt := range []struct{ name, src string }{
		{"mcp.json", `{"tools": [{"name": "find", "description": "Find.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]}`},
		{"plugin.json", `{"name": "find", "description": "Find.", "schema": {"type": "object", "properties": {"q": {"type": "string"}}}}`},
		{"mcp.yaml", "tools:\n  - name: find\n    description: Find.\n    inputSchema:\n      type: object\n      properties:\n        q: {type: string}\n"},
		{"openai.json", `{"tools": [{"type": "function", "function": {"name": "find", "description": "Find.", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}]}`},
		{"responses.json", `{"tools": [{"type": "function", "name": "find", "description": "Find.", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]}`},
		{"anthropic.json", `{"tools": [{"name": "find", "description": "Find.", "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}}]}`},
		{"gemini.json", `{"functionDeclarations": [{"name": "find", "description": "Find.", "parametersJsonSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tools := load(t, tt.name, tt.src)
			if len(tools) != 1 {
				t.Fatalf("%d tools", len(tools))
			}
			got := tools[0]
			if got.Name != "find" || got.Description != "Find." || got.Other != nil || got.Title != "" {
				t.Errorf("tool %+v", got)
			}
			if diff := cmp.Diff(want, got.InputSchema); diff != "" {
				t.Errorf("inputSchema (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromManifestMembers(t *testing.T) {
	tools := load(t, "t.json", `{"tools": [{"name": "a", "title": "A", "inputSchema": true,
		"annotations": {"readOnlyHint": true}, "_meta": {"k": 1}, "icons": []}]}`)
	got := tools[0]
	if got.Title != "A" || len(got.InputSchema) != 0 || got.InputSchema == nil || got.Annotations["readOnlyHint"] != true {
		t.Errorf("tool %+v", got)
	}
	if len(got.Other) != 2 || got.Other["icons"] == nil || got.Other["_meta"] == nil {
		t.Errorf("other members %v", got.Other)
	}
	out, warns, err := To("mcp", tools, Options{})
	if err != nil || len(warns) != 0 {
		t.Fatalf("err %v, warnings %v", err, warns)
	}
	if !strings.Contains(string(out), `"_meta": {`) || !strings.Contains(string(out), `"icons": []`) {
		t.Errorf("--to mcp dropped members:\n%s", out)
	}
	_, warns, _ = To("anthropic", tools, Options{})
	var dropped []string
	for _, w := range warns {
		dropped = append(dropped, w.Pointer)
	}
	if diff := cmp.Diff([]string{"/title", "/annotations", "/_meta", "/icons"}, dropped); diff != "" {
		t.Errorf("dropped members (-want +got):\n%s", diff)
	}
}

// TestForeignMembers: what a tool in another format has beyond a name, a
// description and a schema is not MCP's; every target says it drops it.
func TestForeignMembers(t *testing.T) {
	tools := load(t, "t.json", `{"tools": [{"type": "function", "name": "a", "title": "not MCP's here", "parameters": {"type": "object"}, "strict": true}]}`)
	want := map[string]any{"strict": true, "title": "not MCP's here"}
	if diff := cmp.Diff(want, tools[0].Extra); diff != "" || tools[0].Title != "" || tools[0].Other != nil {
		t.Errorf("extra (-want +got):\n%s\ntool %+v", diff, tools[0])
	}
	for _, target := range []string{"mcp", "openai", "anthropic", "gemini"} {
		out, warns, err := To(target, tools, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(warns) != 2 || warns[0].Pointer != "/strict" || warns[1].Pointer != "/title" {
			t.Errorf("%s: warnings\n%s", target, warningList(warns))
		}
		if strings.Contains(string(out), "strict\": true") || strings.Contains(string(out), "not MCP's") {
			t.Errorf("%s: extra members written:\n%s", target, out)
		}
	}
}

// TestPropertyOrder: properties are written in the order the source
// lists them, JSON or YAML, not sorted.
func TestPropertyOrder(t *testing.T) {
	for name, src := range map[string]string{
		"t.json": `{"name": "a", "inputSchema": {"type": "object", "properties": {"zeta": {"type": "string"}, "alpha": {"type": "object", "properties": {"y": {}, "b": {}}}}}}`,
		"t.yaml": "name: a\ninputSchema:\n  type: object\n  properties:\n    zeta: {type: string}\n    alpha:\n      type: object\n      properties: {y: {}, b: {}}\n",
	} {
		out, _, err := To("anthropic", load(t, name, src), Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := string(out)
		if !(strings.Index(s, `"zeta"`) < strings.Index(s, `"alpha"`) && strings.Index(s, `"y"`) < strings.Index(s, `"b"`)) {
			t.Errorf("%s: properties reordered:\n%s", name, s)
		}
	}
}

func TestFromManifestErrors(t *testing.T) {
	for _, tt := range []struct{ src, msg string }{
		{`{"tools": [{"name": 5, "inputSchema": {}}]}`, `t.json:1:13: tool 0: "name" is a number, not a string`},
		{`{"tools": [{"name": "a", "description": ["x"]}]}`, `t.json:1:26: tool 0: "description" is an array, not a string`},
		{`{"tools": [{"name": "a", "inputSchema": false}]}`, `t.json:1:26: tool 0: "inputSchema" is the schema false, which no value satisfies`},
		{`{"tools": [{"name": "a", "inputSchema": "object"}]}`, `t.json:1:26: tool 0: "inputSchema" is a string, not a schema`},
		{`{"tools": [{"name": "a", "outputSchema": 1}]}`, `t.json:1:26: tool 0: "outputSchema" is a number, not a schema`},
		{`{"tools": [{"name": "a", "annotations": []}]}`, `t.json:1:26: tool 0: "annotations" is an array, not an object`},
	} {
		m, err := manifest.Load("t.json", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = FromManifest(m)
		if err == nil || err.Error() != tt.msg {
			t.Errorf("%s: error %v, want %s", tt.src, err, tt.msg)
		}
	}
}

// TestNotObject: a schema that admits no object cannot be any target's
// parameters; To says which tool, and writes nothing.
func TestNotObject(t *testing.T) {
	tools := []Tool{{Name: "ok", Index: 0}, {Name: "echo", Index: 1, InputSchema: map[string]any{"type": "string"}}}
	for _, target := range Targets {
		out, _, err := To(target, tools, Options{})
		if err == nil || out != nil || !strings.Contains(err.Error(), `tool "echo" /inputSchema: `) {
			t.Errorf("%s: out %q, err %v", target, out, err)
		}
	}
	if _, _, err := To("xml", nil, Options{}); err == nil || !strings.Contains(err.Error(), `unknown target "xml"`) {
		t.Errorf("unknown target: %v", err)
	}
	for _, o := range []Options{{API: "assistants"}, {Zod: 5}, {GeminiMaxDepth: -1}} {
		if _, _, err := To("mcp", nil, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestGeminiNoParameters: Gemini refuses an object without properties as
// "parameters"; a tool without arguments leaves the member out.
func TestGeminiNoParameters(t *testing.T) {
	tools := []Tool{
		{Name: "none", Index: 0},
		{Name: "empty", Index: 1, InputSchema: map[string]any{"type": "object", "properties": map[string]any{}, "required": []any{}}},
		{Name: "bounded", Index: 2, InputSchema: map[string]any{"type": "object", "properties": map[string]any{}, "maxProperties": json.Number("0")}},
	}
	out, _, err := To("gemini", tools, Options{})
	if err != nil {
		t.Fatal(err)
	}
	decls := entries(t, out)
	for i, want := range []bool{false, false, true} {
		_, has := decls[i].(map[string]any)["parameters"]
		if has != want {
			t.Errorf("tool %d: parameters present %v, want %v", i, has, want)
		}
	}
	out, _, _ = To("gemini", tools, Options{GeminiJSONSchema: true})
	for i, d := range entries(t, out) {
		if _, has := d.(map[string]any)["parametersJsonSchema"]; !has {
			t.Errorf("tool %d: parametersJsonSchema left out", i)
		}
	}
}
