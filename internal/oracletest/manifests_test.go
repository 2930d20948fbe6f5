package oracletest

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/rules"
)

// subject is one manifest the oracles judge: a committed fixed.json (or
// .yaml) of a rule case, or what Fix makes of an input.
type subject struct {
	name string // repository-relative file, with the selection fixed for
	m    *manifest.Manifest
	// packs are the packs fixed for, beyond the default ones: a finding of
	// theirs counts as mcplint reporting a problem.
	packs []string
}

// caseFiles returns the repository-relative paths matching pattern under
// rules/testdata/cases, sorted; none is an error, since a typo in the
// pattern must not make a test vacuous.
func caseFiles(t *testing.T, pattern string) []string {
	t.Helper()
	root := testenv.RepoRoot(t)
	paths, err := filepath.Glob(filepath.Join(root, "rules", "testdata", "cases", "*", "*", pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no rules/testdata/cases/*/*/%s found", pattern)
	}
	for i, p := range paths {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		paths[i] = filepath.ToSlash(rel)
	}
	sort.Strings(paths)
	return paths
}

func readManifest(t *testing.T, rel string) *manifest.Manifest {
	t.Helper()
	m, err := manifest.ReadFile(filepath.Join(testenv.RepoRoot(t), filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("load %s: %v", rel, err)
	}
	return m
}

// fixedCases are the committed goldens of every rule case.
func fixedCases(t *testing.T) []subject {
	t.Helper()
	var out []subject
	for _, rel := range caseFiles(t, "fixed.*") {
		out = append(out, subject{name: rel, m: readManifest(t, rel)})
	}
	return out
}

// fixInputs are the manifests fixes are tried on: the example, every case
// input, whatever rule the case was written for, and every tool list of
// the real-world corpus.
func fixInputs(t *testing.T) []string {
	t.Helper()
	root := testenv.RepoRoot(t)
	corpus, err := filepath.Glob(filepath.Join(root, "testdata", "realworld", "*", "tools.json"))
	if err != nil || len(corpus) == 0 {
		t.Fatalf("no testdata/realworld/*/tools.json found (%v)", err)
	}
	out := append([]string{"testdata/example/manifest.json"}, caseFiles(t, "input.*")...)
	for _, p := range corpus {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

var (
	fixMu    sync.Mutex
	fixCache = map[string][]subject{}
)

// fixed returns Fix's output, with unsafe fixes, for the selection, of every
// fix input. The result is computed once per selection and shared by the
// tests that judge it.
func fixed(t *testing.T, selection ...string) []subject {
	t.Helper()
	key := fmt.Sprint(selection)
	fixMu.Lock()
	defer fixMu.Unlock()
	if s, ok := fixCache[key]; ok {
		return s
	}
	l, err := lint.New(rules.All, lint.Config{Select: selection, UnsafeFixes: true})
	if err != nil {
		t.Fatalf("selection %v: %v", selection, err)
	}
	var out []subject
	for _, rel := range fixInputs(t) {
		res, err := l.Fix(readManifest(t, rel))
		if err != nil {
			t.Fatalf("fix %v %s: %v", selection, rel, err)
		}
		out = append(out, subject{name: fmt.Sprintf("fix --select %v of %s", selection, rel), m: res.Manifest, packs: selection})
	}
	fixCache[key] = out
	return out
}

// toolValues decodes every tool of m, the plugin contract's "schema"
// already presented as "inputSchema".
func toolValues(t *testing.T, s subject) []any {
	t.Helper()
	vals := make([]any, len(s.m.Tools))
	for i, tool := range s.m.Tools {
		v, err := tool.Value()
		if err != nil {
			t.Fatalf("%s: tool %d: %v", s.name, i, err)
		}
		vals[i] = v
	}
	return vals
}

// listResult rebuilds any shape (YAML, array, single tool, JSON-RPC pages)
// as one tools/list result.
func listResult(t *testing.T, s subject) map[string]any {
	t.Helper()
	return map[string]any{"tools": toolValues(t, s)}
}

// toolName names a tool in failure messages.
func toolName(v any, i int) string {
	if obj, ok := v.(map[string]any); ok {
		if n, ok := obj["name"].(string); ok {
			return fmt.Sprintf("tool %d %q", i, n)
		}
	}
	return fmt.Sprintf("tool %d", i)
}

// runNode runs one oracle script over a batch and decodes its answer.
func runNode(t *testing.T, script string, in, out any) {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	res := testenv.Node(t, script, b)
	if err := json.Unmarshal(res, out); err != nil {
		t.Fatalf("%s answered %q: %v", script, truncate(string(res), 500), err)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// allowance excuses one known disagreement between an oracle and mcplint,
// with its reason; remove it once they agree.
type allowance struct {
	manifest string   // substring of the subject's name
	tool     string   // as toolName prints it
	what     []string // the protocol versions, or the members, concerned
	reason   string
	used     int // disagreements excused, for TestMain
}

func allowed(list []allowance, subject, tool, what string) bool {
	for i := range list {
		a := &list[i]
		if strings.Contains(subject, a.manifest) && tool == a.tool && slices.Contains(a.what, what) && a.reason != "" {
			a.used++
			return true
		}
	}
	return false
}
