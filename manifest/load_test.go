package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/pointer"
)

// loadedTool is what a test expects of one located tool.
type loadedTool struct {
	Doc       int
	Pointer   string
	Name      string
	SchemaKey string
	Value     any
}

func describeTools(t *testing.T, m *Manifest) []loadedTool {
	t.Helper()
	var out []loadedTool
	for i, tool := range m.Tools {
		if tool.Index != i || tool.M != m {
			t.Errorf("tool %d: Index %d, M %p (manifest %p)", i, tool.Index, tool.M, m)
		}
		v, err := tool.Value()
		if err != nil {
			t.Fatalf("tool %d: Value: %v", i, err)
		}
		out = append(out, loadedTool{tool.Doc, tool.Pointer, tool.Name, tool.SchemaKey, v})
	}
	return out
}

func TestLoadShapes(t *testing.T) {
	obj := map[string]any{"type": "object"}
	tests := []struct {
		name  string
		file  string
		src   string
		shape Shape
		docs  []int
		tools []loadedTool
	}{{
		name:  "tools/list result with nextCursor",
		src:   `{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"c2"}`,
		shape: ShapeListResult,
		docs:  []int{0},
		tools: []loadedTool{
			{0, "/tools/0", "a", "inputSchema", map[string]any{"name": "a", "inputSchema": obj}},
			{0, "/tools/1", "b", "inputSchema", map[string]any{"name": "b", "inputSchema": obj}},
		},
	}, {
		name:  "empty tools/list result",
		src:   `{"tools": []}`,
		shape: ShapeListResult,
		docs:  []int{0},
	}, {
		name: "JSON-RPC response",
		src: `{
  "jsonrpc": "2.0",
  "id": 1,
  "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}], "nextCursor": "x"}
}`,
		shape: ShapeJSONRPC,
		docs:  []int{0},
		tools: []loadedTool{{0, "/result/tools/0", "a", "inputSchema", map[string]any{"name": "a", "inputSchema": obj}}},
	}, {
		name: "JSON-RPC response with members in any order",
		src:  `{"result":{"nextCursor":"x","tools":[{"name":"a"}]},"id":"abc","jsonrpc":"2.0"}`,
		// A result without jsonrpc but with id is still a response.
		shape: ShapeJSONRPC,
		docs:  []int{0},
		tools: []loadedTool{{0, "/result/tools/0", "a", "inputSchema", map[string]any{"name": "a"}}},
	}, {
		name: "stream of JSON-RPC pages",
		src: `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":"p2"}}
{"jsonrpc":"2.0","id":2,"result":{"tools":[],"nextCursor":"p3"}}
{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"c"}]}}
`,
		shape: ShapeStream,
		docs:  []int{0, 90, 155},
		tools: []loadedTool{
			{0, "/result/tools/0", "a", "inputSchema", map[string]any{"name": "a"}},
			{0, "/result/tools/1", "b", "inputSchema", map[string]any{"name": "b"}},
			{2, "/result/tools/0", "c", "inputSchema", map[string]any{"name": "c"}},
		},
	}, {
		name:  "stream mixing a tools/list result and a JSON-RPC page",
		src:   "{\"tools\":[{\"name\":\"a\"}]}\r\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"b\"}]}}",
		shape: ShapeStream,
		docs:  []int{0, 26},
		tools: []loadedTool{
			{0, "/tools/0", "a", "inputSchema", map[string]any{"name": "a"}},
			{1, "/result/tools/0", "b", "inputSchema", map[string]any{"name": "b"}},
		},
	}, {
		name:  "bare array",
		src:   "\n  [ {\"name\": \"a\"}, {\"name\": 7, \"inputSchema\": {\"enum\": [1.50, -0, 1e3, true, null, \"s\"]}} ]\n",
		shape: ShapeArray,
		docs:  []int{3},
		tools: []loadedTool{
			{0, "/0", "a", "inputSchema", map[string]any{"name": "a"}},
			// A name that is not a string leaves Name empty; numbers keep their spelling.
			{0, "/1", "", "inputSchema", map[string]any{"name": json.Number("7"), "inputSchema": map[string]any{
				"enum": []any{json.Number("1.50"), json.Number("-0"), json.Number("1e3"), true, nil, "s"},
			}}},
		},
	}, {
		name:  "empty array",
		src:   `[]`,
		shape: ShapeArray,
		docs:  []int{0},
	}, {
		name:  "single tool",
		src:   `{"name":"a","description":"d","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`,
		shape: ShapeTool,
		docs:  []int{0},
		tools: []loadedTool{{0, "", "a", "inputSchema", map[string]any{
			"name": "a", "description": "d", "inputSchema": obj, "annotations": map[string]any{"readOnlyHint": true},
		}}},
	}, {
		name:  "plugin contract",
		src:   `{"name":"p","description":"d","schema":{"type":"object"}}`,
		shape: ShapePluginContract,
		docs:  []int{0},
		tools: []loadedTool{{0, "", "p", "schema", map[string]any{"name": "p", "description": "d", "inputSchema": obj}}},
	}, {
		name:  "a schema member beside inputSchema is not the plugin contract",
		src:   `{"name":"a","inputSchema":{"type":"object"},"schema":{}}`,
		shape: ShapeTool,
		docs:  []int{0},
		tools: []loadedTool{{0, "", "a", "inputSchema", map[string]any{"name": "a", "inputSchema": obj, "schema": map[string]any{}}}},
	}, {
		name:  "a schema member that is not an object is not the plugin contract",
		src:   `{"name":"a","schema":"object"}`,
		shape: ShapeTool,
		docs:  []int{0},
		tools: []loadedTool{{0, "", "a", "inputSchema", map[string]any{"name": "a", "schema": "object"}}},
	}, {
		name:  "plugin contract inside a tools list",
		src:   `{"tools":[{"name":"p","schema":{"type":"object"}},{"name":"q","inputSchema":{"type":"object"}}]}`,
		shape: ShapeListResult,
		docs:  []int{0},
		tools: []loadedTool{
			{0, "/tools/0", "p", "schema", map[string]any{"name": "p", "inputSchema": obj}},
			{0, "/tools/1", "q", "inputSchema", map[string]any{"name": "q", "inputSchema": obj}},
		},
	}, {
		name:  "UTF-8 byte order mark",
		src:   "\xEF\xBB\xBF{\"tools\":[{\"name\":\"a\"}]}",
		shape: ShapeListResult,
		docs:  []int{3},
		tools: []loadedTool{{0, "/tools/0", "a", "inputSchema", map[string]any{"name": "a"}}},
	}, {
		name:  "escaped names and keys",
		src:   `{"tools":[{"name":"\u00e9t\u00e9","inputSchema":{"properties":{"a/b~c":{}}}}]}`,
		shape: ShapeListResult,
		docs:  []int{0},
		tools: []loadedTool{{0, "/tools/0", "été", "inputSchema", map[string]any{"name": "été", "inputSchema": map[string]any{
			"properties": map[string]any{"a/b~c": map[string]any{}},
		}}}},
	}, {
		name:  "escapes in keys and values",
		src:   `[{"name":"a\"b","inputSchema":{"k\\ey\u0000":"\ud83d\ude00\n","type":"object","n":-0.0e+0}}]`,
		shape: ShapeArray,
		docs:  []int{0},
		tools: []loadedTool{{0, "/0", "a\"b", "inputSchema", map[string]any{"name": "a\"b", "inputSchema": map[string]any{
			"k\\ey\x00": "😀\n", "type": "object", "n": json.Number("-0.0e+0"),
		}}}},
	}, {
		name:  ".json file read as JSON whatever it starts with",
		file:  "tools.json",
		src:   "\t\r\n{\"name\":\"a\"}",
		shape: ShapeTool,
		docs:  []int{3},
		tools: []loadedTool{{0, "", "a", "inputSchema", map[string]any{"name": "a"}}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			if file == "" {
				file = "m.json"
			}
			m, err := Load(file, []byte(tc.src))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if m.Format != JSON || m.Path != file || string(m.Src) != tc.src {
				t.Errorf("Format %v, Path %q, Src kept: %v", m.Format, m.Path, string(m.Src) == tc.src)
			}
			if m.Shape != tc.shape {
				t.Errorf("Shape = %q, want %q", m.Shape, tc.shape)
			}
			if diff := cmp.Diff(tc.docs, m.Docs); diff != "" {
				t.Errorf("Docs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.tools, describeTools(t, m)); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			for i, tool := range m.Tools {
				start, end, ok := tool.Span("")
				if !ok {
					t.Fatalf("tool %d: no span", i)
				}
				var v any
				if err := json.Unmarshal(m.Src[start:end], &v); err != nil {
					t.Errorf("tool %d: span %d:%d is not one JSON value: %v", i, start, end, err)
				}
			}
		})
	}
}

func TestPluginContractPointers(t *testing.T) {
	src := `{
  "name": "p",
  "description": "d",
  "schema": {
    "type": "object",
    "properties": {"x": {"type": "string"}}
  }
}`
	m, err := Load("p.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tool := m.Tools[0]
	for _, tc := range []struct {
		ptr       string
		line, col int
		docPtr    string
	}{
		{"/inputSchema", 4, 3, "/schema"},
		{"/inputSchema/properties/x", 6, 20, "/schema/properties/x"},
		{"/inputSchema/properties/x/type", 6, 26, "/schema/properties/x/type"},
		// A missing keyword is placed at its deepest existing ancestor.
		{"/inputSchema/properties/x/minLength", 6, 20, "/schema/properties/x/minLength"},
		{"/description", 3, 3, "/description"},
		// Only the whole /inputSchema token is translated.
		{"/inputSchemaX", 1, 1, "/inputSchemaX"},
	} {
		pos := tool.Locate(tc.ptr)
		if pos.Line != tc.line || pos.Column != tc.col {
			t.Errorf("Locate(%q) = %d:%d, want %d:%d", tc.ptr, pos.Line, pos.Column, tc.line, tc.col)
		}
		if got := tool.DocPointer(tc.ptr); got != tc.docPtr {
			t.Errorf("DocPointer(%q) = %q, want %q", tc.ptr, got, tc.docPtr)
		}
	}
	start, end, ok := tool.Span("/inputSchema/properties/x")
	if !ok || src[start:end] != `{"type": "string"}` {
		t.Errorf("Span(/inputSchema/properties/x) = %q, %v", src[start:end], ok)
	}
	if _, _, ok := tool.Span("/schema/nothing"); ok {
		t.Error("Span of a missing member reports it exists")
	}
}

func TestLocate(t *testing.T) {
	src := "{\"tools\": [\r\n" +
		"  {\"name\": \"a\"},\r\n" +
		"  {\r\n" +
		"    \"name\": \"b\",\r\n" +
		"    \"inputSchema\": {\r\n" +
		"      \"properties\": {\"a/b\": {\"enum\": [1, {\"x\": 2}]}, \"m~n\": {}}\r\n" +
		"    }\r\n" +
		"  }\r\n" +
		"]}\r\n"
	m, err := Load("l.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tool := m.Tools[1]
	for _, tc := range []struct {
		ptr       string
		line, col int
	}{
		{"", 3, 3},
		{"/name", 4, 5},
		{"/inputSchema", 5, 5},
		{"/inputSchema/properties", 6, 7},
		{"/inputSchema/properties/a~1b", 6, 22},
		{"/inputSchema/properties/a~1b/enum", 6, 30},
		{"/inputSchema/properties/a~1b/enum/0", 6, 39},
		{"/inputSchema/properties/a~1b/enum/1", 6, 42},
		{"/inputSchema/properties/a~1b/enum/1/x", 6, 43},
		{"/inputSchema/properties/m~0n", 6, 54},
		{"/inputSchema/properties/missing/type", 6, 7},
		{"/inputSchema/properties/a~1b/enum/9", 6, 30},
		{"/nothing", 3, 3},
	} {
		pos := tool.Locate(tc.ptr)
		if pos.Line != tc.line || pos.Column != tc.col {
			t.Errorf("Locate(%q) = %d:%d, want %d:%d", tc.ptr, pos.Line, pos.Column, tc.line, tc.col)
		}
		if off := m.Position(pos.Offset); off != pos {
			t.Errorf("Position(%d) = %+v, want %+v", pos.Offset, off, pos)
		}
	}
	if got := m.Line(6); got != `      "properties": {"a/b": {"enum": [1, {"x": 2}]}, "m~n": {}}` {
		t.Errorf("Line(6) = %q", got)
	}
	if m.Line(0) != "" || m.Line(11) != "" || m.Line(10) != "" {
		t.Errorf("lines out of range: %q %q %q", m.Line(0), m.Line(10), m.Line(11))
	}
	if got := m.Tools[0].Locate("/name"); got.Line != 2 || got.Column != 4 {
		t.Errorf("tool 0 /name at %d:%d, want 2:4", got.Line, got.Column)
	}
}

// TestLoadErrors checks that every input error is one *Error naming the
// file and the place.
func TestLoadErrors(t *testing.T) {
	deepTool := `{"tools":[{"name":"a","inputSchema":` + strings.Repeat("[", 10005) + strings.Repeat("]", 10005) + `}]}`
	tests := []struct {
		name string
		file string
		src  string
		// want is the whole message: "file:line:col: ..." ("file: ..." when
		// the error concerns the whole file), unless wantPrefix is set.
		want       string
		wantPrefix string
		line, col  int
	}{{
		name: "empty file",
		src:  "",
		want: "m.json: empty file: expected a tool manifest; " + acceptedShapes,
	}, {
		name: "whitespace only",
		src:  " \n\t\r\n  ",
		want: "m.json: empty file: expected a tool manifest; " + acceptedShapes,
	}, {
		name: "byte order mark only",
		src:  "\xEF\xBB\xBF\n",
		want: "m.json: empty file: expected a tool manifest; " + acceptedShapes,
	}, {
		name: "trailing comma in an object",
		src:  "{\"tools\": [\n  {\"name\": \"a\",}\n]}",
		want: `m.json:2:16: invalid JSON: invalid character '}' at start of string (expecting '"') (at /tools/0)`,
		line: 2, col: 16,
	}, {
		name: "trailing comma deep in a schema",
		src:  "{\"tools\": [\n  {\"name\": \"a\",\n   \"inputSchema\": {\"properties\": {\"x\": {\"type\": \"string\",}}}}\n]}",
		want: `m.json:3:58: invalid JSON: invalid character '}' at start of string (expecting '"') (at /tools/0/inputSchema/properties/x)`,
		line: 3, col: 58,
	}, {
		name: "trailing comma in an array",
		src:  `{"tools":[{"name":"a","inputSchema":{"enum":[[1,]]}}]}`,
		want: `m.json:1:49: invalid JSON: invalid character ']' at start of value (at /tools/0/inputSchema/enum/0/1)`,
		line: 1, col: 49,
	}, {
		name: "missing colon",
		src:  "{\"tools\": [{\"name\" \"a\"}]}",
		want: `m.json:1:20: invalid JSON: invalid character '"' after object name (expecting ':') (at /tools/0/name)`,
		line: 1, col: 20,
	}, {
		name: "single-quoted string",
		src:  "[{'name': 'a'}]",
		want: `m.json:1:3: invalid JSON: invalid character '\'' at start of string (expecting '"') (at /0)`,
		line: 1, col: 3,
	}, {
		name: "comment",
		src:  "{\n  // tools\n  \"tools\": []\n}",
		want: `m.json:2:3: invalid JSON: invalid character '/' at start of string (expecting '"')`,
		line: 2, col: 3,
	}, {
		name: "NaN",
		src:  `[{"name":"a","inputSchema":{"maximum":NaN}}]`,
		want: `m.json:1:39: invalid JSON: invalid character 'N' at start of value (at /0/inputSchema/maximum)`,
		line: 1, col: 39,
	}, {
		name: "truncated file",
		src:  "{\"tools\": [\n  {\"name\": \"a\"",
		want: `m.json:2:15: invalid JSON: unexpected EOF (at /tools/0)`,
		line: 2, col: 15,
	}, {
		name: "unterminated string",
		src:  "[{\"name\": \"a}]",
		want: `m.json:1:15: invalid JSON: unexpected EOF (at /0/name)`,
		line: 1, col: 15,
	}, {
		name: "string running into a line break",
		src:  "[{\"name\": \"a}]\n",
		want: `m.json:1:15: invalid JSON: invalid character '\n' in string (expecting non-control character) (at /0/name)`,
		line: 1, col: 15,
	}, {
		name: "control character in a string",
		src:  "[{\"name\": \"a\tb\"}]",
		want: `m.json:1:13: invalid JSON: invalid character '\t' in string (expecting non-control character) (at /0/name)`,
		line: 1, col: 13,
	}, {
		name: "text after the document",
		src:  "{\"tools\": []}\noops",
		want: `m.json:2:1: invalid JSON: invalid character 'o' at start of value`,
		line: 2, col: 1,
	}, {
		name: "invalid UTF-8",
		src:  "{\"tools\": [\n  {\"name\": \"caf\xe9\"}\n]}",
		want: "m.json:2:16: invalid UTF-8: manifests must be UTF-8 text",
		line: 2, col: 16,
	}, {
		name: "truncated UTF-8 sequence at the end",
		src:  "[{\"name\": \"a\"}]\xe2\x82",
		want: "m.json:1:16: invalid UTF-8: manifests must be UTF-8 text",
		line: 1, col: 16,
	}, {
		name: "invalid UTF-8 after a byte order mark",
		src:  "\xEF\xBB\xBF[\xff]",
		want: "m.json:1:5: invalid UTF-8: manifests must be UTF-8 text",
		line: 1, col: 5,
	}, {
		name: "duplicate key in a tool",
		src:  "{\"tools\": [\n  {\"name\": \"a\", \"description\": \"x\", \"name\": \"b\"}\n]}",
		want: `m.json:2:37: invalid JSON: duplicate key "name" (JSON parsers disagree on which value wins; keep one) (at /tools/0)`,
		line: 2, col: 37,
	}, {
		name: "duplicate key in a schema",
		src:  `{"tools":[{"name":"a","inputSchema":{"properties":{"x":{"type":"string","type":"x"}}}}]}`,
		want: `m.json:1:73: invalid JSON: duplicate key "type" (JSON parsers disagree on which value wins; keep one) (at /tools/0/inputSchema/properties/x)`,
		line: 1, col: 73,
	}, {
		name: "duplicate tools member",
		src:  `{"tools":[], "tools":[]}`,
		want: `m.json:1:14: invalid JSON: duplicate key "tools" (JSON parsers disagree on which value wins; keep one)`,
		line: 1, col: 14,
	}, {
		name: "duplicate key in the second page of a stream",
		src:  "{\"tools\":[]}\n{\"tools\":[{\"name\":\"a\",\"name\":\"a\"}]}",
		want: `m.json:2:23: invalid JSON: duplicate key "name" (JSON parsers disagree on which value wins; keep one) (at /tools/0)`,
		line: 2, col: 23,
	}, {
		name: "nesting beyond the tokenizer's limit",
		src:  deepTool,
		// {"tools":[{ is three levels; the 9998th bracket of the schema is level 10001.
		wantPrefix: "m.json:1:10034: invalid JSON: nesting deeper than 10000 levels (at /tools/0/inputSchema/0/0/",
		line:       1, col: 10034,
	}, {
		name: "JSON-RPC error response",
		src:  `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`,
		want: `m.json:1:33: the document is a JSON-RPC error response, not a tool list: {"code":-32601,"message":"Method not found"}`,
		line: 1, col: 33,
	}, {
		name: "pretty-printed JSON-RPC error response",
		src:  "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"error\": {\n    \"code\": -32601,\n    \"message\": \"" + strings.Repeat("x", 300) + "\"\n  }\n}",
		want: `m.json:4:12: the document is a JSON-RPC error response, not a tool list: {"code":-32601,"message":"` + strings.Repeat("x", 200-len(`{"code":-32601,"message":"`)) + "…",
		line: 4, col: 12,
	}, {
		name: "JSON-RPC result that is not an object",
		src:  `{"jsonrpc":"2.0","id":1,"result":[]}`,
		want: `m.json:1:34: JSON-RPC result is an array, not a tools/list result`,
		line: 1, col: 34,
	}, {
		name: "JSON-RPC result without tools",
		src:  `{"jsonrpc":"2.0","id":1,"result":{"contents":[]}}`,
		want: `m.json:1:34: JSON-RPC result has no "tools" array: not a tools/list result`,
		line: 1, col: 34,
	}, {
		name: "object of no known shape",
		src:  "\n\n  {\"servers\": {}}",
		want: `m.json:3:3: document of no known shape (an object without "tools", "result" or "name"); ` + acceptedShapes,
		line: 3, col: 3,
	}, {
		name: "tools is an object",
		src:  `{"tools": {"name": "a"}}`,
		want: `m.json:1:11: "tools" is an object, not an array`,
		line: 1, col: 11,
	}, {
		name: "tools is null",
		src:  `{"tools": null}`,
		want: `m.json:1:11: "tools" is a null, not an array`,
		line: 1, col: 11,
	}, {
		name: "tool is not an object",
		src:  "[\n  {\"name\": \"a\"},\n  \"b\"\n]",
		want: `m.json:3:3: tool 1 is a string, not an object`,
		line: 3, col: 3,
	}, {
		name: "tool is an array",
		src:  `{"tools":[[{"name":"a"}]]}`,
		want: `m.json:1:11: tool 0 is an array, not an object`,
		line: 1, col: 11,
	}, {
		name: "stream: a page then an array",
		src:  "{\"tools\":[]}\n[{\"name\":\"x\"}]",
		want: `m.json:2:1: document 2 is an array of tools but document 1 is a tools/list result; a stream holds only tools/list results or JSON-RPC responses`,
		line: 2, col: 1,
	}, {
		name: "stream: a page then a tool",
		src:  "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n{\"name\":\"x\"}",
		want: `m.json:2:1: document 2 is a single tool but document 1 is a JSON-RPC response; a stream holds only tools/list results or JSON-RPC responses`,
		line: 2, col: 1,
	}, {
		name: "stream: a page then a scalar",
		src:  "{\"tools\":[]}\n  true",
		want: `m.json:2:3: a boolean is not a tool manifest; ` + acceptedShapes,
		line: 2, col: 3,
	}, {
		name: "stream: tools then pages",
		src:  "{\"name\":\"x\"}\n{\"tools\":[]}",
		want: `m.json:2:1: document 2 is a tools/list result but document 1 is a single tool; a stream holds only tools/list results or JSON-RPC responses`,
		line: 2, col: 1,
	}, {
		name: "two arrays",
		src:  "[]\n[]",
		want: `m.json:2:1: several JSON documents: only newline-delimited tools/list results or JSON-RPC responses can be concatenated`,
		line: 2, col: 1,
	}, {
		name: "two tools",
		src:  `{"name":"a"} {"name":"b"}`,
		want: `m.json:1:14: several JSON documents: only newline-delimited tools/list results or JSON-RPC responses can be concatenated`,
		line: 1, col: 14,
	}, {
		name: "scalar document: number",
		src:  "42\n",
		want: "m.json:1:1: a number is not a tool manifest; " + acceptedShapes,
		line: 1, col: 1,
	}, {
		name: "scalar document: string",
		src:  ` "tools"`,
		want: "m.json:1:2: a string is not a tool manifest; " + acceptedShapes,
		line: 1, col: 2,
	}, {
		name: "scalar document: null",
		file: "x.JSON",
		src:  "null",
		want: "x.JSON:1:1: a null is not a tool manifest; " + acceptedShapes,
		line: 1, col: 1,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			if file == "" {
				file = "m.json"
			}
			m, err := Load(file, []byte(tc.src))
			if err == nil {
				t.Fatalf("Load succeeded (shape %q, %d tools)", m.Shape, len(m.Tools))
			}
			checkError(t, err, file, tc.want, tc.wantPrefix, tc.line, tc.col)
		})
	}
}

// checkError asserts that err is exactly one *Error with the message and
// position expected.
func checkError(t *testing.T, err error, file, want, wantPrefix string, line, col int) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error is a %T, not a *manifest.Error: %v", err, err)
	}
	if e.Path != file || e.Pos.Line != line || e.Pos.Column != col {
		t.Errorf("error at %s:%d:%d, want %s:%d:%d (%v)", e.Path, e.Pos.Line, e.Pos.Column, file, line, col, err)
	}
	if wantPrefix != "" {
		if !strings.HasPrefix(err.Error(), wantPrefix) {
			t.Errorf("error = %q\nwant prefix %q", err, wantPrefix)
		}
		if len(err.Error()) > 400 {
			t.Errorf("error is %d bytes long; keep it readable", len(err.Error()))
		}
		return
	}
	if err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err, want)
	}
	if strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("error spans several lines: %q", err)
	}
}

