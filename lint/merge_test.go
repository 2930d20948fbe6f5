package lint_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// TestMergeSubjects: rules that see one problem through different
// consumers give one finding, the most severe, naming every consumer and
// carrying a fix when any of them had one.
func TestMergeSubjects(t *testing.T) {
	name := func(id string, sev lint.Severity, c consumer.ID, fix bool) *lint.Rule {
		return &lint.Rule{ID: id, Packs: []string{"mcp"}, Subject: "tool-name", Severity: sev,
			Consumers: []consumer.Refusal{{Consumer: c}},
			Check: func(p *lint.Pass) {
				var f *lint.Fix
				if fix {
					f = &lint.Fix{Message: "rename", Edits: []manifest.Edit{{Op: manifest.Replace, Pointer: "/name", Value: "a_b"}}}
				}
				p.ReportFix("/name", f, "%s says no", id)
			}}
	}
	other := &lint.Rule{ID: "other", Packs: []string{"mcp"}, Severity: lint.Warning, Check: func(p *lint.Pass) {
		p.Reportf("/name", "unrelated")
	}}
	rules := []*lint.Rule{
		name("n1", lint.Warning, consumer.MCPSpec, false),
		name("n2", lint.Error, consumer.Anthropic, false),
		name("n3", lint.Warning, consumer.OpenAIChat, true),
		other,
	}
	l, err := lint.New(rules, lint.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := l.Lint(load(t, `{"tools": [{"name": "a/b", "inputSchema": {"type": "object"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Rule, Message, Note string
		Merged              []string
		Fix                 bool
	}
	var got []row
	for _, d := range ds {
		got = append(got, row{d.Rule, d.Message, d.ConsumerNote(), d.Merged, d.Fix != nil})
	}
	want := []row{
		{"n2", "n2 says no", "refused by: Anthropic API, MCP specification, OpenAI Chat Completions (and so Claude Code, claude.ai connectors)", []string{"n1", "n3"}, true},
		{"other", "unrelated", "", nil, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDefaultOnConsumers: a rule outside the default packs runs by
// default when it protects a consumer in its default mode, and not when
// its consumers are all opt-in modes.
func TestDefaultOnConsumers(t *testing.T) {
	all := []*lint.Rule{
		{ID: "spec", Packs: []string{"mcp"}},
		{ID: "chat", Packs: []string{"openai"}, Consumers: []consumer.Refusal{{Consumer: consumer.OpenAIChat}}},
		{ID: "strict", Packs: []string{"openai-strict"}, Consumers: []consumer.Refusal{{Consumer: consumer.OpenAIStrict}}},
		{ID: "plain", Packs: []string{"gemini"}},
	}
	sel, err := lint.Select(all, lint.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"spec", "chat"}, ids(sel)); diff != "" {
		t.Errorf("default selection (-want +got):\n%s", diff)
	}
	sel, err = lint.Select(all, lint.Config{Select: []string{"default", "openai-strict"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"spec", "chat", "strict"}, ids(sel)); diff != "" {
		t.Errorf("default,openai-strict (-want +got):\n%s", diff)
	}
}
