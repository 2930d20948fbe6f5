package manifest_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
)

const (
	replace = manifest.Replace
	add     = manifest.Add
	remove  = manifest.Remove
)

func ed(op manifest.Op, ptr string, v ...any) manifest.Edit {
	e := manifest.Edit{Op: op, Pointer: ptr}
	if len(v) > 0 {
		e.Value = v[0]
	}
	return e
}

// prettySrc is indented by two spaces; reindent gives the four-space and tab
// variants, whose expected outputs are reindented the same way.
const prettySrc = `{
  "tools": [
    {
      "name": "t",
      "inputSchema": {
        "type": "object",
        "properties": {
          "a": {"type": "string"},
          "b": {
            "type": "integer"
          },
          "c": {"type": "number"}
        },
        "required": ["a", "b"]
      }
    }
  ]
}
`

// reindent replaces each leading two-space unit of every line with unit.
func reindent(s, unit string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		n := 0
		for strings.HasPrefix(l[2*n:], "  ") {
			n++
		}
		lines[i] = strings.Repeat(unit, n) + l[2*n:]
	}
	return strings.Join(lines, "\n")
}

// prettyLines returns prettySrc with lines [from, to) (1-based) replaced by
// repl, so each case states only the lines it changes.
func prettyLines(from, to int, repl ...string) string {
	lines := strings.Split(prettySrc, "\n")
	out := append(append(append([]string{}, lines[:from-1]...), repl...), lines[to-1:]...)
	return strings.Join(out, "\n")
}

const compactSrc = `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"number"}},"required":["a","b"]}}]}`

type editCase struct {
	name    string
	edits   []manifest.Edit
	want    string // byte-exact output
	skipped []int  // indices of the edits expected to be skipped
}

