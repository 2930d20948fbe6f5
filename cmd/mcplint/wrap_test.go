package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCheckDiscoverWrap: after checking every installed client's servers,
// --wrap prints, for a server its client refuses (a tool name with a
// space: the Anthropic API refuses it, so Claude Desktop does), the
// client's configuration entry that runs it through mcplint proxy adapted
// for that client, in the client's own format, without env values.
func TestCheckDiscoverWrap(t *testing.T) {
	home := t.TempDir()
	project := t.TempDir()
	t.Chdir(project)
	b, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{"-test.run=^$"},
		"env": map[string]string{checkServerEnv: "ok", "API_KEY": "secret-value-1234"}})
	desktop := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	if runtime.GOOS == "darwin" {
		desktop = filepath.Join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
	}
	vscode := filepath.Join(project, ".vscode", "mcp.json")
	for path, content := range map[string]string{
		desktop: `{"mcpServers": {"files": ` + string(b) + `}}`,
		vscode:  `{"servers": {"files": ` + string(b) + `}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := mcplint(t, runOpts{env: map[string]string{"HOME": home}}, "check", "--discover", "--yes", "--wrap", "--quiet", "--fail-on=never")
	r.want(t, 0)
	bin, _ := json.Marshal(os.Args[0])
	want := "Claude Desktop (user): files: 1 finding the client refuses; run it through mcplint proxy in ~" + strings.TrimPrefix(desktop, home) + ":\n" +
		`  "files": {"command": "mcplint", "args": ["proxy", "--for", "claude", "--", ` + string(bin) + `, "-test.run=^$"]} (keep its env)` + "\n"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("stdout:\n%s\nwant it to hold:\n%s", r.stdout, want)
	}
	vsWant := `  "files": {"type": "stdio", "command": "mcplint", "args": ["proxy", "--for", "vscode", "--", ` + string(bin)
	if !strings.Contains(r.stdout, vsWant) {
		t.Errorf("no VS Code entry in VS Code's format:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "secret-value-1234") {
		t.Errorf("an env value was printed:\n%s", r.stdout)
	}

	for _, args := range [][]string{
		{"check", "--wrap", "--", os.Args[0]},
		{"check", "--discover", "--yes", "--wrap", "--format=json"},
	} {
		r := mcplint(t, runOpts{env: map[string]string{"HOME": home}}, args...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, "--wrap") {
			t.Errorf("%v: stderr %q", args, r.stderr)
		}
	}
}
