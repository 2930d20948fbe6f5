package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --server-name feeds every rule that counts the names clients build from
// it, and --strict turns the strict-mode pack on; without them those rules
// stay quiet on this manifest.
func TestPackShorthandFlags(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tools.json")
	tool := strings.Repeat("a", 40)
	src := `{"tools": [{"name": "` + tool + `", "description": "d", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]}`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	server := strings.Repeat("s", 30)
	for _, c := range []struct {
		args      []string
		want, not []string
	}{
		{[]string{"--select", "claude,cursor"}, nil, []string{"claude-prefixed-name-length", "cursor-name-length"}},
		{[]string{"--select", "claude,cursor", "--server-name", server}, []string{"claude-prefixed-name-length", "cursor-name-length"}, nil},
		{[]string{"--select", "openai"}, nil, []string{"openai-strict-required", "openai-strict-additional-properties"}},
		{[]string{"--select", "openai", "--strict"}, []string{"openai-strict-required", "openai-strict-additional-properties"}, nil},
	} {
		r := mcplint(t, runOpts{}, append(append([]string{"lint", "--fail-on=never"}, c.args...), path)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", c.args, r.code, r.stderr)
		}
		for _, id := range c.want {
			if !strings.Contains(r.stdout, id) {
				t.Errorf("%v: no %s finding:\n%s", c.args, id, r.stdout)
			}
		}
		for _, id := range c.not {
			if strings.Contains(r.stdout, id) {
				t.Errorf("%v: unexpected %s finding:\n%s", c.args, id, r.stdout)
			}
		}
	}
}
