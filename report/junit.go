package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"

	"github.com/mcpfit/mcplint/guard"
)

// JUnit XML in the shape of the schema that Jenkins' JUnit plugin and Ant's
// junitreport read (testsuites > testsuite > testcase > failure), which CI
// dashboards (GitLab, Jenkins, Azure DevOps, CircleCI) accept: one
// testsuite a file, one failed testcase a finding, named after its rule and
// tool, and one passed testcase for a file with no finding, so that a clean
// run still shows as tests that passed.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the findings as JUnit XML, and the failures of the
// run (see Failure). Every text passes guard.Text (XML 1.0 has no way to
// carry most control characters, even as references: they read as their
// escapes), and the document is written through guard.NewXMLWriter.
func WriteJUnit(w io.Writer, files []File, failures ...Failure) error {
	doc := junitSuites{Name: "mcplint"}
	for _, f := range files {
		name := guard.Text(filepath.ToSlash(f.Manifest.Path))
		suite := junitSuite{Name: name, Time: "0"}
		for i := range f.Diagnostics {
			d := &f.Diagnostics[i]
			tool := guard.Text(shown(d.Tool))
			if tool == "" {
				tool = fmt.Sprintf("tool %d", d.ToolIndex)
			}
			msg := guard.Text(fullMessage(d))
			suite.Cases = append(suite.Cases, junitCase{
				Name:      fmt.Sprintf("%s: %s (%s)", d.Rule, tool, guard.Text(shown(d.Pointer))),
				Classname: name, Time: "0",
				Failure: &junitFailure{
					Message: msg, Type: d.Severity.String(),
					Text: fmt.Sprintf("%s:%d:%d: %s %s: %s\n%s", name, d.Line, d.Column, d.Severity, d.Rule, msg, HelpURI(d.Rule)),
				},
			})
			suite.Failures++
		}
		if len(suite.Cases) == 0 {
			suite.Cases = []junitCase{{Name: "mcplint", Classname: name, Time: "0"}}
		}
		suite.Tests = len(suite.Cases)
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Suites = append(doc.Suites, suite)
	}
	junitFailed(&doc, failures)
	return writeXML(w, doc)
}

// writeXML writes an XML document through guard.NewXMLWriter, with its
// header, indented by two spaces, ending with a newline.
func writeXML(w io.Writer, doc any) error {
	g := guard.NewXMLWriter(w)
	if _, err := io.WriteString(g, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(g)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if _, err := io.WriteString(g, "\n"); err != nil {
		return err
	}
	return g.Flush()
}
