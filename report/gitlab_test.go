package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpfit/mcplint/report"
)

// TestGitLabCodeQuality checks the report against the fields GitLab
// documents as required (https://docs.gitlab.com/ci/testing/code_quality/,
// "Code Quality report format"): every one present, severity one of its
// five values, fingerprints unique, paths relative to the repository.
func TestGitLabCodeQuality(t *testing.T) {
	files, _ := sampleFiles(t)
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(root, "sub"))
	var buf bytes.Buffer
	if err := report.WriteGitLab(&buf, files, report.GitLabOptions{SourceRoot: root}); err != nil {
		t.Fatal(err)
	}
	var issues []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &issues); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	want := files[0].Diagnostics
	if len(issues) != len(want) {
		t.Fatalf("%d issues, want %d", len(issues), len(want))
	}
	seen := map[string]bool{}
	for i, is := range issues {
		for _, k := range []string{"description", "check_name", "fingerprint", "severity"} {
			if s, _ := is[k].(string); s == "" {
				t.Errorf("issue %d: %s is missing or empty: %v", i, k, is)
			}
		}
		if !slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, is["severity"].(string)) {
			t.Errorf("issue %d: severity %v", i, is["severity"])
		}
		fp := is["fingerprint"].(string)
		if seen[fp] {
			t.Errorf("issue %d: fingerprint %s repeated", i, fp)
		}
		seen[fp] = true
		loc, _ := is["location"].(map[string]any)
		lines, _ := loc["lines"].(map[string]any)
		if loc["path"] != "sub/servers/sample.json" || lines["begin"] != float64(want[i].Line) {
			t.Errorf("issue %d: location %v, want sub/servers/sample.json line %d", i, loc, want[i].Line)
		}
		if is["check_name"] != want[i].Rule {
			t.Errorf("issue %d: check_name %v, want %s", i, is["check_name"], want[i].Rule)
		}
	}
	// The fingerprint does not depend on lines, only on what is found
	// where: the same report twice has the same fingerprints.
	var again bytes.Buffer
	if err := report.WriteGitLab(&again, files, report.GitLabOptions{SourceRoot: root}); err != nil || again.String() != buf.String() {
		t.Errorf("a second report differs (%v)", err)
	}
	// An empty report is an empty array, which GitLab reads as no issue.
	buf.Reset()
	if err := report.WriteGitLab(&buf, nil, report.GitLabOptions{}); err != nil || bytes.TrimSpace(buf.Bytes())[0] != '[' {
		t.Errorf("empty report %q (%v)", buf.String(), err)
	}
}
