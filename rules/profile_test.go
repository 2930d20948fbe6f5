package rules

import (
	"slices"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
)

// TestEveryProfileLineIsReported: what a consumer refuses, by a line of its
// profile, some rule reports (naming the line in its Consumers), and every
// line a rule names exists. Only lines that take keywords, and alterations
// that keep the tool working (a keyword dropped, a name rewritten), may go
// unreported.
func TestEveryProfileLineIsReported(t *testing.T) {
	reported := map[consumer.ID][]string{}
	for _, r := range All {
		for _, f := range r.Consumers {
			if f.Line == "" {
				continue
			}
			if f.ProfileLine() == nil {
				t.Errorf("%s names line %q, which %s's profile lacks", r.ID, f.Line, f.Consumer)
			}
			reported[f.Consumer] = append(reported[f.Consumer], f.Line)
		}
	}
	for _, p := range consumer.Profiles {
		lines := p.Lines
		if p.Unlisted != nil {
			lines = append([]consumer.Line{*p.Unlisted}, lines...)
		}
		for _, l := range lines {
			takes := l.Kind == consumer.Keywords && !l.Refuse && l.ID != "unlisted"
			alters := l.Action == consumer.DropsKeyword || l.Action == consumer.Rewrites
			if !takes && !alters && !slices.Contains(reported[p.Consumer], l.ID) {
				t.Errorf("%s: no rule reports profile line %q (%s)", p.Consumer, l.ID, l.Text)
			}
		}
	}
}
