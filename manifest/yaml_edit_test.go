package manifest

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpfit/mcplint/pointer"
	yamlv4 "go.yaml.in/yaml/v4"
)

// patched applies edits to a decoded value the way the edits are meant
// (RFC 6902 add, replace and remove), independently of how they are spliced.
func patched(t *testing.T, v any, edits []Edit) any {
	t.Helper()
	for _, e := range edits {
		v = patchOne(t, v, pointer.Split(e.Pointer), e)
	}
	return v
}

func patchOne(t *testing.T, v any, toks []string, e Edit) any {
	t.Helper()
	if len(toks) == 0 {
		return e.Value
	}
	switch x := v.(type) {
	case map[string]any:
		if len(toks) == 1 {
			if e.Op == Remove {
				delete(x, toks[0])
			} else {
				x[toks[0]] = e.Value
			}
			return x
		}
		x[toks[0]] = patchOne(t, x[toks[0]], toks[1:], e)
		return x
	case []any:
		i := len(x)
		if toks[0] != "-" {
			var err error
			if i, err = strconv.Atoi(toks[0]); err != nil {
				t.Fatalf("bad index %q", toks[0])
			}
		}
		if len(toks) > 1 {
			x[i] = patchOne(t, x[i], toks[1:], e)
			return x
		}
		switch e.Op {
		case Add:
			return append(x[:i], append([]any{e.Value}, x[i:]...)...)
		case Remove:
			return append(x[:i], x[i+1:]...)
		}
		x[i] = e.Value
		return x
	}
	t.Fatalf("cannot patch %T at %v", v, toks)
	return nil
}

// yamlEdit is one case of TestYAMLEdits: the edits, applied to tool in src,
// give want byte for byte, and want decodes to the tool patched.
type yamlEdit struct {
	name  string
	src   string
	tool  int
	edits []Edit
	want  string
}

func rep(ptr string, v any) Edit { return Edit{Op: Replace, Pointer: ptr, Value: v} }
func add(ptr string, v any) Edit { return Edit{Op: Add, Pointer: ptr, Value: v} }
func del(ptr string) Edit        { return Edit{Op: Remove, Pointer: ptr} }

type obj = map[string]any
type arr = []any

func runYAMLEdits(t *testing.T, cases []yamlEdit) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := loadYAMLText(t, tc.src)
			var tes []ToolEdit
			for _, e := range tc.edits {
				tes = append(tes, ToolEdit{Tool: m.Tools[tc.tool], Edit: e})
			}
			out, skipped, err := m.Apply(tes)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			for i, s := range skipped {
				if s {
					t.Errorf("edit %d skipped", i)
				}
			}
			if diff := cmp.Diff(tc.want, string(out)); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			m2, err := Load("m.yaml", out)
			if err != nil {
				t.Fatalf("the output does not load: %v\n%s", err, out)
			}
			var any2 any
			if err := yamlv4.Unmarshal(out, &any2); err != nil {
				t.Errorf("another YAML parser refuses the output: %v", err)
			}
			if len(m2.Tools) != len(m.Tools) {
				t.Fatalf("%d tools after editing, %d before", len(m2.Tools), len(m.Tools))
			}
			for i := range m.Tools {
				want, err := m.Tools[i].Value()
				if err != nil {
					t.Fatal(err)
				}
				if i == tc.tool {
					want = patched(t, want, tc.edits)
				}
				got, err := m2.Tools[i].Value()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("tool %d decodes to (-want +got):\n%s", i, diff)
				}
			}
		})
	}
}

const blockSrc = `# The demo server.
tools:
  - name: search   # shown to users
    description: |
      Finds things.
    inputSchema:
      type: object # always
      # The arguments.
      properties:
        query: {type: string, minLength: 1}
        limit:
          type: integer
      required: [query]
  - name: other
    inputSchema: {}
`

