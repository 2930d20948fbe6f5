package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/hostile"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
)

// hostileTools are tools whose every string that reaches Zod source is
// one of hostile.Strings or hostile.Patterns: names, property keys,
// descriptions, titles, defaults, enum members, constants, formats,
// patterns, pattern properties, $defs names and the $refs to them,
// dependencies and required names.
func hostileTools() []Tool {
	var tools []Tool
	props := map[string]any{}
	defs := map[string]any{}
	deps := map[string]any{}
	var required []any
	for i, s := range hostile.Strings {
		p := hostile.Patterns[i%len(hostile.Patterns)]
		props[s] = map[string]any{
			"type": "string", "title": s, "description": s, "default": s, "format": s,
			"pattern": p, "enum": []any{s, s + "2", "x"},
		}
		defs[s] = map[string]any{"type": "object", "description": s,
			"properties":        map[string]any{s: map[string]any{"const": map[string]any{s: []any{s, nil}}}},
			"patternProperties": map[string]any{p: map[string]any{"const": s}}}
		// A $ref is a URI: "%" is written percent-encoded.
		props["ref "+s] = map[string]any{"$ref": "#/$defs/" + strings.ReplaceAll(pointer.Escape(s), "%", "%25")}
		deps[s] = []any{s, "x"}
		required = append(required, "required "+s)
		tools = append(tools, Tool{Name: s, Description: s, Index: len(tools),
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{
				s: map[string]any{"type": "string", "description": s, "pattern": p}}},
			OutputSchema: map[string]any{"type": "object", "description": s}})
	}
	tools = append(tools, Tool{Name: "hostile", Index: len(tools), InputSchema: map[string]any{
		"type": "object", "properties": props, "$defs": defs, "required": required,
		"dependentRequired": deps, "propertyNames": map[string]any{"pattern": hostile.Patterns[0]},
		"patternProperties": map[string]any{hostile.Patterns[1]: true},
	}})
	return tools
}

// zodExports are the names a module of tools must export: two for each
// schema, input and output, each an ASCII identifier.
func zodExports(t *testing.T, tools []Tool) []string {
	t.Helper()
	m := &zodModule{used: map[string]bool{"z": true}}
	for n := range zodHelpers {
		m.used[n] = true
	}
	var out []string
	ident := regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
	for _, tool := range tools {
		id := m.unique(zodIdent(tool.Name))
		if !ident.MatchString(id) {
			t.Fatalf("tool %q: identifier %q", tool.Name, id)
		}
		out = append(out, id+"Shape", id+"Schema")
		if tool.OutputSchema != nil {
			oid := m.unique(id + "Output")
			out = append(out, oid+"Shape", oid+"Schema")
		}
	}
	return out
}

// TestZodHostileInert writes the hostile tools in one module per Zod
// major, and the known break (a pattern whose look-ahead stopped the old
// check before its trailing backslash, beside a description that is
// code), and judges each module with a JavaScript parser.
func TestZodHostileInert(t *testing.T) {
	known := Tool{Name: "t", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "string", "pattern": `(?=x)abc\`,
			"description": `/);require("child_process").execSync("touch pwned");//`}}}}
	for _, tools := range [][]Tool{{known}, hostileTools()} {
		for _, major := range []int{3, 4} {
			code, _ := ToZod(tools, ZodOptions{Major: major})
			if err := zodInert(string(code), zodExports(t, tools)); err != nil {
				t.Errorf("zod %d, %d tools: %v", major, len(tools), err)
			}
		}
	}
}

// TestZodInertCorpus checks the module of every corpus tool.
func TestZodInertCorpus(t *testing.T) {
	for _, c := range zodCorpus(t) {
		for _, major := range []int{3, 4} {
			tools := []Tool{c.Tool}
			code, _ := ToZod(tools, ZodOptions{Major: major})
			if err := zodInert(string(code), zodExports(t, tools)); err != nil {
				t.Errorf("%s (zod %d): %v", c.ID, major, err)
			}
		}
	}
}

