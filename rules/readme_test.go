package rules

import (
	"fmt"
	"github.com/mcplint/mcplint/consumer"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ruleTable renders the catalogue as the README's Markdown table.
func ruleTable() string {
	var b strings.Builder
	b.WriteString("| Rule | Packs | Severity | Fix | What it demands |\n|---|---|---|---|---|\n")
	for _, r := range All {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", r.ID, strings.Join(r.Packs, ", "), r.Severity, r.Fix, strings.ReplaceAll(r.Summary, "|", `\|`))
	}
	return b.String()
}

const (
	tableStart = "<!-- rules:start (generated from the catalogue: go test ./rules -run TestReadmeRuleTable -update) -->\n"
	tableEnd   = "<!-- rules:end -->"
)

// TestReadmeRuleTable keeps the README's rule table in step with the
// catalogue.
func TestReadmeRuleTable(t *testing.T) {
	path := filepath.Join("..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, tableStart), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the rule table markers %q ... %q", strings.TrimSpace(tableStart), tableEnd)
	}
	want := s[:i+len(tableStart)] + ruleTable() + s[j:]
	if want == s {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the README's rule table is stale; run go test ./rules -run TestReadmeRuleTable -update and review it")
}

// TestConsumersDeclared: every consumer a rule names is in the matrix, with
// a source for the refusal.
func TestConsumersDeclared(t *testing.T) {
	for _, r := range All {
		for _, f := range r.Consumers {
			if consumer.ByID(f.Consumer) == nil {
				t.Errorf("%s names unknown consumer %q", r.ID, f.Consumer)
			}
			if f.Source == "" {
				t.Errorf("%s: the refusal by %s has no source", r.ID, f.Consumer)
			}
		}
	}
}
