package normalize

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

const draft7 = `"$schema": "http://json-schema.org/draft-07/schema#"`

func TestInlineRootRef(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            string // a substring of the expected error
	}{
		{name: "no ref", in: `{"type": "object"}`, want: `{"type": "object"}`},
		{name: "plain",
			in:   `{` + draft7 + `, "$ref": "#/definitions/A", "definitions": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}}}`,
			want: `{` + draft7 + `, "type": "object", "properties": {"a": {"type": "string"}}}`},
		{name: "recursion through the inlined definition points at the root",
			in:   `{` + draft7 + `, "$ref": "#/definitions/N", "definitions": {"N": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/N"}}}}}}`,
			want: `{` + draft7 + `, "type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#"}}}}`},
		{name: "deep pointers into the definition are rebased",
			in:   `{"$ref": "#/$defs/O", "$defs": {"O": {"type": "object", "properties": {"r": {"type": "object", "properties": {"next": {"$ref": "#/$defs/O/properties/r"}}}}}}}`,
			want: `{"type": "object", "properties": {"r": {"type": "object", "properties": {"next": {"$ref": "#/properties/r"}}}}}`},
		{name: "percent-encoded references are rebased",
			in:   `{"$ref": "#/$defs/a%20b", "$defs": {"a b": {"type": "object", "properties": {"s": {"$ref": "#/$defs/a%20b/properties/t%20u"}, "t u": {}}}}}`,
			want: `{"type": "object", "properties": {"s": {"$ref": "#/properties/t%20u"}, "t u": {}}}`},
		{name: "pointer-escaped names are rebased",
			in:   `{"$ref": "#/$defs/a~1b", "$defs": {"a/b": {"type": "object", "properties": {"self": {"$ref": "#/$defs/a~1b"}}}}}`,
			want: `{"type": "object", "properties": {"self": {"$ref": "#"}}}`},
		{name: "other definitions stay, used or not",
			in:   `{"$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "string"}, "Unused": {}}}`,
			want: `{"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}, "$defs": {"B": {"type": "string"}, "Unused": {}}}`},
		{name: "the definition's own definitions move to the root",
			in:   `{"$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"x": {"$ref": "#/$defs/A/$defs/X"}}, "$defs": {"X": {"type": "integer"}}}}}`,
			want: `{"type": "object", "properties": {"x": {"$ref": "#/$defs/X"}}, "$defs": {"X": {"type": "integer"}}}`},
		{name: "draft-07 annotations beside ref stay unless the definition has them",
			in:   `{` + draft7 + `, "title": "Root", "description": "outer", "$ref": "#/definitions/A", "definitions": {"A": {"type": "object", "description": "inner"}}}`,
			want: `{` + draft7 + `, "title": "Root", "type": "object", "description": "inner"}`},
		{name: "draft-07 ignored validation keyword that the definition repeats",
			in:   `{` + draft7 + `, "type": "object", "$ref": "#/definitions/A", "definitions": {"A": {"type": "object"}}}`,
			want: `{` + draft7 + `, "type": "object"}`},
		{name: "draft-07 conflicting ignored keyword gives way",
			in:   `{` + draft7 + `, "type": "array", "$ref": "#/definitions/A", "definitions": {"A": {"type": "object"}}}`,
			want: `{` + draft7 + `, "type": "object"}`},
		{name: "2020-12 siblings that apply anyway stay",
			in:   `{"description": "d", "minProperties": 1, "$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}}`,
			want: `{"description": "d", "minProperties": 1, "type": "object"}`},
		{name: "the document's other container stays",
			in:   `{` + draft7 + `, "$ref": "#/definitions/A", "definitions": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}}, "$defs": {"B": {}}}`,
			want: `{` + draft7 + `, "type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}, "$defs": {"B": {}}}`},
		{name: "anchors move with the definition",
			in:   `{"$ref": "#/$defs/A", "$defs": {"A": {"$anchor": "node", "type": "object", "properties": {"k": {"$ref": "#node"}}}}}`,
			want: `{"$anchor": "node", "type": "object", "properties": {"k": {"$ref": "#node"}}}`},

		{name: "draft-07 validation keyword would start to apply",
			in: `{` + draft7 + `, "required": ["a"], "$ref": "#/definitions/A", "definitions": {"A": {"type": "object"}}}`, err: `"required" beside the root "$ref" is ignored`},
		{name: "2020-12 conflicting sibling",
			in: `{"type": "array", "$ref": "#/$defs/A", "$defs": {"A": {"type": "object"}}}`, err: "merge them by hand"},
		{name: "not a definition", in: `{"$ref": "#/properties/a", "properties": {"a": {}}}`, err: "does not name an entry"},
		{name: "remote", in: `{"$ref": "https://example.com/a.json"}`, err: "does not name an entry"},
		{name: "missing definition", in: `{"$ref": "#/$defs/A"}`, err: "points to no schema object"},
		{name: "definition with its own $id", in: `{"$ref": "#/$defs/A", "$defs": {"A": {"$id": "https://example.com/a", "type": "object"}}}`, err: `own "$id"`},
		{name: "ref that is not a string", in: `{"$ref": 1}`, err: "not a string"},
		{name: "nested definitions clash", in: `{"$ref": "#/$defs/A", "$defs": {"A": {"$defs": {"B": {}}}, "B": {}}}`, err: "clashes"},
		{name: "a reference through the document's $id would dangle",
			in:  `{"$id": "https://example.com/s", "$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"a": {"$ref": "https://example.com/s#/$defs/A"}}}}}`,
			err: "would no longer resolve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testenv.JSON(t, tt.in)
			before := schema.Clone(in)
			got, err := InlineRootRef(in)
			if diff := cmp.Diff(before, in); diff != "" {
				t.Errorf("InlineRootRef modified its input (-before +after):\n%s", diff)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got %v, %v; want an error containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(testenv.JSON(t, tt.want), got); diff != "" {
				t.Errorf("InlineRootRef(%s) (-want +got):\n%s", tt.in, diff)
			}
			if _, err := schema.Compile(got); err != nil {
				t.Errorf("result does not compile: %v", err)
			}
		})
	}
}

