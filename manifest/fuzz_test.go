package manifest_test

import (
	"errors"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
)

// FuzzLoad feeds any bytes to the loader: it must not panic; it either
// refuses them with one *manifest.Error or locates tools whose values decode
// (or refuse to, cleanly) and whose pointers all locate.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}],"nextCursor":"c"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}]}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`,
		`[{"name":"a"},{"name":"b","inputSchema":{"enum":[1,2.5e3,null,true]}}]`,
		`{"name":"p","description":"d","schema":{"type":"object"}}`,
		`{"name":"a","inputSchema":{"properties":{"a/b":{"m~n":[]}}}}`,
		"\xEF\xBB\xBF{\"tools\":[]}",
		"{\n  \"tools\": [\n    {\"name\": \"a\"}\n  ]\n}\n",
		`{"jsonrpc":"2.0","id":1,"error":{"code":1}}`,
		`{"tools":[{"name":"a","name":"b"}]}`,
		`[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]`,
		"tools:\n  - name: a\n",
		"42", "", " ", "\xff",
		// Other consumers' formats.
		`{"model":"m","tools":[{"type":"web_search"},{"type":"function","function":{"name":"a","parameters":{"type":"object"},"strict":true}}]}`,
		`[{"type":"function","name":"a","parameters":{"type":"object"}},{"type":"file_search"}]`,
		`{"tools":[{"name":"a"},{"type":"bash_20250124","name":"bash"},{"name":"b","input_schema":{"type":"object"}}]}`,
		`{"tools":[{"googleSearch":{}},{"functionDeclarations":[{"name":"a","parameters":{"type":"OBJECT"}},{"name":"b","parametersJsonSchema":{}}]}]}`,
		`{"function_declarations":[{"name":"a","parameters_json_schema":{"type":"object"}}]}`,
		`[{"name":"a","input_schema":{}},{"name":"b","inputSchema":{}}]`,
		// A saved surface.
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}` + "\n" + `{"jsonrpc":"2.0","id":"initialize","result":{"protocolVersion":"2025-06-18","capabilities":{},"instructions":"i"}}` + "\n" +
			`{"jsonrpc":"2.0","id":"prompts/list","result":{"prompts":[{"name":"p","arguments":[{"name":"a"}]},7]}}` + "\n" +
			`{"jsonrpc":"2.0","id":"resources/templates/list","error":{"code":-32601,"message":"x"}}`,
		`{"resources":[{"uri":"a:b","name":"r"}],"nextCursor":"c"}`,
	} {
		f.Add("m.json", []byte(s))
	}
	f.Add("m.yaml", []byte("tools:\n  - type: function\n    function:\n      name: a\n      parameters: {type: object}\n"))
	f.Add("m.yaml", []byte("functionDeclarations:\n  - name: a\n    parametersJsonSchema:\n      type: object\n"))
	f.Add("m.yaml", []byte("tools:\n  - name: a\n    inputSchema: {type: object}\n"))
	f.Add("-", []byte(`{"name":"x"}`))
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		// Under tight limits a source loads or fails with an *Error that
		// names the limit or not, never otherwise; a tool too deep for
		// them does not decode.
		tight := manifest.Limits{Depth: 4, YAMLTokens: 60, YAMLExpansion: 100}
		if small, err := tight.Load(name, src); err != nil {
			var e *manifest.Error
			if !errors.As(err, &e) || e.Path != name {
				t.Fatalf("under tight limits: %T %v", err, err)
			}
		} else {
			for _, tool := range small.Tools {
				if _, err := tool.Value(); err != nil {
					var e *manifest.Error
					if !errors.As(err, &e) {
						t.Fatalf("under tight limits, decoding: %T %v", err, err)
					}
				}
			}
		}
		m, err := manifest.Load(name, src)
		if err != nil {
			var e *manifest.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is not a *manifest.Error: %T %v", err, err)
			}
			if e.Path != name {
				t.Fatalf("error names %q, not %q", e.Path, name)
			}
			return
		}
		if string(m.Src) != string(src) {
			t.Fatal("Src is not the source")
		}
		for _, list := range [][]*manifest.Entry{m.Results, m.Prompts, m.Resources, m.Templates} {
			for _, e := range list {
				if _, err := e.Value(); err != nil {
					var me *manifest.Error
					if !errors.As(err, &me) {
						t.Fatalf("%s: Value error is not a *manifest.Error: %T %v", e.Describe(), err, err)
					}
				}
				for _, p := range []string{"", "/name", "/arguments/0/name", "/nope/x"} {
					if pos := e.Locate(p); pos.Line < 1 || pos.Offset < 0 || pos.Offset > len(src) {
						t.Fatalf("%s: Locate(%q) = %+v", e.Describe(), p, pos)
					}
				}
			}
		}
		for _, tool := range m.Tools {
			v, err := tool.Value()
			if err != nil {
				var e *manifest.Error
				if !errors.As(err, &e) {
					t.Fatalf("tool %d: Value error is not a *manifest.Error: %T %v", tool.Index, err, err)
				}
				continue
			}
			obj, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("tool %d decodes to %T", tool.Index, v)
			}
			if tool.SchemaKey != "inputSchema" {
				if _, ok := obj[tool.SchemaKey]; ok {
					t.Fatalf("tool %d shows its %q member", tool.Index, tool.SchemaKey)
				}
			}
			start, end, ok := tool.Span("")
			if !ok || start < 0 || end > len(src) || start > end {
				t.Fatalf("tool %d: span %d:%d, %v", tool.Index, start, end, ok)
			}
			locateAll(t, tool, obj, "", 0)
			// Pointers that do not exist place at an ancestor.
			for _, p := range []string{"/nope", "/inputSchema/x/y", "/-", "//", "/~", "/inputSchema/properties/~1/0"} {
				pos := tool.Locate(p)
				if pos.Line < 1 || pos.Column < 1 || pos.Offset < 0 || pos.Offset > len(src) {
					t.Fatalf("tool %d: Locate(%q) = %+v", tool.Index, p, pos)
				}
			}
		}
	})
}

// locateAll locates every value of v; the spans must lie in the source.
func locateAll(t *testing.T, tool *manifest.Tool, v any, ptr string, depth int) {
	if depth > 64 {
		return // deep enough to exercise the index; keep a fuzz run fast
	}
	pos := tool.Locate(ptr)
	if pos.Line < 1 || pos.Column < 1 || pos.Offset < 0 || pos.Offset > len(tool.M.Src) {
		t.Fatalf("tool %d: Locate(%q) = %+v", tool.Index, ptr, pos)
	}
	if s, e, ok := tool.Span(ptr); !ok || s < 0 || e > len(tool.M.Src) || s > e {
		t.Fatalf("tool %d: Span(%q) = %d:%d, %v", tool.Index, ptr, s, e, ok)
	}
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			locateAll(t, tool, c, ptr+"/"+pointer.Escape(k), depth+1)
		}
	case []any:
		for i, c := range x {
			locateAll(t, tool, c, ptr+"/"+strconv.Itoa(i), depth+1)
		}
	}
}

// FuzzApply edits the first tool of any manifest that loads (adds a member,
// replaces one, removes one, appends to an array) and checks that the output
// loads, keeps its tools, and decodes to what the edits describe.
func FuzzApply(f *testing.F) {
	for _, s := range []string{
		`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}}]}`,
		"{\n  \"name\": \"a\",\n  \"inputSchema\": {\n    \"enum\": []\n  }\n}",
		"[\n\t{\"name\": \"a\", \"description\": \"d\", \"tags\": [1, 2]},\n\t{\"name\": \"b\"}\n]",
		"{\"name\":\"p\",\"schema\":{}}",
		"\xEF\xBB\xBF{\r\n  \"tools\": [{\"name\": \"a\", \"x\": {}}]\r\n}",
		"[\n  {\"type\": \"function\", \"function\": {\"name\": \"a\", \"parameters\": {\"type\": \"object\"}, \"strict\": true}}\n]",
		`{"tools":[{"type":"function","name":"a","description":"d","parameters":{}}]}`,
		`[{"name":"a","description":"d","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"}}]`,
		`{"functionDeclarations":[{"name":"a","description":"d","parametersJsonSchema":{"type":"object"}}]}`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, src []byte, pick uint8) {
		m, err := manifest.Load("m.json", src)
		if err != nil || len(m.Tools) == 0 {
			return
		}
		tool := m.Tools[0]
		v, err := tool.Value()
		if err != nil {
			return
		}
		obj := v.(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			// The members that make the document's shape stay.
			if k != "name" && k != "inputSchema" && !foreignShapeKeys[k] {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		edits := []manifest.Edit{{Op: manifest.Add, Pointer: "/x-fuzz-added", Value: map[string]any{"a": []any{"b", 1.5}}}}
		if _, ok := obj["x-fuzz-added"]; ok {
			return // the add would replace it; the model below assumes a new member
		}
		if len(keys) > 0 {
			k := keys[int(pick)%len(keys)]
			if pick%2 == 0 {
				edits = append(edits, manifest.Edit{Op: manifest.Remove, Pointer: "/" + pointer.Escape(k)})
			} else {
				edits = append(edits, manifest.Edit{Op: manifest.Replace, Pointer: "/" + pointer.Escape(k), Value: []any{"r"}})
			}
			if _, ok := obj[k].([]any); ok && pick%4 == 1 {
				edits[len(edits)-1] = manifest.Edit{Op: manifest.Add, Pointer: "/" + pointer.Escape(k) + "/-", Value: "appended"}
			}
		}
		var tes []manifest.ToolEdit
		for _, e := range edits {
			tes = append(tes, manifest.ToolEdit{Tool: tool, Edit: e})
		}
		out, skipped, err := m.Apply(tes)
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		m2, err := manifest.Load("m.json", out)
		if err != nil {
			t.Fatalf("the output does not load: %v\n%q\n%q", err, src, out)
		}
		if len(m2.Tools) != len(m.Tools) {
			t.Fatalf("%d tools, then %d", len(m.Tools), len(m2.Tools))
		}
		after, err := m2.Tools[0].Value()
		if err != nil {
			t.Fatalf("the edited tool does not decode: %v", err)
		}
		var applied []manifest.Edit
		for i, e := range edits {
			if !skipped[i] {
				applied = append(applied, e)
			}
		}
		if diff := cmp.Diff(normalizeNumbers(applyModel(t, v, applied)), normalizeNumbers(after)); diff != "" {
			t.Fatalf("edited tool (-want +got):\n%s\n%q\n%q", diff, src, out)
		}
		// The other tools keep their bytes.
		for i := 1; i < len(m.Tools); i++ {
			s1, e1, _ := m.Tools[i].Span("")
			s2, e2, _ := m2.Tools[i].Span("")
			if string(src[s1:e1]) != string(out[s2:e2]) {
				t.Fatalf("tool %d changed", i)
			}
		}
	})
}

// foreignShapeKeys are the members that tell other consumers' formats apart
// (manifest/foreign.go): editing them changes the shape.
var foreignShapeKeys = map[string]bool{
	"type": true, "function": true, "input_schema": true, "parameters": true,
	"parametersJsonSchema": true, "parameters_json_schema": true,
	"functionDeclarations": true, "function_declarations": true,
}
