package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/report"
)

// failures are a file that could not be read, at a place, and a server
// that could not be checked.
var failures = []report.Failure{
	{Path: "broken.json", Line: 3, Column: 5, Message: "broken.json:3:5: invalid character '}' looking for beginning of value"},
	{Path: "remote server", Message: "remote server: the server did not answer before the timeout"},
}

// TestSARIFFailedRun: a failed run's SARIF says so, as SARIF 2.1.0
// (§3.20.14, appendix I) and code scanning read it: an invocation with
// executionSuccessful false and each failure as an error
// toolExecutionNotification (at its file and line when it has one), so
// that its missing results are not read as fixed alerts. A run without
// failure says it succeeded. Both follow the official schema.
func TestSARIFFailedRun(t *testing.T) {
	files, linter := sampleFiles(t)
	type notification struct {
		Level     string
		Message   struct{ Text string }
		Locations []struct {
			PhysicalLocation struct {
				ArtifactLocation struct{ URI string }
				Region           struct{ StartLine, StartColumn int }
			}
		}
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful        *bool
				ToolExecutionNotifications []notification
			}
			Results []json.RawMessage
		}
	}
	for _, fs := range [][]report.Failure{nil, failures} {
		var buf bytes.Buffer
		if err := report.WriteSARIF(&buf, files, report.SARIFOptions{Rules: linter.Rules, Version: "v1", Failures: fs}); err != nil {
			t.Fatal(err)
		}
		validSARIF(t, buf.Bytes())
		if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		inv := log.Runs[0].Invocations
		if len(inv) != 1 || inv[0].ExecutionSuccessful == nil || *inv[0].ExecutionSuccessful != (fs == nil) {
			t.Fatalf("failures %d: invocations %+v", len(fs), inv)
		}
		if len(log.Runs[0].Results) == 0 {
			t.Errorf("the results of the files that were read are gone")
		}
		if fs == nil {
			if len(inv[0].ToolExecutionNotifications) != 0 {
				t.Errorf("notifications of a run that succeeded: %+v", inv[0].ToolExecutionNotifications)
			}
			continue
		}
		n := inv[0].ToolExecutionNotifications
		if len(n) != 2 || n[0].Level != "error" || n[0].Message.Text != failures[0].Message || n[1].Message.Text != failures[1].Message {
			t.Fatalf("notifications %+v", n)
		}
		if len(n[0].Locations) != 1 || n[0].Locations[0].PhysicalLocation.ArtifactLocation.URI != "broken.json" || n[0].Locations[0].PhysicalLocation.Region.StartLine != 3 {
			t.Errorf("the failure's place: %+v", n[0].Locations)
		}
		if len(n[1].Locations) != 0 {
			t.Errorf("a server has no file: %+v", n[1].Locations)
		}
	}
}

func validSARIF(t *testing.T, b []byte) {
	t.Helper()
	schemaFile, err := os.Open(filepath.Join(testenv.NPM(t, peersFolder), sarifSchemaPath))
	if err != nil {
		t.Fatal(err)
	}
	defer schemaFile.Close()
	doc, err := sjs.UnmarshalJSON(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	c := sjs.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("not SARIF 2.1.0: %v\n%s", err, b)
	}
}

