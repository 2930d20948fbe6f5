package lint_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/schema"
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
	Options: map[string]any{"x": nil},
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
	// A JSON tool nested too deep is refused when loaded; a YAML alias can
	// still make a tool too deep to decode, which only decoding finds.
	m, err := manifest.Limits{Depth: 4}.Load("m.yaml", []byte(`tools:
  - name: ok
    x: &d1 {a: {a: {a: 1}}}
    y: &d2 {a: {a: {a: 1}}}
  - name: deep1
    inputSchema: {not: {not: *d1}}
  - name: deep2
    inputSchema: {not: {not: *d2}}
`))
	if err != nil {
		t.Fatal(err)
	}
	l := newLinter(t, []*lint.Rule{describeType}, lint.Config{})
	for range 5 {
		_, err := l.Lint(m)
		var e *manifest.Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "m.yaml:3:20: nesting deeper than 4 levels") {
			t.Fatalf("Lint of a tool too deep = %v, want the first deep tool's error", err)
		}
		if err := l.LintEach(context.Background(), m, func([]lint.Diagnostic) { t.Error("a failed run handed findings over") }); err == nil {
			t.Fatal("LintEach of a tool too deep succeeded")
		}
	}

	boom := &lint.Rule{ID: "boom", Packs: []string{"mcp"}, Check: func(p *lint.Pass) {
		if p.Tool.Name == "b" {
			var s map[string]any
			s["x"] = 1 // a rule bug
		}
	}}
	m = load(t, `[{"name":"a"},{"name":"b"}]`)
	_, err = newLinter(t, []*lint.Rule{describeType, boom}, lint.Config{}).Lint(m)
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

