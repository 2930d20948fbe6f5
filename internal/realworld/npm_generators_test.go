package realworld

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// The gen-zod3-* and gen-zod4-* cases hold what zod-to-json-schema (with
// Zod 3) and Zod 4's z.toJSONSchema emit, at the versions pinned in
// testdata/generators/zod and testdata/generators/zod4, for the shapes of
// testdata/generators/realworld-shapes.mjs. Node is not needed here: each
// folder's gen.mjs writes its output/realworld/*.json, which are committed,
// and this test checks that every case's tools.json carries exactly that
// output (or rewrites it with -update). After upgrading a
// generator, run `npm ci && node gen.mjs` in its folder, then
// `go test ./internal/realworld -run TestNpmGenerators -update`, and review
// the diff and the cases' verdicts.
func TestNpmGenerators(t *testing.T) {
	shapes := []struct {
		output string
		tool   generatedTool
	}{
		{"object-optional-nullable", generatedTool{Name: "save_note", Description: "Save a note."}},
		{"tuple", generatedTool{Name: "set_range", Description: "Set the visible range."}},
		{"record", generatedTool{Name: "fetch_page", Description: "Fetch a web page with extra headers."}},
		{"union-root", generatedTool{Name: "open_document", Description: "Open a document by URL or path."}},
		{"discriminated-union-root", generatedTool{Name: "open_source", Description: "Open a source given by kind."}},
		{"bigint-date", generatedTool{Name: "schedule_job", Description: "Schedule a job."}},
	}
	repo := testenv.RepoRoot(t)
	for _, gen := range []struct{ prefix, folder string }{
		{"gen-zod3-", "zod"},
		{"gen-zod4-", "zod4"},
	} {
		for _, s := range shapes {
			dir := gen.prefix + s.output
			t.Run(dir, func(t *testing.T) {
				out := filepath.Join(repo, "testdata", "generators", gen.folder, "output", "realworld", s.output+".json")
				b, err := os.ReadFile(out)
				if err != nil {
					t.Fatalf("%v (run `npm ci && node gen.mjs` in testdata/generators/%s)", err, gen.folder)
				}
				var compact bytes.Buffer
				if err := json.Compact(&compact, b); err != nil {
					t.Fatalf("%s: %v", out, err)
				}
				tool := s.tool
				tool.InputSchema = compact.Bytes()
				path := filepath.Join(repo, "testdata", "realworld", dir)
				if *update {
					if err := os.MkdirAll(path, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				testenv.Golden(t, filepath.Join(path, "tools.json"), toolsJSON(t, tool), *update)
			})
		}
	}
}
