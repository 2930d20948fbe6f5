package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/lint"
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
		Flags: append([]cli.Flag{
			formatFlag(),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text format: print only the summary line, and nothing when nothing is found"},
		}, e.selectionFlags()...),
		Action: e.lint,
	}
}

func (e *env) lint(_ context.Context, cmd *cli.Command) error {
	fmtName, err := format(cmd)
	if err != nil {
		return err
	}
	min, err := failOn(cmd)
	if err != nil {
		return err
	}
	color, err := e.colorOn(cmd, e.stdoutTTY)
	if err != nil {
		return err
	}
	cfg, err := e.config(cmd)
	if err != nil {
		return err
	}
	linter, err := lint.New(e.catalogue, cfg)
	if err != nil {
		return &usageError{err: err}
	}
	files, err := e.paths(cmd.Args().Slice())
	if err != nil {
		return err
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
		done = append(done, report.File{Manifest: m, Diagnostics: diags})
	}
	if fmtName == "json" {
		err = report.WriteJSON(e.stdout, done)
	} else {
		err = report.WriteText(e.stdout, done, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet")})
	}
	if err != nil {
		return err
	}
	return outcome(done, errs, min)
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
