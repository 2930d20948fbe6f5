package rules

import (
	"slices"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/internal/linttest"
	"github.com/mcpfit/mcplint/lint"
)

// TestViolationsShared: the violations violationsOf finds are kept for
// every rule that asks for the same lines of the same tool, so a rule that
// filters them (the Gemini rules drop what is below a subschema Gemini
// drops) must leave the shared slice as it found it.
func TestViolationsShared(t *testing.T) {
	var before, after []violation
	var filtered int
	probe := &lint.Rule{
		ID: "probe", Packs: []string{"probe"}, Severity: lint.Info, Harm: lint.Notes, Summary: "probe", Fix: lint.NoFix,
		Check: func(p *lint.Pass) {
			before = slices.Clone(violationsOf(p, consumer.GeminiParameters, "unlisted"))
			filtered = len(geminiViolations(p, "unlisted"))
			after = violationsOf(p, consumer.GeminiParameters, "unlisted")
		},
	}
	src := `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{` +
		`"a":{"type":"object","additionalProperties":{"type":"array","minContains":1}},` +
		`"b":{"type":"number","exclusiveMinimum":1}}}}]}`
	linttest.Source(t, []*lint.Rule{probe}, lint.Config{Select: []string{"probe"}}, "tools.json", []byte(src))
	if filtered == 0 || filtered >= len(before) {
		t.Fatalf("%d violations, %d kept by geminiViolations: the case must drop some and keep some", len(before), filtered)
	}
	if !slices.Equal(before, after) {
		t.Errorf("geminiViolations changed the shared violations:\nbefore %v\nafter  %v", before, after)
	}
}
