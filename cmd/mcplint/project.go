package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/config"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
)

// projectFlags are the flags that read the project's configuration file.
func projectFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "read the configuration from `FILE` instead of the .mcplint.yaml (.yml, .json) found in the current directory or above"},
		&cli.BoolFlag{Name: "no-config", Usage: "read no configuration file"},
	}
}

// projectConfig loads the configuration file named by --config, or the
// one found from the current directory up (config.Search: in the user's
// own directories, up to the repository's root; a file it refuses is
// named on standard error); nil when there is none or with --no-config.
// A file that does not validate is a usage error (status 2).
func (e *env) projectConfig(cmd *cli.Command) (*config.File, error) {
	if cmd.Bool("no-config") {
		if cmd.IsSet("config") {
			return nil, usagef("--config and --no-config contradict each other; give one of them")
		}
		return nil, nil
	}
	path := cmd.String("config")
	if path == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		found, err := config.Search(wd)
		if err != nil {
			return nil, err
		}
		for _, r := range found.Refused {
			fmt.Fprintf(e.stderr, "mcplint: not reading %s: %s; a configuration is read only from your own directories up to the repository's root (give --config %s to read it anyway)\n",
				guard.Text(r.Path), r.Reason, guard.Text(r.Path))
		}
		if path = found.Path; path == "" {
			return nil, nil
		}
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	f, err := config.Load(path)
	var ce *config.Error
	var ces config.Errors
	switch {
	case err == nil:
		return f, nil
	case errors.As(err, &ce) || errors.As(err, &ces):
		return nil, &usageError{err: err} // at its place in the file
	case cmd.IsSet("config"):
		return nil, fileFlagError("--config", path, err, "name an existing file, or leave --config out to read the "+config.Names[0]+" found from the current folder up")
	}
	return nil, &usageError{err: err}
}

// settings are what a run is configured with: the file's, overridden by
// the flags.
type settings struct {
	file   *config.File
	lint   lint.Config
	failOn lint.Severity
}

// settings merges the configuration file and the selection flags: a flag
// given on the command line replaces the file's value (--select, --protocol,
// --fail-on), or adds to it (--extend-select, --ignore, --option, which
// wins for the same rule option).
// reportSettings reads what lint and fix share before they run: the report
// format, whether colour is on for the output that is a terminal when tty
// is, and the project settings with the command line over them.
func (e *env) reportSettings(cmd *cli.Command, tty bool) (outs []reportOutput, color bool, set *settings, err error) {
	if outs, err = reportOutputs(cmd); err != nil {
		return
	}
	if color, err = e.colorOn(cmd, tty); err != nil {
		return
	}
	set, err = e.settings(cmd)
	return
}

func (e *env) settings(cmd *cli.Command) (*settings, error) {
	f, err := e.projectConfig(cmd)
	if err != nil {
		return nil, err
	}
	flags, err := e.config(cmd)
	if err != nil {
		return nil, err
	}
	s := &settings{file: f, lint: flags}
	if f != nil {
		base, err := f.LintConfig(e.catalogue)
		if err != nil {
			return nil, &usageError{err: err}
		}
		if !cmd.IsSet("select") {
			s.lint.Select = base.Select
		}
		if !cmd.IsSet("protocol") && base.Protocol != "" {
			s.lint.Protocol = base.Protocol
		}
		s.lint.ExtendSelect = append(base.ExtendSelect, flags.ExtendSelect...)
		s.lint.Ignore = append(base.Ignore, flags.Ignore...)
		s.lint.Severity = base.Severity
		s.lint.Suppress = base.Suppress
		opts := base.Options
		for id, o := range flags.Options {
			if opts == nil {
				opts = map[string]map[string]any{}
			}
			if opts[id] == nil {
				opts[id] = map[string]any{}
			}
			for k, v := range o {
				opts[id][k] = v
			}
		}
		s.lint.Options = opts
	}
	if f != nil && !cmd.IsSet("fail-on") && f.FailOn != "" {
		if f.FailOn != "never" {
			s.failOn, err = lint.ParseSeverity(f.FailOn)
			if err != nil {
				return nil, usagef("%s: fail-on: %v; want error, warning, info or never", f.Path, err)
			}
		}
	} else if s.failOn, err = failOn(cmd); err != nil {
		return nil, err
	}
	return s, nil
}

// configPath is the configuration file's path, "" when none was read.
func (s *settings) configPath() string {
	if s.file == nil {
		return ""
	}
	return s.file.Path
}

// files returns the manifests to read: those named, or with none named,
// the configuration's "files" when it has some, else standard input.
func (s *settings) files(e *env, args []string) ([]string, error) {
	if len(args) > 0 || s.file == nil || len(s.file.Files) == 0 {
		return e.paths(args)
	}
	found, err := s.file.ManifestFiles()
	if err != nil {
		return nil, &usageError{err: err}
	}
	if len(found) == 0 {
		return nil, usagef("%s: no file matches files: %s; fix the globs, or name the files on the command line", s.file.Path, strings.Join(s.file.Files, ", "))
	}
	wd, err := os.Getwd()
	if err != nil {
		return found, nil
	}
	for i, p := range found {
		if rel, err := filepath.Rel(wd, p); err == nil {
			found[i] = rel
		}
	}
	return found, nil
}
