package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/atomicfile"
	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/report"
)

const fixDescription = `Applies the fixes of the selected rules, to a fixed point, and prints the
corrected manifest on standard output; everything the fixes do not touch is
kept byte for byte. With -w the files are rewritten in place instead (through
a temporary file renamed over the original, keeping its permissions; on error
the original is untouched); with --diff a unified diff is printed, which
` + "`git apply`" + ` accepts from the current directory (a file named by an absolute
path outside it is named from the root of its git work tree, where
` + "`git apply`" + ` accepts it). Several files need -w or --diff.

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
			reportFormatFlag("standard error (the report of what remains)"),
		}, append(projectFlags(), e.selectionFlags()...)...),
		Action: e.fix,
	}
}

func (e *env) fix(_ context.Context, cmd *cli.Command) error {
	outs, color, set, err := e.reportSettings(cmd, e.stderrTTY)
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
		done    []report.File
		errs    []error
		applied int
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
			d, err := report.Diff(diffName(path), m.Src, res.Src)
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
	}
	rc := reportContext{rules: linter.Rules, command: "fix", configPath: set.configPath()}
	err = writeOutputs(outs, e.stderr, color, func(w io.Writer, format string, color bool) error {
		if format == "text" {
			return report.WriteText(w, done, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet"), Applied: applied})
		}
		return e.writeReport(w, format, done, rc)
	})
	if err != nil {
		return err
	}
	return outcome(done, errs, min)
}

// diffName is how --diff names path in the patch's headers, which git
// apply refuses when absolute: relative to the current directory when the
// file is under it, else relative to the root of the git work tree that
// holds it, else without its leading separator (for patch -p1 run from
// the file system's root).
func diffName(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	for dir := filepath.Dir(path); ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			if rel, err := filepath.Rel(dir, path); err == nil {
				return rel
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return strings.TrimLeft(filepath.ToSlash(path[len(filepath.VolumeName(path)):]), "/")
}