func TestApplyPretty(t *testing.T) {
	long := "Where the file is written, relative to the workspace root"
	cases := []editCase{{
		name:  "replace the first member's value",
		edits: []manifest.Edit{ed(replace, "/inputSchema/type", []any{"object", "null"})},
		want:  prettyLines(6, 7, `        "type": ["object", "null"],`),
	}, {
		name:  "replace a multi-line value keeps it multi-line",
		edits: []manifest.Edit{ed(replace, "/inputSchema/properties/b", map[string]any{"type": "string", "pattern": "^[0-9]+$"})},
		want: prettyLines(9, 12,
			`          "b": {`,
			`            "type": "string",`,
			`            "pattern": "^[0-9]+$"`,
			`          },`),
	}, {
		name:  "replace a one-line value keeps it on one line",
		edits: []manifest.Edit{ed(replace, "/inputSchema/properties/a", map[string]any{"type": "string", "minLength": json.Number("1")})},
		want:  prettyLines(8, 9, `          "a": {"type": "string", "minLength": 1},`),
	}, {
		name:  "replace the last member and an array element",
		edits: []manifest.Edit{ed(replace, "/inputSchema/required/1", "c"), ed(replace, "/name", "u")},
		want:  strings.Replace(strings.Replace(prettySrc, `"name": "t"`, `"name": "u"`, 1), `["a", "b"]`, `["a", "c"]`, 1),
	}, {
		name:  "replace a nested scalar",
		edits: []manifest.Edit{ed(replace, "/inputSchema/properties/b/type", "number")},
		want:  prettyLines(10, 11, `            "type": "number"`),
	}, {
		name:  "replace the whole tool",
		edits: []manifest.Edit{ed(replace, "", map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}})},
		want: prettyLines(3, 17,
			`    {`,
			`      "name": "t",`,
			`      "inputSchema": {`,
			`        "type": "object"`,
			`      }`,
			`    }`),
	}, {
		name:  "add a member after the last one",
		edits: []manifest.Edit{ed(add, "/inputSchema/additionalProperties", false)},
		want: prettyLines(14, 15,
			`        "required": ["a", "b"],`,
			`        "additionalProperties": false`),
	}, {
		name:  "add an existing member replaces it",
		edits: []manifest.Edit{ed(add, "/inputSchema/type", "object"), ed(add, "/inputSchema/properties/c/type", "integer")},
		want:  prettyLines(12, 13, `          "c": {"type": "integer"}`),
	}, {
		name:  "add to a one-line object and to a multi-line one",
		edits: []manifest.Edit{ed(add, "/inputSchema/properties/a/minLength", 1), ed(add, "/inputSchema/properties/b/minimum", 0)},
		want: prettyLines(8, 11,
			`          "a": {"type": "string", "minLength": 1},`,
			`          "b": {`,
			`            "type": "integer",`,
			`            "minimum": 0`),
	}, {
		name: "add a long object spreads it over lines",
		edits: []manifest.Edit{ed(add, "/inputSchema/properties/d", map[string]any{
			"type": "string", "description": long, "enum": []any{"x", "y"},
		})},
		want: prettyLines(12, 13,
			`          "c": {"type": "number"},`,
			`          "d": {`,
			`            "description": "`+long+`",`,
			`            "type": "string",`,
			`            "enum": ["x", "y"]`,
			`          }`),
	}, {
		name: "insert array elements first, in the middle, at the end and appended",
		edits: []manifest.Edit{
			ed(add, "/inputSchema/required/0", "w"), ed(add, "/inputSchema/required/1", "x"),
			ed(add, "/inputSchema/required/2", "y"), ed(add, "/inputSchema/required/-", "z"),
		},
		want: prettyLines(14, 15, `        "required": ["w", "a", "x", "b", "y", "z"]`),
	}, {
		name:  "remove the first member",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/a")},
		want:  prettyLines(8, 9),
	}, {
		name:  "remove a middle member",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/b")},
		want:  prettyLines(9, 12),
	}, {
		name:  "remove the last member",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/c")},
		want:  prettyLines(11, 13, `          }`),
	}, {
		name:  "remove the first two members in one go",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/a"), ed(remove, "/inputSchema/properties/b")},
		want:  prettyLines(8, 12),
	}, {
		name:  "remove the last two members in one go",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/c"), ed(remove, "/inputSchema/properties/b")},
		want:  prettyLines(8, 13, `          "a": {"type": "string"}`),
	}, {
		name:  "remove the first and last members in one go",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/a"), ed(remove, "/inputSchema/properties/c")},
		want:  prettyLines(8, 13, `          "b": {`, `            "type": "integer"`, `          }`),
	}, {
		name: "remove every member",
		edits: []manifest.Edit{
			ed(remove, "/inputSchema/properties/b"), ed(remove, "/inputSchema/properties/c"), ed(remove, "/inputSchema/properties/a"),
		},
		want: prettyLines(7, 14, `        "properties": {},`),
	}, {
		name:  "remove array elements",
		edits: []manifest.Edit{ed(remove, "/inputSchema/required/0")},
		want:  prettyLines(14, 15, `        "required": ["b"]`),
	}, {
		name:  "remove every array element",
		edits: []manifest.Edit{ed(remove, "/inputSchema/required/1"), ed(remove, "/inputSchema/required/0")},
		want:  prettyLines(14, 15, `        "required": []`),
	}, {
		name:  "remove every member of the schema",
		edits: []manifest.Edit{ed(remove, "/inputSchema/type"), ed(remove, "/inputSchema/properties"), ed(remove, "/inputSchema/required")},
		want:  prettyLines(5, 16, `      "inputSchema": {}`),
	}, {
		name:  "remove the only member",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/b/type")},
		want:  prettyLines(9, 12, `          "b": {},`),
	}, {
		name:  "remove and add in different containers",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/a"), ed(add, "/inputSchema/required/-", "c"), ed(remove, "/inputSchema/required/0")},
		want: prettyLines(8, 15,
			`          "b": {`,
			`            "type": "integer"`,
			`          },`,
			`          "c": {"type": "number"}`,
			`        },`,
			`        "required": ["b", "c"]`),
	}, {
		name:    "an edit inside a removed member is skipped",
		edits:   []manifest.Edit{ed(remove, "/inputSchema/properties/b"), ed(replace, "/inputSchema/properties/b/type", "string")},
		want:    prettyLines(9, 12),
		skipped: []int{1},
	}, {
		name:    "an edit inside a replaced value is skipped",
		edits:   []manifest.Edit{ed(add, "/inputSchema/properties/b/minimum", 0), ed(replace, "/inputSchema/properties", map[string]any{})},
		want:    prettyLines(7, 14, `        "properties": {},`),
		skipped: []int{0},
	}, {
		name:    "the same member added twice: the second add is skipped",
		edits:   []manifest.Edit{ed(add, "/inputSchema/title", "T"), ed(add, "/inputSchema/title", "U")},
		want:    prettyLines(14, 15, `        "required": ["a", "b"],`, `        "title": "T"`),
		skipped: []int{1},
	}, {
		name:    "the same value replaced twice: the second is skipped",
		edits:   []manifest.Edit{ed(replace, "/name", "u"), ed(replace, "/name", "v")},
		want:    prettyLines(4, 5, `      "name": "u",`),
		skipped: []int{1},
	}, {
		name:    "adding after the members of an emptied object is skipped",
		edits:   []manifest.Edit{ed(remove, "/inputSchema/required/0"), ed(remove, "/inputSchema/required/1"), ed(add, "/inputSchema/required/-", "c")},
		want:    prettyLines(14, 15, `        "required": []`),
		skipped: []int{2},
	}}
	for _, style := range []struct{ name, unit string }{{"2 spaces", "  "}, {"4 spaces", "    "}, {"tabs", "\t"}} {
		t.Run(style.name, func(t *testing.T) {
			src := reindent(prettySrc, style.unit)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					c.want = reindent(c.want, style.unit)
					checkApply(t, src, 0, c)
				})
			}
		})
	}
}