func TestYAMLEditsBlock(t *testing.T) {
	runYAMLEdits(t, []yamlEdit{{
		name:  "replace a scalar, keeping the comment after it",
		src:   blockSrc,
		edits: []Edit{rep("/inputSchema/type", "string")},
		want:  strings.Replace(blockSrc, "type: object # always", "type: string # always", 1),
	}, {
		name:  "replace a scalar with a mapping",
		src:   blockSrc,
		edits: []Edit{rep("/inputSchema/properties/limit/type", obj{"type": "integer", "minimum": json.Number("0")})},
		want: strings.Replace(blockSrc, "          type: integer\n", `          type:
            type: integer
            minimum: 0
`, 1),
	}, {
		name:  "replace a mapping with a mapping, at its column",
		src:   "- name: a\n  inputSchema:\n      type: object\n",
		edits: []Edit{rep("/inputSchema", obj{"type": "object", "properties": obj{}})},
		want:  "- name: a\n  inputSchema:\n      type: object\n      properties: {}\n",
	}, {
		name:  "replace a mapping with a scalar",
		src:   blockSrc,
		edits: []Edit{rep("/inputSchema/properties/limit", true)},
		want:  strings.Replace(blockSrc, "        limit:\n          type: integer\n", "        limit: true\n", 1),
	}, {
		name:  "replace with a long sequence of scalars: block style",
		src:   blockSrc,
		edits: []Edit{rep("/inputSchema/required", arr{"query", "limit", "a somewhat long name", "and another one", "and one more still"})},
		want: strings.Replace(blockSrc, "      required: [query]\n", `      required:
        - query
        - limit
        - a somewhat long name
        - and another one
        - and one more still
`, 1),
	}, {
		name:  "add a member after the last one",
		src:   blockSrc,
		edits: []Edit{add("/inputSchema/additionalProperties", false)},
		want:  strings.Replace(blockSrc, "      required: [query]\n", "      required: [query]\n      additionalProperties: false\n", 1),
	}, {
		name:  "add members to a tool in a sequence, in order",
		src:   blockSrc,
		edits: []Edit{add("/title", "Search"), add("/annotations", obj{"readOnlyHint": true, "title": "yes"})},
		want: strings.Replace(blockSrc, "      required: [query]\n", `      required: [query]
    title: Search
    annotations:
      title: "yes"
      readOnlyHint: true
`, 1),
	}, {
		name:  "add a sequence of mappings",
		src:   blockSrc,
		edits: []Edit{add("/inputSchema/properties/limit/anyOf", arr{obj{"type": "integer"}, obj{"type": "null"}})},
		want: strings.Replace(blockSrc, "          type: integer\n", `          type: integer
          anyOf:
            - type: integer
            - type: "null"
`, 1),
	}, {
		name:  "sequences follow the source when it does not indent them",
		src:   "tools:\n- name: a\n  inputSchema:\n    type: object\n",
		edits: []Edit{add("/inputSchema/allOf", arr{obj{"required": arr{"a"}}})},
		want:  "tools:\n- name: a\n  inputSchema:\n    type: object\n    allOf:\n    - required: [a]\n",
	}, {
		name:  "add to an existing member replaces it",
		src:   blockSrc,
		edits: []Edit{add("/inputSchema/required", arr{"limit"})},
		want:  strings.Replace(blockSrc, "required: [query]", "required: [limit]", 1),
	}, {
		name:  "remove a member with its lines and trailing comment; comment lines stay",
		src:   blockSrc,
		edits: []Edit{del("/inputSchema/type")},
		want:  strings.Replace(blockSrc, "      type: object # always\n", "", 1),
	}, {
		name:  "remove a member spanning lines",
		src:   blockSrc,
		edits: []Edit{del("/inputSchema/properties")},
		want:  strings.Replace(blockSrc, "      properties:\n        query: {type: string, minLength: 1}\n        limit:\n          type: integer\n", "", 1),
	}, {
		name:  "remove the first member of a tool: the next moves up to the dash",
		src:   blockSrc,
		edits: []Edit{del("/name")},
		want:  strings.Replace(blockSrc, "  - name: search   # shown to users\n    description", "  - description", 1),
	}, {
		name:  "remove the first members of a tool",
		src:   blockSrc,
		edits: []Edit{del("/name"), del("/description")},
		want:  strings.Replace(blockSrc, "  - name: search   # shown to users\n    description: |\n      Finds things.\n    inputSchema", "  - inputSchema", 1),
	}, {
		name:  "remove the first member when a comment line follows: the dash stays",
		src:   "- name: a\n  # what it does\n  description: d\n",
		edits: []Edit{del("/name")},
		want:  "-\n  # what it does\n  description: d\n",
	}, {
		name:  "remove every member: an empty mapping",
		src:   blockSrc,
		edits: []Edit{del("/inputSchema/properties/limit/type")},
		want:  strings.Replace(blockSrc, "        limit:\n          type: integer\n", "        limit: {}\n", 1),
	}, {
		name:  "remove the last member of a source without a final line break",
		src:   "name: a\ninputSchema:\n  type: object\n  title: t",
		edits: []Edit{del("/inputSchema/title")},
		want:  "name: a\ninputSchema:\n  type: object\n",
	}, {
		name:  "a block scalar before the added member keeps its text",
		src:   "name: a\ndescription: |\n  Line.\n",
		edits: []Edit{add("/title", "A")},
		want:  "name: a\ndescription: |\n  Line.\ntitle: A\n",
	}, {
		name:  "fill an empty flow mapping in block context: block style",
		src:   blockSrc,
		tool:  1,
		edits: []Edit{add("/inputSchema/type", "object")},
		want:  strings.Replace(blockSrc, "    inputSchema: {}\n", "    inputSchema:\n      type: object\n", 1),
	}, {
		name:  "fill an empty flow sequence in block context",
		src:   "name: a\ninputSchema:\n  required: []\n",
		edits: []Edit{add("/inputSchema/required/-", "q")},
		want:  "name: a\ninputSchema:\n  required: [q]\n",
	}, {
		name:  "an empty value",
		src:   "name: a\ninputSchema:\n  default:\n  type: integer\n",
		edits: []Edit{rep("/inputSchema/default", json.Number("3"))},
		want:  "name: a\ninputSchema:\n  default: 3\n  type: integer\n",
	}, {
		name:  "strings are quoted when plain would read otherwise",
		src:   "name: a\n",
		edits: []Edit{add("/x", arr{"yes", "1.0", "a: b", "", "two\nlines", "#tag", "null", "-x", "ok", "é ok", "<<", "tab\t", "x,y"})},
		want:  "name: a\nx:\n  - \"yes\"\n  - \"1.0\"\n  - \"a: b\"\n  - \"\"\n  - \"two\\nlines\"\n  - \"#tag\"\n  - \"null\"\n  - \"-x\"\n  - ok\n  - é ok\n  - \"<<\"\n  - \"tab\\t\"\n  - \"x,y\"\n",
	}, {
		name:  "keys are quoted when plain would read otherwise",
		src:   "name: a\ninputSchema:\n  properties:\n    x: {}\n",
		edits: []Edit{add("/inputSchema/properties/on", obj{}), add("/inputSchema/properties/a~1b", obj{})},
		want:  "name: a\ninputSchema:\n  properties:\n    x: {}\n    \"on\": {}\n    a/b: {}\n",
	}, {
		name:  "CRLF line breaks are kept",
		src:   "name: a\r\ninputSchema:\r\n  type: object\r\n",
		edits: []Edit{add("/inputSchema/properties", obj{"q": obj{"type": "string"}})},
		want:  "name: a\r\ninputSchema:\r\n  type: object\r\n  properties:\r\n    q:\r\n      type: string\r\n",
	}, {
		name:  "plugin contract: /inputSchema is the schema member",
		src:   "name: a\ndescription: d\nschema:\n  properties: {}\n",
		edits: []Edit{add("/inputSchema/type", "object")},
		want:  "name: a\ndescription: d\nschema:\n  properties: {}\n  type: object\n",
	}, {
		name:  "a tool of the second document",
		src:   "tools:\n  - name: a\n---\ntools:\n  - name: b\n",
		tool:  1,
		edits: []Edit{add("/inputSchema", obj{"type": "object"})},
		want:  "tools:\n  - name: a\n---\ntools:\n  - name: b\n    inputSchema:\n      type: object\n",
	}, {
		name: "the last members removed and others added, as one fix does",
		src:  "name: a\ninputSchema:\n  $schema: http://json-schema.org/draft-07/schema#\n  $ref: '#/definitions/N'\n  definitions:\n    N: {type: object}\n",
		edits: []Edit{del("/inputSchema/$ref"), del("/inputSchema/definitions"),
			add("/inputSchema/type", "object"), add("/inputSchema/properties", obj{"node": obj{"$ref": "#"}})},
		want: "name: a\ninputSchema:\n  $schema: http://json-schema.org/draft-07/schema#\n  type: object\n  properties:\n    node:\n      $ref: \"#\"\n",
	}, {
		name:  "edits of one mapping in one Apply",
		src:   blockSrc,
		edits: []Edit{del("/inputSchema/type"), rep("/inputSchema/required/0", "limit"), add("/inputSchema/minProperties", json.Number("1"))},
		want: strings.Replace(strings.Replace(blockSrc, "      type: object # always\n", "", 1),
			"      required: [query]\n", "      required: [limit]\n      minProperties: 1\n", 1),
	}})
}

