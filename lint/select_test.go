package lint_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpfit/mcplint/lint"
)

// catalogue is a toy rule catalogue: r1 and r2 are in the default packs,
// r2 in both, r4 and r5 in packs that are off by default.
func catalogue() []*lint.Rule {
	return []*lint.Rule{
		{ID: "r1", Packs: []string{"mcp"}, Severity: lint.Error},
		{ID: "r2", Packs: []string{"mcp", "robust"}, Severity: lint.Warning},
		{ID: "r3", Packs: []string{"robust"}, Severity: lint.Warning},
		{ID: "r4", Packs: []string{"openai"}, Severity: lint.Info},
		{ID: "r5", Packs: []string{"openai", "strict"}, Severity: lint.Info},
	}
}

func ids(rules []*lint.Rule) []string {
	out := []string{}
	for _, r := range rules {
		out = append(out, r.ID)
	}
	return out
}

func TestSelect(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  lint.Config
		want []string
	}{
		{"default packs", lint.Config{}, []string{"r1", "r2", "r3"}},
		{"select a pack", lint.Config{Select: []string{"openai"}}, []string{"r4", "r5"}},
		{"select rules keeps catalogue order", lint.Config{Select: []string{"r5", "r1"}}, []string{"r1", "r5"}},
		{"select all", lint.Config{Select: []string{"all"}}, []string{"r1", "r2", "r3", "r4", "r5"}},
		{"extend-select adds to the default", lint.Config{ExtendSelect: []string{"r5"}}, []string{"r1", "r2", "r3", "r5"}},
		{"extend-select adds to a selection", lint.Config{Select: []string{"r1"}, ExtendSelect: []string{"strict"}}, []string{"r1", "r5"}},
		{"ignore a pack removes rules also in another", lint.Config{Ignore: []string{"robust"}}, []string{"r1"}},
		{"ignore wins over select", lint.Config{Select: []string{"r1", "r4"}, Ignore: []string{"r4"}}, []string{"r1"}},
		{"ignore wins over extend-select", lint.Config{ExtendSelect: []string{"r4"}, Ignore: []string{"openai"}}, []string{"r1", "r2", "r3"}},
		{"ignore all", lint.Config{Select: []string{"all"}, Ignore: []string{"all"}}, []string{}},
		{"select all but a pack", lint.Config{Select: []string{"all"}, Ignore: []string{"mcp"}}, []string{"r3", "r4", "r5"}},
		{"duplicates are harmless", lint.Config{Select: []string{"r1", "r1", "mcp"}}, []string{"r1", "r2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lint.Select(catalogue(), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ids(got)); diff != "" {
				t.Errorf("selection (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSelectUnknownNames(t *testing.T) {
	for _, tc := range []struct {
		cfg   lint.Config
		want  string
		index int
	}{
		{lint.Config{Select: []string{"r1", "nope-nothing-like-it"}}, `select: unknown rule or pack "nope-nothing-like-it"; the packs are mcp, openai, robust, strict; ` + "`mcplint rules`" + ` lists the rules`, 1},
		{lint.Config{ExtendSelect: []string{"R1"}}, `extend-select: unknown rule or pack "R1"; did you mean "r1"?`, 0},
		{lint.Config{Ignore: []string{"r1", "r2", "zzzzzzzzzzzz"}}, `ignore: unknown rule or pack "zzzzzzzzzzzz"; the packs are`, 2},
		{lint.Config{Suppress: []lint.Suppression{{Rule: "r1"}, {Rule: "r9"}}}, `ignore: unknown rule or pack "r9"; did you mean`, 1},
	} {
		_, err := lint.Select(catalogue(), tc.cfg)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want prefix %q", tc.cfg, err, tc.want)
			continue
		}
		var ne *lint.NameError
		if !errors.As(err, &ne) || ne.Index != tc.index || ne.Suppression != (len(tc.cfg.Suppress) > 0) {
			t.Errorf("%+v: %#v, want a NameError at index %d", tc.cfg, err, tc.index)
		}
		if _, err := lint.New(catalogue(), tc.cfg); err == nil {
			t.Errorf("New accepts %+v", tc.cfg)
		}
	}
}

func TestPacks(t *testing.T) {
	if diff := cmp.Diff([]string{"mcp", "openai", "robust", "strict"}, lint.Packs(catalogue())); diff != "" {
		t.Errorf("Packs (-want +got):\n%s", diff)
	}
	if got := lint.Packs(nil); len(got) != 0 {
		t.Errorf("Packs(nil) = %v", got)
	}
}

func TestNewProtocol(t *testing.T) {
	l, err := lint.New(catalogue(), lint.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if lint.LatestProtocol != "2026-07-28" {
		t.Errorf("latest protocol %q", lint.LatestProtocol)
	}
	if l.Cache == nil {
		t.Error("New leaves the cache nil")
	}
	for _, p := range lint.Protocols {
		if _, err := lint.New(catalogue(), lint.Config{Protocol: p}); err != nil {
			t.Errorf("protocol %s: %v", p, err)
		}
	}
	_, err = lint.New(catalogue(), lint.Config{Protocol: "2025-01-01"})
	if err == nil || !strings.Contains(err.Error(), `unknown protocol version "2025-01-01"`) {
		t.Errorf("unknown protocol: %v", err)
	}
}

func TestVocabulary(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want lint.Severity
	}{{"info", lint.Info}, {"warning", lint.Warning}, {"WARN", lint.Warning}, {"Error", lint.Error}} {
		got, err := lint.ParseSeverity(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSeverity(%q) = %v, %v", tc.in, got, err)
		}
	}
	if _, err := lint.ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity accepts fatal")
	}
	for s, want := range map[lint.Severity]string{lint.Info: "info", lint.Warning: "warning", lint.Error: "error", 0: "none"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q", s, s.String())
		}
		if b, _ := s.MarshalText(); string(b) != want {
			t.Errorf("%d.MarshalText() = %q", s, b)
		}
	}
	for k, want := range map[lint.FixKind]string{lint.NoFix: "none", lint.SafeFix: "safe", lint.UnsafeFix: "unsafe", lint.MixedFix: "safe/unsafe"} {
		if k.String() != want {
			t.Errorf("FixKind %d = %q", k, k.String())
		}
	}
	if !lint.AtLeast("2025-11-25", "2025-06-18") || lint.AtLeast("2024-11-05", "2025-03-26") || !lint.AtLeast("2025-03-26", "2025-03-26") {
		t.Error("AtLeast misorders versions")
	}
	if !lint.ValidProtocol("2025-06-18") || lint.ValidProtocol("latest") {
		t.Error("ValidProtocol")
	}
	r := catalogue()[1]
	if !r.InPack("robust") || r.InPack("openai") {
		t.Error("InPack")
	}
	d := lint.Diagnostic{}
	if d.FixKind() != lint.NoFix {
		t.Error("a diagnostic without a fix has a fix kind")
	}
	d.Fix = &lint.Fix{Safe: true}
	if d.FixKind() != lint.SafeFix {
		t.Error("safe fix")
	}
	d.Fix.Safe = false
	if d.FixKind() != lint.UnsafeFix {
		t.Error("unsafe fix")
	}
}

