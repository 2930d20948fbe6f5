package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpfit/mcplint/internal/sinktest"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
	"github.com/mcpfit/mcplint/rules"
)

// FuzzTextInert: whatever tool list and file name, the text output (in
// colour and without) holds no character a terminal acts on but mcplint's
// own line feeds, tabs and colours, and no line a CI runner reads as a
// command; the github format is one workflow command a finding, and
// nothing else a runner reads.
//
// The seeds are tool lists whose every field carries a string of the
// hostile corpus.
func FuzzTextInert(f *testing.F) {
	for _, h := range sinktest.Hostile {
		src, _ := json.Marshal(map[string]any{"tools": []any{map[string]any{
			"name": h, "description": h,
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{h: map[string]any{"$ref": h, "enum": []any{h}}}, "required": []any{h + "x"}},
		}}})
		f.Add(src, h)
	}
	f.Add([]byte("tools:\n  - name: \"\\e[2K\\r::error::x\"\n    description: \"a\\u202eb\"\n"), "x.yaml")
	l, err := lint.New(rules.All, lint.Config{Select: []string{"all"}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte, name string) {
		if name == "" {
			name = "f"
		}
		m, err := manifest.Load(name, src)
		if err != nil {
			return
		}
		diags, err := l.Lint(m)
		if err != nil {
			return
		}
		files := []report.File{{Manifest: m, Diagnostics: diags}}
		for _, color := range []bool{false, true} {
			var b bytes.Buffer
			if err := report.WriteText(&b, files, report.TextOptions{Color: color}); err != nil {
				t.Fatal(err)
			}
			if bad := sinktest.TerminalUnsafe(b.String(), color); len(bad) > 0 {
				t.Fatalf("colour %v: %s\ninput %q", color, bad[0], src)
			}
			if cmds := sinktest.Commands(b.String()); len(cmds) > 0 {
				t.Fatalf("colour %v: runner command %s\ninput %q", color, cmds[0], src)
			}
		}
		var b bytes.Buffer
		if err := report.WriteGitHub(&b, files, report.GitHubOptions{}); err != nil {
			t.Fatal(err)
		}
		cmds := sinktest.Commands(b.String())
		if len(cmds) != len(diags) {
			t.Fatalf("%d findings, %d runner commands: %v\ninput %q", len(diags), len(cmds), cmds, src)
		}
		for _, c := range cmds {
			if c.Runner != "github" || c.Props["title"] == "" {
				t.Fatalf("unexpected command %s\ninput %q", c, src)
			}
		}
		if bad := sinktest.TerminalUnsafe(b.String(), false); len(bad) > 0 {
			t.Fatalf("github: %s\ninput %q", bad[0], src)
		}
	})
}
