package main

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeveralFormatsInOneRun: each --format FORMAT=PATH writes its file,
// FORMAT alone writes to standard output, github beside another.
func TestSeveralFormatsInOneRun(t *testing.T) {
	dir := project(t, map[string]string{"servers/a.json": twoTools})
	summary := filepath.Join(dir, "summary.md")
	r := mcplint(t, runOpts{env: map[string]string{"GITHUB_STEP_SUMMARY": summary}}, "lint", "--select", "test",
		"--format", "text", "--format", "sarif=reports/mcplint.sarif", "--format", "github",
		"--format", "gitlab=reports/gl,codequality.json", "servers/a.json")
	r.want(t, 1)
	if !strings.Contains(r.stdout, "servers/a.json:3:") || !strings.Contains(r.stdout, "::error file=servers/a.json,line=3,") {
		t.Errorf("stdout lacks the text report or the workflow commands:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, `"$schema"`) {
		t.Errorf("the SARIF report went to standard output too")
	}
	if b, err := os.ReadFile(summary); err != nil || !strings.Contains(string(b), "mcplint") {
		t.Errorf("step summary: %v %q", err, b)
	}
	var sarif struct {
		Runs []struct{ Results []struct{ RuleID string } }
	}
	b, err := os.ReadFile(filepath.Join(dir, "reports", "mcplint.sarif"))
	if err != nil || json.Unmarshal(b, &sarif) != nil || len(sarif.Runs[0].Results) != 3 {
		t.Errorf("SARIF file (%v):\n%s", err, b)
	}
	// A comma belongs to the path, not to a list of formats.
	var gitlab []struct {
		CheckName string `json:"check_name"`
	}
	b, err = os.ReadFile(filepath.Join(dir, "reports", "gl,codequality.json"))
	if err != nil || json.Unmarshal(b, &gitlab) != nil || len(gitlab) != 3 {
		t.Errorf("GitLab file (%v):\n%s", err, b)
	}
	// fix: FORMAT alone is standard error, FORMAT=PATH a file.
	r = mcplint(t, runOpts{}, "fix", "--select", "test", "--format", "text", "--format", "checkstyle=remaining.xml", "servers/a.json")
	r.want(t, 0)
	if !strings.Contains(r.stderr, "warning test-trim-description") {
		t.Errorf("fix's text report: %q", r.stderr)
	}
	var cs struct {
		Files []struct {
			Errors []struct {
				Source string `xml:"source,attr"`
			} `xml:"error"`
		} `xml:"file"`
	}
	b, err = os.ReadFile(filepath.Join(dir, "remaining.xml"))
	if err != nil || xml.Unmarshal(b, &cs) != nil || len(cs.Files) != 1 || len(cs.Files[0].Errors) != 1 {
		t.Errorf("fix's checkstyle file (%v):\n%s", err, b)
	}
}

func TestFormatUsageErrors(t *testing.T) {
	project(t, map[string]string{"a.json": twoTools})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "json", "--format", "sarif"}, "only one format besides github can be written to the report stream"},
		{[]string{"--format", "json=out", "--format", "sarif=./out"}, "--format json=out and --format sarif=./out write the same file"},
		{[]string{"--format", "github", "--format", "github"}, "--format github is given twice"},
		{[]string{"--format", "sarif="}, "the PATH after = is empty"},
		{[]string{"--format", "html=x"}, `unknown format "html"`},
	} {
		r := mcplint(t, runOpts{}, append(append([]string{"lint", "--select", "test"}, c.args...), "a.json")...)
		r.want(t, 2)
		if !strings.Contains(r.stderr, c.want) {
			t.Errorf("%q: stderr %q lacks %q", c.args, r.stderr, c.want)
		}
		if _, err := os.Stat("out"); err == nil {
			t.Errorf("%q: a usage error wrote a file", c.args)
		}
	}
}

