package lint_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/manifest"
)

func load(t *testing.T, src string) *manifest.Manifest {
	t.Helper()
	m, err := manifest.Load("m.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newLinter(t *testing.T, rules []*lint.Rule, cfg lint.Config) *lint.Linter {
	t.Helper()
	if len(cfg.Select) == 0 {
		cfg.Select = []string{"all"}
	}
	l, err := lint.New(rules, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// brief is what a test states about a diagnostic.
type brief struct {
	Rule      string
	Severity  lint.Severity
	Tool      string
	ToolIndex int
	Pointer   string
	Pos       string // file:line:col
	Message   string
}

func briefs(ds []lint.Diagnostic) []brief {
	out := []brief{}
	for _, d := range ds {
		out = append(out, brief{d.Rule, d.Severity, d.Tool, d.ToolIndex, d.Pointer, fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column), d.Message})
	}
	return out
}

var describeType = &lint.Rule{
	ID: "no-type", Packs: []string{"mcp"}, Severity: lint.Warning,
	Options: map[string]any{"want": "object"},
	Check: func(p *lint.Pass) {
		s, ok := p.Value["inputSchema"].(map[string]any)
		if !ok {
			p.Report(lint.Diagnostic{Severity: lint.Error, Message: "no inputSchema"})
			return
		}
		if s["type"] != p.Option("want") {
			p.Reportf("/inputSchema/type", "type is %v, want %v", s["type"], p.Option("want"))
		}
	},
}

var sameName = &lint.Rule{
	ID: "same-name", Packs: []string{"robust"}, Severity: lint.Info,
	CheckList: func(p *lint.ListPass) {
		seen := map[string]bool{}
		for _, t := range p.Manifest.Tools {
			if seen[t.Name] {
				p.Reportf(t, "/name", "%s again (protocol %s, option %v)", t.Name, p.Protocol, p.Option("x"))
			}
			seen[t.Name] = true
		}
	},
}

func TestLintPlacesAndSorts(t *testing.T) {
	src := `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [
  {"name": "a", "inputSchema": {"type": "object"}},
  {"name": "b", "inputSchema": {"type": "array"}},
  {"name": "a"}
]}}
{"jsonrpc": "2.0", "id": 2, "result": {"tools": [
  {"name": "p", "schema": {"type": "string"}}
]}}`
	m := load(t, src)
	l := newLinter(t, []*lint.Rule{describeType, sameName}, lint.Config{Protocol: "2025-06-18"})
	ds, err := l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{
		{"no-type", lint.Warning, "b", 1, "/result/tools/1/inputSchema/type", "m.json:3:33", "type is array, want object"},
		{"no-type", lint.Error, "a", 2, "/result/tools/2", "m.json:4:3", "no inputSchema"},
		{"same-name", lint.Info, "a", 2, "/result/tools/2/name", "m.json:4:4", "a again (protocol 2025-06-18, option <nil>)"},
		{"no-type", lint.Warning, "p", 3, "/result/tools/0/schema/type", "m.json:7:28", "type is string, want object"},
	}
	if diff := cmp.Diff(want, briefs(ds)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestLintConfig(t *testing.T) {
	m := load(t, `[{"name": "a", "inputSchema": {"type": "array"}}, {"name": "a"}]`)
	l := newLinter(t, []*lint.Rule{describeType, sameName}, lint.Config{
		Severity: map[string]lint.Severity{"no-type": lint.Info, "same-name": lint.Error},
		Options:  map[string]map[string]any{"no-type": {"want": "array"}, "same-name": {"x": 1}},
	})
	ds, err := l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	// The override beats the rule's default and the finding's own severity.
	want := []brief{
		{"no-type", lint.Info, "a", 1, "/1", "m.json:1:51", "no inputSchema"},
		{"same-name", lint.Error, "a", 1, "/1/name", "m.json:1:52", "a again (protocol 2026-07-28, option 1)"},
	}
	if diff := cmp.Diff(want, briefs(ds)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	// Only the selected rules run.
	l = newLinter(t, []*lint.Rule{describeType, sameName}, lint.Config{Select: []string{"robust"}})
	ds, err = l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Rule != "same-name" {
		t.Errorf("selecting robust: %v", briefs(ds))
	}
}

// TestLintManyTools checks that the workers report every finding once, in
// a stable order, and share the cache.
func TestLintManyTools(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i := range 500 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name":"t%d","inputSchema":{"type":"%s"}}`, i, []string{"object", "array"}[i%2])
	}
	b.WriteString("]}")
	m := load(t, b.String())
	var computed atomic.Int32
	cached := &lint.Rule{ID: "cached", Packs: []string{"mcp"}, Severity: lint.Info, Check: func(p *lint.Pass) {
		v := p.Cache.Get("cached:k", func() any { computed.Add(1); return 42 })
		if v != 42 {
			p.Reportf("", "cache returned %v", v)
		}
	}}
	l := newLinter(t, []*lint.Rule{describeType, cached}, lint.Config{})
	var first []brief
	for round := range 3 {
		ds, err := l.Lint(m)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != 250 {
			t.Fatalf("%d diagnostics, want 250", len(ds))
		}
		for i, d := range ds {
			if d.ToolIndex != 2*i+1 || d.Line != 2*i+2 {
				t.Fatalf("diagnostic %d is for tool %d at line %d", i, d.ToolIndex, d.Line)
			}
		}
		if round == 0 {
			first = briefs(ds)
		} else if diff := cmp.Diff(first, briefs(ds)); diff != "" {
			t.Fatalf("run %d differs:\n%s", round, diff)
		}
	}
	// Concurrent first uses may compute twice; a linter's later runs reuse it.
	if n := computed.Load(); n < 1 || n > 2 {
		t.Errorf("cache computed %d times", n)
	}
	var nilCache *lint.Cache
	if nilCache.Get("k", func() any { return 1 }) != 1 {
		t.Error("a nil cache does not compute")
	}
}

func TestLintErrors(t *testing.T) {
	deep := strings.Repeat(`{"not":`, manifest.MaxDepth+1) + "{}" + strings.Repeat("}", manifest.MaxDepth+1)
	m := load(t, `[{"name":"ok"},{"name":"deep1","inputSchema":`+deep+`},{"name":"deep2","inputSchema":`+deep+`}]`)
	l := newLinter(t, []*lint.Rule{describeType}, lint.Config{})
	for range 5 {
		_, err := l.Lint(m)
		var e *manifest.Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "m.json:1:7046: nesting deeper than 1000 levels") {
			t.Fatalf("Lint of a tool too deep = %v, want the first deep tool's error", err)
		}
	}

	boom := &lint.Rule{ID: "boom", Packs: []string{"mcp"}, Check: func(p *lint.Pass) {
		if p.Tool.Name == "b" {
			var s map[string]any
			s["x"] = 1 // a rule bug
		}
	}}
	m = load(t, `[{"name":"a"},{"name":"b"}]`)
	_, err := newLinter(t, []*lint.Rule{describeType, boom}, lint.Config{}).Lint(m)
	var pe *lint.PanicError
	if !errors.As(err, &pe) || pe.Rule != "boom" || pe.Tool == nil || pe.Tool.Index != 1 || len(pe.Stack) == 0 {
		t.Fatalf("a panicking rule: %v", err)
	}
	if want := `internal error: rule boom failed on tool 1 ("b") of m.json: assignment to entry in nil map; please report this`; err.Error() != want {
		t.Errorf("error = %q\nwant    %q", err, want)
	}
	boomList := &lint.Rule{ID: "boom-list", Packs: []string{"mcp"}, CheckList: func(p *lint.ListPass) { panic("oops") }}
	_, err = newLinter(t, []*lint.Rule{boomList}, lint.Config{}).Lint(m)
	if err == nil || err.Error() != "internal error: rule boom-list failed on the manifest: oops; please report this" {
		t.Errorf("a panicking list rule: %v", err)
	}
}

func TestLintNoTools(t *testing.T) {
	ds, err := newLinter(t, []*lint.Rule{describeType, sameName}, lint.Config{}).Lint(load(t, `{"tools":[]}`))
	if err != nil || len(ds) != 0 {
		t.Errorf("empty manifest: %v, %v", ds, err)
	}
}

func TestSort(t *testing.T) {
	ds := []lint.Diagnostic{
		{File: "b", Offset: 1, Rule: "x"},
		{File: "a", Offset: 9, Rule: "x"},
		{File: "a", Offset: 2, ToolIndex: 1, Rule: "x"},
		{File: "a", Offset: 2, ToolIndex: 0, Rule: "y"},
		{File: "a", Offset: 2, ToolIndex: 0, Rule: "x", Pointer: "/b"},
		{File: "a", Offset: 2, ToolIndex: 0, Rule: "x", Pointer: "/a", Message: "2"},
		{File: "a", Offset: 2, ToolIndex: 0, Rule: "x", Pointer: "/a", Message: "1"},
	}
	lint.Sort(ds)
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s%d%d%s%s%s", d.File, d.Offset, d.ToolIndex, d.Rule, d.Pointer, d.Message))
	}
	want := []string{"a20x/a1", "a20x/a2", "a20x/b", "a20y", "a21x", "a9" + "0x", "b10x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// Fixes pick forms by the packs that run, so passes must see the selection
// after ignores, for per-tool and list rules alike.
func TestPackEnabled(t *testing.T) {
	var seen []string
	probe := func(enabled func(string) bool) {
		for _, p := range []string{"a", "b", "c"} {
			if enabled(p) {
				seen = append(seen, p)
			}
		}
	}
	rules := []*lint.Rule{
		{ID: "ra", Packs: []string{"a"}, Severity: lint.Warning, Check: func(p *lint.Pass) {
			probe(p.PackEnabled)
			if !p.RuleEnabled("rb") || p.RuleEnabled("rc") {
				t.Errorf("RuleEnabled: rb %v (want true), rc %v (want false)", p.RuleEnabled("rb"), p.RuleEnabled("rc"))
			}
		}},
		{ID: "rb", Packs: []string{"b"}, Severity: lint.Warning, CheckList: func(p *lint.ListPass) { probe(p.PackEnabled) }},
		{ID: "rc", Packs: []string{"c"}, Severity: lint.Warning, Check: func(*lint.Pass) {}},
	}
	l := newLinter(t, rules, lint.Config{Select: []string{"a", "b", "c"}, Ignore: []string{"rc"}})
	if _, err := l.Lint(load(t, `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "b", "a", "b"}, seen); diff != "" {
		t.Errorf("packs seen (-want +got):\n%s", diff)
	}
}

// TestLintContext: a done context stops linting between tools, and the
// error says so; rules know nothing of it.
func TestLintContext(t *testing.T) {
	src := "[" + strings.TrimSuffix(strings.Repeat(`{"name":"t"},`, 200), ",") + "]"
	m := load(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	var linted atomic.Int64
	slow := &lint.Rule{ID: "count", Packs: []string{"mcp"}, Check: func(p *lint.Pass) {
		if linted.Add(1) == 3 {
			cancel()
		}
	}}
	diags, err := newLinter(t, []*lint.Rule{slow}, lint.Config{}).LintContext(ctx, m)
	if !errors.Is(err, context.Canceled) || diags != nil {
		t.Fatalf("LintContext after cancel = %d diagnostics, %v; want context.Canceled", len(diags), err)
	}
	if n := linted.Load(); n >= 200 {
		t.Errorf("every tool was linted (%d) after the context was done", n)
	}
}
