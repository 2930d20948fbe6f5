package testenv

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SpecDefinition compiles the definition name ("Tool", "ListToolsResult")
// of one protocol version's official schema.json (see MCPSpec), under
// $defs or, in the older versions, definitions.
func SpecDefinition(t testing.TB, version, name string) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(MCPSpec(t), version, "schema.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	url := "mcp-spec:///" + version + "/schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	defs := "$defs"
	if bytes.Contains(b, []byte(`"definitions"`)) && !bytes.Contains(b, []byte(`"$defs"`)) {
		defs = "definitions"
	}
	s, err := c.Compile(url + "#/" + defs + "/" + name)
	if err != nil {
		t.Fatalf("compile %s of %s: %v", name, version, err)
	}
	return s
}
