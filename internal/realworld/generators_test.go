package realworld

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	googleschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/invopop/jsonschema"

	"github.com/mcpfit/mcplint/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the generator cases' tools.json from the generators")

// The gen-go-* cases hold what two Go schema generators emit for the argument
// types below, at the versions go.mod pins. The test rebuilds each case's
// tools.json and fails when the committed file differs, so a generator
// upgrade that changes its output shows up as a diff to review, together
// with the case's verdicts. Rewrite them with
// `go test ./internal/realworld -run TestGoGenerators -update`.

// SearchArgs is a flat argument struct with optional fields.
type SearchArgs struct {
	Query string `json:"query" jsonschema:"description=Text to search for"`
	Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50"`
}

// SearchArgsDoc is SearchArgs written for google/jsonschema-go, whose
// jsonschema tag is the whole description (invopop's is key=value pairs).
type SearchArgsDoc struct {
	Query string `json:"query" jsonschema:"Text to search for"`
	Limit int    `json:"limit,omitempty"`
}

// Owner is nested inside Project, so generators either inline it or emit a
// definition for it.
type Owner struct {
	Team  string `json:"team"`
	Email string `json:"email,omitempty"`
}

// Project nests a struct and carries the types Go generators treat
// specially: a map, a byte slice, a time and an interface.
type Project struct {
	Name     string            `json:"name"`
	Owner    Owner             `json:"owner"`
	Labels   map[string]string `json:"labels,omitempty"`
	Logo     []byte            `json:"logo,omitempty"`
	Deadline time.Time         `json:"deadline"`
	Settings any               `json:"settings,omitempty"`
}

// Category is recursive: its children are categories.
type Category struct {
	Name     string      `json:"name"`
	Children []*Category `json:"children,omitempty"`
}

// generatedTool is one tool of a generator case, in the key order the file
// shows.
type generatedTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func TestGoGenerators(t *testing.T) {
	invopop := func(r *jsonschema.Reflector, v any) json.RawMessage {
		t.Helper()
		b, err := json.Marshal(r.Reflect(v))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	google := func(s *googleschema.Schema, err error) json.RawMessage {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases := []struct {
		dir  string
		tool generatedTool
	}{
		// invopop/jsonschema with the default Reflector, as most servers use it.
		{"gen-go-invopop-flat-default", generatedTool{"search", "Search the catalogue.", invopop(&jsonschema.Reflector{}, &SearchArgs{})}},
		{"gen-go-invopop-nested-default", generatedTool{"save_project", "Save a project.", invopop(&jsonschema.Reflector{}, &Project{})}},
		{"gen-go-invopop-recursive-default", generatedTool{"save_category", "Save a category tree.", invopop(&jsonschema.Reflector{}, &Category{})}},
		// ExpandedStruct puts the root type's properties at the root.
		{"gen-go-invopop-nested-expanded", generatedTool{"save_project", "Save a project.", invopop(&jsonschema.Reflector{ExpandedStruct: true}, &Project{})}},
		{"gen-go-invopop-recursive-expanded", generatedTool{"save_category", "Save a category tree.", invopop(&jsonschema.Reflector{ExpandedStruct: true}, &Category{})}},
		// google/jsonschema-go's For, which the official Go SDK calls for typed tools.
		{"gen-go-jsonschema-go-flat", generatedTool{"search", "Search the catalogue.", google(googleschema.For[SearchArgsDoc](nil))}},
		{"gen-go-jsonschema-go-nested", generatedTool{"save_project", "Save a project.", google(googleschema.For[Project](nil))}},
		{"gen-go-jsonschema-go-no-arguments", generatedTool{"get_me", "Describe the signed-in user.", google(googleschema.For[struct{}](nil))}},
	}
	// google/jsonschema-go has no recursive case: For[Category] fails with
	// "cycle detected", so a typed Go SDK tool cannot take a recursive type.
	if _, err := googleschema.For[Category](nil); err == nil {
		t.Error("google/jsonschema-go now reflects recursive types: add a gen-go-jsonschema-go-recursive case")
	}
	root := filepath.Join(testenv.RepoRoot(t), "testdata", "realworld")
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			dir := filepath.Join(root, c.dir)
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			testenv.Golden(t, filepath.Join(dir, "tools.json"), toolsJSON(t, c.tool), *update)
		})
	}
}

// toolsJSON writes tools as a tools/list result, indented by two spaces,
// without HTML escaping, as the corpus files are written.
func toolsJSON(t *testing.T, tools ...generatedTool) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		Tools []generatedTool `json:"tools"`
	}{tools}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
