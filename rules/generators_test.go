package rules

import (
	"bytes"
	"encoding/json"
	"github.com/mcpfit/mcplint/internal/testenv"
	"os"
	"path/filepath"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Some case inputs carry schemas exactly as real generators emit them. These
// tests prove it and keep them in sync: they rebuild each input from the
// generator's output and fail when the committed file differs. Run
// `go test ./rules -run TestGenerated -update` after a generator upgrade and
// review the case goldens it invalidates.

// TreeNode is the recursive argument type reflected with invopop/jsonschema.
type TreeNode struct {
	Label    string      `json:"label" jsonschema:"description=Text shown for the node"`
	Children []*TreeNode `json:"children,omitempty"`
	Owner    NodeOwner   `json:"owner"`
}

// NodeOwner is a nested struct, so the output has a second definition.
type NodeOwner struct {
	Team  string `json:"team"`
	Email string `json:"email,omitempty" jsonschema:"format=email"`
}

// generatedTool is a tool of a generated case input, in the key order the
// file shows.
type generatedTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func TestGeneratedInvopop(t *testing.T) {
	// The default Reflector, as a server would use it.
	out, err := json.Marshal((&jsonschema.Reflector{}).Reflect(&TreeNode{}))
	if err != nil {
		t.Fatal(err)
	}
	checkGenerated(t, "testdata/cases/input-schema-root-object/invopop-recursive/input.json", "github.com/invopop/jsonschema", []generatedTool{
		{Name: "save_tree", Description: "Save a tree of labelled nodes.", InputSchema: out},
	})
}

func TestGeneratedZod(t *testing.T) {
	zod := func(file string) json.RawMessage {
		b, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "testdata", "generators", "zod", "output", file))
		if err != nil {
			t.Fatalf("%v (run `npm ci && node gen.mjs` in testdata/generators/zod)", err)
		}
		return b
	}
	const gen = "zod-to-json-schema (testdata/generators/zod)"
	checkGenerated(t, "testdata/cases/input-schema-root-object/zod-named/input.json", gen, []generatedTool{
		{Name: "search", Description: "Search the catalogue.", InputSchema: zod("plain-named.json")},
		{Name: "save_category", Description: "Save a category and its subcategories.", InputSchema: zod("recursive-named.json")},
		{Name: "save_outline", Description: "Save an outline.", InputSchema: zod("nested-named.json")},
	})
	checkGenerated(t, "testdata/cases/input-schema-root-object/zod-unnamed/input.json", gen, []generatedTool{
		{Name: "search", Description: "Search the catalogue.", InputSchema: zod("plain.json")},
		{Name: "save_category", Description: "Save a category and its subcategories.", InputSchema: zod("recursive.json")},
		{Name: "save_outline", Description: "Save an outline.", InputSchema: zod("nested.json")},
	})
}

// checkGenerated compares the tools of the case input at path with tools, or
// rewrites the input with -update.
func checkGenerated(t *testing.T, path, generator string, tools []generatedTool) {
	t.Helper()
	if *update {
		b, err := json.MarshalIndent(struct {
			Tools []generatedTool `json:"tools"`
		}{tools}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./rules -run TestGenerated -update)", err)
	}
	if len(m.Tools) != len(tools) {
		t.Fatalf("%s has %d tools, want %d: run go test ./rules -run TestGenerated -update and review the case", path, len(m.Tools), len(tools))
	}
	for i, want := range tools {
		v, err := m.Tools[i].Value()
		if err != nil {
			t.Fatal(err)
		}
		got := v.(map[string]any)["inputSchema"]
		dec := json.NewDecoder(bytes.NewReader(want.InputSchema))
		dec.UseNumber()
		var w any
		if err := dec.Decode(&w); err != nil {
			t.Fatal(err)
		}
		if !lint.Equal(got, w) {
			t.Errorf("%s: tool %d's inputSchema is not what %s emits now; run go test ./rules -run TestGenerated -update and review the case's goldens", path, i, generator)
		}
	}
}