// FuzzZodInert checks that the Zod module of any manifest that loads is
// inert (see zodInert).
func FuzzZodInert(f *testing.F) {
	var tools []map[string]any
	for _, t := range hostileTools()[:8] {
		tools = append(tools, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.InputSchema})
	}
	if b, err := json.Marshal(map[string]any{"tools": tools}); err == nil {
		f.Add(b)
	}
	if src, err := os.ReadFile("testdata/zod/constructs.json"); err == nil {
		f.Add(src)
	}
	f.Add([]byte(`{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "string", "pattern": "(?=x)abc\\", "description": "x"}}}}]}`))
	f.Add([]byte("name: y\ninputSchema: {type: object, properties: {'k\\n': {pattern: 'a/b', default: {__proto__: 1}}}}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := manifest.Load("f", src)
		if err != nil {
			return
		}
		tools, err := FromManifest(m)
		if err != nil {
			return
		}
		for _, major := range []int{3, 4} {
			code, _ := ToZod(tools, ZodOptions{Major: major})
			if err := zodInert(string(code), zodExports(t, tools)); err != nil {
				t.Fatalf("zod %d: %v\n%s", major, err, code)
			}
		}
	})
}

func TestZodInertRefuses(t *testing.T) {
	// The check itself must refuse what is not inert.
	good := "import { z } from \"zod\";\n\n// t\nexport const tShape = {};\nexport const tSchema = z.object(tShape).loose();\n"
	if err := zodInert(good, []string{"tShape", "tSchema"}); err != nil {
		t.Fatalf("a plain module: %v", err)
	}
	for _, bad := range []string{
		"export const tShape = {};\nexport const tSchema = z.object(tShape).loose();\n",
		"import { z } from \"zod\";\n\n// t\nexport const tShape = { a: z.string().regex(/(?=x)abc\\/u).describe(\"/);process.exit(1);//\") };\nexport const tSchema = z.object(tShape).loose();\n",
		"import { z } from \"zod\";\n\n// t\nexport const tShape = {};\nexport const tSchema = z.object(tShape).loose();\nexport const extra = 1;\n",
		"import { z } from \"zod\";\n\n// t\nexport const tShape = { a: process.exit(1) };\nexport const tSchema = z.object(tShape);\n",
		"import { z } from \"zod\";\n\n// t\nexport const tShape = { a: z.string().refine(z.constructor.constructor(\"x\")) };\nexport const tSchema = z.object(tShape);\n",
		"import { z } from \"zod\";\n\n// t\nexport const tShape = { a: z.string().refine((v) => v) };\nexport const tSchema = z.object(tShape);\n",
		"import { z } from \"zod\";\n\n// t\nexport const tShape = { a: z.string().describe(`${x}`) };\nexport const tSchema = z.object(tShape);\n",
		"import { z } from \"zod\";\n\n// t\nexport const tShape = { [k]: z.string() };\nexport const tSchema = z.object(tShape);\n",
		"import { z } from \"zod\";\n\n// t\nexport const tShape = {};\nexport const tSchema = z.object(tShape);\nfoo();\n",
	} {
		if err := zodInert(bad, []string{"tShape", "tSchema"}); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}

func init() {
	// The corpus must reach every kind of string the brief of the test
	// names; a change that empties a list would make the test pass idly.
	if len(hostile.Strings) < 50 || len(hostile.Patterns) < 10 {
		panic(fmt.Sprintf("hostile corpus too small: %d strings, %d patterns", len(hostile.Strings), len(hostile.Patterns)))
	}
}

// TestZodInertOracle has the TypeScript compiler's parser judge the
// modules of the hostile tools, of the known break and of the corpus
// (zod-inert.mjs), then loads the hostile module with Zod 4 and checks
// that every hostile string arrived intact: as a property name, a
// description, a default, an enum member, a required name.
func TestZodInertOracle(t *testing.T) {
	testenv.Oracles(t)
	type module struct {
		ID      string   `json:"id"`
		Code    string   `json:"code"`
		Exports []string `json:"exports"`
		Load    bool     `json:"load"`
	}
	var in struct {
		Helpers map[string]string `json:"helpers"`
		Members []string          `json:"members"`
		Modules []module          `json:"modules"`
	}
	in.Helpers = zodHelpers
	in.Members = slices.Sorted(maps.Keys(zodMembers))
	hostileSet := hostileTools()
	add := func(id string, tools []Tool, load bool) {
		for _, major := range []int{3, 4} {
			code, _ := ToZod(tools, ZodOptions{Major: major})
			in.Modules = append(in.Modules, module{ID: fmt.Sprintf("%s/zod%d", id, major), Code: string(code),
				Exports: zodExports(t, tools), Load: load && major == 4})
		}
	}
	add("hostile", hostileSet, true)
	for _, c := range zodCorpus(t) {
		add(c.ID, []Tool{c.Tool}, false)
	}
	stdin, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Results []struct {
			ID      string                    `json:"id"`
			Error   string                    `json:"error"`
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"results"`
	}
	if err := json.Unmarshal(testenv.Node(t, "zod-inert.mjs", stdin), &out); err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Results {
		if r.Error != "" {
			t.Errorf("%s: %s", r.ID, r.Error)
			continue
		}
		if r.Schemas != nil {
			checkHostileFidelity(t, zodExports(t, hostileSet), r.Schemas)
		}
	}
}

// checkHostileFidelity checks the JSON Schemas Zod 4 made of the hostile
// module's schemas (exports as zodExports lists them): each hostile string
// is where the source put it.
func checkHostileFidelity(t *testing.T, exports []string, schemas map[string]map[string]any) {
	t.Helper()
	for i, s := range hostile.Strings {
		// Each hostile tool has a property named s, described by s.
		props, _ := schemas[exports[4*i+1]]["properties"].(map[string]any)
		if p, _ := props[s].(map[string]any); p["description"] != s {
			t.Errorf("tool %q: property %q reads back as %v", s, s, props)
		}
	}
	last := schemas[exports[len(exports)-1]]
	props, _ := last["properties"].(map[string]any)
	var required []any
	for _, s := range hostile.Strings {
		p, _ := props[s].(map[string]any)
		if p["description"] != s || p["default"] != s || !strings.Contains(mustJSON(p), mustJSON([]any{s, s + "2", "x"})) &&
			!strings.Contains(mustJSON(p), mustJSON(s)) {
			t.Errorf("property %q reads back as %s", s, mustJSON(p))
		}
		// The $ref to the definition named s: its description, its
		// property s and that property's constant {s: [s, null]}.
		ref, _ := props["ref "+s].(map[string]any)
		inner, _ := ref["properties"].(map[string]any)
		c, _ := inner[s].(map[string]any)
		cp, _ := c["properties"].(map[string]any)
		if ref["description"] != s || !strings.Contains(mustJSON(cp[s]), mustJSON(map[string]any{"const": s, "type": "string"})) {
			t.Errorf("definition %q reads back as %s", s, mustJSON(ref))
		}
		required = append(required, "required "+s)
	}
	if !slices.Equal(required, last["required"].([]any)) {
		t.Errorf("required reads back as %v", last["required"])
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestConvertHostileJSON converts the hostile tools to every JSON target:
// each document must be JSON that the manifest loader reads back, and the
// MCP document must hold every tool exactly as it was.
func TestConvertHostileJSON(t *testing.T) {
	tools := hostileTools()
	for _, c := range goldenCases {
		out, _, err := To(c.target, tools, c.o)
		if err != nil {
			var te *ToolError
			if !errors.As(err, &te) {
				t.Fatalf("%s: %v", c.name, err)
			}
			continue
		}
		if !json.Valid(out) {
			t.Fatalf("%s: not JSON", c.name)
		}
		m, err := manifest.Load(c.name+".json", out)
		if err != nil {
			t.Fatalf("%s: the document does not load: %v", c.name, err)
		}
		if len(m.Tools) != len(tools) {
			t.Fatalf("%s: %d tools read back, want %d", c.name, len(m.Tools), len(tools))
		}
		if c.target != "mcp" {
			continue
		}
		back, err := FromManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		for i, tool := range tools {
			got := back[i]
			if got.Name != tool.Name || got.Description != tool.Description ||
				!cmp.Equal(jsonRoundTrip(t, tool.InputSchema), jsonRoundTrip(t, got.InputSchema)) {
				t.Errorf("mcp: tool %q reads back as %q, %q", tool.Name, got.Name, got.Description)
			}
		}
	}
}

func jsonRoundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