// TestValueTooDeep checks the per-tool nesting bound: a schema deeper than
// MaxDepth is refused when the manifest is loaded (the tokenizer allows
// more), where decoding it would fail, and one exactly MaxDepth deep loads
// and decodes.
func TestValueTooDeep(t *testing.T) {
	ok := `{"name":"ok","inputSchema":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`
	deep := `{"name":"deep","inputSchema":` + "\n" + strings.Repeat(`{"not":`, MaxDepth+5) + "{}" + strings.Repeat("}", MaxDepth+5) + `}`
	m, err := Load("d.json", []byte("["+ok+"]"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Tools[0].Value(); err != nil {
		t.Errorf("a tool %d levels deep does not decode: %v", MaxDepth, err)
	}
	_, err = Load("d.json", []byte("["+ok+",\n"+deep+"]"))
	// The tool object is level 0, so the schema's 1000th {"not": object is
	// level 1000 and the next one, at byte 7*1000 of line 3, is too deep.
	checkError(t, err, "d.json", "d.json:3:7001: nesting deeper than 1000 levels", "", 3, 7001)
}

// TestNestedDeeper checks the loader's depth scan against the decoder, which
// it stands in for: on the limits around each value's depth, they refuse the
// same values.
func TestNestedDeeper(t *testing.T) {
	values := []string{
		`1`, `{}`, `[]`, `{"a":1}`, `[[]]`, `[[1]]`, `[ [ ] ]`, `[ [ 1 ] ]`, `{"a":{}}`, `{"a":{"b":[]}}`,
		`{"a":{"b":[1]}}`, `{"a":"[[[[{{{{"}`, `{"a":"\"[[[["}`, `{"a\\":["\\",{"b":{}}]}`,
		`[{},{"a":[{"b":{"c":"]]]"}}]}]`, "[\n\t[\r\n]\n]", `{"a":[],"b":[[[]]],"c":[[[0]]]}`,
		`["}","]",["x"]]`,
	}
	for _, v := range values {
		for limit := 0; limit <= 6; limit++ {
			d := decoder{src: []byte(v), max: limit}
			_, err := d.value(0)
			if got := nestedDeeper([]byte(v), limit); got != (err != nil) {
				t.Errorf("nestedDeeper(%s, %d) = %v, the decoder's error: %v", v, limit, got, err)
			}
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(path, []byte(`{"tools":[{"name":"a"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Path != path || len(m.Tools) != 1 || m.Tools[0].Name != "a" {
		t.Errorf("ReadFile: path %q, %d tools", m.Path, len(m.Tools))
	}

	_, err = ReadFile(dir)
	var e *Error
	if !errors.As(err, &e) || e.Msg != "is a directory, not a manifest file; name the manifests in it" {
		t.Errorf("ReadFile(dir) = %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v, want a not-exist error", err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("[1]"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(bad)
	checkError(t, err, bad, bad+":1:2: tool 0 is a number, not an object", "", 1, 2)
}

// TestReadLimited checks the size bound with a small limit: the real one
// (MaxSize, 1 GiB) is the same code.
func TestReadLimited(t *testing.T) {
	for _, tc := range []struct {
		size, limit int64
		want        string
	}{
		{size: 0, limit: 10},
		{size: 10, limit: 10},
		{size: 11, limit: 10, want: "in.json: the input is larger than the limit of 10 bytes; split the tool list"},
		{size: 3 << 20, limit: 2 << 20, want: "in.json: the input is larger than the limit of 2 MiB; split the tool list"},
		{size: 2 << 20, limit: 2 << 20},
	} {
		src := bytes.Repeat([]byte{' '}, int(tc.size))
		// Without a size hint, with the right one, and with a wrong one.
		for _, hint := range []int64{0, tc.size, 5} {
			got, err := readLimited(bytes.NewReader(src), "in.json", tc.limit, hint)
			if tc.want == "" {
				if err != nil || len(got) != int(tc.size) {
					t.Errorf("size %d, limit %d, hint %d: read %d bytes, %v", tc.size, tc.limit, hint, len(got), err)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) || err.Error() != tc.want {
				t.Errorf("size %d, limit %d, hint %d: error %v, want %q", tc.size, tc.limit, hint, err, tc.want)
			}
		}
	}
	if _, err := readLimited(failingReader{}, "in.json", 10, 0); err == nil || !strings.Contains(err.Error(), "read in.json: disk on fire") {
		t.Errorf("read error = %v", err)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestErrorFormat(t *testing.T) {
	e := &Error{Path: "a.json", Msg: "bad"}
	if e.Error() != "a.json: bad" {
		t.Errorf("file-level error = %q", e)
	}
	e.Pos = Position{Offset: 4, Line: 2, Column: 3}
	if e.Error() != "a.json:2:3: bad" {
		t.Errorf("placed error = %q", e)
	}
}

func TestPointerTokens(t *testing.T) {
	for _, tc := range []struct {
		ptr  string
		toks []string
	}{
		{"", nil},
		{"/", []string{""}},
		{"/a/b", []string{"a", "b"}},
		{"/a~1b/m~0n/~01", []string{"a/b", "m~n", "~1"}},
	} {
		if diff := cmp.Diff(tc.toks, pointer.Split(tc.ptr)); diff != "" {
			t.Errorf("pointer.Split(%q) (-want +got):\n%s", tc.ptr, diff)
		}
	}
	for _, s := range []string{"", "a", "a/b", "~", "~1", "/~/"} {
		if got := pointer.Split("/" + pointer.Escape(s)); len(got) != 1 || got[0] != s {
			t.Errorf("pointer.Escape(%q) does not round-trip: %q", s, got)
		}
	}
}

// TestPlacesMatchIndex checks that the ways of finding a value agree: the
// path scan behind Locate, Span and Places, the span the loader keeps of a
// JSON tool (which places the pointer ""), and the whole-tool index behind
// edits; pointers that lead nowhere are placed at their parent. All
// the pointers of a tool are placed in one call, and one at a time.
func TestPlacesMatchIndex(t *testing.T) {
	sources := []string{
		string(benchgen.Generate(benchgen.Options{Tools: 100, Seed: 3})),
		string(benchgen.Generate(benchgen.Options{Tools: 100, Seed: 4, Compact: true})),
		"{\"tools\": [\r\n {\"name\" : \"a\" ,\"inputSchema\":{ \"properties\" : { \"a/b\" : { } , \"m~n\":[ 1 , [ ] , { \"\\u0078\": null } ] , \"\": 0 } } } ]}",
		`{"name":"p","schema":{"$defs":{"x":{"enum":[[],[[]],{}]}}}}`,
		"{\"tools\":[ {\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"type\":\"object\"}}} ,\n\t{\"type\":\"function\",\"function\":{\"name\":\"g\"}}\t]}",
	}
	for i, src := range sources {
		m, err := Load("s.json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range m.Tools {
			var ptrs []string
			var want []Place
			for ptr, n := range tool.index().nodes {
				ptrs = append(ptrs, ptr)
				want = append(want, Place{Key: n.keyStart, Start: n.start, End: n.end, Found: true})
				for _, missing := range []string{"/zz", "/-", "/01", "/~1x", "/zz/y"} {
					ptrs = append(ptrs, ptr+missing)
					want = append(want, Place{Key: n.keyStart, Start: n.start})
				}
			}
			got := tool.Places(ptrs)
			for j, ptr := range ptrs {
				if got[j] != want[j] {
					t.Fatalf("source %d, tool %d, %q: placed at %+v, want %+v", i, tool.Index, ptr, got[j], want[j])
				}
				if one := tool.Places([]string{ptr})[0]; one != want[j] {
					t.Fatalf("source %d, tool %d, %q alone: placed at %+v, want %+v", i, tool.Index, ptr, one, want[j])
				}
				if start, end, ok := tool.Span(ptr); ok != want[j].Found || ok && (start != want[j].Start || end != want[j].End) {
					t.Fatalf("source %d, tool %d, %q: spans %d to %d (%v), want %+v", i, tool.Index, ptr, start, end, ok, want[j])
				}
			}
		}
	}
}
