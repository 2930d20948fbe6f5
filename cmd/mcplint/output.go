package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/redact"
	"github.com/mcplint/mcplint/report"
)

// reportFormats are the formats of a findings report.
var reportFormats = []string{"text", "json", "sarif", "github", "junit", "checkstyle"}

func reportFormatFlag() cli.Flag {
	return &cli.StringFlag{
		Name: "format", Value: "text",
		Usage: "output `FORMAT`: " + strings.Join(reportFormats, ", ") + " (github: workflow commands, and a summary appended to $GITHUB_STEP_SUMMARY when set)",
	}
}

// reportFormat reads --format for a findings report.
func reportFormat(cmd *cli.Command) (string, error) {
	f := cmd.String("format")
	if !slices.Contains(reportFormats, f) {
		return "", usagef("--format: unknown format %q (want %s)", f, strings.Join(reportFormats, ", "))
	}
	return f, nil
}

// writeReport writes the findings in a machine format; text is the
// caller's, since lint and fix word it differently.
func (e *env) writeReport(w io.Writer, format string, files []report.File, rules []*lint.Rule) error {
	switch format {
	case "json":
		return report.WriteJSON(w, files)
	case "sarif":
		return report.WriteSARIF(w, files, report.SARIFOptions{Rules: rules, Version: version()})
	case "junit":
		return report.WriteJUnit(w, files)
	case "checkstyle":
		return report.WriteCheckstyle(w, files)
	case "github":
		if err := report.WriteGitHub(w, files); err != nil {
			return err
		}
		return e.appendStepSummary(files)
	}
	return fmt.Errorf("internal error: format %q", format)
}

// appendStepSummary appends the Markdown summary to $GITHUB_STEP_SUMMARY,
// as GitHub Actions documents for a step's job summary.
func (e *env) appendStepSummary(files []report.File) error {
	path := e.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	w := redact.NewWriter(e.secrets, f)
	err = report.WriteGitHubSummary(w, files)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	return f.Close()
}
