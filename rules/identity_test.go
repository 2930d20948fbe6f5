package rules

import (
	"slices"
	"testing"

	"github.com/mcpfit/mcplint/baseline"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// identityManifest has a name every name rule refuses ("files/read", whose
// findings merge into one) and one only the providers refuse ("a.b").
const identityManifest = `{"tools": [
  {"name": "files/read", "description": "Read a file.", "inputSchema": {"type": "object", "properties": {}}},
  {"name": "a.b", "description": "Do b.", "inputSchema": {"type": "object", "properties": {}}}
]}`

func nameFindings(t *testing.T, cfg lint.Config) []lint.Diagnostic {
	t.Helper()
	m, err := manifest.Load("tools.json", []byte(identityManifest))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lint.New(All, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := l.Lint(m)
	if err != nil {
		t.Fatal(err)
	}
	var out []lint.Diagnostic
	for _, d := range ds {
		if d.RelPointer == "/name" {
			out = append(out, d)
		}
	}
	return out
}

// TestOneFindingOneIdentity: the name findings of several rules are one
// finding carrying every rule's ID, and one ignore that names any of them
// silences it, by flag, by configuration or by baseline; a finding that
// rule does not share stays.
func TestOneFindingOneIdentity(t *testing.T) {
	all := nameFindings(t, lint.Config{})
	if len(all) != 2 {
		t.Fatalf("default run: %d name findings, want 2 (one per tool): %v", len(all), all)
	}
	ids := all[0].Rules()
	for _, want := range []string{"tool-name-valid", "openai-function-name", "claude-tool-name", "gemini-function-name", "vscode-tool-name"} {
		if !slices.Contains(ids, want) {
			t.Errorf("the finding on %q is known as %v, not by %s", all[0].Tool, ids, want)
		}
	}
	for _, id := range ids {
		// a.b's finding stays unless it is known by the ignored ID too.
		stays := []string{}
		if !slices.Contains(all[1].Rules(), id) {
			stays = append(stays, "a.b")
		}
		for name, cfg := range map[string]lint.Config{
			"--ignore":                  {Ignore: []string{id}},
			"config ignore":             {Suppress: []lint.Suppression{{Rule: id, Reason: "accepted"}}},
			"config ignore of the tool": {Suppress: []lint.Suppression{{Rule: id, Tool: "files/read", Reason: "accepted"}}},
		} {
			got := []string{}
			for _, d := range nameFindings(t, cfg) {
				got = append(got, d.Tool)
			}
			want := stays
			if name == "config ignore of the tool" {
				want = []string{"a.b"} // the entry names files/read only
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: name findings on %v, want %v", name, id, got, want)
			}
		}
	}
	// The ignore of a rule that does not report a.b leaves a.b's finding.
	if got := nameFindings(t, lint.Config{Ignore: []string{"tool-name-valid"}}); len(got) != 1 || got[0].Tool != "a.b" {
		t.Errorf("--ignore tool-name-valid: %v, want a.b's finding to stay", toolsOf(got))
	}
	// A baseline written while one rule keeps the finding accepts it when
	// another keeps it.
	narrow := nameFindings(t, lint.Config{Select: []string{"openai-function-name"}})
	b := baseline.New("", narrow)
	if left := b.Filter("", all); len(left) != 0 {
		t.Errorf("a baseline of openai-function-name's findings leaves %v of the default run", toolsOf(left))
	}
}

func toolsOf(ds []lint.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Tool+" "+d.Rule)
	}
	return out
}
