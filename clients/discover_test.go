package clients

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/live"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// found summarizes what Discover returned: one line per configuration,
// one per server.
func found(configs []Config, home string) []string {
	var out []string
	for _, c := range configs {
		line := c.Label() + " " + strings.Replace(c.Path, home, "~", 1)
		if c.Err != nil {
			line += " error: " + strings.ReplaceAll(c.Err.Error(), home, "~")
		}
		out = append(out, line)
		for _, s := range c.Servers {
			switch {
			case s.Err != nil:
				out = append(out, "  "+s.Name+" error: "+s.Err.Error())
			case s.Target.URL != "":
				out = append(out, fmt.Sprintf("  %s %s %s %v", s.Name, s.Target.Transport, s.Target.URL, s.Target.Header))
			default:
				out = append(out, fmt.Sprintf("  %s %s %q %q", s.Name, s.Target.Transport, s.Target.Command, s.Target.Env))
			}
		}
	}
	return out
}

func TestDiscover(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, ".config/Claude/claude_desktop_config.json"),
		`{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}`)
	write(t, filepath.Join(home, ".cursor/mcp.json"),
		`{"mcpServers": {"remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}}}`)
	write(t, filepath.Join(home, ".claude.json"), `{"numStartups": 3, "mcpServers": {"git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"]}},
		"projects": {"`+project+`": {"mcpServers": {"db": {"command": "db-mcp", "env": {"DSN": "${DSN:-sqlite://x}"}}}}, "/elsewhere": {"mcpServers": {"other": {"command": "x"}}}}}`)
	// Gemini CLI settings without servers are no configuration.
	write(t, filepath.Join(home, ".gemini/settings.json"), `{"theme": "Default"}`)
	write(t, filepath.Join(project, ".gemini/settings.json"), `{"mcpServers": {"g": {"httpUrl": "https://g.example/mcp"}}}`)
	write(t, filepath.Join(home, ".codeium/windsurf/mcp_config.json"), `{"mcpServers": {"w": {"serverUrl": "https://w.example/sse"}}}`)
	write(t, filepath.Join(home, ".config/Code/User/settings.json"), `{
		// VS Code's settings are JSON with comments
		"editor.fontSize": 14,
		"mcp": {"servers": {"v": {"type": "stdio", "command": "v-mcp",},},},
	}`)
	write(t, filepath.Join(home, ".codex/config.toml"), `model = "o3"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp", "$NOT_EXPANDED"]
env = { LEVEL = "debug" }

[mcp_servers.figma]
url = "https://mcp.figma.com/mcp"
bearer_token_env_var = "FIGMA_TOKEN"
http_headers = { "X-Region" = "eu" }
env_http_headers = { "X-Team" = "TEAM", "X-Unset" = "NO_SUCH_VAR" }

[mcp_servers.nothing]
startup_timeout_sec = 5
`)
	write(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"p": {"command": "./bin/p"}}}`)
	write(t, filepath.Join(project, ".cursor/mcp.json"), `{"mcpServers": {broken`)
	write(t, filepath.Join(project, ".vscode/mcp.json"), `{"servers": {}}`)
	write(t, filepath.Join(project, "packages/app/.mcp.json"), `{"mcpServers": {"nested": {"command": "n"}}}`)
	write(t, filepath.Join(project, "node_modules/dep/.mcp.json"), `{"mcpServers": {"dep": {"command": "d"}}}`)
	write(t, filepath.Join(project, ".hidden/.mcp.json"), `{"mcpServers": {"hid": {"command": "h"}}}`)

	env := map[string]string{"TOKEN": "t0k", "FIGMA_TOKEN": "f1g", "TEAM": "core"}
	got := found(Discover(Places{Home: home, Project: project, OS: "linux", Getenv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}), home)
	got = strings.Split(strings.ReplaceAll(strings.Join(got, "\n"), project, "PROJECT"), "\n")
	want := []string{
		"Claude Desktop (user) ~/.config/Claude/claude_desktop_config.json",
		`  memory stdio ["npx" "-y" "@modelcontextprotocol/server-memory"] []`,
		"Claude Code (user) ~/.claude.json",
		`  git stdio ["uvx" "mcp-server-git"] []`,
		"Codex (user) ~/.codex/config.toml",
		`  docs stdio ["npx" "-y" "docs-mcp" "$NOT_EXPANDED"] ["LEVEL=debug"]`,
		"  figma http https://mcp.figma.com/mcp map[Authorization:[Bearer f1g] X-Region:[eu] X-Team:[core]]",
		`  nothing error: server "nothing": neither "command" nor "url"`,
		"Cursor (user) ~/.cursor/mcp.json",
		"  remote  https://example.com/mcp map[Authorization:[Bearer t0k]]",
		"VS Code (user) ~/.config/Code/User/settings.json",
		`  v stdio ["v-mcp"] []`,
		"Windsurf (user) ~/.codeium/windsurf/mcp_config.json",
		"  w  https://w.example/sse map[]",
		"Claude Code (local) ~/.claude.json",
		`  db stdio ["db-mcp"] ["DSN=sqlite://x"]`,
		"Claude Code (project) PROJECT/.mcp.json",
		`  p stdio ["./bin/p"] []`,
		"Cursor (project) PROJECT/.cursor/mcp.json error: PROJECT/.cursor/mcp.json:1:17: not a JSON MCP client configuration: invalid character 'b' looking for beginning of object key string; correct the file there",
		"Gemini CLI (project) PROJECT/.gemini/settings.json",
		"  g http https://g.example/mcp map[]",
		"VS Code (project) PROJECT/.vscode/mcp.json",
		".mcp.json (project) PROJECT/packages/app/.mcp.json",
		`  nested stdio ["n"] []`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Discover (-want +got):\n%s", diff)
	}
}

func TestLocationsPerOS(t *testing.T) {
	env := map[string]string{"APPDATA": `C:\Users\u\AppData\Roaming`, "XDG_CONFIG_HOME": "/xdg", "CODEX_HOME": "/codex"}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	for _, tt := range []struct {
		os, desktop, vscode string
	}{
		{"darwin", "/home/u/Library/Application Support/Claude/claude_desktop_config.json", "/home/u/Library/Application Support/Code/User/mcp.json"},
		{"windows", filepath.Join(`C:\Users\u\AppData\Roaming`, "Claude", "claude_desktop_config.json"), filepath.Join(`C:\Users\u\AppData\Roaming`, "Code", "User", "mcp.json")},
		{"linux", "/xdg/Claude/claude_desktop_config.json", "/xdg/Code/User/mcp.json"},
	} {
		locs := Locations(Places{Home: "/home/u", OS: tt.os, Getenv: getenv})
		paths := map[string]string{}
		for _, l := range locs {
			if _, ok := paths[l.Client]; !ok {
				paths[l.Client] = filepath.ToSlash(l.Path)
			}
			if l.Scope != "user" {
				t.Errorf("%s: %s without a project: scope %s", tt.os, l.Path, l.Scope)
			}
		}
		if paths["Claude Desktop"] != filepath.ToSlash(tt.desktop) || paths["VS Code"] != filepath.ToSlash(tt.vscode) || paths["Codex"] != "/codex/config.toml" {
			t.Errorf("%s: %v", tt.os, paths)
		}
	}
}

// A project that is the home folder: each file is read once.
func TestDiscoverProjectIsHome(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".cursor/mcp.json"), `{"mcpServers": {"c": {"command": "c"}}}`)
	write(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {"u": {"command": "u"}}, "projects": {"`+home+`": {"mcpServers": {"l": {"command": "l"}}}}}`)
	got := found(Discover(Places{Home: home, Project: home, OS: "linux"}), home)
	want := []string{
		"Claude Code (user) ~/.claude.json", `  u stdio ["u"] []`,
		"Cursor (user) ~/.cursor/mcp.json", `  c stdio ["c"] []`,
		"Claude Code (local) ~/.claude.json", `  l stdio ["l"] []`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseCodexErrors(t *testing.T) {
	_, err := parseCodex("/c/config.toml", []byte("[mcp_servers.a]\ncommand = \"x\"\nargs = [\n"), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "/c/config.toml:") || !strings.Contains(err.Error(), "not a TOML Codex configuration") {
		t.Errorf("unterminated array: %v", err)
	}
	servers, err := parseCodex("/c/config.toml", []byte("[mcp_servers.a]\ncommand = \"x\"\nargs = \"not a list\"\n[mcp_servers.b]\nurl = \"http://127.0.0.1:1/mcp\"\nbearer_token_env_var = \"UNSET\"\n[mcp_servers.c]\ncommand = \"ok\"\ncwd = \"srv\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []live.ConfiguredServer{{Name: "c", Target: live.Target{Transport: "stdio", Command: []string{"ok"}, Dir: filepath.FromSlash("/c/srv")}}}
	var ok []live.ConfiguredServer
	for _, s := range servers {
		if s.Err == nil {
			ok = append(ok, s)
			continue
		}
		if !strings.HasPrefix(s.Err.Error(), fmt.Sprintf("server %q: ", s.Name)) {
			t.Errorf("%s: %v", s.Name, s.Err)
		}
	}
	if diff := cmp.Diff(want, ok, cmp.Comparer(func(a, b http.Header) bool { return len(a) == 0 && len(b) == 0 })); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(servers) != 3 || servers[1].Err == nil || !strings.Contains(servers[1].Err.Error(), "environment variable UNSET is not set") {
		t.Errorf("servers: %+v", servers)
	}
}

// TestConfigLimits: every client configuration --discover reads is bounded
// before it is parsed: a JSON one nested thousands deep, a Codex TOML one
// nested deep (the TOML parser takes seconds over 24 KB of four thousand
// nested inline tables) or over its size.
func TestConfigLimits(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	write(t, filepath.Join(project, ".cursor/mcp.json"), `{"mcpServers": {"a": {"command": "x", "args": `+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+`}}}`)
	write(t, filepath.Join(home, ".claude.json"), `{"projects": `+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+`}`)
	write(t, filepath.Join(project, ".codex/config.toml"), "[mcp_servers.a]\ncommand = \"x\"\n# [[[[ a comment\nargs = [\"]]]\", '''[[[''']\nenv = "+strings.Repeat("{a = ", 4000)+"1"+strings.Repeat("}", 4000)+"\n")
	write(t, filepath.Join(home, ".codex/config.toml"), "[mcp_servers.a]\ncommand = \"x\"\n"+strings.Repeat("# padding\n", 110000))
	got := found(Discover(Places{Home: home, Project: project, OS: "linux", Getenv: func(string) (string, bool) { return "", false }}), home)
	got = strings.Split(strings.ReplaceAll(strings.Join(got, "\n"), project, "PROJECT"), "\n")
	want := []string{
		"Claude Code (user) ~/.claude.json error: ~/.claude.json:1:1022: not a JSON MCP client configuration: nesting deeper than 1000 levels",
		"Codex (user) ~/.codex/config.toml error: ~/.codex/config.toml: larger than 1 MiB, the limit for a Codex configuration; not read",
		"Claude Code (local) ~/.claude.json error: ~/.claude.json:1:1022: not a JSON Claude Code configuration: nesting deeper than 1000 levels",
		"Codex (project) PROJECT/.codex/config.toml error: PROJECT/.codex/config.toml:5:167: not read: arrays and inline tables nested deeper than 32 levels",
		"Cursor (project) PROJECT/.cursor/mcp.json error: PROJECT/.cursor/mcp.json:1:1053: not a JSON MCP client configuration: nesting deeper than 1000 levels",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestTOMLTooDeep(t *testing.T) {
	brackets := strings.Repeat("[", 40)
	for src, want := range map[string]int{
		"a = \"" + brackets + "\"\n":                       -1,
		"a = '" + brackets + "'\n":                         -1,
		"a = \"\"\"x\n" + brackets + "\\\"\"\"\"\nb = 1\n": -1,
		"a = '''" + brackets + "''''\n":                    -1,
		"# " + brackets + "\n":                             -1,
		"[[t]]\n[a.b]\nx = [[[1]]]\n":                      -1,
		"a = " + brackets:                                  4 + 32,
		"a = \"\\\"\" # \"\nb = " + brackets:               17 + 32,
	} {
		if got := tomlTooDeep([]byte(src), 32); got != want {
			t.Errorf("%q: %d, want %d", src, got, want)
		}
	}
}
