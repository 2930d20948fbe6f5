package rules

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/linttest"
	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// TestSpecOracle checks mcplint against the official schemas: in every fixed
// manifest of the test cases, a tool that the mcp pack finds no error in must
// be valid against the Tool definition of the protocol version checked.
func TestSpecOracle(t *testing.T) {
	compiled := map[string]*jsonschema.Schema{}
	checked := 0
	for _, c := range loadCases(t) {
		fixed := filepath.Join(c.dir, "fixed"+filepath.Ext(c.input))
		src, err := os.ReadFile(fixed)
		if err != nil {
			t.Fatalf("%v", err)
		}
		m, err := manifest.Load(filepath.Base(fixed), src)
		if err != nil {
			t.Fatalf("%s: %v", fixed, err)
		}
		version := c.args.Protocol
		if version == "" {
			version = lint.LatestProtocol
		}
		if compiled[version] == nil {
			compiled[version] = testenv.SpecDefinition(t, version, "Tool")
		}
		diags := linttest.Lint(t, All, lint.Config{Select: []string{"mcp"}, Protocol: version}, m)
		hasError := map[int]bool{}
		for _, d := range diags {
			if d.Severity == lint.Error {
				hasError[d.ToolIndex] = true
			}
		}
		for i, tool := range m.Tools {
			if hasError[i] {
				continue
			}
			v, err := tool.Value()
			if err != nil {
				t.Fatal(err)
			}
			// The validator wants the types its own decoder produces.
			b, _ := json.Marshal(v)
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if err := compiled[version].Validate(inst); err != nil {
				t.Errorf("%s: tool %d (%q) has no mcp error but is invalid against the %s Tool schema:\n%v", fixed, i, tool.Name, version, err)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no tool was checked against the official schema")
	}
	t.Logf("%d tools validated against the official Tool schemas", checked)
}
