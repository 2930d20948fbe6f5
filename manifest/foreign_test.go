package manifest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Fixtures of other consumers' formats, each in the form its API documents
// (see foreign.go for the sources).
const (
	chatJSON = `{
  "model": "gpt-4.1",
  "tools": [
    {"type": "web_search"},
    {
      "type": "function",
      "function": {
        "name": "get_weather",
        "description": "Weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        "strict": true
      }
    }
  ]
}`
	responsesJSON = `[
  {"type": "function", "name": "get_weather", "description": "Weather.", "parameters": {"type": "object"}, "strict": false},
  {"type": "file_search", "vector_store_ids": []}
]`
	anthropicJSON = `{
  "model": "claude-sonnet-4-5",
  "tools": [
    {"name": "ping"},
    {"type": "bash_20250124", "name": "bash"},
    {"name": "get_weather", "description": "Weather.", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}},
    {"type": "custom", "name": "c", "input_schema": {"type": "object"}}
  ]
}`
	geminiJSON = `{
  "tools": [
    {"googleSearch": {}},
    {"functionDeclarations": [
      {"name": "get_weather", "description": "Weather.", "parameters": {"type": "OBJECT", "properties": {"city": {"type": "STRING"}}}},
      {"name": "ping", "description": "No parameters."}
    ]},
    {"functionDeclarations": [
      {"name": "search", "parametersJsonSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
    ]}
  ]
}`
	geminiSnakeJSON = `{"tools": [{"function_declarations": [{"name": "s", "parameters_json_schema": {"type": "object"}}]}]}`
	chatYAML        = `tools:
  - type: function
    function:
      name: get_weather
      description: Weather for a city.
      parameters:
        type: object
        properties:
          city: {type: string}
      strict: true
  - type: function
    function: {name: ping, description: Ping.}
`
	anthropicYAML = `- name: get_weather
  description: Weather.
  input_schema:
    type: object
    properties:
      city:
        type: string
- type: web_search_20250305
  name: web_search
`
	geminiYAML = `functionDeclarations:
  - name: get_weather
    description: Weather.
    parametersJsonSchema:
      type: object
      properties:
        city: {type: string}
`
)

