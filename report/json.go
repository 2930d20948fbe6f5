package report

import (
	"encoding/json"
	"io"
	"slices"

	"github.com/mcplint/mcplint/consumer"
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
	// RefusedBy and AlteredBy are the IDs of the consumers (package
	// consumer) that refuse, or silently alter, what was found.
	RefusedBy []string `json:"refusedBy,omitempty"`
	AlteredBy []string `json:"alteredBy,omitempty"`
	// AlsoRules are the other rules that reported the same problem here,
	// merged into this finding.
	AlsoRules []string `json:"alsoRules,omitempty"`
}

// JSONSummary counts the findings of the JSON format.
type JSONSummary struct {
	Errors        int `json:"errors"`
	Warnings      int `json:"warnings"`
	Infos         int `json:"infos"`
	Fixable       int `json:"fixable"`
	UnsafeFixable int `json:"unsafeFixable"`
	Files         int `json:"files"`
	// What the files publish: tools, and for a server's surface its
	// prompts, resources and resource templates.
	Tools             int `json:"tools"`
	Prompts           int `json:"prompts"`
	Resources         int `json:"resources"`
	ResourceTemplates int `json:"resourceTemplates"`
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
			Tools: s.Tools, Prompts: s.Prompts, Resources: s.Resources, ResourceTemplates: s.Templates,
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
				RefusedBy: consumerIDs(d.Consumers, false), AlteredBy: consumerIDs(d.Consumers, true),
				AlsoRules: d.Merged,
			})
		}
	}
	return r
}

// fullMessage is the message with the consumers it concerns, for the
// formats that have one text field per finding.
func fullMessage(d *lint.Diagnostic) string {
	if note := d.ConsumerNote(); note != "" {
		return d.Message + " (" + note + ")"
	}
	return d.Message
}

func consumerIDs(rs []consumer.Refusal, mangles bool) []string {
	var out []string
	for _, r := range rs {
		if r.Mangles == mangles && !slices.Contains(out, string(r.Consumer)) {
			out = append(out, string(r.Consumer))
		}
	}
	return out
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
