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
	// Fixed is what `mcplint fix` fixed; Summarize leaves it zero for the
	// caller to fill in.
	Fixed Fixed
	// ContextTokens estimates the tokens the files' tool definitions take
	// in a model's context (package tokens); Context has each file's.
	ContextTokens int
	Context       []FileContext
}

// Fixed is what a run of `mcplint fix` fixed, and where it put it.
type Fixed struct {
	// Findings counts the findings fixed, in the unit `mcplint lint`
	// counts fixable ones in: a finding whose fix uncovered more to fix
	// counts once.
	Findings int
	// Written says the fixed files were written (-w); otherwise the fixed
	// manifest, or with Diff a patch, was only printed.
	Written, Diff bool
}

// String is the note of the summary line: "3 fixed and written", "3 fixed
// in the output" or "3 to fix with -w" (a diff, nothing written); "" when
// nothing was fixed.
func (f Fixed) String() string {
	switch {
	case f.Findings == 0:
		return ""
	case f.Written:
		return fmt.Sprintf("%d fixed and written", f.Findings)
	case f.Diff:
		return fmt.Sprintf("%d to fix with -w", f.Findings)
	}
	return fmt.Sprintf("%d fixed in the output", f.Findings)
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
	if note := s.Fixed.String(); note != "" {
		notes = append(notes, note)
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
func count(n int, noun string) string { return english.Count(n, noun) }