const flowSrc = `{tools: [{name: a, inputSchema: {type: object, properties: {q: {type: string}}, required: [q]}}, {name: b, inputSchema: {}}]}
`

func TestYAMLEditsFlow(t *testing.T) {
	runYAMLEdits(t, []yamlEdit{{
		name:  "replace",
		src:   flowSrc,
		edits: []Edit{rep("/inputSchema/properties/q", obj{"type": "string", "enum": arr{"x", "y z"}})},
		want:  strings.Replace(flowSrc, "{q: {type: string}}", "{q: {type: string, enum: [x, y z]}}", 1),
	}, {
		name:  "add after the last member",
		src:   flowSrc,
		edits: []Edit{add("/inputSchema/additionalProperties", false)},
		want:  strings.Replace(flowSrc, "required: [q]}", "required: [q], additionalProperties: false}", 1),
	}, {
		name:  "insert an element",
		src:   flowSrc,
		edits: []Edit{add("/inputSchema/required/0", "p")},
		want:  strings.Replace(flowSrc, "required: [q]", "required: [p, q]", 1),
	}, {
		name:  "remove the first member",
		src:   flowSrc,
		edits: []Edit{del("/name")},
		want:  strings.Replace(flowSrc, "[{name: a, inputSchema", "[{inputSchema", 1),
	}, {
		name:  "remove the last member",
		src:   flowSrc,
		edits: []Edit{del("/inputSchema/required")},
		want:  strings.Replace(flowSrc, ", required: [q]}", "}", 1),
	}, {
		name:  "remove every member",
		src:   flowSrc,
		edits: []Edit{del("/inputSchema/type"), del("/inputSchema/properties"), del("/inputSchema/required")},
		want:  strings.Replace(flowSrc, "{type: object, properties: {q: {type: string}}, required: [q]}", "{}", 1),
	}, {
		name:  "fill an empty mapping inside flow style: flow style",
		src:   flowSrc,
		tool:  1,
		edits: []Edit{add("/inputSchema/type", "object")},
		want:  strings.Replace(flowSrc, "{name: b, inputSchema: {}}", "{name: b, inputSchema: {type: object}}", 1),
	}, {
		name:  "a flow mapping over several lines",
		src:   "name: a\ninputSchema: {\n  type: object,\n  required: [q]\n}\n",
		edits: []Edit{add("/inputSchema/properties", obj{"q": obj{}})},
		want:  "name: a\ninputSchema: {\n  type: object,\n  required: [q],\n  properties: {q: {}}\n}\n",
	}, {
		name:  "a mapping without braces in a flow sequence gets them when edited",
		src:   "name: a\nexamples: [q: 1, r]\n",
		edits: []Edit{add("/examples/0/s", "t")},
		want:  "name: a\nexamples: [{q: 1, s: t}, r]\n",
	}, {
		name:  "an edit deep below a mapping without braces rewrites that mapping",
		src:   "name: a\nexamples: [q: {a: {b: [1, {c: 2}]}}, r]\n",
		edits: []Edit{add("/examples/0/q/a/b/1/d", json.Number("3"))},
		want:  "name: a\nexamples: [{q: {a: {b: [1, {c: 2, d: 3}]}}}, r]\n",
	}, {
		name:  "a flow mapping in a block mapping, replaced with a block value",
		src:   "name: a\ninputSchema: {type: string}\n",
		edits: []Edit{rep("/inputSchema", obj{"type": "object", "properties": obj{"q": obj{"type": "string"}}})},
		want:  "name: a\ninputSchema:\n  type: object\n  properties:\n    q:\n      type: string\n",
	}})
}

