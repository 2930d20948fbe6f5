package rules

import (
	"runtime"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// The budget that inlining references spends belongs to one input: a
// linter that lints input after input (the proxy, mcplint mcp, a second
// round of fix) gives each its whole budget, whatever address the
// allocator hands the next manifest.
func TestGeminiRefBudgetPerInput(t *testing.T) {
	src := []byte(`{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object",` +
		`"properties":{"a":{"$ref":"#/$defs/s"},"b":{"$ref":"#/$defs/s"}},` +
		`"$defs":{"s":{"type":"string","description":"a string of some length, to spend the budget"}}}}]}`)
	l, err := lint.New(All, lint.Config{Select: []string{"gemini-ref"}})
	if err != nil {
		t.Fatal(err)
	}
	// Room for one input's two expansions, not for a third.
	limits := manifest.Limits{RefExpansion: 700}
	for i := range 50 {
		m, err := limits.Load("tools.json", src)
		if err != nil {
			t.Fatal(err)
		}
		diags, err := l.Lint(m)
		if err != nil {
			t.Fatal(err)
		}
		fixed := 0
		for _, d := range diags {
			if d.Fix != nil {
				fixed++
			}
		}
		if fixed == 0 {
			t.Fatalf("run %d: no fix offered; the findings: %v", i, diags)
		}
		runtime.GC()
	}
}

// And to one run: linting the same manifest again (a library user's second
// look, a rerun with other CPUs) finds what the first run found.
func TestGeminiRefBudgetPerRun(t *testing.T) {
	src := []byte(`{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object",` +
		`"properties":{"a":{"$ref":"#/$defs/s"},"b":{"$ref":"#/$defs/s"}},` +
		`"$defs":{"s":{"type":"string","description":"a string of some length, to spend the budget"}}}}]}`)
	l, err := lint.New(All, lint.Config{Select: []string{"gemini-ref"}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Limits{RefExpansion: 700}.Load("tools.json", src)
	if err != nil {
		t.Fatal(err)
	}
	for run := range 3 {
		diags, err := l.Lint(m)
		if err != nil {
			t.Fatal(err)
		}
		if len(diags) == 0 || diags[0].Fix == nil {
			t.Fatalf("run %d: no fix offered; the findings: %v", run, diags)
		}
	}
}
