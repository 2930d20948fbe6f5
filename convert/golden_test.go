package convert

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/providertest"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenCases convert testdata/tools.json to every JSON target; the
// goldens are testdata/golden/NAME.json (the document) and NAME.warnings
// (one warning a line).
var goldenCases = []struct {
	name, target string
	o            Options
	// schemaKey locates each tool's converted input schema in the
	// document's tool entries (a pointer relative to the entry).
	schemaKey string
	// jsonSchema says whether that schema is JSON Schema (it compiles).
	jsonSchema bool
}{
	{"mcp", "mcp", Options{}, "/inputSchema", true},
	{"openai-chat", "openai", Options{}, "/function/parameters", true},
	{"openai-responses", "openai", Options{API: "responses"}, "/parameters", true},
	{"openai-strict", "openai", Options{Strict: true}, "/function/parameters", true},
	{"openai-responses-strict", "openai", Options{API: "responses", Strict: true}, "/parameters", true},
	{"anthropic", "anthropic", Options{}, "/input_schema", true},
	{"gemini", "gemini", Options{}, "/parameters", false},
	{"gemini-json-schema", "gemini", Options{GeminiJSONSchema: true}, "/parametersJsonSchema", true},
}

// loadTools reads the tools of the manifest file at path, as load.
func loadTools(t *testing.T, path string) []Tool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return load(t, path, string(src))
}

func TestGolden(t *testing.T) {
	tools := loadTools(t, "testdata/tools.json")
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			out, warns, err := To(c.target, tools, c.o)
			if err != nil {
				t.Fatal(err)
			}
			var lines []string
			for _, w := range warns {
				lines = append(lines, w.String()+"\n")
			}
			golden(t, c.name+".json", string(out))
			golden(t, c.name+".warnings", strings.Join(lines, ""))

			for i, entry := range entries(t, out) {
				s, ok := schema.Get(entry, c.schemaKey)
				if !ok {
					if c.name == "gemini" && tools[i].InputSchema == nil {
						continue // no arguments: Gemini takes no parameters
					}
					t.Fatalf("tool %d: no schema at %s", i, c.schemaKey)
				}
				if c.jsonSchema {
					if _, err := schema.Compile(s); err != nil {
						t.Errorf("tool %d: the converted schema does not compile: %v", i, err)
					}
				}
				for _, p := range providertest.Refused(c.name, s) {
					t.Errorf("tool %d: %s would refuse the schema: %s", i, c.name, p)
				}
			}
		})
	}
}

// entries decodes a converted document and returns its tool entries.
func entries(t *testing.T, doc []byte) []any {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(strings.NewReader(string(doc)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, doc)
	}
	for _, k := range []string{"tools", "functionDeclarations"} {
		if list, ok := v[k].([]any); ok {
			return list
		}
	}
	t.Fatalf("output has neither tools nor functionDeclarations:\n%s", doc)
	return nil
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	testenv.Golden(t, filepath.Join("testdata", "golden", name), got, *update)
}
