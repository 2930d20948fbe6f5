package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/worktree"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
)

// generatedPath refuses, before anything runs, a path where mcplint would
// write a file it generates (a report, a saved listing, a converted file,
// a baseline, a lock file) when a symbolic link in the work tree leads it
// out of the tree (package worktree). flag names the path in the error.
func generatedPath(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := worktree.Output(path); err != nil {
		sep := " "
		if strings.HasSuffix(flag, "=") {
			sep = ""
		}
		return &inputErrors{errs: []error{fmt.Errorf("%s%s%s: %w", flag, sep, guard.Text(path), err)}}
	}
	return nil
}

// failuresOf are a run's input errors as its reports list them (see
// report.Failure): at the file and position they name, when they do.
func failuresOf(errs []error) []report.Failure {
	var out []report.Failure
	for _, err := range errs {
		f := report.Failure{Path: "mcplint", Message: withLimitHint(err).Error()}
		var (
			me *manifest.Error
			pe *fs.PathError
		)
		switch {
		case errors.As(err, &me):
			f.Path, f.Line, f.Column = me.Path, me.Pos.Line, me.Pos.Column
		case errors.As(err, &pe):
			f.Path = pe.Path
		}
		out = append(out, f)
	}
	return out
}

// writeFailedOutputs writes, for a run that failed before it had anything
// to report, the machine formats of outs saying that it failed (the text
// and github formats say it on standard error, with the exit status); a
// report file left from an earlier run must not stand for this one.
func (e *env) writeFailedOutputs(outs []reportOutput, stream io.Writer, rc reportContext) error {
	var failing []reportOutput
	for _, o := range outs {
		if o.format != "text" && o.format != "github" {
			failing = append(failing, o)
		}
	}
	return e.writeOutputs(failing, stream, false, func(w io.Writer, format string, _ bool) error {
		return e.writeReport(w, format, nil, rc)
	})
}
