package live

import (
	"strings"
	"testing"
)

// TestClientConfigErrorsHavePositions checks that a client configuration
// that does not parse, or an entry of the wrong type, is reported at its
// line and column, comments included in the count.
func TestClientConfigErrorsHavePositions(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	_, err := ParseClientConfig(".mcp.json", []byte("{\n  \"mcpServers\": {\n    \"a\": {\"command\": }\n  }\n}\n"), none)
	if err == nil || err.Error() != `.mcp.json:3:22: not a JSON MCP client configuration: invalid character '}' looking for beginning of value; correct the file there` {
		t.Errorf("syntax error: %v", err)
	}
	src := "// VS Code\n{\n  \"servers\": {\n    \"ok\": {\"command\": \"x\"},\n    \"bad\": {\"command\": \"y\", \"args\": [\"--a\", 1]}\n  }\n}\n"
	servers, err := ParseClientConfig("mcp.json", []byte(src), none)
	if err != nil {
		t.Fatal(err)
	}
	if len(servers) != 2 || servers[1].Err != nil {
		t.Fatalf("servers: %+v", servers)
	}
	if got := servers[0].Err; got == nil || !strings.HasPrefix(got.Error(), `mcp.json:5:45: server "bad": "args" is a number, not a string; `) {
		t.Errorf("entry error: %v", got)
	}
}
