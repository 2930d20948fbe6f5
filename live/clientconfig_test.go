package live

import (
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseClientConfig(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "HOME": "/home/u"}
	getenv := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cases := []struct {
		name, path, src string
		want            []ConfiguredServer
		errs            map[string]string
	}{
		{
			name: "Claude Desktop", path: "/cfg/claude_desktop_config.json",
			src: `{"mcpServers": {
				"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "${HOME}/notes"], "env": {"LOG": "${LOG_LEVEL:-info}"}, "cwd": "srv"},
				"remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}
			}}`,
			want: []ConfiguredServer{
				{Name: "fs", Target: Target{Transport: "stdio", Command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/home/u/notes"}, Env: []string{"LOG=info"}, Dir: "/cfg/srv", Expanded: []string{"/home/u"}}},
				{Name: "remote", Target: Target{URL: "https://example.com/mcp", Header: http.Header{"Authorization": {"Bearer t0k"}}, Expanded: []string{"t0k"}}},
			},
		},
		{
			name: ".mcp.json with types", path: "/p/.mcp.json",
			src: `{"mcpServers": {"a": {"type": "sse", "url": "http://127.0.0.1:1/sse"}, "b": {"type": "http", "url": "http://127.0.0.1:1/mcp"}, "c": {"type": "stdio", "command": "srv"}}}`,
			want: []ConfiguredServer{
				{Name: "a", Target: Target{Transport: "sse", URL: "http://127.0.0.1:1/sse"}},
				{Name: "b", Target: Target{Transport: "http", URL: "http://127.0.0.1:1/mcp"}},
				{Name: "c", Target: Target{Transport: "stdio", Command: []string{"srv"}}},
			},
		},
		{
			name: "VS Code, JSONC", path: "/w/.vscode/mcp.json",
			src: `{
				// a comment, "with quotes"
				"inputs": [],
				"servers": {
					"gh": {"type": "http", "url": "https://api.example.com/mcp/", "headers": {"Authorization": "Bearer ${env:TOKEN}"},},
					/* block */ "local": {"type": "stdio", "command": "${workspaceFolder}/bin/server", "args": ["--url=http://x//y"]},
					"prompted": {"type": "http", "url": "https://x.example/mcp", "headers": {"Authorization": "${input:token}"}},
					"unset": {"command": "srv", "env": {"KEY": "${NO_SUCH_VAR}"}},
					"empty": {},
				},
			}`,
			want: []ConfiguredServer{
				{Name: "gh", Target: Target{Transport: "http", URL: "https://api.example.com/mcp/", Header: http.Header{"Authorization": {"Bearer t0k"}}, Expanded: []string{"t0k"}}},
				{Name: "local", Target: Target{Transport: "stdio", Command: []string{"/w/bin/server", "--url=http://x//y"}}},
			},
			errs: map[string]string{
				"empty":    `server "empty": neither "command" nor "url"`,
				"prompted": `server "prompted": environment variable ${input:token} (an input VS Code prompts for) is not set`,
				"unset":    `server "unset": environment variable NO_SUCH_VAR is not set`,
			},
		},
		{
			name: "Windsurf and Gemini CLI URLs", path: "/home/u/.gemini/settings.json",
			src: `{"theme": "x", "mcpServers": {
				"ws": {"serverUrl": "https://ws.example/mcp"},
				"gemini-http": {"httpUrl": "https://g.example/mcp", "headers": {"X-Key": "${TOKEN}"}},
				"gemini-sse": {"url": "https://g.example/sse"}
			}}`,
			want: []ConfiguredServer{
				{Name: "gemini-http", Target: Target{Transport: "http", URL: "https://g.example/mcp", Header: http.Header{"X-Key": {"t0k"}}, Expanded: []string{"t0k"}}},
				{Name: "gemini-sse", Target: Target{URL: "https://g.example/sse"}},
				{Name: "ws", Target: Target{URL: "https://ws.example/mcp"}},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseClientConfig(filepath.FromSlash(c.path), []byte(c.src), getenv)
			if err != nil {
				t.Fatal(err)
			}
			var ok []ConfiguredServer
			for _, s := range got {
				if s.Err != nil {
					if want := c.errs[s.Name]; s.Err.Error() != want {
						t.Errorf("%s: error %q, want %q", s.Name, s.Err, want)
					}
					continue
				}
				ok = append(ok, s)
			}
			if diff := cmp.Diff(c.want, ok); diff != "" {
				t.Errorf("servers (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := ParseClientConfig("x.json", []byte(`{"other": {}}`), getenv); !errors.Is(err, ErrNoServers) || !strings.Contains(err.Error(), `x.json: no "mcpServers"`) {
		t.Errorf("no server map: %v", err)
	}
}

// TestClientConfigLimits: a client configuration is read under a
// manifest's limits: one nested thousands deep ends with one error at its
// place.
func TestClientConfigLimits(t *testing.T) {
	src := `{"mcpServers": {"a": {"command": "x", "args": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}}`
	_, err := ParseClientConfig("mcp.json", []byte(src), nil)
	if err == nil || err.Error() != "mcp.json:1:1053: not a JSON MCP client configuration: nesting deeper than 1000 levels" {
		t.Errorf("deep: %v", err)
	}
}