// TestJSONFailedRun: the JSON report lists what could not be checked
// under "errors" (absent when nothing failed), written whole or streamed.
func TestJSONFailedRun(t *testing.T) {
	files, _ := sampleFiles(t)
	var whole, streamed bytes.Buffer
	if err := report.WriteJSON(&whole, files, failures...); err != nil {
		t.Fatal(err)
	}
	s := report.NewJSONStream(&streamed)
	for _, f := range files {
		s.Start(f.Manifest)
		s.Write(f.Diagnostics)
		s.End()
	}
	s.Failed(failures)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if whole.String() != streamed.String() {
		t.Errorf("streamed:\n%s\nwhole:\n%s", streamed.String(), whole.String())
	}
	var doc struct {
		Errors []struct {
			File         string
			Line, Column int
			Message      string
		}
	}
	if err := json.Unmarshal(whole.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Errors) != 2 || doc.Errors[0].File != "broken.json" || doc.Errors[0].Line != 3 || doc.Errors[0].Column != 5 || doc.Errors[1].File != "remote server" {
		t.Errorf("errors %+v", doc.Errors)
	}
	var clean bytes.Buffer
	if err := report.WriteJSON(&clean, files); err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(clean.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	if _, ok := top["errors"]; ok {
		t.Errorf("a run without failure has errors:\n%s", clean.String())
	}
}

// TestJUnitFailedRun: each failure is a test case in error, which a JUnit
// reader counts as not passed.
func TestJUnitFailedRun(t *testing.T) {
	files, _ := sampleFiles(t)
	var buf bytes.Buffer
	if err := report.WriteJUnit(&buf, files, failures...); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Errors int `xml:"errors,attr"`
		Suites []struct {
			Name   string `xml:"name,attr"`
			Errors int    `xml:"errors,attr"`
			Cases  []struct {
				Error *struct {
					Message string `xml:"message,attr"`
				} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	last := doc.Suites[len(doc.Suites)-2:]
	if doc.Errors != 2 || last[0].Name != "broken.json" || last[0].Errors != 1 || last[0].Cases[0].Error == nil ||
		last[0].Cases[0].Error.Message != failures[0].Message || last[1].Name != "remote server" {
		t.Fatalf("JUnit:\n%s", buf.String())
	}
	testenv.NPM(t, peersFolder)
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", junitReader, path).Output()
	if err != nil {
		t.Fatalf("node %s: %v", junitReader, err)
	}
	var got struct{ Total, Passed, Failed, Errors int }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got.Passed != 1 || got.Total-got.Passed != len(files[0].Diagnostics)+2 {
		t.Errorf("the JUnit reader understood %s", out)
	}
}

// TestCheckstyleAndGitLabFailedRun: a failure is an error of the
// checkstyle report at its file, and a blocker issue of GitLab's, so that
// neither reads as a clean run.
func TestCheckstyleAndGitLabFailedRun(t *testing.T) {
	files, _ := sampleFiles(t)
	var cs bytes.Buffer
	if err := report.WriteCheckstyle(&cs, files, failures...); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []struct {
			Name   string `xml:"name,attr"`
			Errors []struct {
				Line     int    `xml:"line,attr"`
				Severity string `xml:"severity,attr"`
				Message  string `xml:"message,attr"`
				Source   string `xml:"source,attr"`
			} `xml:"error"`
		} `xml:"file"`
	}
	if err := xml.Unmarshal(cs.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	f := doc.Files[len(doc.Files)-2]
	if f.Name != "broken.json" || len(f.Errors) != 1 || f.Errors[0].Line != 3 || f.Errors[0].Severity != "error" || f.Errors[0].Source != "mcplint.failure" {
		t.Errorf("checkstyle:\n%s", cs.String())
	}
	var gl bytes.Buffer
	if err := report.WriteGitLab(&gl, files, report.GitLabOptions{Failures: failures}); err != nil {
		t.Fatal(err)
	}
	var issues []struct {
		CheckName string `json:"check_name"`
		Severity  string
		Location  struct {
			Path  string
			Lines struct{ Begin int }
		}
	}
	if err := json.Unmarshal(gl.Bytes(), &issues); err != nil {
		t.Fatal(err)
	}
	last := issues[len(issues)-2:]
	if last[0].CheckName != "mcplint-failure" || last[0].Severity != "blocker" || last[0].Location.Path != "broken.json" || last[0].Location.Lines.Begin != 3 || last[1].Location.Lines.Begin != 1 {
		t.Errorf("gitlab:\n%s", gl.String())
	}
}