func TestForeignShapes(t *testing.T) {
	obj := map[string]any{"type": "object"}
	city := map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}
	tests := []struct {
		name    string
		file    string
		src     string
		shape   Shape
		tools   []loadedTool
		skipped []Skipped
	}{{
		name:  "OpenAI Chat Completions request",
		src:   chatJSON,
		shape: ShapeOpenAIChat,
		tools: []loadedTool{{0, "/tools/1/function", "get_weather", "parameters", map[string]any{
			"name": "get_weather", "description": "Weather for a city.", "inputSchema": city, "strict": true}}},
		skipped: []Skipped{{Pointer: "/tools/0", Type: "web_search", Offset: strings.Index(chatJSON, `{"type": "web_search"}`)}},
	}, {
		name:  "OpenAI Chat Completions array",
		src:   `[{"type":"function","function":{"name":"a","parameters":{"type":"object"}}},{"type":"function","function":{"name":"b"}}]`,
		shape: ShapeOpenAIChat,
		tools: []loadedTool{
			{0, "/0/function", "a", "parameters", map[string]any{"name": "a", "inputSchema": obj}},
			{0, "/1/function", "b", "parameters", map[string]any{"name": "b"}},
		},
	}, {
		name:  "OpenAI Chat Completions single tool",
		src:   `{"type":"function","function":{"name":"a","parameters":{"type":"object"}}}`,
		shape: ShapeOpenAIChat,
		tools: []loadedTool{{0, "/function", "a", "parameters", map[string]any{"name": "a", "inputSchema": obj}}},
	}, {
		name:  "OpenAI Responses array, a built-in tool after",
		src:   responsesJSON,
		shape: ShapeOpenAIResponses,
		tools: []loadedTool{{0, "/0", "get_weather", "parameters", map[string]any{
			"type": "function", "name": "get_weather", "description": "Weather.", "inputSchema": obj, "strict": false}}},
		skipped: []Skipped{{Pointer: "/1", Type: "file_search", Offset: strings.Index(responsesJSON, `{"type": "file_search"`)}},
	}, {
		name:  "OpenAI Responses request",
		src:   `{"model":"m","tools":[{"type":"function","name":"a","parameters":{"type":"object"}}]}`,
		shape: ShapeOpenAIResponses,
		tools: []loadedTool{{0, "/tools/0", "a", "parameters", map[string]any{"type": "function", "name": "a", "inputSchema": obj}}},
	}, {
		name:  "Anthropic request: a tool without a schema first, a server tool, a custom type",
		src:   anthropicJSON,
		shape: ShapeAnthropic,
		tools: []loadedTool{
			{0, "/tools/0", "ping", "input_schema", map[string]any{"name": "ping"}},
			{0, "/tools/2", "get_weather", "input_schema", map[string]any{"name": "get_weather", "description": "Weather.", "inputSchema": city}},
			{0, "/tools/3", "c", "input_schema", map[string]any{"type": "custom", "name": "c", "inputSchema": obj}},
		},
		skipped: []Skipped{{Pointer: "/tools/1", Type: "bash_20250124", Offset: strings.Index(anthropicJSON, `{"type": "bash`)}},
	}, {
		name:  "Anthropic single tool",
		src:   `{"name":"a","input_schema":{"type":"object"}}`,
		shape: ShapeAnthropic,
		tools: []loadedTool{{0, "", "a", "input_schema", map[string]any{"name": "a", "inputSchema": obj}}},
	}, {
		name:  "Gemini request with several Tools",
		src:   geminiJSON,
		shape: ShapeGemini,
		tools: []loadedTool{
			{0, "/tools/1/functionDeclarations/0", "get_weather", "parameters", map[string]any{"name": "get_weather", "description": "Weather.",
				"inputSchema": map[string]any{"type": "OBJECT", "properties": map[string]any{"city": map[string]any{"type": "STRING"}}}}},
			{0, "/tools/1/functionDeclarations/1", "ping", "parameters", map[string]any{"name": "ping", "description": "No parameters."}},
			{0, "/tools/2/functionDeclarations/0", "search", "parametersJsonSchema", map[string]any{"name": "search",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}},
		},
		skipped: []Skipped{{Pointer: "/tools/0", Offset: strings.Index(geminiJSON, `{"googleSearch"`)}},
	}, {
		name:  "Gemini snake_case",
		src:   geminiSnakeJSON,
		shape: ShapeGemini,
		tools: []loadedTool{{0, "/tools/0/function_declarations/0", "s", "parameters_json_schema", map[string]any{"name": "s", "inputSchema": obj}}},
	}, {
		name:  "Gemini Tool",
		src:   `{"functionDeclarations":[{"name":"a","parameters":{"type":"object"}}]}`,
		shape: ShapeGemini,
		tools: []loadedTool{{0, "/functionDeclarations/0", "a", "parameters", map[string]any{"name": "a", "inputSchema": obj}}},
	}, {
		name:  "Gemini declarations array, one without parameters first",
		src:   `[{"name":"a"},{"name":"b","parametersJsonSchema":{"type":"object"}},{"name":"c","parameters":{"type":"object"}}]`,
		shape: ShapeGemini,
		tools: []loadedTool{
			{0, "/0", "a", "parameters", map[string]any{"name": "a"}},
			{0, "/1", "b", "parametersJsonSchema", map[string]any{"name": "b", "inputSchema": obj}},
			{0, "/2", "c", "parameters", map[string]any{"name": "c", "inputSchema": obj}},
		},
	}, {
		name:  "Gemini single declaration",
		src:   `{"name":"a","parameters":{"type":"object"}}`,
		shape: ShapeGemini,
		tools: []loadedTool{{0, "", "a", "parameters", map[string]any{"name": "a", "inputSchema": obj}}},
	}, {
		name:  "MCP list: an entry with a type stays a tool",
		src:   `{"tools":[{"name":"x","type":"bash"},{"name":"a","inputSchema":{"type":"object"}},{"type":"web_search"}]}`,
		shape: ShapeListResult,
		tools: []loadedTool{
			{0, "/tools/0", "x", "inputSchema", map[string]any{"name": "x", "type": "bash"}},
			{0, "/tools/1", "a", "inputSchema", map[string]any{"name": "a", "inputSchema": obj}},
			{0, "/tools/2", "", "inputSchema", map[string]any{"type": "web_search"}},
		},
	}, {
		name:  "nothing tells: an MCP array",
		src:   `[{"name":"a"},{"type":"web_search"}]`,
		shape: ShapeArray,
		tools: []loadedTool{
			{0, "/0", "a", "inputSchema", map[string]any{"name": "a"}},
			{0, "/1", "", "inputSchema", map[string]any{"type": "web_search"}},
		},
	}, {
		name:  "YAML OpenAI Chat Completions",
		file:  "t.yaml",
		src:   chatYAML,
		shape: ShapeOpenAIChat,
		tools: []loadedTool{
			{0, "/tools/0/function", "get_weather", "parameters", map[string]any{
				"name": "get_weather", "description": "Weather for a city.", "inputSchema": city, "strict": true}},
			{0, "/tools/1/function", "ping", "parameters", map[string]any{"name": "ping", "description": "Ping."}},
		},
	}, {
		name:    "YAML Anthropic with a server tool",
		file:    "t.yaml",
		src:     anthropicYAML,
		shape:   ShapeAnthropic,
		tools:   []loadedTool{{0, "/0", "get_weather", "input_schema", map[string]any{"name": "get_weather", "description": "Weather.", "inputSchema": city}}},
		skipped: []Skipped{{Pointer: "/1", Type: "web_search_20250305", Offset: strings.Index(anthropicYAML, "type: web_search")}},
	}, {
		name:  "YAML Gemini Tool",
		file:  "t.yaml",
		src:   geminiYAML,
		shape: ShapeGemini,
		tools: []loadedTool{{0, "/functionDeclarations/0", "get_weather", "parametersJsonSchema", map[string]any{"name": "get_weather", "description": "Weather.", "inputSchema": city}}},
	}, {
		name:  "YAML merge key brings the function in",
		file:  "t.yaml",
		src:   "base: &b {description: shared}\ntools:\n  - type: function\n    function:\n      <<: *b\n      name: a\n",
		shape: ShapeOpenAIChat,
		tools: []loadedTool{{0, "/tools/0/function", "a", "parameters", map[string]any{"name": "a", "description": "shared"}}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			if file == "" {
				file = "t.json"
			}
			m, err := Load(file, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if m.Shape != tc.shape {
				t.Errorf("shape %q, want %q", m.Shape, tc.shape)
			}
			if m.Shape.Foreign() != tc.shape.Foreign() {
				t.Errorf("Foreign() = %v", m.Shape.Foreign())
			}
			if diff := cmp.Diff(tc.tools, describeTools(t, m)); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.skipped, m.Skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

func TestForeignErrors(t *testing.T) {
	testLoadErrors(t, []loadError{{
		name: "Anthropic then MCP",
		src:  "[\n{\"name\":\"a\",\"input_schema\":{}},\n{\"name\":\"b\",\"inputSchema\":{}}]",
		want: "m.json:3:1: tool 1 is an MCP tool but tool 0 is an Anthropic tool; a list holds tools of one format", line: 3, col: 1,
	}, {
		name: "MCP then Anthropic",
		src:  `{"tools":[{"name":"a","inputSchema":{}},{"name":"b","input_schema":{}}]}`,
		want: "m.json:1:41: tool 1 is an Anthropic tool but tool 0 is an MCP tool; a list holds tools of one format", line: 1, col: 41,
	}, {
		name: "Chat then Responses",
		src:  `[{"type":"function","function":{"name":"a"}},{"type":"function","name":"b"}]`,
		want: "m.json:1:46: tool 1 is an OpenAI Responses function tool but tool 0 is an OpenAI Chat Completions function tool; a list holds tools of one format", line: 1, col: 46,
	}, {
		name: "Chat then Gemini declaration",
		src:  `[{"type":"function","function":{"name":"a"}},{"name":"b","parameters":{}}]`,
		want: "m.json:1:46: tool 1 is a Gemini function declaration but tool 0 is an OpenAI Chat Completions function tool; a list holds tools of one format", line: 1, col: 46,
	}, {
		name: "a plain entry before Chat tools",
		src:  `[{"name":"a"},{"type":"function","function":{"name":"b"}}]`,
		want: `m.json:1:2: tool 0 has no "type": "function", but tool 1 is an OpenAI Chat Completions function tool; give every tool of the list that form`, line: 1, col: 2,
	}, {
		name: "a plain entry after Responses tools",
		src:  `[{"type":"function","name":"b"},{"name":"a"}]`,
		want: `m.json:1:33: tool 1 has no "type": "function", but tool 0 is an OpenAI Responses function tool; give every tool of the list that form`, line: 1, col: 33,
	}, {
		name: "Chat function not an object",
		src:  `{"tools":[{"type":"function","function":"get"}]}`,
		want: `m.json:1:41: "function" is a string; an OpenAI Chat Completions tool is {"type": "function", "function": {"name", "description", "parameters"}}`, line: 1, col: 41,
	}, {
		name: "Gemini both parameters",
		src:  `{"functionDeclarations":[{"name":"a","parameters":{},"parametersJsonSchema":{}}]}`,
		want: `m.json:1:51: a function declaration with both "parametersJsonSchema" and "parameters"; Gemini takes one of them (they are mutually exclusive): keep one`, line: 1, col: 51,
	}, {
		name: "Gemini declarations not an array",
		src:  `{"tools":[{"functionDeclarations":{}}]}`,
		want: `m.json:1:35: "functionDeclarations" is an object, not an array of function declarations`, line: 1, col: 35,
	}, {
		name: "Gemini both spellings",
		src:  `{"functionDeclarations":[],"function_declarations":[]}`,
		want: `m.json:1:52: a Gemini Tool with both "functionDeclarations" and "function_declarations"; keep one`, line: 1, col: 52,
	}, {
		name: "Gemini declaration list holding an OpenAI tool",
		src:  `{"functionDeclarations":[{"name":"a"},{"type":"function","name":"b"}]}`,
		want: `m.json:1:39: declaration 1 is an OpenAI Responses function tool, not a Gemini function declaration`, line: 1, col: 39,
	}, {
		name: "Gemini Tools list with a named entry",
		src:  `{"tools":[{"functionDeclarations":[]},{"name":"a"}]}`,
		want: `m.json:1:39: tool 1 has a "name" but no "functionDeclarations", and tool 0 is a Gemini Tool; put function declarations in a Tool's "functionDeclarations"`, line: 1, col: 39,
	}, {
		name: "JSON-RPC result of Anthropic tools",
		src:  `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","input_schema":{}}]}}`,
		want: `m.json:1:44: tool 0 is an Anthropic tool, but a JSON-RPC tools/list result holds MCP tools`, line: 1, col: 44,
	}, {
		name: "a stream of foreign documents",
		file: "m.jsonl",
		src:  "{\"tools\":[{\"name\":\"a\",\"input_schema\":{}}]}\n{\"tools\":[{\"name\":\"b\",\"input_schema\":{}}]}\n",
		want: `m.jsonl:2:1: several JSON documents: only newline-delimited tools/list results or JSON-RPC responses can be concatenated`, line: 2, col: 1,
	}, {
		name: "a stream with a foreign page",
		file: "m.jsonl",
		src:  "{\"tools\":[{\"name\":\"a\",\"inputSchema\":{}}]}\n{\"tools\":[{\"name\":\"b\",\"input_schema\":{}}]}\n",
		want: `m.jsonl:2:1: document 2 is an Anthropic tool list but document 1 is a tools/list result; a stream holds only tools/list results or JSON-RPC responses`, line: 2, col: 1,
	}, {
		name: "YAML mixed formats",
		file: "m.yaml",
		src:  "- name: a\n  input_schema: {}\n- type: function\n  function: {name: b}\n",
		want: "m.yaml:3:3: tool 1 is an OpenAI Chat Completions function tool but tool 0 is an Anthropic tool; a list holds tools of one format", line: 3, col: 3,
	}, {
		name: "YAML Chat function as an alias",
		file: "m.yaml",
		src:  "f: &f {name: a}\ntools:\n  - type: function\n    function: *f\n",
		want: "m.yaml:4:15: the tool at /tools/0/function is an alias: write it out in place, where fixes can edit it", line: 4, col: 15,
	}, {
		name: "YAML Chat function merged in",
		file: "m.yaml",
		src:  "b: &b {type: function, function: {name: a}}\ntools:\n  - <<: *b\n",
		want: "m.yaml:3:5: the tool's members are merged in with \"<<\": write them out in place, where fixes can edit them", line: 3, col: 5,
	}})
}

// posOf is the line and column of the first occurrence of marker in src.
func posOf(t *testing.T, src, marker string) (line, col int) {
	t.Helper()
	i := strings.Index(src, marker)
	if i < 0 {
		t.Fatalf("no %q in the source", marker)
	}
	line = strings.Count(src[:i], "\n") + 1
	return line, i - strings.LastIndex(src[:i], "\n")
}

func TestForeignLocate(t *testing.T) {
	tests := []struct {
		name, file, src string
		tool            int
		ptr             string
		marker          string // where the position must be
		docPtr          string
	}{
		{"Chat schema", "t.json", chatJSON, 0, "/inputSchema", `"parameters"`, "/tools/1/function/parameters"},
		{"Chat property", "t.json", chatJSON, 0, "/inputSchema/properties/city/type", `"type": "string"`, "/tools/1/function/parameters/properties/city/type"},
		{"Chat strict", "t.json", chatJSON, 0, "/strict", `"strict"`, "/tools/1/function/strict"},
		{"Chat tool", "t.json", chatJSON, 0, "", `{
        "name"`, "/tools/1/function"},
		{"Responses schema", "t.json", responsesJSON, 0, "/inputSchema", `"parameters"`, "/0/parameters"},
		{"Anthropic property", "t.json", anthropicJSON, 1, "/inputSchema/properties/city", `"city"`, "/tools/2/input_schema/properties/city"},
		{"Anthropic missing schema", "t.json", anthropicJSON, 0, "/inputSchema", `{"name": "ping"}`, "/tools/0/input_schema"},
		{"Gemini parameters", "t.json", geminiJSON, 0, "/inputSchema/type", `"type": "OBJECT"`, "/tools/1/functionDeclarations/0/parameters/type"},
		{"Gemini parametersJsonSchema", "t.json", geminiJSON, 2, "/inputSchema/properties/q", `"q"`, "/tools/2/functionDeclarations/0/parametersJsonSchema/properties/q"},
		{"YAML Chat property", "t.yaml", chatYAML, 0, "/inputSchema/properties/city", "city:", "/tools/0/function/parameters/properties/city"},
		{"YAML Chat name", "t.yaml", chatYAML, 1, "/name", "name: ping", "/tools/1/function/name"},
		// A YAML tool that is a member's value is placed at its key.
		{"YAML Chat tool", "t.yaml", chatYAML, 0, "", "function:", "/tools/0/function"},
		{"YAML Anthropic property type", "t.yaml", anthropicYAML, 0, "/inputSchema/properties/city/type", "type: string", "/0/input_schema/properties/city/type"},
		{"YAML Gemini schema", "t.yaml", geminiYAML, 0, "/inputSchema", "parametersJsonSchema:", "/functionDeclarations/0/parametersJsonSchema"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Load(tc.file, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			tool := m.Tools[tc.tool]
			line, col := posOf(t, tc.src, tc.marker)
			if pos := tool.Locate(tc.ptr); pos.Line != line || pos.Column != col {
				t.Errorf("Locate(%q) = %d:%d, want %d:%d", tc.ptr, pos.Line, pos.Column, line, col)
			}
			if got := tool.DocPointer(tc.ptr); got != tc.docPtr {
				t.Errorf("DocPointer(%q) = %q, want %q", tc.ptr, got, tc.docPtr)
			}
		})
	}
}

func TestForeignApply(t *testing.T) {
	tests := []struct {
		name, file, src string
		tool            int
		edits           []Edit
		repl            []string // the source with the edits: pairs of old and new text, in order
	}{{
		name:  "Chat: fix a type, add required, drop strict",
		file:  "t.json",
		src:   chatJSON,
		edits: []Edit{rep("/inputSchema/properties/city/type", "integer"), add("/inputSchema/required", []any{"city"}), del("/strict")},
		repl: []string{
			`"city": {"type": "string"}}}`, `"city": {"type": "integer"}}, "required": ["city"]}`,
			",\n        \"strict\": true", "",
		},
	}, {
		name:  "Chat: add the missing parameters",
		file:  "t.json",
		src:   `[{"type":"function","function":{"name":"b"}}]`,
		edits: []Edit{add("/inputSchema", map[string]any{"type": "object"})},
		repl:  []string{`{"name":"b"}`, `{"name":"b","parameters":{"type":"object"}}`},
	}, {
		name:  "Responses: replace the schema",
		file:  "t.json",
		src:   responsesJSON,
		edits: []Edit{add("/inputSchema/additionalProperties", false)},
		repl:  []string{`"parameters": {"type": "object"}`, `"parameters": {"type": "object", "additionalProperties": false}`},
	}, {
		name:  "Anthropic: add the missing input_schema",
		file:  "t.json",
		src:   anthropicJSON,
		edits: []Edit{add("/inputSchema", map[string]any{"type": "object"})},
		repl:  []string{`{"name": "ping"}`, `{"name": "ping", "input_schema": {"type": "object"}}`},
	}, {
		name:  "Gemini: edit parametersJsonSchema",
		file:  "t.json",
		src:   geminiJSON,
		tool:  2,
		edits: []Edit{rep("/inputSchema/properties/q", map[string]any{"type": "string", "minLength": 1})},
		repl:  []string{`"q": {"type": "string"}`, `"q": {"type": "string", "minLength": 1}`},
	}, {
		name:  "YAML Chat: block members",
		file:  "t.yaml",
		src:   chatYAML,
		edits: []Edit{add("/inputSchema/required", []any{"city"}), del("/strict")},
		repl:  []string{"          city: {type: string}\n      strict: true\n", "          city: {type: string}\n        required: [city]\n"},
	}, {
		name:  "YAML Chat: a flow function gets parameters",
		file:  "t.yaml",
		src:   chatYAML,
		tool:  1,
		edits: []Edit{add("/inputSchema", map[string]any{"type": "object"})},
		repl:  []string{"{name: ping, description: Ping.}", "{name: ping, description: Ping., parameters: {type: object}}"},
	}, {
		name:  "YAML Chat: replace the whole flow function",
		file:  "t.yaml",
		src:   chatYAML,
		tool:  1,
		edits: []Edit{rep("", map[string]any{"name": "z", "description": "d"})},
		repl:  []string{"function: {name: ping, description: Ping.}", "function:\n      name: z\n      description: d"},
	}, {
		name:  "YAML Chat: replace the whole function in a flow entry",
		file:  "t.yaml",
		src:   "- {type: function, function: {name: a}}\n",
		edits: []Edit{rep("", map[string]any{"name": "z", "description": "d"})},
		repl:  []string{"{name: a}", "{name: z, description: d}"},
	}, {
		name:  "YAML Anthropic",
		file:  "t.yaml",
		src:   anthropicYAML,
		edits: []Edit{rep("/inputSchema/properties/city/type", "integer"), add("/inputSchema/additionalProperties", false)},
		repl:  []string{"        type: string\n", "        type: integer\n    additionalProperties: false\n"},
	}, {
		name:  "YAML Gemini",
		file:  "t.yaml",
		src:   geminiYAML,
		edits: []Edit{rep("/inputSchema/properties/city", map[string]any{"type": "string", "description": "City."})},
		repl:  []string{"city: {type: string}", "city:\n          description: City.\n          type: string"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Load(tc.file, []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var tes []ToolEdit
			for _, e := range tc.edits {
				tes = append(tes, ToolEdit{Tool: m.Tools[tc.tool], Edit: e})
			}
			out, skipped, err := m.Apply(tes)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range skipped {
				if s {
					t.Errorf("edit %d skipped", i)
				}
			}
			want := tc.src
			for i := 0; i < len(tc.repl); i += 2 {
				if !strings.Contains(want, tc.repl[i]) {
					t.Fatalf("the source has no %q", tc.repl[i])
				}
				want = strings.Replace(want, tc.repl[i], tc.repl[i+1], 1)
			}
			if diff := cmp.Diff(want, string(out)); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			m2, err := Load(tc.file, out)
			if err != nil {
				t.Fatalf("the output does not load: %v", err)
			}
			if m2.Shape != m.Shape || len(m2.Tools) != len(m.Tools) {
				t.Errorf("output: shape %q with %d tools, was %q with %d", m2.Shape, len(m2.Tools), m.Shape, len(m.Tools))
			}
		})
	}
}