func TestApplyCompact(t *testing.T) {
	cases := []editCase{{
		name:  "replace the first member's value",
		edits: []manifest.Edit{ed(replace, "/inputSchema/type", []any{"object", "null"})},
		want:  strings.Replace(compactSrc, `"type":"object"`, `"type":["object","null"]`, 1),
	}, {
		name:  "replace a member with an object",
		edits: []manifest.Edit{ed(replace, "/inputSchema/properties/b", map[string]any{"type": "string", "pattern": "^[0-9]+$"})},
		want:  strings.Replace(compactSrc, `"b":{"type":"integer"}`, `"b":{"type":"string","pattern":"^[0-9]+$"}`, 1),
	}, {
		name:  "add members and elements",
		edits: []manifest.Edit{ed(add, "/inputSchema/additionalProperties", false), ed(add, "/inputSchema/required/-", "c"), ed(add, "/inputSchema/required/0", "z")},
		want:  strings.Replace(compactSrc, `"required":["a","b"]}`, `"required":["z","a","b","c"],"additionalProperties":false}`, 1),
	}, {
		name:  "add a long object stays on one line",
		edits: []manifest.Edit{ed(add, "/inputSchema/properties/d", map[string]any{"type": "string", "description": strings.Repeat("long ", 20)})},
		want:  strings.Replace(compactSrc, `"c":{"type":"number"}`, `"c":{"type":"number"},"d":{"description":"`+strings.Repeat("long ", 20)+`","type":"string"}`, 1),
	}, {
		name:  "remove the first member",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/a")},
		want:  strings.Replace(compactSrc, `"a":{"type":"string"},`, ``, 1),
	}, {
		name:  "remove a middle member",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/b")},
		want:  strings.Replace(compactSrc, `"b":{"type":"integer"},`, ``, 1),
	}, {
		name:  "remove the last member",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/c")},
		want:  strings.Replace(compactSrc, `,"c":{"type":"number"}`, ``, 1),
	}, {
		name:  "remove a run of members",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/b"), ed(remove, "/inputSchema/properties/c")},
		want:  strings.Replace(compactSrc, `,"b":{"type":"integer"},"c":{"type":"number"}`, ``, 1),
	}, {
		name:  "remove the first and last members",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/c"), ed(remove, "/inputSchema/properties/a")},
		want:  strings.Replace(compactSrc, `{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"number"}}`, `{"b":{"type":"integer"}}`, 1),
	}, {
		name:  "remove every member",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/c"), ed(remove, "/inputSchema/properties/a"), ed(remove, "/inputSchema/properties/b")},
		want:  strings.Replace(compactSrc, `{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"number"}}`, `{}`, 1),
	}, {
		name:  "remove the only member and array elements",
		edits: []manifest.Edit{ed(remove, "/inputSchema/properties/a/type"), ed(remove, "/inputSchema/required/0")},
		want:  strings.Replace(strings.Replace(compactSrc, `"a":{"type":"string"}`, `"a":{}`, 1), `["a","b"]`, `["b"]`, 1),
	}, {
		name:    "adding after the only member while removing it is skipped",
		edits:   []manifest.Edit{ed(remove, "/inputSchema/properties/a/type"), ed(add, "/inputSchema/properties/a/minLength", 1)},
		want:    strings.Replace(compactSrc, `"a":{"type":"string"}`, `"a":{}`, 1),
		skipped: []int{1},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkApply(t, compactSrc, 0, c) })
	}
}

