package main

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/consumer"
	"github.com/mcpfit/mcplint/report"
)

func TestRulesTable(t *testing.T) {
	r := mcplint(t, runOpts{}, "rules")
	r.want(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != len(catalogue())+1 {
		t.Fatalf("%d lines for %d rules:\n%s", len(lines), len(catalogue()), r.stdout)
	}
	header := lines[0]
	col := strings.Index(header, "SUMMARY")
	if !strings.HasPrefix(header, "RULE ") || col < 0 {
		t.Fatalf("header: %q", header)
	}
	for _, l := range lines[1:] {
		// Aligned: every summary starts under SUMMARY, after a space.
		if len(l) <= col || l[col-1] != ' ' || l[col] == ' ' {
			t.Errorf("misaligned: %q", l)
		}
	}
	for _, want := range []string{
		"tool-name-unique ", "test-schema-type ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	var row string
	for _, l := range lines {
		if strings.HasPrefix(l, "test-schema-type ") {
			row = l
		}
	}
	if f := strings.Fields(row); len(f) < 5 || f[1] != "test" || f[2] != "error" || f[3] != "safe" || !strings.HasSuffix(row, "inputSchema has a type") {
		t.Errorf("row: %q", row)
	}
}

func TestRulesDoc(t *testing.T) {
	r := mcplint(t, runOpts{}, "rules", "tool-name-valid")
	r.want(t, 0)
	for _, want := range []string{
		"tool-name-valid: tool names are 1-128 characters",
		"Packs:        mcp\n", "Default:      on\n", "Severity:     warning\n", "Options:      none\n",
		// Its own findings carry no fix, but one merged with a provider's
		// name rule takes that rule's unsafe rename: the doc says so.
		"Fix:          unsafe (its own: none; a finding it keeps takes the fix of a merged openai-function-name",
		"Merges with:  openai-function-name, claude-tool-name",
		"Bad:", "Good:", "Source:",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doc lacks %q:\n%s", want, r.stdout)
		}
	}
	r = mcplint(t, runOpts{}, "rules", "test-schema-type", "tool-name-unique")
	r.want(t, 0)
	for _, want := range []string{
		"Default:   off (turn it on with --extend-select test-schema-type)\n",
		"Options (set with --option test-schema-type.NAME=VALUE):\n  enabled = true\n  type = \"object\"\n",
		"\nTest rule.\n\ntool-name-unique: tool names are unique",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doc lacks %q:\n%s", want, r.stdout)
		}
	}
}

type jsonRule struct {
	ID         string         `json:"id"`
	Packs      []string       `json:"packs"`
	Default    bool           `json:"default"`
	Severity   string         `json:"severity"`
	Fix        string         `json:"fix"`
	OfferedFix string         `json:"offeredFix"`
	MergesWith []string       `json:"mergesWith"`
	Summary    string         `json:"summary"`
	Options    map[string]any `json:"options"`
	Doc        string         `json:"doc"`
	// Consumers are the programs the rule protects.
	Consumers []struct {
		ID      string `json:"id"`
		Mangles bool   `json:"mangles"`
		Line    string `json:"line"`
		Error   string `json:"error"`
		Source  string `json:"source"`
	} `json:"consumers"`
}

func strictDecode(t *testing.T, s string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
}

