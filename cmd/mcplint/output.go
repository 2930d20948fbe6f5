package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/atomicfile"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/redact"
	"github.com/mcpfit/mcplint/report"
)

// reportFormats are the formats of a findings report.
var reportFormats = []string{"text", "json", "sarif", "github", "gitlab", "junit", "checkstyle", "matrix"}

// reportOutput is one --format: a format and the file it goes to, "" for
// the command's report stream (standard output; standard error for fix).
type reportOutput struct {
	format, path string
}

// formatList collects --format values. It is not a string slice flag,
// which would split a PATH at its commas.
type formatList struct{ specs []string }

func (f *formatList) Set(s string) error { f.specs = append(f.specs, s); return nil }
func (f *formatList) String() string     { return strings.Join(f.specs, " ") }
func (f *formatList) Get() any           { return f.specs }

// reportFormatFlag is --format for a findings report written to stream
// ("standard output" or "standard error").
func reportFormatFlag(stream string) cli.Flag {
	return &cli.GenericFlag{
		Name:  "format",
		Value: &formatList{},
		Usage: "report `FORMAT`: " + strings.Join(reportFormats, ", ") + " (default text; github: workflow commands, and a summary appended to $GITHUB_STEP_SUMMARY when set; matrix: which clients take each tool, a table, in Markdown when written to a file). " +
			"Repeatable: FORMAT=PATH writes that format to the file PATH, FORMAT alone to " + stream + ", so one run can write several",
	}
}

// showInfosFlag asks the text format for every info in full.
func showInfosFlag() cli.Flag {
	return &cli.BoolFlag{Name: "show-infos", Usage: "text format: write every info in full (by default each rule's infos are summed up in one line; JSON, SARIF and the other formats always have every finding)"}
}

// showInfos says whether the text format writes infos in full: when asked,
// or when an info fails the run (--fail-on info).
func showInfos(cmd *cli.Command, failOn lint.Severity) bool {
	return cmd.Bool("show-infos") || failOn == lint.Info
}

// reportOutputs reads the --format flags: text on the stream when none is
// given. Two outputs cannot share a destination, except that github's
// workflow commands may share the stream with one other format (the
// Actions runner reads its lines and leaves the rest in the log).
func reportOutputs(cmd *cli.Command) ([]reportOutput, error) {
	specs, _ := cmd.Value("format").([]string)
	if len(specs) == 0 {
		return []reportOutput{{format: "text"}}, nil
	}
	var outs []reportOutput
	onStream := 0
	for _, spec := range specs {
		name, path, hasPath := strings.Cut(spec, "=")
		if !slices.Contains(reportFormats, name) {
			if s := lint.Closest(name, reportFormats); s != "" {
				return nil, usagef("--format: unknown format %q; did you mean %q?", name, s)
			}
			return nil, usagef("--format: unknown format %q; want %s, each alone or as FORMAT=PATH", name, orList(reportFormats))
		}
		if hasPath && path == "" {
			return nil, usagef("--format %s=: the PATH after = is empty; name the file to write, or drop =", name)
		}
		o := reportOutput{format: name, path: path}
		for _, prev := range outs {
			if prev.path != "" && o.path != "" && filepath.Clean(prev.path) == filepath.Clean(o.path) {
				return nil, usagef("--format %s=%s and --format %s=%s write the same file; give each its own", prev.format, prev.path, o.format, o.path)
			}
			if prev.format == o.format && prev.path == "" && o.path == "" {
				return nil, usagef("--format %s is given twice; give it once", o.format)
			}
		}
		if o.path == "" && o.format != "github" {
			onStream++
		}
		if err := generatedPath("--format "+name+"=", path); err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	if onStream > 1 {
		return nil, usagef("--format: only one format besides github can be written to the report stream; write the others to files with FORMAT=PATH")
	}
	return outs, nil
}

// renderFunc writes the report in one format to w, coloured when color
// is set (text only).
type renderFunc func(w io.Writer, format string, color bool) error

// writeOutputs writes the report in every format of outs: to stream (in
// colour when color says so), or to its file, which is replaced whole
// (through a temporary file) and whose folder is created when missing. A
// file is masked as the streams are: a SARIF file of a live check must not
// carry the secrets its text report hides.
//
// The stream is guarded (package guard), except for the github format:
// its workflow commands are mcplint's, built from guarded values, and must
// reach the runner. A text report written to a file is guarded as the
// stream is: it may be printed into a CI log.
func (e *env) writeOutputs(outs []reportOutput, stream io.Writer, color bool, render renderFunc) error {
	for _, o := range outs {
		if o.path == "" {
			w := stream
			if o.format == "github" {
				w = unguarded(stream)
			}
			if err := render(w, o.format, color); err != nil {
				return err
			}
			continue
		}
		var buf bytes.Buffer
		var w io.Writer = &buf
		var g *guard.Writer
		if o.format == "text" || o.format == "matrix" {
			// The Markdown matrix is printed into logs too (the Action
			// appends it to the job summary with cat).
			g = guard.NewWriter(&buf, false)
			w = g
		}
		format := o.format
		if format == "matrix" {
			format = matrixMarkdown // a file is for a job summary or a pull request
		}
		if err := render(w, format, false); err != nil {
			return err
		}
		if g != nil {
			if err := g.Flush(); err != nil {
				return err
			}
		}
		if dir := filepath.Dir(o.path); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("--format %s=%s: %w", o.format, o.path, err)
			}
		}
		if err := atomicfile.Write(o.path, e.secrets.Bytes(buf.Bytes())); err != nil {
			return fmt.Errorf("--format %s=%s: %w", o.format, o.path, err)
		}
	}
	return nil
}