func TestApplyEmptyContainers(t *testing.T) {
	long := strings.Repeat("x", 70)
	for _, c := range []struct {
		src string
		editCase
	}{{
		src: `{"name":"t","inputSchema":{}}`,
		editCase: editCase{
			name:  "compact: one member",
			edits: []manifest.Edit{ed(add, "/inputSchema/type", "object")},
			want:  `{"name":"t","inputSchema":{"type":"object"}}`,
		},
	}, {
		src: `{"name":"t","inputSchema":{}}`,
		editCase: editCase{
			name:  "compact: several members",
			edits: []manifest.Edit{ed(add, "/inputSchema/type", "object"), ed(add, "/inputSchema/properties", map[string]any{}), ed(add, "/inputSchema/required", []any{})},
			want:  `{"name":"t","inputSchema":{"type":"object","properties":{},"required":[]}}`,
		},
	}, {
		src: `{"name":"t","inputSchema":{"enum":[]}}`,
		editCase: editCase{
			name:  "compact: several elements",
			edits: []manifest.Edit{ed(add, "/inputSchema/enum/-", "a"), ed(add, "/inputSchema/enum/0", "b"), ed(add, "/inputSchema/enum/-", "c")},
			want:  `{"name":"t","inputSchema":{"enum":["a","b","c"]}}`,
		},
	}, {
		src: "{\n  \"name\": \"t\",\n  \"inputSchema\": {}\n}",
		editCase: editCase{
			name:  "pretty: short members stay on one line",
			edits: []manifest.Edit{ed(add, "/inputSchema/type", "object"), ed(add, "/inputSchema/properties", map[string]any{})},
			want:  "{\n  \"name\": \"t\",\n  \"inputSchema\": {\"type\": \"object\", \"properties\": {}}\n}",
		},
	}, {
		src: "{\n  \"name\": \"t\",\n  \"inputSchema\": {}\n}",
		editCase: editCase{
			name:  "pretty: a long member opens the object",
			edits: []manifest.Edit{ed(add, "/inputSchema/type", "object"), ed(add, "/inputSchema/description", long)},
			want:  "{\n  \"name\": \"t\",\n  \"inputSchema\": {\n    \"type\": \"object\",\n    \"description\": \"" + long + "\"\n  }\n}",
		},
	}, {
		src: "{\n  \"name\": \"t\",\n  \"inputSchema\": {\n  }\n}",
		editCase: editCase{
			name:  "pretty: an empty object already open",
			edits: []manifest.Edit{ed(add, "/inputSchema/type", "object")},
			want:  "{\n  \"name\": \"t\",\n  \"inputSchema\": {\n    \"type\": \"object\"\n  }\n}",
		},
	}, {
		src: `{"name":"t","inputSchema":{}}`,
		editCase: editCase{
			name:    "the same member twice",
			edits:   []manifest.Edit{ed(add, "/inputSchema/type", "object"), ed(add, "/inputSchema/type", "string")},
			want:    `{"name":"t","inputSchema":{"type":"object"}}`,
			skipped: []int{1},
		},
	}, {
		src: `{"name":"t","inputSchema":{"properties":{},"required":[]}}`,
		editCase: editCase{
			name:  "two empty containers",
			edits: []manifest.Edit{ed(add, "/inputSchema/required/-", "a"), ed(add, "/inputSchema/properties/a", map[string]any{}), ed(add, "/inputSchema/required/-", "b")},
			want:  `{"name":"t","inputSchema":{"properties":{"a":{}},"required":["a","b"]}}`,
		},
	}} {
		t.Run(c.name, func(t *testing.T) { checkApply(t, c.src, 0, c.editCase) })
	}
}

