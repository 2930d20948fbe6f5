package breaking

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/normalize"
	"github.com/mcpfit/mcplint/schema"
)

// tolerant rewrites every numeric schema of every tool of a tools/list
// result as normalize.IntegerTolerant does, and re-encodes the list with
// sorted keys: a new text with the same meaning.
func tolerant(t *testing.T, src []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	tools, _ := doc["tools"].([]any)
	for _, tv := range tools {
		tool, _ := tv.(map[string]any)
		in := tool["inputSchema"]
		var numeric []map[string]any
		schema.Walk(in, "", func(n *schema.Node) bool {
			s := n.Value
			if normalize.RejectsNumericStrings(s) {
				numeric = append(numeric, s)
			}
			return true
		})
		for _, s := range numeric {
			out := normalize.IntegerTolerant(s, normalize.TolerantOptions{}).(map[string]any)
			clear(s)
			for k, v := range out {
				s[k] = v
			}
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReferenceListsUnchanged compares the reference servers' tool lists
// with themselves, and with their numeric parameters rewritten to accept
// decimal strings (the rewrite of seed 001) and keys reordered: no change.
func TestReferenceListsUnchanged(t *testing.T) {
	files, err := filepath.Glob("../rules/testdata/security-corpus/reference/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("reference tool lists missing (%v)", err)
	}
	rewritten := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		alt := tolerant(t, src)
		if string(alt) != string(src) {
			rewritten++
		}
		for _, other := range [][]byte{src, alt} {
			rep, err := Compare(load(t, "old.json", string(src)), load(t, "new.json", string(other)), lint.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if all := rep.All(); len(all) > 0 {
				t.Errorf("%s: %d changes found where there are none:\n%s", filepath.Base(f), len(all), messages(rep))
			}
		}
	}
	if rewritten == 0 {
		t.Error("no reference list has a numeric parameter to rewrite; the test tests nothing")
	}
}

// TestCompareOddSchemas feeds values that are not schemas where schemas
// belong: nothing may panic, and what cannot be classified is reported as
// schema-changed.
func TestCompareOddSchemas(t *testing.T) {
	odd := []string{
		`{"type": "object", "properties": []}`,
		`{"type": 7, "enum": "x", "required": [1, null], "items": [true, false], "anyOf": {}}`,
		`{"$ref": "#/nowhere"}`,
		`{"$ref": "#"}`,
		`{"$ref": "https://example.com/remote.json"}`,
		`true`,
		`false`,
		`{"properties": {"a": {"$ref": "#/properties/a"}}}`,
		`{"exclusiveMinimum": true, "minimum": "1", "multipleOf": 0}`,
	}
	for _, o := range odd {
		for _, n := range odd {
			_, err := Compare(load(t, "old.json", tools(in("a", o))), load(t, "new.json", tools(in("a", n))), lint.Config{})
			if err != nil {
				t.Errorf("%s -> %s: %v", o, n, err)
			}
		}
	}
	rep, err := Compare(load(t, "old.json", tools(in("a", `{"$ref": "https://example.com/a.json"}`))), load(t, "new.json", tools(in("a", `{"$ref": "https://example.com/b.json"}`))), lint.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(rep); len(got) != 1 || got[0] != "schema-changed new /tools/0/inputSchema/$ref" {
		t.Errorf("remote $ref changed: got %v", got)
	}
}
