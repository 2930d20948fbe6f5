package rules_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

// FuzzFix lints any manifest with every rule and fixes it with unsafe fixes
// on: no rule may panic, no fix may be refused by Apply or break the
// manifest, and fixing the output again must leave it as it is.
//
// The seeds are the inputs of the rule cases.
func FuzzFix(f *testing.F) {
	inputs, err := filepath.Glob("testdata/cases/*/*/input.*")
	if err != nil || len(inputs) == 0 {
		f.Fatalf("no case inputs to seed from (%v)", err)
	}
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, filepath.Ext(in) == ".yaml")
	}
	l, err := lint.New(rules.All, lint.Config{Select: []string{"all"}, UnsafeFixes: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte, yaml bool) {
		name := "fuzz.json"
		if yaml {
			name = "fuzz.yaml"
		}
		m, err := manifest.Load(name, src)
		if err != nil {
			return
		}
		res, err := l.Fix(m)
		if err != nil {
			failUnlessInputError(t, "fix", err, src)
			return
		}
		if len(res.Manifest.Tools) != len(m.Tools) {
			t.Fatalf("fixing changed the number of tools from %d to %d\n%q", len(m.Tools), len(res.Manifest.Tools), src)
		}
		again, err := l.Fix(res.Manifest)
		if err != nil {
			t.Fatalf("fixing the output: %v\ninput:  %q\noutput: %q", err, src, res.Src)
		}
		if string(again.Src) != string(res.Src) {
			t.Fatalf("fixing is not idempotent (%d fixes applied the first time, %d the second)\ninput:  %q\nonce:   %q\ntwice:  %q",
				res.Applied, again.Applied, src, res.Src, again.Src)
		}
	})
}

// failUnlessInputError accepts the errors a bad input may cause (a tool too
// deep to decode) and fails on the others: a rule that panics, a fix that
// Apply refuses or that breaks the manifest.
func failUnlessInputError(t *testing.T, what string, err error, src []byte) {
	t.Helper()
	var pe *lint.PanicError
	if errors.As(err, &pe) {
		t.Fatalf("%s: %v\n%s\ninput: %q", what, err, pe.Stack, src)
	}
	var me *manifest.Error
	if errors.As(err, &me) && !strings.Contains(err.Error(), "internal error") {
		return
	}
	t.Fatalf("%s: %v\ninput: %q", what, err, src)
}
