package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	yamlv4 "go.yaml.in/yaml/v4"

	"github.com/mcpfit/mcplint/config"
	"github.com/mcpfit/mcplint/internal/hostile"
	"github.com/mcpfit/mcplint/internal/sinktest"
)

// TestStarterConfigHostile writes init's configuration for manifests and
// .mcp.json servers whose names and fields are hostile strings (a cloned
// repository's .mcp.json is a stranger's), and reads it back with the
// configuration's own loader: every string must come back as it was,
// none may have made structure.
func TestStarterConfigHostile(t *testing.T) {
	var files []string
	servers := map[string]config.Server{}
	for _, h := range hostile.Strings {
		files = append(files, "dir/"+h+".json")
		servers[h] = config.Server{Command: "run " + h, Args: []string{h, "--x=" + h}, Env: map[string]string{"K": h}}
	}
	text := starterConfig(files, servers)
	if cmds := sinktest.Commands(text); len(cmds) > 0 {
		t.Errorf("a CI runner reads a command in the starter configuration: %.300s", cmds[0])
	}
	c, err := config.Parse(".mcplint.yaml", []byte(text))
	if err != nil {
		t.Fatalf("the starter configuration does not load: %v", err)
	}
	if diff := cmp.Diff(files, c.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(servers, c.Servers); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}
	// Editors and other tools read the file with other parsers.
	var doc struct {
		Files   []string                 `yaml:"files"`
		Servers map[string]config.Server `yaml:"servers"`
	}
	if err := yamlv4.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("another YAML parser refuses the starter configuration: %v", err)
	}
	if diff := cmp.Diff(files, doc.Files); diff != "" {
		t.Errorf("another YAML parser reads files (-want +got):\n%s", diff)
	}
	if len(doc.Servers) != len(servers) {
		t.Errorf("another YAML parser reads %d servers, want %d", len(doc.Servers), len(servers))
	}
}