func TestApplyShapes(t *testing.T) {
	// The plugin contract's schema is edited through /inputSchema.
	checkApply(t, `{"name":"p","description":"d","schema":{"type":"object"}}`, 0, editCase{
		name:  "plugin contract",
		edits: []manifest.Edit{ed(add, "/inputSchema/properties", map[string]any{}), ed(replace, "/description", "e")},
		want:  `{"name":"p","description":"e","schema":{"type":"object","properties":{}}}`,
	})
	// A byte order mark stays.
	checkApply(t, "\xEF\xBB\xBF{\"tools\":[{\"name\":\"a\"}]}", 0, editCase{
		name:  "byte order mark",
		edits: []manifest.Edit{ed(add, "/inputSchema", map[string]any{"type": "object"})},
		want:  "\xEF\xBB\xBF{\"tools\":[{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\"}}]}",
	})
	// CRLF line endings: new lines use the indentation, the text keeps its endings.
	checkApply(t, "{\r\n  \"name\": \"a\",\r\n  \"inputSchema\": {\r\n    \"type\": \"object\"\r\n  }\r\n}\r\n", 0, editCase{
		name: "CRLF",
		edits: []manifest.Edit{
			ed(replace, "/inputSchema/type", "string"), ed(add, "/title", "A"),
			ed(add, "/inputSchema/properties", map[string]any{"a": map[string]any{"description": strings.Repeat("x", 80)}}),
		},
		want: "{\r\n  \"name\": \"a\",\r\n  \"inputSchema\": {\r\n    \"type\": \"string\",\r\n    \"properties\": {\r\n      \"a\": {\r\n        \"description\": \"" +
			strings.Repeat("x", 80) + "\"\r\n      }\r\n    }\r\n  },\r\n  \"title\": \"A\"\r\n}\r\n",
	})
	// Keys and strings that need escaping.
	checkApply(t, `{"name":"a","inputSchema":{"properties":{"a/b":{},"m~n":{}}}}`, 0, editCase{
		name: "escaped pointers",
		edits: []manifest.Edit{
			ed(remove, "/inputSchema/properties/a~1b"), ed(add, "/inputSchema/properties/m~0n/description", "\"quoted\" <tag> \u2028 \x01"),
			ed(add, "/inputSchema/properties/x~1y", true),
		},
		want: `{"name":"a","inputSchema":{"properties":{"m~n":{"description":"\"quoted\" <tag> ` + "\u2028" + ` \u0001"},"x/y":true}}}`,
	})
	// A member named "-" is a member, not an append.
	checkApply(t, `{"name":"a","inputSchema":{"-":1}}`, 0, editCase{
		name:  "member named -",
		edits: []manifest.Edit{ed(add, "/inputSchema/-", 2)},
		want:  `{"name":"a","inputSchema":{"-":2}}`,
	})
}

func TestApplySeveralTools(t *testing.T) {
	src := "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\"},{\"name\":\"b\"}]}}\n" +
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"c\",\"title\":\"C\"}]}}\n"
	m, err := manifest.Load("s.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, skipped, err := m.Apply([]manifest.ToolEdit{
		{Tool: m.Tools[2], Edit: ed(remove, "/title")},
		{Tool: m.Tools[0], Edit: ed(add, "/inputSchema", map[string]any{"type": "object"})},
		{Tool: m.Tools[1], Edit: ed(replace, "/name", "B")},
		// Removing /title of tool 1 (which has none) would be an error;
		// the same pointer on another tool is independent.
		{Tool: m.Tools[0], Edit: ed(add, "/title", "A")},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":{\"type\":\"object\"},\"title\":\"A\"},{\"name\":\"B\"}]}}\n" +
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"c\"}]}}\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{false, false, false, false}, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	if _, err := manifest.Load("s.json", out); err != nil {
		t.Errorf("output does not load: %v", err)
	}
}