// A rule that gives way to another asks whether it runs: the answer is
// the selection after ignores.
func TestRunsAfterIgnores(t *testing.T) {
	rb := &lint.Rule{ID: "rb", Packs: []string{"b"}, Severity: lint.Warning, CheckList: func(*lint.ListPass) {}}
	rc := &lint.Rule{ID: "rc", Packs: []string{"c"}, Severity: lint.Warning, Check: func(*lint.Pass) {}}
	ran := false
	rules := []*lint.Rule{
		{ID: "ra", Packs: []string{"a"}, Severity: lint.Warning, Defers: []*lint.Rule{rb, rc}, Check: func(p *lint.Pass) {
			ran = true
			if !p.Runs(rb) || p.Runs(rc) {
				t.Errorf("Runs: rb %v (want true), rc %v (want false)", p.Runs(rb), p.Runs(rc))
			}
		}},
		rb, rc,
	}
	l := newLinter(t, rules, lint.Config{Select: []string{"a", "b", "c"}, Ignore: []string{"rc"}})
	if _, err := l.Lint(load(t, `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)); err != nil {
		t.Fatal(err)
	}
	if !ran {
		t.Error("rule ra did not run")
	}
}

// TestFixEditsOnDemand checks that a fix given as Build is built only in
// runs that need its edits, once per finding, and then turned into edits
// of the source; without them the fix is still named and rated.
func TestFixEditsOnDemand(t *testing.T) {
	var builds atomic.Int32
	closeSchema := &lint.Rule{ID: "close", Packs: []string{"mcp"}, Severity: lint.Warning, Fix: lint.SafeFix,
		Check: func(p *lint.Pass) {
			p.Schema("inputSchema").Walk(func(n *schema.Node) bool {
				if _, ok := n.Value["additionalProperties"]; !ok {
					ptr := n.Pointer()
					p.ReportFix(ptr, &lint.Fix{Message: "close it", Safe: true, Build: func() []manifest.Edit {
						builds.Add(1)
						return []manifest.Edit{{Op: manifest.Add, Pointer: ptr + "/additionalProperties", Value: false}}
					}}, "open object")
				}
				return true
			})
		}}
	src := `{"name":"a","inputSchema":{"type":"object","properties":{"p":{"type":"object","additionalProperties":true}}}}`
	ds, err := newLinter(t, []*lint.Rule{closeSchema}, lint.Config{}).Lint(load(t, src))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Fix == nil || ds[0].Fix.Message != "close it" || ds[0].FixKind() != lint.SafeFix {
		t.Fatalf("without edits: %+v", ds)
	}
	if n := builds.Load(); n != 0 || ds[0].Fix.Edits != nil || ds[0].Fix.TextEdits != nil {
		t.Errorf("a run that shows no edits built the fix %d times: %+v", n, ds[0].Fix)
	}
	m := load(t, src)
	ds, err = newLinter(t, []*lint.Rule{closeSchema}, lint.Config{FixEdits: true}).Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	if n := builds.Load(); n != 1 || len(ds) != 1 || len(ds[0].Fix.TextEdits) != 1 {
		t.Fatalf("with edits: %d builds, %+v", n, ds)
	}
	want := `{"name":"a","inputSchema":{"type":"object","properties":{"p":{"type":"object","additionalProperties":true}},"additionalProperties":false}}`
	if got := string(m.ApplyText(ds[0].Fix.TextEdits)); got != want {
		t.Errorf("the fix's text edits give\n%s\nwant\n%s", got, want)
	}
}

// TestLintEnd checks the end a finding's value is given, and that a
// finding at a missing pointer is placed at its parent with no end.
func TestLintEnd(t *testing.T) {
	at := &lint.Rule{ID: "at", Packs: []string{"mcp"}, Severity: lint.Info, Check: func(p *lint.Pass) {
		p.Reportf("/inputSchema/properties", "here")
		p.Reportf("/inputSchema/missing", "missing")
	}}
	src := "{\"name\": \"a\", \"inputSchema\": {\"properties\": {\n  \"x\": {}\n}}}"
	ds, err := newLinter(t, []*lint.Rule{at}, lint.Config{}).Lint(load(t, src))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 {
		t.Fatalf("%d findings", len(ds))
	}
	here, missing := ds[1], ds[0]
	if here.Message != "here" {
		here, missing = missing, here
	}
	if here.Line != 1 || here.Column != 31 || here.End.Line != 3 || here.End.Column != 2 || src[here.Offset:here.End.Offset] != "\"properties\": {\n  \"x\": {}\n}" {
		t.Errorf("here: %d:%d to %+v", here.Line, here.Column, here.End)
	}
	if missing.Line != 1 || missing.Column != 15 || missing.End != (manifest.Position{}) {
		t.Errorf("missing: %d:%d to %+v", missing.Line, missing.Column, missing.End)
	}
}

// TestPassWalk checks that rules walking a tool's schemas see every
// subschema of inputSchema then outputSchema, with tool-relative pointers,
// each rule on its own (one rule skipping a subtree does not hide it from
// another).
func TestPassWalk(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]string{}
	walker := func(id string, skip string) *lint.Rule {
		return &lint.Rule{ID: id, Packs: []string{"mcp"}, Check: func(p *lint.Pass) {
			p.Walk(func(n *schema.Node) bool {
				mu.Lock()
				seen[id] = append(seen[id], n.Pointer())
				mu.Unlock()
				return n.Keyword != skip
			})
		}}
	}
	src := `{"name":"a","inputSchema":{"properties":{"p":{"items":{}}}},"outputSchema":{"not":{}}}`
	_, err := newLinter(t, []*lint.Rule{walker("all", "-"), walker("shallow", "properties")}, lint.Config{}).Lint(load(t, src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"all":     {"/inputSchema", "/inputSchema/properties/p", "/inputSchema/properties/p/items", "/outputSchema", "/outputSchema/not"},
		"shallow": {"/inputSchema", "/inputSchema/properties/p", "/outputSchema", "/outputSchema/not"},
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("walks (-want +got):\n%s", diff)
	}
}

// TestPassMemo checks that rules asking for the same fact of a tool share
// one computation of it, made anew for each tool.
func TestPassMemo(t *testing.T) {
	var computed atomic.Int32
	var mu sync.Mutex
	got := map[string][]string{}
	asker := func(id string) *lint.Rule {
		return &lint.Rule{ID: id, Packs: []string{"mcp"}, Check: func(p *lint.Pass) {
			v := p.Memo("test/name", func() any {
				computed.Add(1)
				return p.Tool.Name
			}).(string)
			mu.Lock()
			got[id] = append(got[id], v)
			mu.Unlock()
		}}
	}
	src := `[{"name":"a"},{"name":"b"},{"name":"c"}]`
	if _, err := newLinter(t, []*lint.Rule{asker("one"), asker("two")}, lint.Config{}).Lint(load(t, src)); err != nil {
		t.Fatal(err)
	}
	if n := computed.Load(); n != 3 {
		t.Errorf("computed %d times for 3 tools and 2 rules, want 3", n)
	}
	for _, id := range []string{"one", "two"} {
		slices.Sort(got[id])
		if !slices.Equal(got[id], []string{"a", "b", "c"}) {
			t.Errorf("rule %s saw %v", id, got[id])
		}
	}
}

// TestNewChecksOptions checks that a configuration's options are checked
// when the linter is built, for every rule of the catalogue, selected or
// not: name, type and the rule's own check.
func TestNewChecksOptions(t *testing.T) {
	form := &lint.Rule{ID: "form", Packs: []string{"off"}, Options: map[string]any{"form": "a", "limit": 1},
		CheckOption: func(name string, v any) error {
			if name == "form" && v != "a" && v != "b" {
				return fmt.Errorf("want %q or %q", "a", "b")
			}
			return nil
		}}
	for _, c := range []struct {
		opts map[string]map[string]any
		want string
	}{
		{map[string]map[string]any{"form": {"form": "c"}}, `option form.form: want "a" or "b"`},
		{map[string]map[string]any{"form": {"limit": "many"}}, `option form.limit: option form.limit takes a value like its default 1, not "many"`},
		{map[string]map[string]any{"form": {"size": 1}}, `option form.size: rule form has no option "size" (options: form, limit)`},
		{map[string]map[string]any{"nope": {"x": 1}}, "option for an unknown rule \"nope\" (`mcplint rules` lists the rules)"},
	} {
		_, err := lint.New([]*lint.Rule{form, describeType}, lint.Config{Options: c.opts})
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %s", c.opts, err, c.want)
		}
	}
	l, err := lint.New([]*lint.Rule{form}, lint.Config{Options: map[string]map[string]any{"form": {"form": "b", "limit": 2.0}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Config.Options["form"]["limit"]; got != 2 {
		t.Errorf("limit given as 2.0 reads %#v, want the int 2", got)
	}
}

// TestRunsNeedsDefers checks that a rule asking whether a rule it has not
// declared in Defers runs is a bug, reported as one.
func TestRunsNeedsDefers(t *testing.T) {
	other := &lint.Rule{ID: "other", Packs: []string{"mcp"}, Check: func(*lint.Pass) {}}
	asker := &lint.Rule{ID: "asker", Packs: []string{"mcp"}, Check: func(p *lint.Pass) { p.Runs(other) }}
	_, err := newLinter(t, []*lint.Rule{asker, other}, lint.Config{}).Lint(load(t, `{"name":"t"}`))
	var pe *lint.PanicError
	if !errors.As(err, &pe) || pe.Rule != "asker" || !strings.Contains(fmt.Sprint(pe.Value), "without declaring it in Defers") {
		t.Errorf("undeclared Runs: %v", err)
	}
}

// TestAdd checks that findings made outside Lint (live rules') get what
// Lint's own get: suppressions, severity overrides and consumers, and
// their place in the order; those of rules not run are dropped.
func TestAdd(t *testing.T) {
	live := &lint.Rule{ID: "live", Packs: []string{"mcp"}, Severity: lint.Warning,
		Consumers: []consumer.Refusal{{Consumer: consumer.VSCode, Source: "s"}}}
	quiet := &lint.Rule{ID: "quiet", Packs: []string{"mcp"}, Severity: lint.Warning}
	off := &lint.Rule{ID: "off", Packs: []string{"other"}, Severity: lint.Warning}
	l := newLinter(t, []*lint.Rule{live, quiet, off}, lint.Config{
		Select:   []string{"mcp"},
		Severity: map[string]lint.Severity{"live": lint.Error},
		Suppress: []lint.Suppression{{Rule: "quiet", Reason: "accepted"}},
	})
	ds := []lint.Diagnostic{{Rule: "x", File: "m.json", Offset: 10}}
	ds = l.Add(ds,
		lint.Diagnostic{Rule: "live", File: "m.json", Offset: 5, ToolIndex: -1, Message: "stdout"},
		lint.Diagnostic{Rule: "quiet", File: "m.json", Offset: 1, ToolIndex: -1},
		lint.Diagnostic{Rule: "off", File: "m.json", Offset: 2, ToolIndex: -1},
	)
	if len(ds) != 2 || ds[0].Rule != "live" || ds[1].Rule != "x" {
		t.Fatalf("Add kept %v", briefs(ds))
	}
	if ds[0].Severity != lint.Error || len(ds[0].Consumers) != 1 {
		t.Errorf("the live finding: severity %v, consumers %v", ds[0].Severity, ds[0].Consumers)
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

// dottedTools is a manifest of n tools named t.0, t.1, ...
func dottedTools(n int) string {
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"t.%d","inputSchema":{"type":"object"}}`, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// The list rules run beside the tools' rules. A tool linted before the
// list rules are done gets their findings afterwards, placed, merged and
// sorted as if they had been there first: the same findings whichever
// finishes first.
func TestListRulesBesideTools(t *testing.T) {
	const n = 40
	src := dottedTools(n)
	run := func(listFirst bool) []lint.Diagnostic {
		var linted atomic.Int32
		toolsDone, listDone := make(chan struct{}), make(chan struct{})
		list := &lint.Rule{ID: "names", Subject: "name", Severity: lint.Warning, CheckList: func(p *lint.ListPass) {
			if !listFirst {
				<-toolsDone // every tool is linted before the list rule reports
			}
			for _, tl := range p.Manifest.Tools {
				p.Report(tl, lint.Diagnostic{RelPointer: "/name", Message: "listed " + tl.Name,
					Fix: &lint.Fix{Message: "rename", Safe: true, Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: "/name", Value: "x" + tl.Name}}}})
			}
			if listFirst {
				close(listDone)
			}
		}}
		tool := &lint.Rule{ID: "tool", Subject: "name", Severity: lint.Error, Check: func(p *lint.Pass) {
			if listFirst {
				<-listDone
			}
			p.Reportf("/name", "own %s", p.Tool.Name)
			p.Reportf("/inputSchema", "schema of %s", p.Tool.Name)
			if linted.Add(1) == n && !listFirst {
				close(toolsDone)
			}
		}}
		ds, err := newLinter(t, []*lint.Rule{list, tool}, lint.Config{FixEdits: true}).Lint(load(t, src))
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	pending, ready := run(false), run(true)
	if len(pending) != 2*n {
		t.Fatalf("%d findings, want %d", len(pending), 2*n)
	}
	for i := 0; i < len(pending); i += 2 {
		d := pending[i]
		// The tool rule's error is kept and the list rule's warning merged
		// into it, its fix taken, with edits.
		if d.Rule != "tool" || !slices.Equal(d.Merged, []string{"names"}) || d.Fix == nil || len(d.Fix.TextEdits) != 1 {
			t.Fatalf("finding %d: %s %v %+v", i, d.Rule, d.Merged, d.Fix)
		}
	}
	if diff := cmp.Diff(ready, pending, cmpopts.IgnoreUnexported(lint.Fix{})); diff != "" {
		t.Errorf("list rules done first and last differ (-first +last):\n%s", diff)
	}
}

// A list rule may hand over a function that makes a finding instead of the
// finding (ListPass.ReportFunc): the run makes it when the tool's turn
// comes, once, after the rule has returned, and treats what it makes as a
// reported finding (the configured severity, suppressions, the order of
// reports), whether the tool was linted before the list rules were done or
// after. A panic while making it is a failure of the rule on that tool.
func TestListReportFunc(t *testing.T) {
	const n = 40
	src := dottedTools(n)
	finding := func(tl *manifest.Tool, k int) lint.Diagnostic {
		d := lint.Diagnostic{RelPointer: "/name", Message: fmt.Sprintf("report %d of %s", k, tl.Name)}
		if k == 1 {
			d.Severity = lint.Error
			d.Fix = &lint.Fix{Message: "rename", Safe: true, Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: "/name", Value: "x" + tl.Name}}}
		}
		return d
	}
	cfg := lint.Config{
		FixEdits: true,
		Severity: map[string]lint.Severity{"tool": lint.Info},
		Suppress: []lint.Suppression{{Rule: "names", Tool: "t.3"}},
	}
	run := func(lazy, listFirst bool) ([]lint.Diagnostic, int) {
		var linted, built atomic.Int32
		var returned atomic.Bool
		toolsDone, listDone := make(chan struct{}), make(chan struct{})
		list := &lint.Rule{ID: "names", Severity: lint.Warning, CheckList: func(p *lint.ListPass) {
			if !listFirst {
				<-toolsDone
			}
			for _, tl := range p.Manifest.Tools {
				for k := range 3 {
					if !lazy || k == 2 {
						p.Report(tl, finding(tl, k))
						continue
					}
					p.ReportFunc(tl, func() lint.Diagnostic {
						if !returned.Load() {
							t.Errorf("%s: a finding made before the rule returned", tl.Name)
						}
						built.Add(1)
						return finding(tl, k)
					})
				}
			}
			returned.Store(true)
			if listFirst {
				close(listDone)
			}
		}}
		tool := &lint.Rule{ID: "tool", Severity: lint.Warning, Check: func(p *lint.Pass) {
			if listFirst {
				<-listDone
			}
			p.Reportf("/inputSchema", "schema of %s", p.Tool.Name)
			if linted.Add(1) == n && !listFirst {
				close(toolsDone)
			}
		}}
		ds, err := newLinter(t, []*lint.Rule{list, tool}, cfg).Lint(load(t, src))
		if err != nil {
			t.Fatal(err)
		}
		return ds, int(built.Load())
	}
	held, _ := run(false, true)
	if len(held) != 4*n-3 {
		t.Fatalf("%d findings, want %d", len(held), 4*n-3)
	}
	wantSeverity := map[string]lint.Severity{"report 0": lint.Warning, "report 1": lint.Error, "report 2": lint.Warning, "schema": lint.Info}
	for _, d := range held {
		kind, _, _ := strings.Cut(d.Message, " of ")
		if d.Severity != wantSeverity[kind] || d.Tool == "t.3" && d.Rule == "names" || d.File != "m.json" || d.Line == 0 {
			t.Fatalf("finding %+v", d)
		}
		if kind == "report 1" && (d.Fix == nil || len(d.Fix.TextEdits) != 1) {
			t.Fatalf("finding %+v: no edits", d)
		}
	}
	for _, listFirst := range []bool{true, false} {
		got, built := run(true, listFirst)
		if built != 2*n {
			t.Errorf("list rules first %v: %d findings made, want one for each function handed over (%d)", listFirst, built, 2*n)
		}
		if diff := cmp.Diff(held, got, cmpopts.IgnoreUnexported(lint.Fix{})); diff != "" {
			t.Errorf("list rules first %v: made and reported findings differ (-reported +made):\n%s", listFirst, diff)
		}
	}

	// Whether the list rule is done before the tool is linted or after.
	for _, listFirst := range []bool{true, false} {
		var linted atomic.Int32
		toolsDone := make(chan struct{})
		boom := &lint.Rule{ID: "boom-func", Packs: []string{"mcp"}, CheckList: func(p *lint.ListPass) {
			if !listFirst {
				<-toolsDone
			}
			for _, tl := range p.Manifest.Tools {
				p.ReportFunc(tl, func() lint.Diagnostic {
					if tl.Name == "t.7" {
						var s map[string]any
						s["x"] = 1 // a rule bug
					}
					return lint.Diagnostic{Message: "fine"}
				})
			}
		}}
		tool := &lint.Rule{ID: "tool", Check: func(p *lint.Pass) {
			if linted.Add(1) == n {
				close(toolsDone)
			}
		}}
		_, err := newLinter(t, []*lint.Rule{boom, tool}, lint.Config{}).Lint(load(t, src))
		var pe *lint.PanicError
		if !errors.As(err, &pe) || pe.Rule != "boom-func" || pe.Tool == nil || pe.Tool.Index != 7 {
			t.Fatalf("list rule first %v: a panic while making a finding: %v", listFirst, err)
		}
	}
}

