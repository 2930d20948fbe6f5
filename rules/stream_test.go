package rules

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// TestLintEachInOrder runs every rule over every case and real-world input
// and checks that the findings LintEach hands over tool by tool, with the
// surface's merged in, come in the order a sort of them all gives, which
// is what Lint returned before it handed anything over early; and that a
// JSON source with findings in several tools is handed over in several
// parts (the point of handing over).
func TestLintEachInOrder(t *testing.T) {
	inputs := corpusInputs(t)
	l, err := lint.New(All, lint.Config{Select: []string{"all"}})
	if err != nil {
		t.Fatal(err)
	}
	// The surface around the tools: findings before and after theirs.
	dir := t.TempDir()
	around := filepath.Join(dir, "around.ndjson")
	if err := os.WriteFile(around, []byte(`{"jsonrpc":"2.0","id":"initialize","result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}
{"jsonrpc":"2.0","id":"tools/list","result":{"tools":[{"name":"a.b","inputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}},{"name":"c d","inputSchema":{}}]}}
{"jsonrpc":"2.0","id":"prompts/list","result":{"prompts":[{"name":"review"},{"name":"review"}]}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs = append(inputs, around)
	// Every fourth input is linted again with one CPU and with three: the
	// list rules' goroutine lints tools too when there is more than one.
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	chunked := 0
	for k, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		m, err := manifest.Load(filepath.Base(in), src)
		if err != nil {
			t.Fatal(err)
		}
		var all []lint.Diagnostic
		parts := 0
		if err := l.LintEach(context.Background(), m, func(ds []lint.Diagnostic) {
			parts++
			all = append(all, ds...)
		}); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		sorted := slices.Clone(all)
		lint.Sort(sorted)
		if diff := cmp.Diff(sorted, all, cmpopts.IgnoreUnexported(lint.Fix{})); diff != "" {
			t.Errorf("%s: findings out of order (-sorted +handed over):\n%s", in, diff)
		}
		tools := map[int]bool{}
		for _, d := range all {
			tools[d.ToolIndex] = true
		}
		if m.Sequential() && len(tools) > 1 {
			if parts < 2 {
				t.Errorf("%s: findings in %d tools handed over at once", in, len(tools))
			}
			chunked++
		}
		if !m.Sequential() && parts > 1 {
			t.Errorf("%s: a %v source handed over in %d parts", in, m.Format, parts)
		}
		for _, n := range []int{1, 3} {
			if k%4 != 0 && in != around {
				break
			}
			runtime.GOMAXPROCS(n)
			var again []lint.Diagnostic
			err := l.LintEach(context.Background(), m, func(ds []lint.Diagnostic) { again = append(again, ds...) })
			runtime.GOMAXPROCS(procs)
			if err != nil {
				t.Fatalf("%s, %d CPUs: %v", in, n, err)
			}
			if diff := cmp.Diff(all, again, cmpopts.IgnoreUnexported(lint.Fix{})); diff != "" {
				t.Errorf("%s: with %d CPUs (-default +then):\n%s", in, n, diff)
			}
		}
	}
	if chunked < 50 {
		t.Errorf("only %d inputs were handed over tool by tool", chunked)
	}
}
