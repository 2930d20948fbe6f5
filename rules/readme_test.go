package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
)

// readmeBlock checks (or with -update rewrites) the README's text between
// two markers.
func readmeBlock(t *testing.T, start, end, body string) {
	t.Helper()
	path := filepath.Join("..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, start), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the markers %q ... %q", strings.TrimSpace(start), end)
	}
	want := s[:i+len(start)] + body + s[j:]
	if want == s {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("a generated block of the README is stale; run go test ./rules -run TestReadme -update and review it")
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

// consumerTable renders the consumer matrix as the README's table.
func consumerTable() string {
	var b strings.Builder
	b.WriteString("| Consumer | Mode | Default | What it refuses (rules) | Source |\n|---|---|---|---|---|\n")
	for _, c := range consumer.All {
		var ids []string
		for _, r := range All {
			for _, f := range r.Consumers {
				if f.Consumer == c.ID {
					ids = append(ids, "`"+r.ID+"`")
					break
				}
			}
		}
		def := "on"
		if !c.Default {
			def = "opt-in"
		}
		fmt.Fprintf(&b, "| %s (`%s`) | %s | %s | %s | %s |\n", c.Name, c.ID, strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(c.Mode), def, strings.Join(ids, ", "), c.Source)
	}
	return b.String()
}

// TestReadmeConsumerTable keeps the README's consumer table in step with
// the matrix.
func TestReadmeConsumerTable(t *testing.T) {
	readmeBlock(t, "<!-- consumers:start (generated from the matrix: go test ./rules -run TestReadmeConsumerTable -update) -->\n", "<!-- consumers:end -->", consumerTable())
}

// TestReadmeDefaults keeps the README's statement of the default selection
// in step with the catalogue.
func TestReadmeDefaults(t *testing.T) {
	readmeBlock(t, "<!-- defaults:start (generated from the catalogue: go test ./rules -run TestReadmeDefaults -update) -->", "<!-- defaults:end -->", lint.DefaultDescription(All))
}
