package lint

import (
	"path/filepath"
	"testing"

	"github.com/mcpfit/mcplint/manifest"
)

func TestSuppressionMatches(t *testing.T) {
	r := &Rule{ID: "tool-name-valid", Packs: []string{"mcp"}}
	dir := t.TempDir()
	d := &Diagnostic{Rule: r.ID, Tool: "read_file", File: filepath.Join(dir, "servers", "fs.json")}
	for _, c := range []struct {
		s    Suppression
		want bool
	}{
		{Suppression{}, true},
		{Suppression{Rule: "tool-name-valid"}, true},
		{Suppression{Rule: "mcp"}, true},
		{Suppression{Rule: "other"}, false},
		{Suppression{Tool: "read_*"}, true},
		{Suppression{Tool: "write_*"}, false},
		{Suppression{File: "fs.json"}, true},
		{Suppression{File: "*.yaml"}, false},
		{Suppression{File: "servers/*.json", Dir: dir}, true},
		{Suppression{File: "other/*.json", Dir: dir}, false},
		{Suppression{Rule: "mcp", Tool: "read_*", File: "*.json"}, true},
		{Suppression{Rule: "mcp", Tool: "x", File: "*.json"}, false},
	} {
		if got := c.s.Matches(r, d); got != c.want {
			t.Errorf("%+v.Matches = %v, want %v", c.s, got, c.want)
		}
	}
	stdin := &Diagnostic{Rule: r.ID, Tool: "t", File: "<stdin>"}
	if (&Suppression{File: "*"}).Matches(r, stdin) {
		t.Error("a file glob matched standard input")
	}
}

func TestSelectRejectsBadSuppression(t *testing.T) {
	all := []*Rule{{ID: "a", Packs: []string{"p"}}}
	if _, err := Select(all, Config{Suppress: []Suppression{{Rule: "nope"}}}); err == nil {
		t.Error("unknown rule in a suppression accepted")
	}
	if _, err := Select(all, Config{Suppress: []Suppression{{Tool: "["}}}); err == nil {
		t.Error("bad glob accepted")
	}
}

func TestLintDropsSuppressed(t *testing.T) {
	m, err := manifest.Load("m.json", []byte(`{"tools":[{"name":"keep","inputSchema":{"type":"object"}},{"name":"drop_me","inputSchema":{"type":"object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := &Rule{ID: "always", Packs: []string{"mcp"}, Severity: Warning, Check: func(p *Pass) { p.Reportf("/name", "found") }}
	l, err := New([]*Rule{r}, Config{Suppress: []Suppression{{Rule: "always", Tool: "drop_*", Reason: "test"}}})
	if err != nil {
		t.Fatal(err)
	}
	diags, err := l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 1 || diags[0].Tool != "keep" {
		t.Fatalf("diagnostics = %+v, want only tool keep's", diags)
	}
}
