package rules

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/linttest"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/normalize"
)

// TestOpenAIStrictPassesRules checks normalize.OpenAIStrict against the
// rules that describe its target: every schema of the openai case inputs,
// once transformed, draws no finding from the openai and openai-strict
// schema rules (the size limits are no transform's business), and
// OpenAIFunction's draws none from the openai ones.
func TestOpenAIStrictPassesRules(t *testing.T) {
	inputs, err := filepath.Glob("testdata/cases/openai-*/*/input.json")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no openai case inputs (%v)", err)
	}
	schemaRules := []string{"openai-root-object", "openai-array-items"}
	strictRules := append(schemaRules, "openai-strict-additional-properties", "openai-strict-required", "openai-strict-keywords")
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Load(in, src)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			transform func(any) (any, []normalize.Loss)
			selection []string
		}{{normalize.OpenAIFunction, schemaRules}, {normalize.OpenAIStrict, strictRules}} {
			var tools []any
			for _, tool := range m.Tools {
				v, err := tool.Value()
				if err != nil {
					t.Fatal(err)
				}
				obj, _ := v.(map[string]any)
				s, ok := obj["inputSchema"]
				if !ok {
					continue
				}
				out, _ := tc.transform(s)
				if sm, ok := out.(map[string]any); !ok || sm["type"] != "object" {
					continue // a root that admits no object: no transform makes one
				}
				tools = append(tools, map[string]any{"name": "t", "inputSchema": out})
			}
			b, err := json.Marshal(map[string]any{"tools": tools})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range linttest.Source(t, All, lint.Config{Select: tc.selection}, "out.json", b) {
				t.Errorf("%s: transformed schema draws %s at %s: %s", in, d.Rule, d.Pointer, d.Message)
			}
		}
	}
}

// TestOpenAIStrictLimitsTotals covers the totals no case file holds: 5,001
// properties and 120,001 characters of names and values.
func TestOpenAIStrictLimitsTotals(t *testing.T) {
	props := map[string]any{}
	for i := 0; i < 5001; i++ {
		props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string"}
	}
	props["big"] = map[string]any{"const": strings.Repeat("x", 120001)}
	b, err := json.Marshal(map[string]any{"tools": []any{map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object", "properties": props}}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range linttest.Source(t, All, lint.Config{Select: []string{"openai-strict-limits"}}, "big.json", b) {
		got = append(got, d.Message)
	}
	want := []string{
		// 23,895 characters of names p0 to p5000, "big", and the const.
		"property names, definition names, enum and const values total 143899 characters, and strict mode allows 120000; shrink the schema",
		"the schema has 5002 object properties in total, and strict mode allows 5000; split the tool",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
