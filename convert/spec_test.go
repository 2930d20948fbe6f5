package convert

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// TestMCPOutputMatchesSpec validates what --to mcp writes against the
// ListToolsResult definition of the official schema (kept beside the
// repository, read as an oracle).
func TestMCPOutputMatchesSpec(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		s := testenv.SpecDefinition(t, version, "ListToolsResult")
		out, _, err := To("mcp", loadTools(t, "testdata/tools.json"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: --to mcp output is not a ListToolsResult: %v", version, err)
		}
	}
}
