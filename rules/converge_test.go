package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Packs for different consumers must not undo each other's fixes: after
// fixing with a selection, linting with the same selection finds nothing that
// selection could fix, and a second fix changes nothing. Every selection of
// the packs whose rules fix something is tried, on top of the default set,
// with and without unsafe fixes, over every case input, the README's example
// and the real-world corpus, since they hold every construct a rule rewrites.
func TestPacksConverge(t *testing.T) {
	type selection struct {
		packs  []string
		unsafe bool
	}
	fixing := []string{"openai", "openai-strict", "claude", "gemini"}
	var selections []selection
	for mask := range 1 << len(fixing) {
		packs := []string{lint.DefaultSelection}
		for i, p := range fixing {
			if mask&(1<<i) != 0 {
				packs = append(packs, p)
			}
		}
		selections = append(selections, selection{packs, false}, selection{packs, true})
	}
	inputs := corpusInputs(t)
	// A selection is run once per set of rules it turns on: rules read
	// only the rules and packs that run (a pack runs when one of its rules
	// does), so two selections of one rule set fix alike. openai-strict
	// holds the openai rules, which makes half the selections repeats.
	seen := map[string]string{}
	for _, sel := range selections {
		name := strings.Join(sel.packs, ",")
		if sel.unsafe {
			name += "+unsafe"
		}
		l, err := lint.New(All, lint.Config{Select: sel.packs, UnsafeFixes: sel.unsafe})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range l.Rules {
			ids = append(ids, r.ID)
		}
		key := fmt.Sprint(sel.unsafe, ids)
		if first, ok := seen[key]; ok {
			t.Logf("%s runs the rules of %s", name, first)
			continue
		}
		seen[key] = name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, path := range inputs {
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				m, err := manifest.Load(filepath.Base(path), src)
				if err != nil {
					t.Fatal(err)
				}
				res, err := l.Fix(m)
				if err != nil {
					t.Errorf("%s: %v", path, err)
					continue
				}
				for _, d := range res.Remaining {
					if d.Fix != nil && (d.Fix.Safe || sel.unsafe) {
						t.Errorf("%s: fixable finding left: %d:%d %s %s: %s", path, d.Line, d.Column, d.Rule, d.Pointer, d.Message)
					}
				}
				again, err := l.Fix(res.Manifest)
				if err != nil {
					t.Errorf("%s: fixing the fixed output: %v", path, err)
					continue
				}
				if string(again.Src) != string(res.Src) {
					t.Errorf("%s: a second fix changed the output", path)
				}
			}
		})
	}
}

// corpusInputs lists every case input, the real-world tool lists and the
// README's example: every construct the rules report on, each of which loads.
func corpusInputs(t *testing.T) []string {
	t.Helper()
	root := testenv.RepoRoot(t)
	inputs, err := filepath.Glob(filepath.Join(root, "rules", "testdata", "cases", "*", "*", "input.*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) < 50 {
		t.Fatalf("only %d case inputs found", len(inputs))
	}
	corpus, err := filepath.Glob(filepath.Join(root, "testdata", "realworld", "*", "tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(corpus) < 40 {
		t.Fatalf("only %d real-world tool lists found", len(corpus))
	}
	inputs = append(inputs, corpus...)
	return append(inputs, filepath.Join(root, "testdata", "example", "manifest.json"))
}
