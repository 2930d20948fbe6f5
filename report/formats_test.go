package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
	"github.com/mcpfit/mcplint/rules"
)

// The peers' files, npm packages pinned in testdata/npm (`make test`
// installs them; without them the tests skip, or fail under `make test`):
// a format checked only against itself proves little.
const (
	peersFolder     = "report/testdata/npm"
	sarifSchemaPath = "node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"
	junitReader     = "testdata/junit-read.js"
)

const sample = `{
  "tools": [
    {
      "name": "list, items: é",
      "description": "Lists 100% of the items.",
      "inputSchema": {
        "properties": {}
      }
    },
    {
      "name": "ping",
      "inputSchema": {"type": "object", "properties": {}}
    }
  ]
}
`

// sampleFiles lints sample (with a finding of each severity and a safe
// fix) and a clean manifest, with the fixes' edits, as SARIF wants them.
func sampleFiles(t *testing.T) ([]report.File, *lint.Linter) {
	t.Helper()
	// The security pack too, so that its rules' security-severity is
	// checked against the schema.
	linter, err := lint.New(rules.All, lint.Config{ExtendSelect: []string{rules.SecurityPack}, FixEdits: true})
	if err != nil {
		t.Fatal(err)
	}
	var files []report.File
	for _, c := range []struct{ name, src string }{
		{"servers/sample.json", sample},
		{"clean.json", `{"tools": [{"name": "ok", "description": "Says ok.", "inputSchema": {"type": "object", "properties": {}}}]}`},
	} {
		m, err := manifest.Load(c.name, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		diags, err := linter.Lint(m)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, report.File{Manifest: m, Diagnostics: diags})
	}
	if len(files[0].Diagnostics) < 3 {
		t.Fatalf("the sample has too few findings to test with: %+v", files[0].Diagnostics)
	}
	return files, linter
}