const seqSrc = `name: a
inputSchema:
  anyOf:
    - type: string # text
    - type: integer
      minimum: 0
  examples:
  - - x
    - y
  -
`

func TestYAMLEditsSequences(t *testing.T) {
	runYAMLEdits(t, []yamlEdit{{
		name:  "remove an element",
		src:   seqSrc,
		edits: []Edit{del("/inputSchema/anyOf/0")},
		want:  strings.Replace(seqSrc, "    - type: string # text\n", "", 1),
	}, {
		name:  "remove the first member of an element",
		src:   seqSrc,
		edits: []Edit{del("/inputSchema/anyOf/1/type")},
		want:  strings.Replace(seqSrc, "    - type: integer\n      minimum", "    - minimum", 1),
	}, {
		name:  "remove every member of an element",
		src:   seqSrc,
		edits: []Edit{del("/inputSchema/anyOf/1/type"), del("/inputSchema/anyOf/1/minimum")},
		want:  strings.Replace(seqSrc, "    - type: integer\n      minimum: 0\n", "    - {}\n", 1),
	}, {
		name:  "insert an element",
		src:   seqSrc,
		edits: []Edit{add("/inputSchema/anyOf/1", obj{"type": "null"})},
		want:  strings.Replace(seqSrc, "    - type: integer\n", "    - type: \"null\"\n    - type: integer\n", 1),
	}, {
		name:  "append an element",
		src:   seqSrc,
		edits: []Edit{add("/inputSchema/anyOf/-", obj{"type": "boolean", "default": false})},
		want:  strings.Replace(seqSrc, "      minimum: 0\n", "      minimum: 0\n    - type: boolean\n      default: false\n", 1),
	}, {
		name:  "replace an element with a mapping: compact style",
		src:   seqSrc,
		edits: []Edit{rep("/inputSchema/anyOf/0", obj{"type": "string", "minLength": json.Number("1")})},
		want:  strings.Replace(seqSrc, "    - type: string # text\n", "    - type: string\n      minLength: 1 # text\n", 1),
	}, {
		name:  "a nested sequence in compact style",
		src:   seqSrc,
		edits: []Edit{del("/inputSchema/examples/0/0"), add("/inputSchema/examples/0/-", "z")},
		want:  strings.Replace(seqSrc, "  - - x\n    - y\n", "  - - y\n    - z\n", 1),
	}, {
		name:  "an empty element",
		src:   seqSrc,
		edits: []Edit{rep("/inputSchema/examples/1", obj{"k": "v", "l": "w"})},
		want:  strings.Replace(seqSrc, "  -\n", "  - k: v\n    l: w\n", 1),
	}})
}

