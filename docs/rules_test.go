package docs

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/report"
	"github.com/mcpfit/mcplint/rules"
)

func TestRulesPageIsCurrent(t *testing.T) {
	for name, write := range map[string]func(io.Writer, []*lint.Rule) error{
		"rules.md":     report.WriteRulesMarkdown,
		"consumers.md": report.WriteConsumersMarkdown,
	} {
		var want bytes.Buffer
		if err := write(&want, rules.All); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(want.String(), string(got)); d != "" {
			t.Errorf("docs/%s is stale; run `go generate ./docs` (-want +got):\n%s", name, d)
		}
	}
}

func TestEveryRuleHasItsAnchor(t *testing.T) {
	page, err := os.ReadFile("rules.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules.All {
		// A Markdown heading's anchor is its text, lower-cased, with
		// spaces as hyphens: for a kebab-case ID, the ID itself.
		if !strings.Contains(string(page), "\n## "+r.ID+"\n") {
			t.Errorf("rules.md has no heading (anchor #%s) for rule %s", r.ID, r.ID)
		}
		if r.ID != strings.ToLower(r.ID) || strings.ContainsAny(r.ID, " .") {
			t.Errorf("rule ID %q would not be its own anchor", r.ID)
		}
	}
}
