package lint_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// promptDescriptions reports every prompt without a description.
var promptDescriptions = &lint.Rule{
	ID: "prompt-described", Packs: []string{"mcp"}, Severity: lint.Warning,
	CheckSurface: func(p *lint.SurfacePass) {
		for _, e := range p.Entries() {
			v, _ := e.Value()
			if _, ok := v.(map[string]any)["description"]; !ok && e.Kind == manifest.KindPrompt {
				p.Reportf(e, "/name", "%s has no description", e.Describe())
			}
		}
	},
}

const surfaceSrc = `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}
{"jsonrpc":"2.0","id":2,"result":{"prompts":[{"name":"a"},{"name":"b","description":"B"},{"name":"c"}]}}
`

func TestCheckSurface(t *testing.T) {
	m, err := manifest.Load("s.ndjson", []byte(surfaceSrc))
	if err != nil {
		t.Fatal(err)
	}
	l := newLinter(t, []*lint.Rule{promptDescriptions}, lint.Config{
		Severity: map[string]lint.Severity{"prompt-described": lint.Error},
		Suppress: []lint.Suppression{{Rule: "prompt-described", File: "other.json"}},
	})
	diags, err := l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{
		{"prompt-described", lint.Error, "", -1, "/result/prompts/0/name", "s.ndjson:2:47", `prompt "a" has no description`},
		{"prompt-described", lint.Error, "", -1, "/result/prompts/2/name", "s.ndjson:2:91", `prompt "c" has no description`},
	}
	if diff := cmp.Diff(want, briefs(diags)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A suppression that matches drops them.
	l = newLinter(t, []*lint.Rule{promptDescriptions}, lint.Config{Suppress: []lint.Suppression{{Rule: "prompt-described"}}})
	if diags, _ := l.Lint(m); len(diags) != 0 {
		t.Errorf("suppressed: %v", briefs(diags))
	}
	// A panicking surface rule is one error, not a crash.
	boom := &lint.Rule{ID: "boom", Packs: []string{"mcp"}, CheckSurface: func(*lint.SurfacePass) { panic("bad") }}
	_, err = newLinter(t, []*lint.Rule{boom}, lint.Config{}).Lint(m)
	var pe *lint.PanicError
	if !errors.As(err, &pe) || pe.Rule != "boom" {
		t.Errorf("panic: %v", err)
	}
}
