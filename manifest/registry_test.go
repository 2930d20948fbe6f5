package manifest

import (
	"strings"
	"testing"
)

// TestRegistryServerJSON: the MCP registry's server.json is refused with an
// error saying what it is, in JSON and YAML, whether its $schema says it or
// only its shape does; a tool that happens to have a version is still a
// tool.
func TestRegistryServerJSON(t *testing.T) {
	for _, c := range []struct{ name, file, src string }{
		{"schema", "server.json", `{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.example/notes",
  "description": "Notes for an example.",
  "version": "0.3.0"
}`},
		{"packages, no schema", "server.json", `{"name": "io.example/notes", "description": "Notes.", "version": "0.3.0",
 "packages": [{"registryType": "npm", "identifier": "example-notes", "version": "0.3.0", "transport": {"type": "stdio"}}]}`},
		{"remotes", "server.json", `{"name": "io.example/notes", "version": "1.0.0", "remotes": [{"type": "streamable-http", "url": "https://example.com/mcp"}]}`},
		{"yaml", "server.yaml", "$schema: https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json\nname: io.example/notes\nversion: 0.3.0\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.file, []byte(c.src))
			if err == nil {
				t.Fatal("a registry server.json was read as a manifest")
			}
			want := c.file + ":1:1: a registry server.json, not a tool list: "
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q, want it to start %q", err, want)
			}
		})
	}
	m, err := Load("tool.json", []byte(`{"name": "a", "version": "1", "packages": [], "inputSchema": {"type": "object"}}`))
	if err != nil || len(m.Tools) != 1 {
		t.Errorf("a tool with version and packages members: %v", err)
	}
}