// A finding may leave its message and fix to be made once the run keeps
// it (Diagnostic.Complete). Tools linted once the list rules are done get
// findings merged first, so only the kept ones are completed (and a merged
// one when the kept one has no fix); the findings are those of the same
// rules made at once. A panic while completing is the rule's failure on
// that tool.
func TestCompleteKept(t *testing.T) {
	// Two workers, so that one is held on tool 0 while the other, the list
	// rules' goroutine, lints the others once the list rules are done.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	const n = 20
	src := dottedTools(n)
	var lintOrFix func(later bool, panicOn string, fix bool) ([]lint.Diagnostic, map[string]int, []byte, error)
	run := func(later bool, panicOn string) ([]lint.Diagnostic, map[string]int, error) {
		ds, made, _, err := lintOrFix(later, panicOn, false)
		return ds, made, err
	}
	lintOrFix = func(later bool, panicOn string, fix bool) ([]lint.Diagnostic, map[string]int, []byte, error) {
		var mu sync.Mutex
		made := map[string]int{}
		others := make(chan struct{})
		var linted atomic.Int32
		finding := func(rule, tool string, fix bool) lint.Diagnostic {
			complete := func() (string, *lint.Fix) {
				mu.Lock()
				made[rule]++
				mu.Unlock()
				if rule == panicOn && tool == "t.5" {
					panic("oops")
				}
				var f *lint.Fix
				if fix {
					f = &lint.Fix{Message: "rename", Safe: true, Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: "/name", Value: rule + tool}}}
				}
				return rule + " on " + tool, f
			}
			if !later {
				msg, f := complete()
				return lint.Diagnostic{RelPointer: "/name", Message: msg, Fix: f}
			}
			return lint.Diagnostic{RelPointer: "/name", Complete: complete}
		}
		list := &lint.Rule{ID: "lname", Subject: "name", Severity: lint.Warning, CheckList: func(p *lint.ListPass) {
			for _, tl := range p.Manifest.Tools {
				p.ReportFunc(tl, func() lint.Diagnostic { return finding("lname", tl.Name, true) })
			}
		}}
		perTool := func(id string, sev lint.Severity, subject string, fix bool) *lint.Rule {
			return &lint.Rule{ID: id, Subject: subject, Severity: sev, Check: func(p *lint.Pass) {
				p.Report(finding(id, p.Tool.Name, fix))
			}}
		}
		hold := &lint.Rule{ID: "hold", Check: func(p *lint.Pass) {
			if p.Tool.Index == 0 {
				<-others
			} else if linted.Add(1) == n-1 && !fix {
				close(others)
			}
		}}
		rules := []*lint.Rule{list, perTool("tname", lint.Error, "name", false), perTool("tfix", lint.Warning, "name", true), perTool("plain", lint.Info, "", false), hold}
		l := newLinter(t, rules, lint.Config{FixEdits: true})
		if fix {
			close(others) // tool 0 waits for nothing: a fix lints the tools several times
			res, err := l.Fix(load(t, src))
			if err != nil {
				return nil, made, nil, err
			}
			return res.Remaining, made, res.Src, nil
		}
		ds, err := l.Lint(load(t, src))
		return ds, made, nil, err
	}
	now, _, err := run(false, "")
	if err != nil {
		t.Fatal(err)
	}
	later, made, err := run(true, "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(now, later, cmpopts.IgnoreUnexported(lint.Fix{})); diff != "" {
		t.Errorf("findings made at once and once kept differ (-at once +kept):\n%s", diff)
	}
	// tname's is kept and takes lname's fix; tfix's is completed only on
	// tool 0, which may have been linted before the list rules were done.
	if made["tname"] != n || made["lname"] != n || made["plain"] != n || made["tfix"] > 1 {
		t.Errorf("completed %v, want %d of tname, lname and plain, and tfix's at most on tool 0", made, n)
	}
	for _, d := range later {
		if d.Rule == "tname" && (d.Fix == nil || len(d.Fix.TextEdits) != 1 || !slices.Equal(d.Merged, []string{"lname", "tfix"})) {
			t.Fatalf("kept finding %+v", d)
		}
	}
	// A fix lints again the tools it did not change, reusing their
	// findings: those are completed at once.
	nowLeft, nowMade, nowSrc, err := lintOrFix(false, "", true)
	if err != nil {
		t.Fatal(err)
	}
	laterLeft, laterMade, laterSrc, err := lintOrFix(true, "", true)
	if err != nil {
		t.Fatal(err)
	}
	delete(nowMade, "lname") // the list rule's findings are made again in each round
	delete(laterMade, "lname")
	if !maps.Equal(nowMade, laterMade) {
		t.Errorf("a fix completed %v, and made %v at once: each finding a tool's rule reports is completed once", laterMade, nowMade)
	}
	if string(nowSrc) != string(laterSrc) || string(nowSrc) == src {
		t.Errorf("fixed at once:\n%s\nonce kept:\n%s", nowSrc, laterSrc)
	}
	if diff := cmp.Diff(nowLeft, laterLeft, cmpopts.IgnoreUnexported(lint.Fix{})); diff != "" {
		t.Errorf("findings left after the fix differ (-at once +kept):\n%s", diff)
	}
	for _, rule := range []string{"tname", "lname"} {
		_, _, err = run(true, rule)
		var pe *lint.PanicError
		if !errors.As(err, &pe) || pe.Rule != rule || pe.Tool == nil || pe.Tool.Index != 5 {
			t.Errorf("a panic while completing %s's finding: %v", rule, err)
		}
	}
}

// ListPass.ToolNamed answers with the first tool of a name, from one index
// the list rules of a run share.
func TestToolNamed(t *testing.T) {
	m := load(t, `[{"name":"a"},{"name":"b"},{"name":"a"},{"name":""}]`)
	var got []string
	probe := func(p *lint.ListPass) {
		for _, name := range []string{"a", "b", "", "c"} {
			if tl := p.ToolNamed(name); tl != nil {
				got = append(got, fmt.Sprintf("%s:%d", name, tl.Index))
			} else {
				got = append(got, name+":none")
			}
		}
	}
	r1 := &lint.Rule{ID: "r1", CheckList: probe}
	r2 := &lint.Rule{ID: "r2", CheckList: probe}
	if _, err := newLinter(t, []*lint.Rule{r1, r2}, lint.Config{}).Lint(m); err != nil {
		t.Fatal(err)
	}
	want := []string{"a:0", "b:1", ":3", "c:none"}
	if diff := cmp.Diff(append(want, want...), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