// zodOutput reads a schema zod-to-json-schema wrote (testdata/generators/zod).
func zodOutput(t *testing.T, file string) any {
	t.Helper()
	path := filepath.Join("..", "testdata", "generators", "zod", "output", file)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `npm ci && node gen.mjs` in testdata/generators/zod)", err)
	}
	return testenv.JSON(t, string(b))
}

// TestInlineRootRefMatchesZod holds the transform to a real peer: inlining
// what zod-to-json-schema emits for a named schema gives exactly what it
// emits for the same schema without a name.
func TestInlineRootRefMatchesZod(t *testing.T) {
	for _, s := range []string{"plain", "recursive", "nested"} {
		t.Run(s, func(t *testing.T) {
			got, err := InlineRootRef(zodOutput(t, s+"-named.json"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(zodOutput(t, s+".json"), got); diff != "" {
				t.Errorf("inlined %s-named.json differs from %s.json (-zod +inlined):\n%s", s, s, diff)
			}
		})
	}
}

// TestInlineRootRefValidatesTheSame checks with a validator that the
// inlined schema accepts and refuses what the original did.
func TestInlineRootRefValidatesTheSame(t *testing.T) {
	tree := zodOutput(t, "recursive-named.json")
	inlined, err := InlineRootRef(tree)
	if err != nil {
		t.Fatal(err)
	}
	instances := []string{
		`{"name": "a", "subcategories": []}`,
		`{"name": "a", "subcategories": [{"name": "b", "subcategories": [{"name": "c", "subcategories": []}]}]}`,
		`{"name": "a", "subcategories": [{"name": "b", "subcategories": [{"subcategories": []}]}]}`,
		`{"name": "a", "subcategories": [{"name": "b", "subcategories": [], "extra": 1}]}`,
		`{"subcategories": []}`,
		`[]`,
	}
	before, after := mustCompile(t, tree), mustCompile(t, inlined)
	for _, src := range instances {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(src)))
		if err != nil {
			t.Fatal(err)
		}
		b, a := before.Validate(inst) == nil, after.Validate(inst) == nil
		if a != b {
			t.Errorf("%s: valid before inlining: %v, after: %v", src, b, a)
		}
	}
}

func mustCompile(t *testing.T, doc any) *jsonschema.Schema {
	t.Helper()
	s, err := schema.Compile(doc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInlinePointerRefs(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a reference to a property is inlined",
			`{"type": "object", "properties": {"a": {"type": "string", "minLength": 1}, "b": {"$ref": "#/properties/a", "description": "again"}}}`,
			`{"type": "object", "properties": {"a": {"type": "string", "minLength": 1}, "b": {"type": "string", "minLength": 1, "description": "again"}}}`},
		{"definitions stay references",
			`{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}`,
			`{"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}`},
		{"a reference with a constraint beside it stays",
			`{"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a", "maxLength": 3}}}`,
			`{"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a", "maxLength": 3}}}`},
		{"a target holding a reference stays (recursion)",
			`{"type": "object", "properties": {"a": {"type": "array", "items": {"$ref": "#/properties/a"}}, "b": {"$ref": "#/properties/a"}}}`,
			`{"type": "object", "properties": {"a": {"type": "array", "items": {"$ref": "#/properties/a"}}, "b": {"$ref": "#/properties/a"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := testenv.JSON(t, tc.in)
			before := schema.Clone(in)
			got := InlinePointerRefs(in)
			if d := cmp.Diff(testenv.JSON(t, tc.want), got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if d := cmp.Diff(before, in); d != "" {
				t.Errorf("input modified:\n%s", d)
			}
		})
	}
}