// machineFormatChecks parse each machine format enough to count results.
var machineFormatChecks = map[string]func(t *testing.T, out string) int{
	"json": func(t *testing.T, out string) int {
		var doc struct{ Diagnostics []any }
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("json: %v\n%s", err, out)
		}
		return len(doc.Diagnostics)
	},
	"sarif": func(t *testing.T, out string) int {
		var doc struct{ Runs []struct{ Results []any } }
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Runs) != 1 {
			t.Fatalf("sarif: %v\n%s", err, out)
		}
		return len(doc.Runs[0].Results)
	},
	"gitlab": func(t *testing.T, out string) int {
		var doc []any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("gitlab: %v\n%s", err, out)
		}
		return len(doc)
	},
	"github": func(t *testing.T, out string) int {
		return strings.Count(out, "\n::")
	},
	"junit": func(t *testing.T, out string) int {
		var doc struct {
			Suites []struct {
				Cases []struct {
					Failure *struct{} `xml:"failure"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("junit: %v\n%s", err, out)
		}
		n := 0
		for _, s := range doc.Suites {
			for _, c := range s.Cases {
				if c.Failure != nil {
					n++
				}
			}
		}
		return n
	},
	"checkstyle": func(t *testing.T, out string) int {
		var doc struct {
			Files []struct {
				Errors []struct{} `xml:"error"`
			} `xml:"file"`
		}
		if err := xml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("checkstyle: %v\n%s", err, out)
		}
		n := 0
		for _, f := range doc.Files {
			n += len(f.Errors)
		}
		return n
	},
}

// TestCheckAndBreakingFormats: every report format works for check (one
// server, and the servers of a configuration) and for breaking.
func TestCheckAndBreakingFormats(t *testing.T) {
	breakingArgs := []string{"breaking", "--ignore=non-breaking", "--against", "testdata/breaking-old.json", "testdata/breaking-new.json"}
	rb := mcplint(t, runOpts{}, append(breakingArgs, "--format=json")...)
	rb.want(t, 1)
	wantBreaking := machineFormatChecks["json"](t, rb.stdout)
	if wantBreaking == 0 {
		t.Fatal("breaking found nothing to report")
	}
	for format, count := range machineFormatChecks {
		t.Run("breaking "+format, func(t *testing.T) {
			r := mcplint(t, runOpts{}, append(breakingArgs, "--format="+format)...)
			r.want(t, 1)
			if got := count(t, "\n"+r.stdout); got != wantBreaking {
				t.Errorf("%d results, want %d:\n%s", got, wantBreaking, r.stdout)
			}
		})
	}
	server := []string{serverEnvFlag("ok"), "--", os.Args[0], "-test.run=^$"}
	for format, count := range machineFormatChecks {
		if format == "json" {
			continue // check's own JSON report, tested with check
		}
		t.Run("check "+format, func(t *testing.T) {
			r := mcplint(t, runOpts{}, append([]string{"check", "--no-config", naming, "--fail-on=warning", "--format=" + format}, server...)...)
			r.want(t, 1)
			if got := count(t, "\n"+r.stdout); got != 1 {
				t.Errorf("%d results, want the one tool-name-valid finding:\n%s", got, r.stdout)
			}
		})
	}
	projectWithServers(t, "select: [tool-name-valid]\nfail-on: warning\n")
	r := mcplint(t, runOpts{}, "check", "--format=sarif")
	r.want(t, 1)
	if got := machineFormatChecks["sarif"](t, r.stdout); got != 2 {
		t.Errorf("%d SARIF results for two servers, want 2:\n%s", got, r.stdout)
	}
	for _, uri := range []string{`"uri": "alpha"`, `"uri": "beta"`} {
		if !strings.Contains(r.stdout, uri) {
			t.Errorf("SARIF lacks %s", uri)
		}
	}
}

// TestCheckQuiet: -q prints only the summary line.
func TestCheckQuiet(t *testing.T) {
	r := mcplint(t, runOpts{}, "check", "--no-config", naming, "-q", serverEnvFlag("ok"), "--", os.Args[0], "-test.run=^$")
	r.want(t, 0)
	if r.stdout != "0 errors, 1 warning, 0 infos in 1 file\n" {
		t.Errorf("check -q printed %q", r.stdout)
	}
}