func TestRulesJSON(t *testing.T) {
	r := mcplint(t, runOpts{}, "rules", "--format", "json")
	r.want(t, 0)
	var list struct {
		Version int        `json:"version"`
		Rules   []jsonRule `json:"rules"`
	}
	strictDecode(t, r.stdout, &list)
	if list.Version != 1 || len(list.Rules) != len(catalogue()) {
		t.Fatalf("version %d, %d rules", list.Version, len(list.Rules))
	}
	for _, rule := range list.Rules {
		if rule.ID == "" || rule.Severity == "" || rule.Fix == "" || rule.Options == nil || rule.Packs == nil || rule.Consumers == nil {
			t.Errorf("incomplete: %+v", rule)
		}
	}

	r = mcplint(t, runOpts{}, "rules", "--format=json", "test-schema-type")
	r.want(t, 0)
	var one jsonRule
	strictDecode(t, r.stdout, &one)
	if one.ID != "test-schema-type" || one.Default || one.Severity != "error" || one.Fix != "safe" ||
		one.Options["type"] != "object" || one.Doc != "Test rule." || one.Summary != "inputSchema has a type" {
		t.Errorf("rule: %+v", one)
	}

	r = mcplint(t, runOpts{}, "rules", "--format=json", "tool-name-valid", "tool-name-unique")
	r.want(t, 0)
	strictDecode(t, r.stdout, &list)
	if len(list.Rules) != 2 || list.Rules[1].ID != "tool-name-unique" || !list.Rules[1].Default || len(list.Rules[1].Options) != 0 {
		t.Errorf("rules: %+v", list.Rules)
	}
}

func TestColor(t *testing.T) {
	const esc = "\x1b["
	for _, c := range []struct {
		name  string
		o     runOpts
		args  []string
		color bool
	}{
		{"not a terminal", runOpts{}, nil, false},
		{"terminal", runOpts{tty: true}, nil, true},
		{"NO_COLOR", runOpts{tty: true, env: map[string]string{"NO_COLOR": "1"}}, nil, false},
		{"empty NO_COLOR", runOpts{tty: true, env: map[string]string{"NO_COLOR": ""}}, nil, true},
		{"dumb terminal", runOpts{tty: true, env: map[string]string{"TERM": "dumb"}}, nil, false},
		{"always", runOpts{}, []string{"--color=always"}, true},
		{"always beats NO_COLOR", runOpts{env: map[string]string{"NO_COLOR": "1"}}, []string{"--color", "always"}, true},
		{"never", runOpts{tty: true}, []string{"--color=never"}, false},
		{"FORCE_COLOR in a CI log", runOpts{env: map[string]string{"FORCE_COLOR": "1"}}, nil, true},
		{"NO_COLOR beats FORCE_COLOR", runOpts{env: map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}}, nil, false},
		{"FORCE_COLOR=0 on a terminal", runOpts{tty: true, env: map[string]string{"FORCE_COLOR": "0"}}, nil, false},
		{"FORCE_COLOR=false in a CI log", runOpts{env: map[string]string{"FORCE_COLOR": "false"}}, nil, false},
		{"always beats FORCE_COLOR=0", runOpts{env: map[string]string{"FORCE_COLOR": "0"}}, []string{"--color=always"}, true},
		{"never beats FORCE_COLOR", runOpts{env: map[string]string{"FORCE_COLOR": "1"}}, []string{"--color=never"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := mcplint(t, c.o, append([]string{"lint", naming, "testdata/names.json"}, c.args...)...)
			r.want(t, 1)
			if got := strings.Contains(r.stdout, esc); got != c.color {
				t.Errorf("colour %v, want %v:\n%q", got, c.color, r.stdout)
			}
			// The remaining findings of fix go to stderr, coloured alike.
			r = mcplint(t, c.o, append([]string{"fix", naming, "testdata/names.json"}, c.args...)...)
			if got := strings.Contains(r.stderr, esc); got != c.color {
				t.Errorf("fix: colour %v, want %v:\n%q", got, c.color, r.stderr)
			}
			if strings.Contains(r.stdout, esc) {
				t.Error("fix coloured the manifest")
			}
		})
	}
	r := mcplint(t, runOpts{}, "lint", naming, "--color=always", "testdata/names.json")
	if !strings.Contains(r.stdout, "\x1b[33;1mwarning\x1b[0;22m \x1b[35mtool-name-valid\x1b[0m") {
		t.Errorf("severity and rule are not coloured:\n%q", r.stdout)
	}
}

