package main

import (
	"os"
	"strings"
	"testing"
)

// TestRegistryServerJSONRefused: fix used to add an inputSchema to a
// registry server.json, read as a single tool. It is now an input error
// (status 2) that names the file, and the file is left as it was.
func TestRegistryServerJSONRefused(t *testing.T) {
	const src = `{
  "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  "name": "io.example/notes",
  "description": "Notes for an example.",
  "version": "0.3.0",
  "packages": [{"registryType": "npm", "identifier": "example-notes", "version": "0.3.0", "transport": {"type": "stdio"}}]
}
`
	project(t, map[string]string{"server.json": src})
	for _, args := range [][]string{{"lint", "server.json"}, {"fix", "-w", "server.json"}, {"fix", "--diff", "server.json"}} {
		r := mcplint(t, runOpts{}, args...)
		r.want(t, 2)
		if !strings.HasPrefix(r.stderr, "mcplint: server.json:1:1: a registry server.json, not a tool list") || r.stdout != "" {
			t.Errorf("%v: stdout %q, stderr %q", args, r.stdout, r.stderr)
		}
		if b, _ := os.ReadFile("server.json"); string(b) != src {
			t.Errorf("%v changed the file:\n%s", args, b)
		}
	}
}
