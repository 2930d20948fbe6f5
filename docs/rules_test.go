package docs

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcplint/mcplint/report"
	"github.com/mcplint/mcplint/rules"
)

func TestRulesPageIsCurrent(t *testing.T) {
	var want bytes.Buffer
	if err := report.WriteRulesMarkdown(&want, rules.All); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("rules.md")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want.String(), string(got)); d != "" {
		t.Errorf("docs/rules.md is stale; run `go generate ./docs` (-want +got):\n%s", d)
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
