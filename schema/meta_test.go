package schema

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/internal/testenv"
)

// compileProblems is what a Checker must agree with.
func compileProblems(doc any, assumed string) []Problem {
	_, err := CompileDialect(doc, assumed)
	return withoutReferences(Problems(err))
}

var checkerDocs = []string{
	`{"type": "object", "properties": {"a": {"type": "string"}}}`,
	`{"type": "object", "properties": {"a": {"type": "strin"}}}`,
	`{"properties": {"a": {"minimum": "1"}}, "required": "a"}`,
	`{"properties": {"a/b": {"minLength": -1}}}`,
	`{"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]}`,
	`{"$schema": "https://json-schema.org/draft/2019-09/schema", "items": [{"type": "string"}, {"type": 1}]}`,
	`{"$schema": "http://json-schema.org/draft-04/schema#", "patternProperties": {"(": {}}}`,
	`{"$schema": "http://json-schema.org/draft-06/schema#", "patternProperties": {"(": {}}}`,
	`{"patternProperties": {"(": {}}}`,
	`{"items": [{"type": "string"}]}`,
	`{"items": [{"type": "string"}], "additionalItems": false}`,
	`{"$schema": "https://example.com/my-dialect", "type": "object"}`,
	`{"$schema": 7, "type": "object"}`,
	`{"properties": {"a": {"$ref": "#/$defs/nope", "type": "strin"}}}`,
	`{"required": ["a"], "properties": {"a": {"$ref": "#/required"}}}`,
	`{"$ref": "https://example.com/s.json"}`,
	`{"$ref": "#%zz"}`,
	`{"$defs": {"a": {"$anchor": "x"}, "b": {"$anchor": "x"}}}`,
	`{"$defs": {"a": {"$id": "a.json", "$schema": "http://json-schema.org/draft-07/schema#", "items": [true]}}}`,
	`{"properties": {"a": {"pattern": "^(?!tmp)[a-z]+$"}}}`,
	`{"properties": {"a": {"pattern": "(ab"}}}`,
	`{"required": ["a", "a"], "enum": [], "examples": 1, "description": 2, "default": {"type": "strin"}}`,
	`{"enum": [1, 1], "const": {"x": 1}, "maximum": "3", "exclusiveMinimum": true, "format": 3}`,
	`{"$schema": "http://json-schema.org/draft-07/schema#", "enum": [1, 1]}`,
	`{"$schema": "http://json-schema.org/draft-07/schema#", "enum": []}`,
	`{"allOf": [], "anyOf": [{"type": "string"}, 3], "oneOf": [true, {"minItems": -1}]}`,
	`{"prefixItems": [{"type": "x"}], "dependentSchemas": {"a": {"required": 1}}, "dependencies": {"a": ["b", "b"], "c": {"not": 1}}}`,
	`{"properties": {"a": true, "b": false, "c": 1}, "$defs": {"d": "x"}, "definitions": {"e": {"type": []}}}`,
	`{"not": {"not": {"not": {"type": "object", "properties": {"x": {"items": {"maxItems": 1.5}}}}}}}`,
	`{"if": {"const": 1}, "then": {"minimum": 0}, "else": {"pattern": "["}, "contains": {"minContains": -1}}`,
	`{"unevaluatedProperties": {"type": "nope"}, "propertyNames": {"pattern": "*"}, "contentSchema": {"type": 1}}`,
	`{"type": "object", "properties": {"description": {"type": "string", "description": 5}}}`,
	`{"type": ["string", "strin"], "minLength": "3", "title": null}`,
	`{"additionalProperties": {"$comment": 1}, "$comment": "ok"}`,
}

func TestCheckerMatchesCompile(t *testing.T) {
	var docs []any
	for _, s := range checkerDocs {
		docs = append(docs, testenv.JSON(t, s))
	}
	docs = append(docs, corpus(t)...)
	for _, assumed := range []string{Draft2020, Draft7} {
		c := NewChecker()
		// Twice, so that the second round answers from what the first
		// stored.
		for round := range 2 {
			for i, doc := range docs {
				want := compileProblems(doc, assumed)
				got := c.Problems(doc, assumed)
				if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s, round %d, doc %d %v: problems (-compile +checker):\n%s", assumed, round, i, doc, diff)
				}
			}
		}
	}
}

