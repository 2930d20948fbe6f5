package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/baseline"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
)

const lintDescription = `Reads each FILE ("-" or no FILE: standard input) and reports what the
selected rules find. Several files are linted independently and reported
together; a file that cannot be read or parsed is reported on standard error
(exit status 2) and the others are still linted.

The default rules are %s.
` + "`mcplint rules`" + ` lists every rule; ` + "`mcplint rules ID`" + ` explains one.`

func (e *env) lintCommand() *cli.Command {
	return &cli.Command{
		Name:         "lint",
		Usage:        "report problems in tool manifests",
		ArgsUsage:    "[FILE...]",
		Description:  fmt.Sprintf(lintDescription, lint.DefaultDescription(e.catalogue)),
		OnUsageError: onUsageError,
		Flags: append(append([]cli.Flag{
			reportFormatFlag("standard output"),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text format: print only the summary line, and nothing when nothing is found"},
			showInfosFlag(),
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
	if err := generatedPath("--write-baseline", cmd.String("write-baseline")); err != nil {
		return err
	}
	var base *baseline.Baseline
	if p := cmd.String("baseline"); p != "" {
		if base, err = baseline.Read(p); err != nil {
			return fileFlagError("--baseline", p, err, "record today's findings in one with --write-baseline "+p)
		}
	}
	// The one report of a run, text or JSON to standard output, is written
	// as the tools are linted: holding every finding until the end took a
	// 16 MB manifest's run more memory than its source. Other runs hold
	// them, up to --max-findings.
	streamed := len(outs) == 1 && outs[0].path == "" && base == nil && cmd.String("write-baseline") == "" &&
		(outs[0].format == "text" || outs[0].format == "json")
	if streamed {
		set.lint.MaxFindings = 0
	}
	linter, err := lint.New(e.catalogue, set.lint)
	if err != nil {
		return selectionError(err)
	}
	files, err := set.files(e, cmd.Args().Slice())
	if err != nil {
		return err
	}
	var stream reportStream
	if streamed {
		switch outs[0].format {
		case "text":
			stream = report.NewTextStream(e.stdout, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet"), ShowInfos: showInfos(cmd, min)})
		case "json":
			stream = report.NewJSONStream(e.stdout)
		}
	}
	if stream != nil {
		errs := e.lintFiles(linter, files, stream)
		if js, ok := stream.(*report.JSONStream); ok {
			js.Failed(failuresOf(errs))
		}
		if err := stream.Close(); err != nil {
			return err
		}
		return summaryOutcome(stream.Summary(), errs, min)
	}
	held := &heldReport{base: base, dir: baseline.Dir(cmd.String("baseline"))}
	errs := e.lintFiles(linter, files, held)
	done := held.files
	if p := cmd.String("write-baseline"); p != "" {
		return e.writeBaseline(p, done, errs)
	}
	rc := reportContext{rules: linter.Rules, command: "lint", configPath: set.configPath(), failures: failuresOf(errs)}
	err = e.writeOutputs(outs, e.stdout, color, func(w io.Writer, format string, color bool) error {
		if format == "text" {
			return report.WriteText(w, done, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet"), ShowInfos: showInfos(cmd, min)})
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
	fileSink
	Close() error
	Summary() report.Summary
}

// fileSink takes the findings of one file after another (see TextStream).
type fileSink interface {
	Start(*manifest.Manifest)
	Write([]lint.Diagnostic)
	End()
}

// lintFiles lints files one after the other into s, and returns the input
// errors, which are reported at the end of every run. A file that cannot
// be read or linted is not ended in s.
func (e *env) lintFiles(linter *lint.Linter, files []string, s fileSink) []error {
	var errs []error
	for _, path := range files {
		m, err := e.load(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.Start(m)
		if err := linter.LintEach(context.Background(), m, s.Write); err != nil {
			errs = append(errs, err)
			continue
		}
		s.End()
	}
	return errs
}

// heldReport is a fileSink that keeps each file's findings, less those
// of the baseline, for the runs that need them all: several reports, SARIF
// and the other formats, a baseline to write.
type heldReport struct {
	base  *baseline.Baseline // nil for none
	dir   string             // the baseline's directory
	files []report.File
	cur   report.File
}

func (h *heldReport) Start(m *manifest.Manifest) { h.cur = report.File{Manifest: m} }

func (h *heldReport) Write(ds []lint.Diagnostic) {
	h.cur.Diagnostics = append(h.cur.Diagnostics, ds...)
}

func (h *heldReport) End() {
	if h.base != nil {
		h.cur.Diagnostics = h.base.Filter(h.dir, h.cur.Diagnostics)
	}
	h.files = append(h.files, h.cur)
	h.cur = report.File{}
}

// outcome turns what a run found into its exit: input errors first, then
// --fail-on.
func outcome(files []report.File, errs []error, min lint.Severity) error {
	return summaryOutcome(report.Summarize(files), errs, min)
}

func summaryOutcome(sum report.Summary, errs []error, min lint.Severity) error {
	if len(errs) > 0 {
		return &inputErrors{errs: errs}
	}
	if sum.Reaches(min) {
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
		return fmt.Errorf("--write-baseline: %w", err)
	}
	fmt.Fprintf(e.stderr, "mcplint: recorded %s in %s\n", english.Count(len(all), "finding"), guard.Text(path))
	return nil
}