func TestSARIFValidatesAgainstTheOfficialSchema(t *testing.T) {
	files, linter := sampleFiles(t)
	var buf bytes.Buffer
	if err := report.WriteSARIF(&buf, files, report.SARIFOptions{Rules: linter.Rules, Version: "v1.2.3", AutomationID: "mcplint/lint/"}); err != nil {
		t.Fatal(err)
	}
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
	c.AssertFormat()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("SARIF output does not follow the SARIF 2.1.0 schema: %v\n%s", err, buf.String())
	}

	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string
						HelpURI string
						Help    struct{ Markdown string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn, ByteOffset, ByteLength int }
					}
				}
				Fixes []struct {
					ArtifactChanges []struct {
						Replacements []struct {
							DeletedRegion   struct{ ByteOffset, ByteLength int }
							InsertedContent struct{ Text string }
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Tool.Driver.Rules) != len(linter.Rules) {
		t.Errorf("%d driver rules, want the %d that ran", len(run.Tool.Driver.Rules), len(linter.Rules))
	}
	want := files[0].Diagnostics
	if len(run.Results) != len(want) {
		t.Fatalf("%d results, want %d", len(run.Results), len(want))
	}
	src := files[0].Manifest.Src
	fixed := 0
	for i, r := range run.Results {
		d := want[i]
		if r.RuleID != d.Rule || run.Tool.Driver.Rules[r.RuleIndex].ID != d.Rule {
			t.Errorf("result %d: rule %q (index %d), want %q", i, r.RuleID, r.RuleIndex, d.Rule)
		}
		loc := r.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != "servers/sample.json" || loc.Region.StartLine != d.Line {
			t.Errorf("result %d: at %s:%d, want servers/sample.json:%d", i, loc.ArtifactLocation.URI, loc.Region.StartLine, d.Line)
		}
		for _, fix := range r.Fixes {
			// The replacement, applied to the source, must give a
			// manifest where this finding is gone.
			rep := fix.ArtifactChanges[0].Replacements[0]
			out := string(src[:rep.DeletedRegion.ByteOffset]) + rep.InsertedContent.Text + string(src[rep.DeletedRegion.ByteOffset+rep.DeletedRegion.ByteLength:])
			m, err := manifest.Load("fixed.json", []byte(out))
			if err != nil {
				t.Fatalf("result %d: the fix gives a manifest that does not load: %v\n%s", i, err, out)
			}
			after, err := linter.Lint(m)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range after {
				if a.Rule == d.Rule && a.Tool == d.Tool && a.RelPointer == d.RelPointer {
					t.Errorf("result %d: finding still there after its SARIF fix:\n%s", i, out)
				}
			}
			fixed++
		}
	}
	if fixed == 0 {
		t.Error("no result carries a fix")
	}
	// The column counts code points: "é" is one, though two bytes.
	for i, r := range run.Results {
		if want[i].Rule == "tool-name-valid" {
			reg := r.Locations[0].PhysicalLocation.Region
			if reg.EndColumn-reg.StartColumn != len([]rune(`"name": "list, items: é"`)) {
				t.Errorf("tool-name-valid region columns %d..%d, want the member's code points", reg.StartColumn, reg.EndColumn)
			}
		}
	}
	if r := run.Tool.Driver.Rules[0]; r.HelpURI != report.HelpURI(r.ID) || !strings.Contains(r.Help.Markdown, "## "+r.ID) && !strings.Contains(r.Help.Markdown, "### "+r.ID) {
		t.Errorf("rule %s: helpUri %q, help markdown %.60q", r.ID, r.HelpURI, r.Help.Markdown)
	}
}

func TestGitHubWorkflowCommands(t *testing.T) {
	m, err := manifest.Load("dir,a:b/tools.json", []byte(`{"tools": []}`))
	if err != nil {
		t.Fatal(err)
	}
	files := []report.File{{Manifest: m, Diagnostics: []lint.Diagnostic{
		// A line feed in a message is shown escaped, never a line of its
		// own, which the runner would read as a command.
		{Rule: "r-one", Severity: lint.Error, Tool: "t", File: m.Path, Line: 3, Column: 5, Message: "100% wrong\n::error::second line: a, b"},
		{Rule: "r-two", Severity: lint.Warning, File: m.Path, Line: 1, Column: 1, Message: "w"},
		{Rule: "r-three", Severity: lint.Info, File: m.Path, Line: 2, Column: 1, Message: "i", Fix: &lint.Fix{Safe: true}},
	}}}
	var buf bytes.Buffer
	if err := report.WriteGitHub(&buf, files, report.GitHubOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "::error file=dir%2Ca%3Ab/tools.json,line=3,col=5,title=mcplint r-one::tool \"t\": 100%25 wrong\\n::error::second line: a, b\n" +
		"::warning file=dir%2Ca%3Ab/tools.json,line=1,col=1,title=mcplint r-two::w\n" +
		"::notice file=dir%2Ca%3Ab/tools.json,line=2,col=1,title=mcplint r-three::i (fixable with `mcplint fix`)\n"
	if d := cmp.Diff(want, buf.String()); d != "" {
		t.Errorf("workflow commands (-want +got):\n%s", d)
	}

	buf.Reset()
	if err := report.WriteGitHubSummary(&buf, files); err != nil {
		t.Fatal(err)
	}
	sum := buf.String()
	for _, w := range []string{"### ❌ mcplint", "1 error, 1 warning, 1 info in 1 file", "| Severity | File | Line | Rule | Tool | Message |", "| error | `dir,a:b/tools.json` | 3 | [r-one](" + report.HelpURI("r-one") + ") | `t` | `100% wrong\\n::error::second line: a, b` |"} {
		if !strings.Contains(sum, w) {
			t.Errorf("summary lacks %q:\n%s", w, sum)
		}
	}
}

func TestJUnitReadByAJUnitParser(t *testing.T) {
	files, _ := sampleFiles(t)
	var buf bytes.Buffer
	if err := report.WriteJUnit(&buf, files); err != nil {
		t.Fatal(err)
	}
	// encoding/xml reads it back (well-formed, the elements and
	// attributes of the Jenkins/Ant JUnit schema)...
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Tests   int      `xml:"tests,attr"`
		Suites  []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	// ...and so does a JUnit reader used by CI dashboards.
	testenv.NPM(t, peersFolder)
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", junitReader, path).Output()
	if err != nil {
		t.Fatalf("node %s: %v", junitReader, err)
	}
	var got struct {
		Total, Passed, Failed int
		Suites                []struct {
			Name          string
			Total, Failed int
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	n := len(files[0].Diagnostics)
	if got.Total != n+1 || got.Failed != n || got.Passed != 1 || len(got.Suites) != 2 ||
		got.Suites[0].Name != "servers/sample.json" || got.Suites[0].Failed != n || got.Suites[1].Total != 1 {
		t.Errorf("the JUnit reader understood %s; want %d failed tests in servers/sample.json and 1 passed in clean.json", out, n)
	}
}

func TestCheckstyle(t *testing.T) {
	files, _ := sampleFiles(t)
	var buf bytes.Buffer
	if err := report.WriteCheckstyle(&buf, files); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"checkstyle"`
		Files   []struct {
			Name   string `xml:"name,attr"`
			Errors []struct {
				Line     int    `xml:"line,attr"`
				Column   int    `xml:"column,attr"`
				Severity string `xml:"severity,attr"`
				Source   string `xml:"source,attr"`
			} `xml:"error"`
		} `xml:"file"`
	}
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 2 || doc.Files[0].Name != "servers/sample.json" || len(doc.Files[1].Errors) != 0 {
		t.Fatalf("checkstyle files: %+v", doc.Files)
	}
	for i, e := range doc.Files[0].Errors {
		d := files[0].Diagnostics[i]
		if e.Line != d.Line || e.Column != d.Column || e.Severity != d.Severity.String() || e.Source != "mcplint."+d.Rule {
			t.Errorf("error %d: %+v, want %s at %d:%d", i, e, d.Rule, d.Line, d.Column)
		}
	}
}
