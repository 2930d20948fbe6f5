package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/atomicfile"
	"github.com/mcplint/mcplint/internal/english"
	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/report"
)

const fixDescription = `Applies the fixes of the selected rules, to a fixed point, and prints the
corrected manifest on standard output; everything the fixes do not touch is
kept byte for byte. With -w the files are rewritten in place instead (through
a temporary file renamed over the original, keeping its permissions; on error
the original is untouched); with --diff a unified diff is printed, which
` + "`git apply`" + ` accepts. Several files need -w or --diff.

Safe fixes keep the tool's contract; unsafe ones change it and run only with
--unsafe-fixes. What remains after fixing is reported on standard error (its
positions are in the fixed text), and --fail-on applies to it.`

func (e *env) fixCommand() *cli.Command {
	return &cli.Command{
		Name:         "fix",
		Usage:        "fix problems in tool manifests",
		ArgsUsage:    "[FILE...]",
		Description:  fixDescription,
		OnUsageError: onUsageError,
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "write", Aliases: []string{"w"}, Usage: "rewrite the files in place instead of printing the result"},
			&cli.BoolFlag{Name: "diff", Usage: "print a unified diff of the changes instead of the result"},
			&cli.BoolFlag{Name: "unsafe-fixes", Usage: "apply unsafe fixes too (they change what the tool accepts or means)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "report only the summary of what remains, and nothing when nothing does"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT` of the report of what remains, on standard error: " + strings.Join(reportFormats, ", ")},
		}, append(projectFlags(), e.selectionFlags()...)...),
		Action: e.fix,
	}
}

func (e *env) fix(_ context.Context, cmd *cli.Command) error {
	fmtName, color, set, err := e.reportSettings(cmd, e.stderrTTY)
	if err != nil {
		return err
	}
	min := set.failOn
	cfg := set.lint
	cfg.UnsafeFixes = cmd.Bool("unsafe-fixes")
	linter, err := lint.New(e.catalogue, cfg)
	if err != nil {
		return &usageError{err: err}
	}
	files, err := set.files(e, cmd.Args().Slice())
	if err != nil {
		return err
	}
	write, diff := cmd.Bool("write"), cmd.Bool("diff")
	if len(files) > 1 && !write && !diff {
		return usagef("%d files: standard output can carry only one manifest; use -w to rewrite them in place or --diff to print a patch", len(files))
	}
	if write {
		for _, f := range files {
			if f == "-" {
				return usagef("-w cannot rewrite standard input; drop -w to print the result")
			}
		}
	}
	var (
		done        []report.File
		errs        []error
		applied     int
		unconverged []string
	)
	for _, path := range files {
		m, err := e.load(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		res, err := linter.Fix(m)
		if err != nil {
			errs = append(errs, fmt.Errorf("fix %s: %w", m.Path, err))
			continue
		}
		changed := !bytes.Equal(res.Src, m.Src)
		if diff && changed {
			d, err := report.Diff(path, m.Src, res.Src)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if _, err := io.WriteString(e.stdout, d); err != nil {
				return err
			}
		}
		if write && changed {
			if err := atomicfile.Write(path, res.Src); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		if !write && !diff {
			if _, err := e.stdout.Write(res.Src); err != nil {
				return err
			}
		}
		applied += res.Applied
		done = append(done, report.File{Manifest: res.Manifest, Diagnostics: res.Remaining})
		if len(res.Oscillating) > 0 {
			unconverged = append(unconverged, fmt.Sprintf("%s: the fixes did not settle in %d rounds: those of %s keep changing what the others fixed, so the result is the last round's and some findings stay; fix again with one of these rules ignored (--ignore), and please report this",
				m.Path, lint.MaxFixRounds, english.Join(res.Oscillating)))
		}
	}
	if fmtName == "text" {
		err = report.WriteText(e.stderr, done, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet"), Applied: applied})
	} else {
		err = e.writeReport(e.stderr, fmtName, done, linter.Rules)
	}
	if err != nil {
		return err
	}
	for _, msg := range unconverged {
		fmt.Fprintf(e.stderr, "mcplint: %s\n", msg)
	}
	if err := outcome(done, errs, min); err != nil || len(unconverged) == 0 {
		return err
	}
	return errFindings
}