const aliasSrc = `defs:
  text: &text {type: string}
  merged: &base {type: object, additionalProperties: false}
tools:
  - name: a
    inputSchema:
      properties:
        q: *text
        r: *text
  - name: b
    inputSchema:
      <<: *base
      required: [x]
`

func TestYAMLEditsAliases(t *testing.T) {
	runYAMLEdits(t, []yamlEdit{{
		name:  "an edit below an alias writes the alias out",
		src:   aliasSrc,
		edits: []Edit{add("/inputSchema/properties/q/minLength", json.Number("1"))},
		want:  strings.Replace(aliasSrc, "        q: *text\n", "        q:\n          type: string\n          minLength: 1\n", 1),
	}, {
		name:  "replacing an alias",
		src:   aliasSrc,
		edits: []Edit{rep("/inputSchema/properties/r", obj{})},
		want:  strings.Replace(aliasSrc, "        r: *text\n", "        r: {}\n", 1),
	}, {
		name:  "removing an alias",
		src:   aliasSrc,
		edits: []Edit{del("/inputSchema/properties/r")},
		want:  strings.Replace(aliasSrc, "        r: *text\n", "", 1),
	}, {
		name:  "replacing a merged member writes it explicitly",
		src:   aliasSrc,
		tool:  1,
		edits: []Edit{rep("/inputSchema/additionalProperties", true)},
		want:  strings.Replace(aliasSrc, "      required: [x]\n", "      required: [x]\n      additionalProperties: true\n", 1),
	}, {
		name:  "an edit below a merged member",
		src:   strings.Replace(aliasSrc, "additionalProperties: false}", "additionalProperties: false, properties: {x: {}}}", 1),
		tool:  1,
		edits: []Edit{add("/inputSchema/properties/x/type", "string")},
		want: strings.Replace(strings.Replace(aliasSrc, "additionalProperties: false}", "additionalProperties: false, properties: {x: {}}}", 1),
			"      required: [x]\n", "      required: [x]\n      properties:\n        x:\n          type: string\n", 1),
	}, {
		name:  "an explicit member of a mapping with a merge key",
		src:   aliasSrc,
		tool:  1,
		edits: []Edit{del("/inputSchema/required")},
		want:  strings.Replace(aliasSrc, "      required: [x]\n", "", 1),
	}})
}

