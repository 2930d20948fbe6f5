package rules

import (
	"runtime"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// The budget that inlining references spends belongs to one run over one
// input. A linter that lints input after input (the proxy, mcplint mcp, a
// second round of fix) gives each its whole budget, whatever address the
// allocator hands the next manifest; linting the same manifest again (a
// library user's second look, a rerun with other CPUs) finds what the
// first run found.
func TestGeminiRefBudgetPerRun(t *testing.T) {
	src := []byte(`{"tools":[{"name":"t","description":"d","inputSchema":{"type":"object",` +
		`"properties":{"a":{"$ref":"#/$defs/s"},"b":{"$ref":"#/$defs/s"}},` +
		`"$defs":{"s":{"type":"string","description":"a string of some length, to spend the budget"}}}}]}`)
	l, err := lint.New(All, lint.Config{Select: []string{"gemini-ref"}})
	if err != nil {
		t.Fatal(err)
	}
	// Room for one input's two expansions, not for a third.
	limits := manifest.Limits{RefExpansion: 700}
	load := func() *manifest.Manifest {
		m, err := limits.Load("tools.json", src)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	fixOffered := func(name string, run int, m *manifest.Manifest) {
		diags, err := l.Lint(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range diags {
			if d.Fix != nil {
				return
			}
		}
		t.Fatalf("%s, run %d: no fix offered; the findings: %v", name, run, diags)
	}
	for run := range 50 {
		fixOffered("a new input each run", run, load())
		runtime.GC()
	}
	m := load()
	for run := range 3 {
		fixOffered("one input", run, m)
	}
}
