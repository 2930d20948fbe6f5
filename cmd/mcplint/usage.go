package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
)

// Every user error is one line: "mcplint: FILE:LINE:COL: what is wrong;
// what to do" (without FILE:LINE:COL when no file is at fault), with a
// did-you-mean where a name was mistyped, and exit status 2; flags are
// written with two dashes, as they are documented. urfave/cli reports the
// mistakes of flag syntax in Go's flag package's words ("flag provided but
// not defined: -x", one dash); onUsageError puts them in that shape.

// usageError is a mistake on the command line.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// The messages of urfave/cli's flag parsing (command_parse.go, command.go).
const (
	flagUndefined = "flag provided but not defined: -"
	flagNoValue   = "flag needs an argument: "
)

var (
	flagInvalid  = regexp.MustCompile(`^invalid value "((?:[^"\\]|\\.)*)" for flag -(\S+): (.*)$`)
	flagRequired = regexp.MustCompile(`^Required flags? "([^"]+)" not set$`)
)

func onUsageError(_ context.Context, cmd *cli.Command, err error, _ bool) error {
	return &usageError{err: flagError(cmd, err)}
}

// flagError puts a flag parsing error of cmd in the shape of user errors.
func flagError(cmd *cli.Command, err error) error {
	msg := err.Error()
	help := fmt.Sprintf("'%s --help' lists its flags", cmd.FullName())
	if m := flagInvalid.FindStringSubmatch(msg); m != nil {
		name, value, why := m[2], m[1], m[3]
		f := findFlag(cmd, name)
		if hint := valueHint(f); hint != "" {
			return fmt.Errorf("%s: invalid value %q; %s", dashed(name), value, hint)
		}
		if strings.Contains(why, "; ") {
			return fmt.Errorf("%s: %s", dashed(name), why) // mcplint's own
		}
		return fmt.Errorf("%s: invalid value %q (%s); %s", dashed(name), value, why, flagHelp(cmd, name))
	}
	if m := flagRequired.FindStringSubmatch(msg); m != nil {
		var names []string
		for _, n := range strings.Split(m[1], ", ") {
			names = append(names, dashed(n))
		}
		return fmt.Errorf("%s is required; %s", strings.Join(names, ", "), flagHelp(cmd, strings.Split(m[1], ", ")[0]))
	}
	if name, ok := strings.CutPrefix(msg, flagNoValue); ok {
		name = strings.TrimLeft(name, "-")
		if hint := valueHint(findFlag(cmd, name)); hint != "" {
			return fmt.Errorf("%s needs a value; %s", dashed(name), hint)
		}
		return fmt.Errorf("%s needs a value; %s", dashed(name), flagHelp(cmd, name))
	}
	if name, ok := strings.CutPrefix(msg, flagUndefined); ok {
		return unknownFlag(cmd, name)
	}
	return fmt.Errorf("%s; %s", msg, help)
}

// unknownFlag is the error for a flag cmd does not have: the closest of
// its flags, or the other commands that have it, or its help.
func unknownFlag(cmd *cli.Command, name string) error {
	var names []string
	for _, f := range cmd.VisibleFlags() {
		for _, n := range f.Names() {
			if len(n) > 1 {
				names = append(names, n)
			}
		}
	}
	what := fmt.Sprintf("unknown flag %s", dashed(name))
	if s := lint.Closest(name, names); s != "" {
		return fmt.Errorf("%s; did you mean %s?", what, dashed(s))
	}
	var others []string
	for _, c := range cmd.Root().Commands {
		if c != cmd && !c.Hidden && findFlag(c, name) != nil {
			others = append(others, c.FullName())
		}
	}
	if len(others) > 0 {
		return fmt.Errorf("%s for %s; it is a flag of %s ('%s --help' lists the flags of this one)", what, cmd.FullName(), english.Join(others), cmd.FullName())
	}
	return fmt.Errorf("%s; '%s --help' lists the flags", what, cmd.FullName())
}

// findFlag returns cmd's flag named name (or with that alias), or nil.
func findFlag(cmd *cli.Command, name string) cli.Flag {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// valueHint says what a flag of a plain type takes, "" for the others,
// whose own messages say it.
func valueHint(f cli.Flag) string {
	switch f.(type) {
	case *cli.BoolFlag:
		return fmt.Sprintf("give true or false, or %s alone", dashed(f.Names()[0]))
	case *cli.DurationFlag:
		return "give a duration with its unit, such as 30s, 2m or 1m30s"
	case *cli.IntFlag, *cli.UintFlag, *cli.Int64Flag, *cli.Uint64Flag:
		return "give a whole number"
	}
	return ""
}

// flagHelp points at the help of a flag's command.
func flagHelp(cmd *cli.Command, name string) string {
	return fmt.Sprintf("'%s --help' says what %s takes", cmd.FullName(), dashed(name))
}

// dashed writes a flag as it is documented: --name, or -x for a letter.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// badChoice is the usage error for a value of a flag outside its choices
// (what names the kind of value): the closest choice, or all of them.
func badChoice(flag, what, value string, choices []string) error {
	msg := fmt.Sprintf("%s: unknown %s %q", flag, what, value)
	if s := lint.Closest(value, choices); s != "" {
		return usagef("%s; did you mean %q?", msg, s)
	}
	return usagef("%s; want %s", msg, orList(choices))
}

// orList lists choices as a sentence does: "a", "a or b", "a, b or c".
func orList(choices []string) string {
	if len(choices) < 2 {
		return strings.Join(choices, "")
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// unknownName is the usage error for a mistyped name, suggesting the
// closest of names.
func unknownName(what, name string, names []string, help string) error {
	msg := fmt.Sprintf("unknown %s %q", what, name)
	if s := lint.Closest(name, names); s != "" {
		return &usageError{err: fmt.Errorf("%s; did you mean %q?", msg, s)}
	}
	return &usageError{err: errors.New(msg + "; want " + orList(names) + " ('" + help + " --help' says more)")}
}

// selectionError is the usage error for a selection the engine refused:
// a name in --select, --extend-select or --ignore is said of its flag.
func selectionError(err error) error {
	var ne *lint.NameError
	if errors.As(err, &ne) && !ne.Suppression {
		return usagef("--%s: %s", ne.Key, ne.Problem())
	}
	return &usageError{err: err}
}

// fileFlagError is the usage error for the file a flag names that cannot
// be read; todo says what to do about a missing one.
func fileFlagError(flag, path string, err error, todo string) error {
	if errors.Is(err, fs.ErrNotExist) {
		return usagef("%s %s: no such file; %s", flag, path, todo)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return usagef("%s %s: %v; check the file, or name another", flag, path, pe.Err)
	}
	if strings.Contains(err.Error(), "; ") {
		return usagef("%s: %v", flag, err)
	}
	return usagef("%s: %v; check the file, or name another", flag, err)
}

// withHint completes an error that says what is wrong but not what to do
// (a file that cannot be opened, a syntax error of a manifest) with the
// obvious next step, and the limit flags' hint (withLimitHint).
func withHint(err error) error {
	err = withLimitHint(err)
	if strings.Contains(err.Error(), "; ") || strings.Contains(err.Error(), "\n") {
		return err
	}
	var me *manifest.Error
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w; check the path", err)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%w; check its permissions", err)
	case errors.As(err, &pe):
		return fmt.Errorf("%w; check the path", err)
	case errors.As(err, &me) && me.Pos.Line > 0:
		return fmt.Errorf("%w; correct the file there", err)
	}
	return err
}
