package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/mcpfit/mcplint/internal/linttest"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

const corpusDir = "testdata/security-corpus"

// lintCorpusFile reads the corpus file at path and lints it with the
// security pack.
func lintCorpusFile(t *testing.T, path string) (*manifest.Manifest, []lint.Diagnostic) {
	t.Helper()
	m, err := manifest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return m, linttest.Lint(t, All, lint.Config{Select: []string{SecurityPack}}, m)
}

// TestSecurityCorpusReference runs the security pack over the tool lists of
// the reference servers: honest servers, so no error may be found there.
// Warnings are counted and logged (the false-positive count).
func TestSecurityCorpusReference(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpusDir, "reference", "*.json"))
	if err != nil || len(files) < 4 {
		t.Fatalf("reference tool lists missing under %s/reference (%v)", corpusDir, err)
	}
	tools, findings := 0, 0
	for _, f := range files {
		m, ds := lintCorpusFile(t, f)
		tools += len(m.Tools)
		for _, d := range ds {
			findings++
			t.Logf("%s:%d:%d: %s %s: %s", filepath.Base(f), d.Line, d.Column, d.Severity, d.Rule, d.Message)
			if d.Severity == lint.Error {
				t.Errorf("false positive of error severity on a reference server: %s %s at %s", d.Rule, filepath.Base(f), d.Pointer)
			}
		}
	}
	t.Logf("reference servers: %d lists, %d tools, %d findings (false positives)", len(files), tools, findings)
	if findings > 0 {
		t.Errorf("the reference servers are clean; %d findings are false positives", findings)
	}
}

// TestSecurityCorpusAttacks runs the security pack over crafted attacks:
// every attacking tool must be caught by every rule expected.json names.
func TestSecurityCorpusAttacks(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(corpusDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var expected map[string]map[string][]string
	if err := json.Unmarshal(b, &expected); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(corpusDir, "attacks", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(expected) {
		t.Errorf("%d attack files but %d entries in expected.json", len(files), len(expected))
	}
	attacks, detected, wantRules, gotRules := 0, 0, 0, 0
	for _, f := range files {
		name := filepath.Base(f)
		want, ok := expected[name]
		if !ok {
			t.Errorf("%s: not in expected.json", name)
			continue
		}
		found := map[string]map[string]bool{}
		_, ds := lintCorpusFile(t, f)
		for _, d := range ds {
			if found[d.Tool] == nil {
				found[d.Tool] = map[string]bool{}
			}
			found[d.Tool][d.Rule] = true
		}
		tools := make([]string, 0, len(want))
		for tool := range want {
			tools = append(tools, tool)
		}
		sort.Strings(tools)
		for _, tool := range tools {
			attacks++
			if len(found[tool]) > 0 {
				detected++
			}
			for _, rule := range want[tool] {
				wantRules++
				if found[tool][rule] {
					gotRules++
				} else {
					t.Errorf("%s: tool %q not flagged by %s (flagged by %v)", name, tool, rule, found[tool])
				}
			}
		}
	}
	t.Logf("crafted attacks: %d attacking tools, %d detected; %d of %d expected rule findings", attacks, detected, gotRules, wantRules)
	if detected != attacks {
		t.Errorf("%d of %d attacks went undetected", attacks-detected, attacks)
	}
}