// TestPruneKeepsProblems: validating a schema with its valid parts made
// true (prune) gives the metaschema's very words on the schema itself,
// leaves the schema unchanged, and does leave parts out.
func TestPruneKeepsProblems(t *testing.T) {
	var docs []any
	for _, s := range checkerDocs {
		docs = append(docs, testenv.JSON(t, s))
	}
	docs = append(docs, corpus(t)...)
	size := func(v any) int {
		n := 0
		Walk(v, "", func(*Node) bool { n++; return true })
		return n
	}
	for _, d := range []string{Draft2020, Draft2019, Draft7} {
		meta, err := metaschema(d)
		if err != nil {
			t.Fatal(err)
		}
		c := NewChecker()
		invalid, smaller := 0, 0
		for i, doc := range docs {
			root, ok := doc.(map[string]any)
			if !ok || hasResources(root, 0) {
				continue
			}
			before := Compact(root)
			buf := make([]byte, 0, 256)
			p, valid := c.prune(d, meta, root, 0, &buf)
			if after := Compact(root); after != before {
				t.Fatalf("%s doc %d: prune changed the schema\n%s\nto\n%s", d, i, before, after)
			}
			if valid != c.nodesValid(d, meta, root, 0, &buf) {
				t.Errorf("%s doc %d: prune says valid %v, nodesValid not", d, i, valid)
			}
			if valid {
				continue
			}
			invalid++
			if size(p) < size(root) {
				smaller++
			}
			// The causes come in the order of the schema's members, so
			// compare the problems they make, which are sorted.
			problems := func(v any) []Problem {
				return Problems(&jsonschema.SchemaValidationError{URL: resourceURL + "#", Err: meta.Validate(v)})
			}
			if diff := cmp.Diff(problems(root), problems(p)); diff != "" {
				t.Errorf("%s doc %d %s: problems (-schema +pruned):\n%s", d, i, before, diff)
			}
		}
		if invalid == 0 || 2*smaller < invalid {
			t.Errorf("%s: %d invalid schemas, %d of them pruned: too few to tell", d, invalid, smaller)
		}
	}
}

// TestShallowNodeKey checks that appendNodeKey encodes what shallowNode
// builds: a node and its shallow form share their key.
func TestShallowNodeKey(t *testing.T) {
	var docs []any
	for _, s := range checkerDocs {
		docs = append(docs, testenv.JSON(t, s))
	}
	docs = append(docs, corpus(t)...)
	for _, d := range []string{Draft2020, Draft2019, Draft7} {
		for _, doc := range docs {
			Walk(doc, "", func(n *Node) bool {
				s, ptr := n.Value, n.Pointer()
				shallow := shallowNode(d, s)
				if got, want := string(appendNodeKey(nil, d, shallow)), string(appendNodeKey(nil, d, s)); got != want {
					t.Errorf("%s %s: key of the shallow node\n%s\ndiffers from the node's\n%s", d, ptr, got, want)
				}
				return true
			})
		}
	}
}

// corpus is every schema of a generated manifest with many defects and of
// the rules' JSON test cases: each value of an "inputSchema",
// "outputSchema" or another consumer's schema member, found by a walk of the
// decoded file rather than by the loader, which imports this package.
func corpus(t *testing.T) []any {
	t.Helper()
	var out []any
	var collect func(v any)
	collect = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				switch k {
				case "inputSchema", "outputSchema", "parameters", "input_schema", "parametersJsonSchema":
					if _, ok := e.(map[string]any); ok {
						out = append(out, e)
						continue
					}
				}
				collect(e)
			}
		case []any:
			for _, e := range x {
				collect(e)
			}
		}
	}
	add := func(src []byte) {
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.UseNumber()
		for {
			var v any
			if dec.Decode(&v) != nil {
				return
			}
			collect(v)
		}
	}
	add(benchgen.Generate(benchgen.Options{Tools: 300, Seed: 7, Broken: 0.6}))
	inputs, err := filepath.Glob(filepath.Join(testenv.RepoRoot(t), "rules", "testdata", "cases", "*", "*", "input.json"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no test case inputs found (%v)", err)
	}
	for _, path := range inputs {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		add(src)
	}
	return out
}

// FuzzChecker holds the Checker to the compiler on any schema: the node by
// node check, and the pruned validation that words a failure, find the
// problems compiling finds.
func FuzzChecker(f *testing.F) {
	for _, s := range checkerDocs {
		f.Add(s)
	}
	f.Add(`{"properties": {"a": {"type": "strin"}, "b": {"items": [{"type": "number"}], "minItems": -1}}, "anyOf": [{"required": 1}, {}]}`)
	c := NewChecker()
	f.Fuzz(func(t *testing.T, s string) {
		dec := json.NewDecoder(bytes.NewReader([]byte(s)))
		dec.UseNumber()
		var doc any
		if dec.Decode(&doc) != nil {
			return
		}
		for _, assumed := range []string{Draft2020, Draft7} {
			want := compileProblems(doc, assumed)
			got := c.Problems(doc, assumed)
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s %s: problems (-compile +checker):\n%s", assumed, s, diff)
			}
		}
	})
}
