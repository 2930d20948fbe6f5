package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/internal/benchgen"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
	"github.com/mcpfit/mcplint/rules"
)

// TestLongStringsShownElided: a 100 KB tool name, or a 100 KB property
// key that is in the pointer of every finding below it, is written by
// every format cut to its start and end, so that what a finding costs in
// a report does not grow with it; the findings keep the exact values.
func TestLongStringsShownElided(t *testing.T) {
	const n, props = 100 << 10, 12
	linter, err := lint.New(rules.All, lint.Config{Select: []string{"all"}, FixEdits: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		src  []byte
		long string
	}{
		{"long-name.json", benchgen.LongName(n, props), strings.Repeat("n", lint.MaxMessage/2+1)},
		{"long-key.json", benchgen.LongKey(n, props), strings.Repeat("k", lint.MaxMessage/2+1)},
	} {
		m, err := manifest.Load(c.name, c.src)
		if err != nil {
			t.Fatal(err)
		}
		diags, err := linter.Lint(m)
		if err != nil {
			t.Fatal(err)
		}
		if len(diags) < props {
			t.Fatalf("%s: %d findings, want at least %d", c.name, len(diags), props)
		}
		exact := 0
		for _, d := range diags {
			if strings.Contains(d.Tool, c.long) || strings.Contains(d.Pointer, c.long) {
				exact++
			}
		}
		if exact == 0 {
			t.Fatalf("%s: no finding holds the long string whole; the test shows nothing", c.name)
		}
		files := []report.File{{Manifest: m, Diagnostics: diags}}
		server := &report.Server{Name: "s"}
		for format, write := range map[string]func(*bytes.Buffer) error{
			"text":        func(b *bytes.Buffer) error { return report.WriteText(b, files, report.TextOptions{ShowInfos: true}) },
			"text-infos":  func(b *bytes.Buffer) error { return report.WriteText(b, files, report.TextOptions{}) },
			"text-server": func(b *bytes.Buffer) error { return report.WriteText(b, files, report.TextOptions{Server: server}) },
			"json":        func(b *bytes.Buffer) error { return report.WriteJSON(b, files) },
			"sarif": func(b *bytes.Buffer) error {
				return report.WriteSARIF(b, files, report.SARIFOptions{Rules: linter.Rules})
			},
			"github":         func(b *bytes.Buffer) error { return report.WriteGitHub(b, files, report.GitHubOptions{}) },
			"github-summary": func(b *bytes.Buffer) error { return report.WriteGitHubSummary(b, files) },
			"gitlab":         func(b *bytes.Buffer) error { return report.WriteGitLab(b, files, report.GitLabOptions{}) },
			"junit":          func(b *bytes.Buffer) error { return report.WriteJUnit(b, files) },
			"checkstyle":     func(b *bytes.Buffer) error { return report.WriteCheckstyle(b, files) },
		} {
			var buf bytes.Buffer
			if err := write(&buf); err != nil {
				t.Fatalf("%s %s: %v", c.name, format, err)
			}
			out := buf.String()
			if strings.Contains(out, c.long) {
				t.Errorf("%s %s: the long string is written whole (%d bytes for %d findings)", c.name, format, len(out), len(diags))
			}
			// The message may quote the value too, cut at lint.MaxMessage.
			if limit := len(diags) * (2*lint.MaxMessage + 4*report.MaxShown + 4<<10); len(out) > limit {
				t.Errorf("%s %s: %d bytes for %d findings, over %d", c.name, format, len(out), len(diags), limit)
			}
		}
		kept := 0
		for _, d := range diags {
			if strings.Contains(d.Tool, c.long) || strings.Contains(d.Pointer, c.long) {
				kept++
			}
		}
		if kept != exact {
			t.Errorf("%s: writing the reports changed the findings' names or pointers", c.name)
		}
	}
}

// TestLongPointerFingerprints: the SARIF fingerprints of findings whose
// pointers differ only past a long key stay distinct, small, and the same
// from run to run.
func TestLongPointerFingerprints(t *testing.T) {
	linter, err := lint.New(rules.All, lint.Config{Select: []string{"all"}})
	if err != nil {
		t.Fatal(err)
	}
	fingerprints := func() map[string]int {
		m, err := manifest.Load("long-key.json", benchgen.LongKey(100<<10, 12))
		if err != nil {
			t.Fatal(err)
		}
		diags, err := linter.Lint(m)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := report.WriteSARIF(&buf, []report.File{{Manifest: m, Diagnostics: diags}}, report.SARIFOptions{Rules: linter.Rules}); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					PartialFingerprints map[string]string `json:"partialFingerprints"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, r := range log.Runs[0].Results {
			fp := r.PartialFingerprints["mcplintFinding/v1"]
			if len(fp) > 3*report.MaxShown/2 {
				t.Fatalf("a fingerprint of %d bytes", len(fp))
			}
			seen[fp]++
		}
		// Each sub-property p0..p11 has findings of its own.
		if len(seen) < 12 {
			t.Errorf("%d distinct fingerprints for %d results: long pointers were cut to the same key", len(seen), len(log.Runs[0].Results))
		}
		return seen
	}
	if a, b := fingerprints(), fingerprints(); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("the fingerprints changed from one run to the next")
	}
}