func TestDescribeBuild(t *testing.T) {
	for _, c := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{}, "(devel)"},
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"},
		}}, "(devel) (0123456789ab, modified)"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"},
		}}, "v0.1.0 (abc)"},
	} {
		if got := describeBuild(&c.bi); got != c.want {
			t.Errorf("describeBuild(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
	// What the release build and the Action stamp at link time wins.
	bi := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "aaaa"}}}
	if got := describeBuild(stamp(bi, "v0.1.0", "0123456789abcdef")); got != "v0.1.0 (0123456789ab)" {
		t.Errorf("stamped: %q", got)
	}
	if got := describeBuild(stamp(bi, "", "")); got != "(devel) (aaaa)" {
		t.Errorf("not stamped: %q", got)
	}
}

// TestRulesConsumers: the consumer matrix lists every consumer with the
// rules that protect it, in text and JSON.
func TestRulesConsumers(t *testing.T) {
	r := mcplint(t, runOpts{}, "rules", "--consumers")
	r.want(t, 0)
	for _, want := range []string{"anthropic ", "claude-root-combinator", "openai-strict ", "opt-in"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("matrix lacks %q:\n%s", want, r.stdout)
		}
	}
	r = mcplint(t, runOpts{}, "rules", "--consumers", "--format=json")
	r.want(t, 0)
	var doc struct {
		Consumers []struct {
			ID      string `json:"id"`
			Default bool   `json:"default"`
			Refuses []struct {
				Rule   string `json:"rule"`
				Source string `json:"source"`
			} `json:"refuses"`
		} `json:"consumers"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range doc.Consumers {
		if c.ID == "openai-strict" {
			found = !c.Default && len(c.Refuses) > 0 && c.Refuses[0].Source != ""
		}
	}
	if !found {
		t.Errorf("openai-strict is not an opt-in consumer with sourced rules: %s", r.stdout)
	}
}

// TestRulesGroup: a pack or a consumer lists its rules; a mistyped name
// suggests the closest.
func TestRulesGroup(t *testing.T) {
	r := mcplint(t, runOpts{}, "rules", "security")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "description-injection ") || strings.Contains(r.stdout, "tool-name-unique") {
		t.Errorf("rules security:\n%s", r.stdout)
	}
	r = mcplint(t, runOpts{}, "rules", "anthropic")
	r.want(t, 0)
	if !strings.Contains(r.stdout, "claude-root-combinator ") || strings.Contains(r.stdout, "gemini-ref") {
		t.Errorf("rules anthropic:\n%s", r.stdout)
	}
	r = mcplint(t, runOpts{}, "rules", "claude-tool-nam")
	r.want(t, 2)
	if !strings.Contains(r.stderr, `did you mean "claude-tool-name"?`) {
		t.Errorf("stderr: %s", r.stderr)
	}
}

// TestRulesConsumerProfile: `mcplint rules CONSUMER` prints the consumer's
// profile, every line with its source, then the rules that protect it; its
// JSON form holds the same lines.
func TestRulesConsumerProfile(t *testing.T) {
	for _, c := range consumer.All {
		r := mcplint(t, runOpts{}, "rules", string(c.ID))
		r.want(t, 0)
		p := consumer.ProfileOf(c.ID)
		if !strings.Contains(r.stdout, "Profile: ") || !strings.Contains(r.stdout, "Based on: "+p.Basis) {
			t.Errorf("rules %s prints no profile:\n%s", c.ID, r.stdout)
		}
		if n, want := strings.Count(r.stdout, "\n  source: "), len(p.Lines); n < want {
			t.Errorf("rules %s: %d lines with a source, want at least %d", c.ID, n, want)
		}
		if !strings.Contains(r.stdout, "Rules that protect it:") {
			t.Errorf("rules %s lists no rules", c.ID)
		}
	}
	r := mcplint(t, runOpts{}, "rules", "gemini-parameters", "--format", "json")
	r.want(t, 0)
	var doc report.JSONProfile
	strictDecode(t, r.stdout, &doc)
	if !doc.Allowlist || len(doc.Lines) == 0 || len(doc.Rules) == 0 {
		t.Fatalf("profile JSON: %+v", doc)
	}
	for _, l := range doc.Lines {
		if l.Source == "" || l.Action == "" {
			t.Errorf("line %s has no source or action", l.ID)
		}
	}
}
