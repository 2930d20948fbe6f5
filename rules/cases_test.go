package rules

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/schema"
)

var update = flag.Bool("update", false, "rewrite golden files (review the diff like code)")

// caseArgs is a case's optional args.json.
type caseArgs struct {
	// Select defaults to the rule the case directory is named after.
	Select      []string                  `json:"select"`
	Protocol    string                    `json:"protocol"`
	UnsafeFixes bool                      `json:"unsafeFixes"`
	Options     map[string]map[string]any `json:"options"`
	// Uncompilable lists tools (by index) whose schemas are expected not to
	// compile even after fixing, for cases about invalid schemas that no
	// fix can repair.
	Uncompilable []int `json:"uncompilable"`
}

// testCase is one directory under testdata/cases/RULE/CASE.
type testCase struct {
	rule, name, dir, input string
	args                   caseArgs
}

func loadCases(t *testing.T) []testCase {
	t.Helper()
	inputs, err := filepath.Glob("testdata/cases/*/*/input.*")
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no test cases found under testdata/cases")
	}
	var cases []testCase
	for _, in := range inputs {
		dir := filepath.Dir(in)
		c := testCase{rule: filepath.Base(filepath.Dir(dir)), name: filepath.Base(dir), dir: dir, input: in}
		if b, err := os.ReadFile(filepath.Join(dir, "args.json")); err == nil {
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&c.args); err != nil {
				t.Fatalf("%s/args.json: %v", dir, err)
			}
		}
		if len(c.args.Select) == 0 {
			c.args.Select = []string{c.rule}
		}
		cases = append(cases, c)
	}
	return cases
}

func (c testCase) linter(t *testing.T) *lint.Linter {
	t.Helper()
	l, err := lint.New(All, lint.Config{
		Select: c.args.Select, Protocol: c.args.Protocol,
		UnsafeFixes: c.args.UnsafeFixes, Options: c.args.Options,
	})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func formatDiagnostics(ds []lint.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fix := ""
		if d.Fix != nil {
			fix = " [fix:" + d.FixKind().String() + "]"
		}
		fmt.Fprintf(&b, "%d:%d %s %s%s %s: %s\n", d.Line, d.Column, d.Severity, d.Rule, fix, d.Pointer, d.Message)
	}
	return b.String()
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	testenv.Golden(t, path, got, *update)
}

// TestCases runs every case directory: the diagnostics and the fixed output
// must match their golden files, and the fix properties must hold.
func TestCases(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.rule+"/"+c.name, func(t *testing.T) {
			if ByID(c.rule) == nil {
				t.Fatalf("case directory names no rule: %s", c.rule)
			}
			src, err := os.ReadFile(c.input)
			if err != nil {
				t.Fatal(err)
			}
			m, err := manifest.Load(filepath.Base(c.input), src)
			if err != nil {
				t.Fatal(err)
			}
			l := c.linter(t)
			diags, err := l.Lint(m)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join(c.dir, "diagnostics.golden"), formatDiagnostics(diags))
			checkFixKinds(t, diags)
			res, err := l.Fix(m)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join(c.dir, "fixed"+filepath.Ext(c.input)), string(res.Src))
			checkFixProperties(t, c, l, m, res)
		})
	}
}

func checkFixProperties(t *testing.T, c testCase, l *lint.Linter, in *manifest.Manifest, res *lint.FixResult) {
	t.Helper()
	// Fixing twice gives the bytes of fixing once.
	again, err := l.Fix(res.Manifest)
	if err != nil {
		t.Fatalf("fixing the fixed output: %v", err)
	}
	if diff := cmp.Diff(string(res.Src), string(again.Src)); diff != "" {
		t.Errorf("fix is not idempotent (-once +twice):\n%s", diff)
	}
	// After fixing, the same selection finds nothing it could fix.
	for _, d := range res.Remaining {
		if d.Fix != nil && (d.Fix.Safe || c.args.UnsafeFixes) {
			t.Errorf("fixable finding left after fixing: %d:%d %s %s", d.Line, d.Column, d.Rule, d.Message)
		}
	}
	if len(res.Manifest.Tools) != len(in.Tools) {
		t.Fatalf("fix changed the number of tools from %d to %d", len(in.Tools), len(res.Manifest.Tools))
	}
	uncompilable := map[int]bool{}
	for _, i := range c.args.Uncompilable {
		uncompilable[i] = true
	}
	for i, ft := range res.Manifest.Tools {
		before, err := in.Tools[i].Value()
		if err != nil {
			t.Fatal(err)
		}
		after, err := ft.Value()
		if err != nil {
			t.Fatal(err)
		}
		if lint.Equal(before, after) {
			// Untouched tools keep their bytes exactly.
			bs, be, _ := in.Tools[i].Span("")
			as, ae, _ := ft.Span("")
			if !bytes.Equal(in.Src[bs:be], res.Src[as:ae]) {
				t.Errorf("tool %d is unchanged in value but its bytes changed", i)
			}
			continue
		}
		if uncompilable[i] {
			continue
		}
		obj, _ := after.(map[string]any)
		for _, key := range []string{"inputSchema", "outputSchema"} {
			if s, ok := obj[key]; ok {
				if _, err := schema.Compile(s); err != nil {
					t.Errorf("tool %d: fixed %s does not compile: %v", i, key, err)
				}
			}
		}
	}
	// Bytes before the first changed tool are untouched.
	for i := range in.Tools {
		bs, _, _ := in.Tools[i].Span("")
		if !bytes.Equal(in.Src[:bs], res.Src[:bs]) {
			t.Errorf("bytes before tool %d changed", i)
		}
		b, _ := in.Tools[i].Value()
		a, _ := res.Manifest.Tools[i].Value()
		if !lint.Equal(a, b) {
			break
		}
	}
}

// checkFixKinds holds the "Fix:" line of every rule's documentation to
// what its findings carry: a finding of its own, a fix of the rule's
// declared kind; a finding merged from others, a fix the rule offers
// through them (lint.OfferedFix).
func checkFixKinds(t *testing.T, ds []lint.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		r := ByID(d.Rule)
		want := r.Fix
		if len(d.Merged) > 0 {
			want = lint.OfferedFix(r, All)
		}
		if !want.Allows(d.FixKind()) {
			t.Errorf("%s at %s carries a %s fix, but its doc says %q", d.Rule, d.Pointer, d.FixKind(), want)
		}
	}
}
