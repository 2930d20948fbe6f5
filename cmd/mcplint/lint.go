package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/baseline"
	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/manifest"
	"github.com/mcplint/mcplint/report"
)

const lintDescription = `Reads each FILE ("-" or no FILE: standard input) and reports what the
selected rules find. Several files are linted independently and reported
together; a file that cannot be read or parsed is reported on standard error
(exit status 2) and the others are still linted.

The default rules are the packs ` + "`mcp`" + ` (what the MCP specification demands
for --protocol) and ` + "`robust`" + ` (valid schemas that fail in practice).
` + "`mcplint rules`" + ` lists every rule; ` + "`mcplint rules ID`" + ` explains one.`

func (e *env) lintCommand() *cli.Command {
	return &cli.Command{
		Name:         "lint",
		Usage:        "report problems in tool manifests",
		ArgsUsage:    "[FILE...]",
		Description:  lintDescription,
		OnUsageError: onUsageError,
		Flags: append(append([]cli.Flag{
			reportFormatFlag("standard output"),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text format: print only the summary line, and nothing when nothing is found"},
			&cli.StringFlag{Name: "baseline", Usage: "report only the findings that are not in the baseline `FILE` (see --write-baseline)"},
			&cli.StringFlag{Name: "write-baseline", Usage: "record today's findings in the baseline `FILE` and exit 0; later runs with --baseline FILE report only new ones"},
		}, append(projectFlags(), fileLimitFlags()...)...), e.selectionFlags()...),
		Action: e.lint,
	}
}

func (e *env) lint(_ context.Context, cmd *cli.Command) error {
	outs, color, set, err := e.reportSettings(cmd, e.stdoutTTY)
	if err != nil {
		return err
	}
	if err := e.readFileLimits(cmd); err != nil {
		return err
	}
	min := set.failOn
	// SARIF carries each fix's edits; the other formats only name fixes.
	set.lint.FixEdits = slices.ContainsFunc(outs, func(o reportOutput) bool { return o.format == "sarif" })
	linter, err := lint.New(e.catalogue, set.lint)
	if err != nil {
		return &usageError{err: err}
	}
	var base *baseline.Baseline
	if p := cmd.String("baseline"); p != "" {
		if base, err = baseline.Read(p); err != nil {
			return &usageError{err: err}
		}
	}
	files, err := set.files(e, cmd.Args().Slice())
	if err != nil {
		return err
	}
	if len(outs) == 1 && outs[0].path == "" && base == nil && cmd.String("write-baseline") == "" {
		switch outs[0].format {
		case "text":
			return e.lintStreaming(linter, files, report.NewTextStream(e.stdout, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet")}), min)
		case "json":
			return e.lintStreaming(linter, files, report.NewJSONStream(e.stdout), min)
		}
	}
	var (
		done []report.File
		errs []error
	)
	for _, path := range files {
		m, err := e.load(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		diags, err := linter.Lint(m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if base != nil {
			diags = base.Filter(baseline.Dir(cmd.String("baseline")), diags)
		}
		done = append(done, report.File{Manifest: m, Diagnostics: diags})
	}
	if p := cmd.String("write-baseline"); p != "" {
		return e.writeBaseline(p, done, errs)
	}
	rc := reportContext{rules: linter.Rules, command: "lint", configPath: set.configPath()}
	err = e.writeOutputs(outs, e.stdout, color, func(w io.Writer, format string, color bool) error {
		if format == "text" {
			return report.WriteText(w, done, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet")})
		}
		return e.writeReport(w, format, done, rc)
	})
	if err != nil {
		return err
	}
	return outcome(done, errs, min)
}

// reportStream is a report written as the findings come.
type reportStream interface {
	Start(*manifest.Manifest)
	Write([]lint.Diagnostic)
	End()
	Close() error
	Summary() report.Summary
}

// lintStreaming is lint writing its one report (text or JSON, to standard
// output) as the tools are linted, which is all most runs ask for:
// holding every finding until the end took a 16 MB manifest's run more
// memory than its source. One file is loaded at a time; a file that
// cannot be read is reported at the end, as in every run.
func (e *env) lintStreaming(linter *lint.Linter, files []string, ts reportStream, min lint.Severity) error {
	var errs []error
	for _, path := range files {
		m, err := e.load(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ts.Start(m)
		if err := linter.LintEach(context.Background(), m, ts.Write); err != nil {
			errs = append(errs, err)
			continue
		}
		ts.End()
	}
	if err := ts.Close(); err != nil {
		return err
	}
	if len(errs) > 0 {
		return &inputErrors{errs: errs}
	}
	if ts.Summary().Reaches(min) {
		return errFindings
	}
	return nil
}

// outcome turns what a run found into its exit: input errors first, then
// --fail-on.
func outcome(files []report.File, errs []error, min lint.Severity) error {
	if len(errs) > 0 {
		return &inputErrors{errs: errs}
	}
	if report.Summarize(files).Reaches(min) {
		return errFindings
	}
	return nil
}

// writeBaseline records the findings of a run; a run with input errors
// records nothing, since its baseline would miss the unreadable files'.
func (e *env) writeBaseline(path string, files []report.File, errs []error) error {
	if len(errs) > 0 {
		return &inputErrors{errs: errs}
	}
	var all []lint.Diagnostic
	for _, f := range files {
		all = append(all, f.Diagnostics...)
	}
	if err := baseline.New(baseline.Dir(path), all).Write(path); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "mcplint: recorded %d findings in %s\n", len(all), path)
	return nil
}