// matrixMarkdown is the matrix format written to a file: Markdown.
const matrixMarkdown = "matrix.md"

// reportContext is what the machine formats need besides the findings:
// the rules that ran, and what names the run for SARIF's automationDetails.
type reportContext struct {
	rules []*lint.Rule
	// command is the mcplint command that ran ("lint", "check", ...), and
	// configPath the configuration file it read ("" for none).
	command, configPath string
	// failures are what the run could not check, which the machine
	// formats say (report.Failure).
	failures []report.Failure
}

// writeReport writes the findings in a machine format; text is the
// caller's, since each command words it differently.
func (e *env) writeReport(w io.Writer, format string, files []report.File, rc reportContext) error {
	switch format {
	case "json":
		return report.WriteJSON(w, files, rc.failures...)
	case "sarif":
		root, err := sourceRoot()
		if err != nil {
			return err
		}
		return report.WriteSARIF(w, files, report.SARIFOptions{
			Rules: rc.rules, Version: version(), SourceRoot: root,
			AutomationID: automationID(rc.command, rc.configPath, root),
			Failures:     rc.failures,
		})
	case "gitlab":
		root, err := sourceRoot()
		if err != nil {
			return err
		}
		return report.WriteGitLab(w, files, report.GitLabOptions{SourceRoot: root, Failures: rc.failures})
	case "junit":
		return report.WriteJUnit(w, files, rc.failures...)
	case "checkstyle":
		return report.WriteCheckstyle(w, files, rc.failures...)
	case "matrix":
		return report.WriteMatrix(w, report.NewMatrix(files))
	case matrixMarkdown:
		return report.WriteMatrixMarkdown(w, report.NewMatrix(files))
	case "github":
		root, err := sourceRoot()
		if err != nil {
			return err
		}
		if err := report.WriteGitHub(w, files, report.GitHubOptions{SourceRoot: root}); err != nil {
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

// sourceRoot is the folder machine formats write paths relative to: the
// root of the git work tree holding the current directory (code scanning
// and GitLab place findings by paths from there), or the current
// directory outside one.
func sourceRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd, nil
		}
		dir = parent
	}
}

// automationID names a run for SARIF's automationDetails.id:
// "mcplint/COMMAND/" and, when a configuration file was read, its path
// from root before the final "/", so that code scanning keeps the results
// of different commands or configurations apart (it takes the category
// from the id up to its last "/").
func automationID(command, configPath, root string) string {
	id := "mcplint/" + command + "/"
	if configPath == "" {
		return id
	}
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return id
	}
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		configPath = rel
	}
	return id + filepath.ToSlash(configPath) + "/"
}
