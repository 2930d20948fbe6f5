package report

import (
	"encoding/json"
	"io"

	"github.com/mcplint/mcplint/lint"
)

// JSONVersion is the version of the JSON report format.
const JSONVersion = 1

// JSONReport is the JSON format's document (see the package doc).
type JSONReport struct {
	Version     int              `json:"version"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	Summary     JSONSummary      `json:"summary"`
}

// JSONDiagnostic is one finding of the JSON format.
type JSONDiagnostic struct {
	Rule      string `json:"rule"`
	Severity  string `json:"severity"`
	Tool      string `json:"tool"`
	ToolIndex int    `json:"toolIndex"`
	Pointer   string `json:"pointer"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	Message   string `json:"message"`
	// Fix is "none", "safe" or "unsafe".
	Fix string `json:"fix"`
}

// JSONSummary counts the findings of the JSON format.
type JSONSummary struct {
	Errors        int `json:"errors"`
	Warnings      int `json:"warnings"`
	Infos         int `json:"infos"`
	Fixable       int `json:"fixable"`
	UnsafeFixable int `json:"unsafeFixable"`
	Files         int `json:"files"`
}

// NewJSONReport builds the JSON format's document.
func NewJSONReport(files []File) JSONReport {
	s := Summarize(files)
	r := JSONReport{
		Version:     JSONVersion,
		Diagnostics: []JSONDiagnostic{},
		Summary: JSONSummary{
			Errors: s.Errors, Warnings: s.Warnings, Infos: s.Infos,
			Fixable: s.Fixable, UnsafeFixable: s.UnsafeFixable, Files: s.Files,
		},
	}
	for _, f := range files {
		for i := range f.Diagnostics {
			d := &f.Diagnostics[i]
			r.Diagnostics = append(r.Diagnostics, JSONDiagnostic{
				Rule: d.Rule, Severity: d.Severity.String(),
				Tool: d.Tool, ToolIndex: d.ToolIndex, Pointer: d.Pointer,
				File: d.File, Line: d.Line, Column: d.Column,
				Message: d.Message, Fix: fixName(d.FixKind()),
			})
		}
	}
	return r
}

func fixName(k lint.FixKind) string {
	switch k {
	case lint.SafeFix:
		return "safe"
	case lint.UnsafeFix:
		return "unsafe"
	}
	return "none"
}

// WriteJSON writes the JSON format, indented, ending with a newline.
func WriteJSON(w io.Writer, files []File) error {
	return writeJSON(w, NewJSONReport(files))
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	// Messages quote schemas; "<" and "&" escaped as \u003c would only
	// make them harder to read.
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
