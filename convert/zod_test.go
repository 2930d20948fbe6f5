package convert

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/manifest"
)

func TestZodIdent(t *testing.T) {
	tests := []struct{ name, want string }{
		{"get_weather", "getWeather"},
		{"files.read-all", "filesReadAll"},
		{"GetWeather", "getWeather"},
		{"2fa.verify", "tool2faVerify"},
		{"获取", "tool"},
		{"", "tool"},
		{"a__b", "aB"},
		{"HTTPGet", "hTTPGet"},
	}
	for _, tt := range tests {
		if got := zodIdent(tt.name); got != tt.want {
			t.Errorf("zodIdent(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestZodUniqueNames(t *testing.T) {
	obj := map[string]any{"type": "object"}
	tools := []Tool{{Name: "get_weather", InputSchema: obj}, {Name: "get-weather", InputSchema: obj, Index: 1},
		{Name: "z", InputSchema: obj, Index: 2}, {Name: "not", InputSchema: obj, Index: 3}}
	code, _ := ToZod(tools, ZodOptions{})
	var got []string
	for _, line := range strings.Split(string(code), "\n") {
		if name, ok := strings.CutPrefix(line, "export const "); ok {
			got = append(got, name[:strings.Index(name, " ")])
		}
	}
	want := []string{"getWeatherShape", "getWeatherSchema", "getWeather2Shape", "getWeather2Schema",
		"z2Shape", "z2Schema", "not2Shape", "not2Schema"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exported names (-want +got):\n%s", diff)
	}
}

// TestZodExpr pins the mapping table, per major, on single properties.
func TestZodExpr(t *testing.T) {
	tests := []struct {
		schema string
		v3, v4 string
		warn   bool
	}{
		{`{"type": "string", "minLength": 1, "maxLength": 5, "pattern": "^x"}`,
			`z.string().min(1).max(5).regex(/^x/u)`, `z.string().min(1).max(5).regex(/^x/u)`, false},
		{`{"type": "integer", "minimum": 1, "exclusiveMaximum": 10, "multipleOf": 2}`,
			`z.number().int().gte(1).lt(10).multipleOf(2)`, `z.number().int().gte(1).lt(10).multipleOf(2)`, false},
		{`{"type": "string", "format": "email"}`, `z.string().email()`, `z.email()`, true},
		{`{"type": "string", "format": "date-time"}`, `z.string().datetime({ offset: true })`, `z.iso.datetime({ offset: true })`, true},
		{`{"type": "string", "format": "time"}`, `z.string()`, `z.string()`, true},
		{`{"type": ["string", "null"]}`, `z.string().nullable()`, `z.string().nullable()`, false},
		{`{"type": "string", "nullable": true}`, `z.string().nullable()`, `z.string().nullable()`, false},
		{`{"type": ["string", "integer"]}`, `z.union([z.string(), z.number().int()])`, `z.union([z.string(), z.number().int()])`, false},
		{`{"enum": ["a", "b"]}`, `z.enum(["a", "b"])`, `z.enum(["a", "b"])`, false},
		{`{"enum": ["a", 1, null]}`, `z.union([z.literal("a"), z.literal(1), z.null()])`, `z.union([z.literal("a"), z.literal(1), z.null()])`, false},
		{`{"const": {"a": [1]}}`, `z.object({ a: z.tuple([z.literal(1)]) }).strict()`, `z.strictObject({ a: z.tuple([z.literal(1)]) })`, false},
		{`{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}`,
			"z.object({\n  a: z.string(),\n}).strict()", "z.strictObject({\n  a: z.string(),\n})", false},
		{`{"type": "object"}`, `z.object({}).passthrough()`, `z.looseObject({})`, false},
		{`{"type": "object", "additionalProperties": {"type": "number"}}`, `z.object({}).catchall(z.number())`, `z.object({}).catchall(z.number())`, false},
		{`{"type": "array", "items": {"type": "string"}, "minItems": 1}`, `z.array(z.string()).min(1)`, `z.array(z.string()).min(1)`, false},
		{`{"type": "array", "prefixItems": [{"type": "string"}], "items": false, "minItems": 1}`, `z.tuple([z.string()])`, `z.tuple([z.string()])`, false},
		{`{"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "number"}}`,
			`z.union([z.tuple([]), z.tuple([z.string()]).rest(z.number())])`, `z.union([z.tuple([]), z.tuple([z.string()], z.number())])`, false},
		{`{"anyOf": [{"type": "string"}, {"type": "number"}]}`, `z.union([z.string(), z.number()])`, `z.union([z.string(), z.number()])`, false},
		{`{"oneOf": [{"type": "string"}, {"type": "number"}]}`,
			`z.union([z.string(), z.number()]).refine(exactlyOne([z.string(), z.number()]), { message: "must match exactly one schema in oneOf" })`,
			`z.xor([z.string(), z.number()])`, false},
		{`{"allOf": [{"type": "string"}, {"maxLength": 3}]}`, `z.intersection(z.string(), z.union([z.string().max(3), z.number(), z.boolean(), z.array(z.any()), z.object({}).passthrough()]).nullable())`,
			`z.intersection(z.string(), z.union([z.string().max(3), z.number(), z.boolean(), z.array(z.any()), z.looseObject({})]).nullable())`, false},
		{`{"type": "string", "allOf": [{"maxLength": 3}]}`, `z.intersection(z.string(), z.string().max(3))`, `z.intersection(z.string(), z.string().max(3))`, false},
		{`true`, `z.any()`, `z.any()`, false},
		{`false`, `z.never()`, `z.never()`, false},
		{`{"type": "string", "description": "Name"}`, `z.string().describe("Name")`, `z.string().describe("Name")`, false},
		{`{"type": "object", "unevaluatedProperties": false}`, `z.object({}).passthrough()`, `z.looseObject({})`, true},
	}
	for _, tt := range tests {
		var v any
		d := json.NewDecoder(strings.NewReader(tt.schema))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		for _, major := range []int{3, 4} {
			e := newZodEmitter(&zodModule{major: major, used: map[string]bool{}}, Tool{Name: "t", InputSchema: map[string]any{"x": v}}, "t")
			got := e.expr(v, "/x")
			want := tt.v3
			if major == 4 {
				want = tt.v4
			}
			if got != want {
				t.Errorf("zod %d: %s\n got %s\nwant %s", major, tt.schema, got, want)
			}
			if (len(e.warns) > 0) != tt.warn {
				t.Errorf("zod %d: %s: warnings %v, want some: %v", major, tt.schema, e.warns, tt.warn)
			}
		}
	}
}

func TestZodWarnings(t *testing.T) {
	in := map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "string", "format": "email"},
		"r": map[string]any{"$ref": "https://example.com/x.json"},
	}}
	_, warns := ToZod([]Tool{{Name: "t", InputSchema: in, Index: 3}}, ZodOptions{Major: 4})
	var got []string
	for _, w := range warns {
		got = append(got, w.Pointer)
		if w.Tool != "t" || w.Index != 3 {
			t.Errorf("warning %v does not name its tool", w)
		}
	}
	want := []string{"/inputSchema/properties/a/format", "/inputSchema/properties/r/$ref"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warning pointers (-want +got):\n%s", diff)
	}
}