func TestYAMLEditErrors(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []Edit
		want  string
	}{
		{"a value whose anchor aliases use", "name: a\ninputSchema:\n  properties:\n    q: &t {type: string}\n    r: *t\n",
			[]Edit{add("/inputSchema/properties/q/minLength", json.Number("1"))},
			`m.yaml: tool "a": add /inputSchema/properties/q/minLength: the value at /inputSchema/properties/q is shared: its anchor &t is used by the alias at line 5; editing it would change that too (edit it by hand, or write the alias out)`},
		{"an edit deep below a value whose anchor aliases use", "name: a\ninputSchema:\n  properties:\n    q: &t\n      properties:\n        x: {properties: {y: {}}}\n    r: *t\n",
			[]Edit{add("/inputSchema/properties/q/properties/x/properties/y/type", "string")},
			`m.yaml: tool "a": add /inputSchema/properties/q/properties/x/properties/y/type: the value at /inputSchema/properties/q is shared: its anchor &t is used by the alias at line 7; editing it would change that too (edit it by hand, or write the alias out)`},
		{"the innermost of two anchors aliases use", "name: a\ninputSchema: &o\n  properties:\n    q: &t {properties: {x: {}}}\n    r: *t\nitems: *o\n",
			[]Edit{add("/inputSchema/properties/q/properties/x/type", "string")},
			`m.yaml: tool "a": add /inputSchema/properties/q/properties/x/type: the value at /inputSchema/properties/q is shared: its anchor &t is used by the alias at line 5; editing it would change that too (edit it by hand, or write the alias out)`},
		{"an anchor no alias uses, below one an alias uses", "name: a\ninputSchema: &o\n  properties:\n    q: &t {properties: {x: {}}}\nitems: *o\n",
			[]Edit{add("/inputSchema/properties/q/properties/x/type", "string")},
			`m.yaml: tool "a": add /inputSchema/properties/q/properties/x/type: the value at /inputSchema is shared: its anchor &o is used by the alias at line 5; editing it would change that too (edit it by hand, or write the alias out)`},
		{"removing an anchor aliases use", "name: a\ninputSchema:\n  properties:\n    q: &t {type: string}\n    r: *t\n",
			[]Edit{del("/inputSchema/properties/q")},
			`m.yaml: tool "a": remove /inputSchema/properties/q: the value at /inputSchema/properties/q defines anchor &t, which the alias at line 5 uses; edit it by hand`},
		{"replacing what holds an anchor aliases use", "name: a\ninputSchema:\n  properties:\n    q: &t {type: string}\n  items: *t\n",
			[]Edit{rep("/inputSchema/properties", obj{})},
			`m.yaml: tool "a": replace /inputSchema/properties: the value at /inputSchema/properties defines anchor &t, which the alias at line 5 uses; edit it by hand`},
		{"removing a merged member", aliasSrc, []Edit{del("/inputSchema/additionalProperties")},
			`m.yaml: tool "b": remove /inputSchema/additionalProperties: /inputSchema/additionalProperties comes from a merge key (<<): remove it from the merged mapping, or override it`},
		{"no such value", "name: a\n", []Edit{rep("/inputSchema/type", "object")},
			`m.yaml: tool "a": replace /inputSchema/type: no value at /inputSchema/type`},
		{"no such container", "name: a\n", []Edit{add("/inputSchema/type", "object")},
			`m.yaml: tool "a": add /inputSchema/type: no container at /inputSchema`},
		{"not a container", "name: a\n", []Edit{add("/name/x", "object")},
			`m.yaml: tool "a": add /name/x: /name is not an object or array`},
		{"bad index", "name: a\nx: [1]\n", []Edit{add("/x/2", "object")},
			`m.yaml: tool "a": add /x/2: bad array index "2"`},
		{"the tool itself", "name: a\n", []Edit{del("")},
			`m.yaml: tool "a": remove : cannot remove the tool itself`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := loadYAMLText(t, tc.src)
			tool := m.Tools[0]
			if strings.Contains(tc.name, "merged") {
				tool = m.Tools[1]
			}
			var tes []ToolEdit
			for _, e := range tc.edits {
				tes = append(tes, ToolEdit{Tool: tool, Edit: e})
			}
			_, _, err := m.Apply(tes)
			if err == nil {
				t.Fatal("Apply succeeded")
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got: %s\nwant: %s", err, tc.want)
			}
		})
	}
}