func TestApplyErrors(t *testing.T) {
	src := `{"name":"t","inputSchema":{"type":"object","enum":["x"]}}`
	for _, c := range []struct {
		edit manifest.Edit
		want string
	}{
		{ed(replace, "/inputSchema/nope", 1), `e.json: tool "t": replace /inputSchema/nope: no value at /inputSchema/nope`},
		{ed(remove, "/inputSchema/nope"), `e.json: tool "t": remove /inputSchema/nope: no value at /inputSchema/nope`},
		{ed(remove, ""), `e.json: tool "t": remove : cannot remove the tool itself`},
		{ed(add, "/inputSchema/nope/x", 1), `e.json: tool "t": add /inputSchema/nope/x: no container at /inputSchema/nope`},
		{ed(add, "/inputSchema/type/x", 1), `e.json: tool "t": add /inputSchema/type/x: /inputSchema/type is not an object or array`},
		{ed(add, "/inputSchema/enum/2", 1), `e.json: tool "t": add /inputSchema/enum/2: bad array index "2"`},
		{ed(add, "/inputSchema/enum/-1", 1), `e.json: tool "t": add /inputSchema/enum/-1: bad array index "-1"`},
		{ed(add, "/inputSchema/enum/x", 1), `e.json: tool "t": add /inputSchema/enum/x: bad array index "x"`},
		{ed(remove, "/inputSchema/enum/-"), `e.json: tool "t": remove /inputSchema/enum/-: no value at /inputSchema/enum/-`},
		{ed(add, "inputSchema", 1), `e.json: tool "t": add "inputSchema": not a JSON Pointer (it must be empty or start with "/")`},
	} {
		m, err := manifest.Load("e.json", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = m.Apply([]manifest.ToolEdit{{Tool: m.Tools[0], Edit: c.edit}})
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: error %v, want %q", c.edit, err, c.want)
		}
	}
	m, _ := manifest.Load("e.json", []byte(`{"name":"t","inputSchema":{}}`))
	_, _, err := m.Apply([]manifest.ToolEdit{{Tool: m.Tools[0], Edit: ed(add, "/inputSchema/x", 1)}, {Tool: m.Tools[0], Edit: ed(add, "/inputSchema/y/z", 1)}})
	if err == nil {
		t.Error("an add into a missing container among others succeeds")
	}
	m, _ = manifest.Load("e.json", []byte(`{"name":"t","inputSchema":{"enum":[]}}`))
	_, _, err = m.Apply([]manifest.ToolEdit{{Tool: m.Tools[0], Edit: ed(add, "/inputSchema/enum/-", 1)}, {Tool: m.Tools[0], Edit: ed(add, "/inputSchema/enum/1", 2)}})
	if err == nil || !strings.Contains(err.Error(), `bad array index "1"`) {
		t.Errorf("an add past the end of an empty array: %v", err)
	}
}