// TestProtocolRange: without a version every version in use is checked, so
// a rule sees both what 2026-07-28 introduced and what it lifted.
func TestProtocolRange(t *testing.T) {
	type seen struct {
		since2026, before2026 bool
		versionsBefore        string
	}
	run := func(protocol string) seen {
		var got seen
		r := &lint.Rule{ID: "probe", Packs: []string{"mcp"}, Severity: lint.Error, Check: func(p *lint.Pass) {
			got = seen{p.Since("2026-07-28"), p.Before("2026-07-28"), ""}
			if got.before2026 {
				got.versionsBefore = p.Versions(false, "2026-07-28")
			}
		}}
		l, err := lint.New([]*lint.Rule{r}, lint.Config{Protocol: protocol})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Lint(load(t, `{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`)); err != nil {
			t.Fatal(err)
		}
		return got
	}
	for _, tc := range []struct {
		protocol string
		want     seen
	}{
		{"", seen{true, true, "2024-11-05 to 2025-11-25"}},
		{"2026-07-28", seen{true, false, ""}},
		{"2025-06-18", seen{false, true, "2025-06-18"}},
	} {
		if got := run(tc.protocol); got != tc.want {
			t.Errorf("protocol %q: got %+v, want %+v", tc.protocol, got, tc.want)
		}
	}
}