// Edits whose bytes overlap are skipped for a later round, never spliced
// into a broken source.
func TestYAMLApplyOverlaps(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		edits   []Edit
		skipped []bool
		want    string
	}{
		{"the same member added twice", "name: a\n", []Edit{add("/title", "x"), add("/title", "y")},
			[]bool{false, true}, "name: a\ntitle: x\n"},
		// Edits that write one place anew are spliced together.
		{"two members added to one empty mapping", "name: a\ninputSchema: {}\n",
			[]Edit{add("/inputSchema/type", "object"), add("/inputSchema/properties", obj{})},
			[]bool{false, false}, "name: a\ninputSchema:\n  type: object\n  properties: {}\n"},
		{"two members added to a mapping that merge keys fill", "x: &b {title: t}\nname: a\ninputSchema:\n  <<: *b\n",
			[]Edit{add("/inputSchema/type", "object"), add("/inputSchema/properties", obj{})},
			[]bool{false, false}, "x: &b {title: t}\nname: a\ninputSchema:\n  <<: *b\n  type: object\n  properties: {}\n"},
		{"two edits below one alias", "x: &s {type: string, title: t}\nname: a\ninputSchema: *s\n",
			[]Edit{del("/inputSchema/title"), add("/inputSchema/minLength", json.Number("1"))},
			[]bool{false, false}, "x: &s {type: string, title: t}\nname: a\ninputSchema:\n  type: string\n  minLength: 1\n"},
		{"two edits of one merged member", "x: &b {p: {a: 1, b: 2}}\nname: a\ninputSchema:\n  <<: *b\n",
			[]Edit{del("/inputSchema/p/a"), add("/inputSchema/p/c", json.Number("3"))},
			[]bool{false, false}, "x: &b {p: {a: 1, b: 2}}\nname: a\ninputSchema:\n  <<: *b\n  p:\n    b: 2\n    c: 3\n"},
		{"two members added to a mapping without braces", "name: a\nexamples: [q: 1]\n",
			[]Edit{add("/examples/0/r", json.Number("2")), add("/examples/0/s", json.Number("3"))},
			[]bool{false, false}, "name: a\nexamples: [{q: 1, r: 2, s: 3}]\n"},
		{"emptying a mapping and adding to it", "name: a\ninputSchema:\n  title: t\n",
			[]Edit{del("/inputSchema/title"), add("/inputSchema/type", "object")},
			[]bool{false, true}, "name: a\ninputSchema: {}\n"},
		// Not an overlap: the member is added after the last that stays.
		{"removing the last member and adding one", "name: a\ninputSchema:\n  type: object\n  title: t\n",
			[]Edit{del("/inputSchema/title"), add("/inputSchema/required", arr{})},
			[]bool{false, false}, "name: a\ninputSchema:\n  type: object\n  required: []\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := loadYAMLText(t, tc.src)
			var tes []ToolEdit
			for _, e := range tc.edits {
				tes = append(tes, ToolEdit{Tool: m.Tools[0], Edit: e})
			}
			out, skipped, err := m.Apply(tes)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.skipped, skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			if string(out) != tc.want {
				t.Errorf("output\n got: %q\nwant: %q", out, tc.want)
			}
			if _, err := Load("m.yaml", out); err != nil {
				t.Errorf("the output does not load: %v", err)
			}
		})
	}
}
