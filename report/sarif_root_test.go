package report_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
	"github.com/mcpfit/mcplint/rules"
)

type sarifRunDoc struct {
	AutomationDetails  struct{ ID string }
	OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
	Tool               struct {
		Driver struct {
			Rules []struct {
				ID         string
				Properties map[string]any
			}
		}
	}
	Results []struct {
		Locations []struct {
			PhysicalLocation struct {
				ArtifactLocation struct {
					URI       string
					URIBaseID string `json:"uriBaseId"`
				}
			}
		}
	}
}

func writeSARIF(t *testing.T, files []report.File, opt report.SARIFOptions) sarifRunDoc {
	t.Helper()
	var buf bytes.Buffer
	if err := report.WriteSARIF(&buf, files, opt); err != nil {
		t.Fatal(err)
	}
	var log struct{ Runs []sarifRunDoc }
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return log.Runs[0]
}

// TestSARIFPathsFromTheRoot: run from a subfolder, a relative path is
// written relative to the source root (where code scanning resolves
// %SRCROOT%), an absolute one inside it too, and one outside it as a file
// URI.
func TestSARIFPathsFromTheRoot(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "other.json")
	if err := os.MkdirAll(filepath.Join(root, "servers", "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "servers"))
	var files []report.File
	for _, p := range []string{"a/tools.json", filepath.Join(root, "b.json"), outside, "<stdin>"} {
		m, err := manifest.Load(p, []byte(`{"tools": [{"name": "x y", "inputSchema": {"type": "object"}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, report.File{Manifest: m, Diagnostics: []lint.Diagnostic{{Rule: "tool-name-valid", Severity: lint.Warning, File: p, Line: 1, Column: 1, ToolIndex: -1}}})
	}
	run := writeSARIF(t, files, report.SARIFOptions{SourceRoot: root})
	type loc struct{ uri, base string }
	var got []loc
	for _, r := range run.Results {
		a := r.Locations[0].PhysicalLocation.ArtifactLocation
		got = append(got, loc{a.URI, a.URIBaseID})
	}
	outsideURI := (&url.URL{Scheme: "file", Path: filepath.ToSlash(outside)}).String()
	want := []loc{{"servers/a/tools.json", "%SRCROOT%"}, {"b.json", "%SRCROOT%"}, {outsideURI, ""}, {"stdin", ""}}
	if !slices.Equal(got, want) {
		t.Errorf("locations %v, want %v", got, want)
	}
	base := run.OriginalURIBaseIDs["%SRCROOT%"].URI
	if u, err := url.Parse(base); err != nil || u.Scheme != "file" || filepath.FromSlash(u.Path) != root+string(filepath.Separator) {
		t.Errorf("originalUriBaseIds[%%SRCROOT%%] = %q, want the file URI of %s/", base, root)
	}
}

// TestSARIFSecuritySeverity: the security pack's rules carry a
// security-severity by their severity, and a "security" tag, which code
// scanning needs; the other rules carry none.
func TestSARIFSecuritySeverity(t *testing.T) {
	if report.SecurityPack != rules.SecurityPack {
		t.Fatalf("report.SecurityPack %q is not the rules' security pack %q", report.SecurityPack, rules.SecurityPack)
	}
	run := writeSARIF(t, nil, report.SARIFOptions{Rules: rules.All, AutomationID: "mcplint/check/"})
	if run.AutomationDetails.ID != "mcplint/check/" {
		t.Errorf("automationDetails.id = %q", run.AutomationDetails.ID)
	}
	byID := map[string]*lint.Rule{}
	for _, r := range rules.All {
		byID[r.ID] = r
	}
	security := 0
	for _, d := range run.Tool.Driver.Rules {
		r := byID[d.ID]
		sev, has := d.Properties["security-severity"]
		tags, _ := d.Properties["tags"].([]any)
		if !slices.Contains(r.Packs, rules.SecurityPack) {
			if has {
				t.Errorf("%s is not a security rule but has security-severity %v", d.ID, sev)
			}
			continue
		}
		security++
		if sev != report.SecuritySeverity[r.Severity] || !slices.Contains(tags, any("security")) {
			t.Errorf("%s (%s): security-severity %v, tags %v; want %q and the tag security", d.ID, r.Severity, sev, tags, report.SecuritySeverity[r.Severity])
		}
	}
	if security == 0 {
		t.Error("no security rule in the catalogue")
	}
	// The scores fall in the bands GitHub names: high, medium, low.
	for sev, band := range map[lint.Severity][2]float64{lint.Error: {7, 8.9}, lint.Warning: {4, 6.9}, lint.Info: {0.1, 3.9}} {
		var f float64
		if err := json.Unmarshal([]byte(report.SecuritySeverity[sev]), &f); err != nil || f < band[0] || f > band[1] {
			t.Errorf("%s: security-severity %q outside %v", sev, report.SecuritySeverity[sev], band)
		}
	}
}

// TestGitHubPathsFromTheRoot: annotations name files from the repository's
// root, which is where GitHub places them, when mcplint runs in a
// subfolder.
func TestGitHubPathsFromTheRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "servers"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "servers"))
	files := []report.File{{Diagnostics: []lint.Diagnostic{
		{Rule: "r", Severity: lint.Error, File: "a/tools.json", Line: 1, Column: 1, ToolIndex: -1, Message: "m"},
		{Rule: "r", Severity: lint.Error, File: "<stdin>", Line: 1, Column: 1, ToolIndex: -1, Message: "m"},
	}}}
	var buf bytes.Buffer
	if err := report.WriteGitHub(&buf, files, report.GitHubOptions{SourceRoot: root}); err != nil {
		t.Fatal(err)
	}
	want := "::error file=servers/a/tools.json,line=1,col=1,title=mcplint r::m\n::error file=<stdin>,line=1,col=1,title=mcplint r::m\n"
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}
