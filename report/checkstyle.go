package report

import (
	"encoding/xml"
	"io"
	"path/filepath"

	"github.com/mcpfit/mcplint/guard"
)

// Checkstyle XML (the format of checkstyle's XMLLogger, read by reviewdog's
// -f=checkstyle, Jenkins' warnings-ng and many editors): one file element a
// manifest, one error element a finding, with its line, column, severity
// (error, warning or info), message, and source "mcplint.RULE".
type checkstyleDoc struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr,omitempty"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// WriteCheckstyle writes the findings as Checkstyle XML; every file linted
// is listed, with no error element when clean, and each failure of the
// run (see Failure). Texts pass guard.Text, as in WriteJUnit.
func WriteCheckstyle(w io.Writer, files []File, failures ...Failure) error {
	doc := checkstyleDoc{Version: "4.3"}
	for _, f := range files {
		cf := checkstyleFile{Name: guard.Text(filepath.ToSlash(f.Manifest.Path))}
		for i := range f.Diagnostics {
			d := &f.Diagnostics[i]
			msg := fullMessage(d)
			if d.Tool != "" {
				msg = "tool \"" + shown(d.Tool) + "\": " + msg
			}
			cf.Errors = append(cf.Errors, checkstyleError{
				Line: d.Line, Column: d.Column, Severity: d.Severity.String(),
				Message: guard.Text(msg), Source: "mcplint." + d.Rule,
			})
		}
		doc.Files = append(doc.Files, cf)
	}
	doc.Files = append(doc.Files, checkstyleFailed(failures)...)
	return writeXML(w, doc)
}