// checkApply applies c's edits to tool i of src and checks the bytes, the
// skipped edits, and that the output loads and decodes to the value the
// edits describe.
func checkApply(t *testing.T, src string, i int, c editCase) {
	t.Helper()
	m, err := manifest.Load("in.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tool := m.Tools[i]
	before, err := tool.Value()
	if err != nil {
		t.Fatal(err)
	}
	var tes []manifest.ToolEdit
	for _, e := range c.edits {
		tes = append(tes, manifest.ToolEdit{Tool: tool, Edit: e})
	}
	out, skipped, err := m.Apply(tes)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if diff := cmp.Diff(c.want, string(out)); diff != "" {
		t.Errorf("output (-want +got):\n%s\ngot:\n%s", diff, out)
	}
	wantSkipped := make([]bool, len(c.edits))
	for _, j := range c.skipped {
		wantSkipped[j] = true
	}
	if diff := cmp.Diff(wantSkipped, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	m2, err := manifest.Load("out.json", out)
	if err != nil {
		t.Fatalf("output does not load: %v\n%s", err, out)
	}
	if len(m2.Tools) != len(m.Tools) {
		t.Fatalf("output has %d tools, want %d", len(m2.Tools), len(m.Tools))
	}
	after, err := m2.Tools[i].Value()
	if err != nil {
		t.Fatalf("output tool does not decode: %v", err)
	}
	var applied []manifest.Edit
	for j, e := range c.edits {
		if !skipped[j] {
			applied = append(applied, e)
		}
	}
	want := applyModel(t, before, applied)
	if diff := cmp.Diff(normalizeNumbers(want), normalizeNumbers(after)); diff != "" {
		t.Errorf("decoded output (-want +got):\n%s", diff)
	}
}

// applyModel applies edits to a decoded value the way Apply defines them:
// every pointer addresses the original value, array inserts go before the
// original element (in edit order), removals take original elements.
func applyModel(t *testing.T, v any, edits []manifest.Edit) any {
	t.Helper()
	set := map[string]any{}        // replaced or added object members, and the root
	removed := map[string]bool{}   // removed members and elements
	inserts := map[string][]any{}  // ".../i" inserted before element i, ".../-" appended
	added := map[string][]string{} // object pointer -> keys of new members, in order
	for _, e := range edits {
		ptr := e.Pointer
		switch e.Op {
		case manifest.Replace:
			set[ptr] = e.Value
		case manifest.Remove:
			removed[ptr] = true
		case manifest.Add:
			parent, key := splitLast(ptr)
			switch pv := lookupModel(v, parent).(type) {
			case []any:
				if i, err := strconv.Atoi(key); err == nil && i == len(pv) {
					ptr = parent + "/-"
				}
				inserts[ptr] = append(inserts[ptr], e.Value)
			case map[string]any:
				if _, ok := pv[key]; !ok && set[ptr] == nil {
					added[parent] = append(added[parent], key)
				}
				set[ptr] = e.Value
			default:
				if ptr != "" {
					t.Fatalf("model: add at %s: no container", ptr)
				}
				set[ptr] = e.Value
			}
		}
	}
	var build func(v any, ptr string) any
	build = func(v any, ptr string) any {
		if nv, ok := set[ptr]; ok {
			return jsonRoundTrip(t, nv)
		}
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, c := range x {
				cp := ptr + "/" + pointer.Escape(k)
				if !removed[cp] {
					out[k] = build(c, cp)
				}
			}
			for _, k := range added[ptr] {
				out[k] = jsonRoundTrip(t, set[ptr+"/"+pointer.Escape(k)])
			}
			return out
		case []any:
			out := []any{}
			for i, c := range x {
				cp := ptr + "/" + strconv.Itoa(i)
				for _, nv := range inserts[cp] {
					out = append(out, jsonRoundTrip(t, nv))
				}
				if !removed[cp] {
					out = append(out, build(c, cp))
				}
			}
			for _, nv := range inserts[ptr+"/-"] {
				out = append(out, jsonRoundTrip(t, nv))
			}
			return out
		}
		return v
	}
	return build(v, "")
}

func splitLast(ptr string) (parent, key string) {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return "", ""
	}
	toks := pointer.Split(ptr[i:])
	return ptr[:i], toks[0]
}

func lookupModel(v any, ptr string) any {
	for _, tok := range pointer.Split(ptr) {
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// jsonRoundTrip turns a Go value as edits carry it into its decoded form.
func jsonRoundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("model: %v", err)
	}
	var out any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("model: %v", err)
	}
	return out
}

// normalizeNumbers spells every number the same way so that 1 and 1.0
// compare equal.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			out[k] = normalizeNumbers(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = normalizeNumbers(c)
		}
		return out
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return string(x)
		}
		return fmt.Sprint(f)
	}
	return v
}
