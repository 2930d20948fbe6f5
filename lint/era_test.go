package lint

import (
	"testing"

	"github.com/mcpfit/mcplint/manifest"
)

func TestEraVersions(t *testing.T) {
	for _, c := range []struct {
		name, src      string
		oldest, newest string
		ok             bool
	}{
		{"plain list", `{"tools":[]}`, "", "", false},
		{"initialize", `{"jsonrpc":"2.0","id":"initialize","result":{"protocolVersion":"2025-06-18","capabilities":{}}}`, InUse[0], "2025-06-18", true},
		{"unknown version", `{"jsonrpc":"2.0","id":"initialize","result":{"protocolVersion":"2099-01-01","capabilities":{}}}`, "", "", false},
		{"discover", `{"jsonrpc":"2.0","id":"server/discover","result":{"supportedVersions":["2025-11-25","2026-07-28"],"capabilities":{}}}`, "2026-07-28", "2026-07-28", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := manifest.Load("x", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			o, n, ok := EraVersions(m)
			if o != c.oldest || n != c.newest || ok != c.ok {
				t.Errorf("EraVersions = %q, %q, %v; want %q, %q, %v", o, n, ok, c.oldest, c.newest, c.ok)
			}
		})
	}
}

// TestEraOfSource: a rule sees the versions of the era the source was
// listed in, unless the configuration fixes one.
func TestEraOfSource(t *testing.T) {
	var seen string
	r := &Rule{ID: "era-probe", Packs: []string{"mcp"}, Severity: Info, Summary: "probe", Doc: "probe",
		Check: func(p *Pass) { seen = p.Versions(false, "9999-01-01") }}
	src := `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}
{"jsonrpc":"2.0","id":"initialize","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}}}}
`
	m, err := manifest.Load("x", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for cfg, want := range map[string]string{"": InUse[0] + " to 2025-11-25", "2026-07-28": "2026-07-28"} {
		l, err := New([]*Rule{r}, Config{Protocol: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Lint(m); err != nil {
			t.Fatal(err)
		}
		if seen != want {
			t.Errorf("protocol %q: checked %q, want %q", cfg, seen, want)
		}
	}
}