// TestZodSourceOrder checks that a shape lists its properties in the
// order the source does (JSON and YAML), and the names required but not
// declared in the order "required" lists them, not alphabetically.
func TestZodSourceOrder(t *testing.T) {
	for name, src := range map[string]string{
		"tools.json": `{"tools": [{"name": "search", "inputSchema": {"type": "object", "required": ["zeta", "alpha"],
			"properties": {"query": {"type": "string"}, "limit": {"type": "integer"}, "after": {"type": "string"},
			"filter": {"type": "object", "properties": {"tag": {"type": "string"}, "author": {"type": "string"}}}}}}]}`,
		"tools.yaml": "tools:\n- name: search\n  inputSchema:\n    type: object\n    required: [zeta, alpha]\n    properties:\n" +
			"      query: {type: string}\n      limit: {type: integer}\n      after: {type: string}\n" +
			"      filter:\n        type: object\n        properties:\n          tag: {type: string}\n          author: {type: string}\n",
	} {
		m, err := manifest.Load(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		tools, err := FromManifest(m)
		if err != nil {
			t.Fatal(err)
		}
		code, _ := ToZod(tools, ZodOptions{})
		var keys []string
		for _, line := range strings.Split(string(code), "\n") {
			// The shape's own members, two spaces in.
			if k, _, ok := strings.Cut(line, ": z."); ok && strings.HasPrefix(k, "  ") && k[2] != ' ' {
				keys = append(keys, k[2:])
			}
		}
		want := []string{"query", "limit", "after", "filter", "zeta", "alpha"}
		if diff := cmp.Diff(want, keys); diff != "" {
			t.Errorf("%s: shape keys (-want +got):\n%s\n%s", name, diff, code)
		}
		if !strings.Contains(string(code), "z.looseObject({\n    tag: z.string().optional(),\n    author: z.string().optional(),\n  })") {
			t.Errorf("%s: nested properties out of source order:\n%s", name, code)
		}
	}
}
