package report

import (
	"fmt"
	"strings"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// File is one linted source and what was found in it. The manifest is the
// one the diagnostics' positions refer to (after `mcplint fix`, the fixed
// one).
type File struct {
	Manifest    *manifest.Manifest
	Diagnostics []lint.Diagnostic
}

// Summary counts the findings of a run.
type Summary struct {
	Errors, Warnings, Infos int
	// Fixable counts findings with a safe fix; UnsafeFixable those with an
	// unsafe one.
	Fixable, UnsafeFixable int
	Files                  int
	// Tools, Prompts, Resources and Templates count what the files
	// publish (prompts, resources and resource templates come with a
	// server's saved surface).
	Tools, Prompts, Resources, Templates int
	// Applied counts the fixes `mcplint fix` applied; Summarize leaves it
	// zero for the caller to fill in.
	Applied int
	// ContextTokens estimates the tokens the files' tool definitions take
	// in a model's context (package tokens); Context has each file's.
	ContextTokens int
	Context       []FileContext
}

// Summarize counts the findings of files.
func Summarize(files []File) Summary {
	var s Summary
	for _, f := range files {
		s.addFile(f.Manifest)
		s.add(f.Diagnostics)
	}
	return s
}

// addFile counts a file and what it publishes (m may be nil).
func (s *Summary) addFile(m *manifest.Manifest) {
	s.Files++
	if m != nil {
		s.Tools += len(m.Tools)
		s.Prompts += len(m.Prompts)
		s.Resources += len(m.Resources)
		s.Templates += len(m.Templates)
		s.addContext(m)
	}
}

// add counts findings.
func (s *Summary) add(ds []lint.Diagnostic) {
	for i := range ds {
		d := &ds[i]
		switch d.Severity {
		case lint.Error:
			s.Errors++
		case lint.Warning:
			s.Warnings++
		case lint.Info:
			s.Infos++
		}
		switch d.FixKind() {
		case lint.SafeFix:
			s.Fixable++
		case lint.UnsafeFix:
			s.UnsafeFixable++
		}
	}
}

// Total is the number of findings.
func (s Summary) Total() int { return s.Errors + s.Warnings + s.Infos }

// Reaches reports whether a finding is at least as severe as min. A zero min
// (--fail-on never) is never reached.
func (s Summary) Reaches(min lint.Severity) bool {
	switch min {
	case lint.Info:
		return s.Total() > 0
	case lint.Warning:
		return s.Errors+s.Warnings > 0
	case lint.Error:
		return s.Errors > 0
	}
	return false
}

// String is the last line of the text format, such as
// "1 error, 2 warnings, 0 infos in 1 file (1 fixable)".
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s, %s in %s",
		count(s.Errors, "error"), count(s.Warnings, "warning"), count(s.Infos, "info"), count(s.Files, "file"))
	var notes []string
	if s.Applied > 0 {
		notes = append(notes, count(s.Applied, "fix")+" applied")
	}
	switch {
	case s.Fixable > 0 && s.UnsafeFixable > 0:
		notes = append(notes, fmt.Sprintf("%d fixable, %d more with --unsafe-fixes", s.Fixable, s.UnsafeFixable))
	case s.Fixable > 0:
		notes = append(notes, fmt.Sprintf("%d fixable", s.Fixable))
	case s.UnsafeFixable > 0:
		notes = append(notes, fmt.Sprintf("%d fixable with --unsafe-fixes", s.UnsafeFixable))
	}
	if len(notes) > 0 {
		b.WriteString(" (" + strings.Join(notes, ", ") + ")")
	}
	return b.String()
}

// count says how many of noun: "1 error", "2 fixes".
func count(n int, noun string) string {
	many := noun + "s"
	if strings.HasSuffix(noun, "x") {
		many = noun + "es"
	}
	return fmt.Sprintf("%d %s", n, english.Plural(n, noun, many))
}
