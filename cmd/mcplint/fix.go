package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/atomicfile"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/report"
)

const fixDescription = `Applies the fixes of the selected rules, to a fixed point, and prints the
corrected manifest on standard output; everything the fixes do not touch is
kept byte for byte. With -w the files are rewritten in place instead, all or
nothing: every file is read and fixed first, and none is written if one
fails or changed since it was read; each is replaced through a temporary
file renamed over it, keeping its owner and mode (a file with several hard
links is rewritten in place). With --diff a unified diff is printed, which
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
			showInfosFlag(),
			reportFormatFlag("standard error (the report of what remains)"),
		}, append(append(projectFlags(), fileLimitFlags()...), e.selectionFlags()...)...),
		Action: e.fix,
	}
}

func (e *env) fix(ctx context.Context, cmd *cli.Command) error {
	outs, color, set, err := e.reportSettings(cmd, e.stderrTTY)
	if err != nil {
		return err
	}
	if err := e.readFileLimits(cmd); err != nil {
		return err
	}
	min := set.failOn
	cfg := set.lint
	cfg.UnsafeFixes = cmd.Bool("unsafe-fixes")
	// SARIF carries the edits of every remaining fix, unsafe ones too.
	cfg.FixEdits = slices.ContainsFunc(outs, func(o reportOutput) bool { return o.format == "sarif" })
	linter, err := lint.New(e.catalogue, cfg)
	if err != nil {
		return selectionError(err)
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
		fixed       int
		written     bool
		batch       atomicfile.Batch
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
			d, err := report.Diff(diffName(path), m.Src, res.Src)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			// The diff is data for git apply and patch, byte for byte.
			if _, err := io.WriteString(unguarded(e.stdout), d); err != nil {
				return err
			}
		}
		if write && changed {
			batch.Add(path, m.Src, res.Src)
		}
		if !write && !diff {
			if _, err := unguarded(e.stdout).Write(res.Src); err != nil {
				return err
			}
		}
		fixed += res.Fixed
		done = append(done, report.File{Manifest: res.Manifest, Diagnostics: res.Remaining})
		if len(res.Oscillating) > 0 {
			unconverged = append(unconverged, fmt.Sprintf("%s: the fixes did not settle in %d rounds: those of %s keep changing what the others fixed, so the result is the last round's and some findings stay; fix again with one of these rules ignored (--ignore), and please report this",
				m.Path, lint.MaxFixRounds, english.Join(res.Oscillating)))
		}
	}
	if write && batch.Len() > 0 {
		// All or nothing: one file that did not load or fix stops them all.
		if len(errs) > 0 {
			errs = append(errs, fmt.Errorf("%w: %d of %d files could not be fixed, and -w writes every file or none", atomicfile.ErrNothingWritten, len(errs), len(files)))
		} else if err := e.commit(ctx, &batch); err != nil {
			errs = append(errs, err)
		} else {
			written = true
		}
	}
	note := report.Fixed{Findings: fixed, Written: written, Diff: diff}
	if write && !written {
		note.Findings = 0 // nothing was written, nor printed
	}
	rc := reportContext{rules: linter.Rules, command: "fix", configPath: set.configPath(), failures: failuresOf(errs)}
	err = e.writeOutputs(outs, e.stderr, color, func(w io.Writer, format string, color bool) error {
		if format == "text" {
			return report.WriteText(w, done, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet"),
				Fixed: note, ShowInfos: showInfos(cmd, min)})
		}
		return e.writeReport(w, format, done, rc)
	})
	if err != nil {
		return err
	}
	for _, msg := range unconverged {
		fmt.Fprintf(e.stderr, "mcplint: %s\n", guard.Text(msg))
	}
	if err := outcome(done, errs, min); err != nil || len(unconverged) == 0 {
		return err
	}
	return errFindings
}

// commit writes a batch of fixed files. From here on a Ctrl-C or SIGTERM
// cancels the batch instead of killing the process, so that the files
// staged so far are removed and none is written; a second signal kills.
func (e *env) commit(ctx context.Context, b *atomicfile.Batch) error {
	err := e.protect(ctx, b.Commit)
	var ce *atomicfile.ChangedError
	switch {
	case errors.As(err, &ce):
		return fmt.Errorf("%w; no file was written: run mcplint fix again", ce)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted: %w", atomicfile.ErrNothingWritten)
	}
	return err
}

// protect runs f with SIGINT and SIGTERM cancelling its context rather
// than ending the process: a write in progress ends cleanly.
func (e *env) protect(ctx context.Context, f func(context.Context) error) error {
	ctx, stop := stoppable(ctx)
	defer stop()
	return f(ctx)
}

// writeFile writes one file (--save, convert -o) atomically, with the
// signals held off until it is done, so that no temporary file is left.
func (e *env) writeFile(ctx context.Context, path string, data []byte) error {
	return e.protect(ctx, func(ctx context.Context) error {
		if err := atomicfile.Write(path, data); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted (%s was written)", path)
		}
		return nil
	})
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
