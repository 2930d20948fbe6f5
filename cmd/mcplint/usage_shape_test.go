package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// errorShape is the one shape of every user error: one line, "mcplint: ",
// the place when there is one (FILE:LINE:COL), what is wrong, then after
// "; " what to do.
var errorShape = regexp.MustCompile(`^mcplint: ([^\n]+:\d+:\d+: )?[^\n;]+; [^\n]+\n$`)

// oneDash finds a long flag written with one dash, as Go's flag package
// writes it.
var oneDash = regexp.MustCompile(`(^|[\s"'(\x60])-[a-z][a-z0-9]+(-[a-z0-9]+)*\b`)

// checkErrorShape fails t unless stderr is one user error in the shape.
func checkErrorShape(t *testing.T, what string, r result) {
	t.Helper()
	if r.code != exitError {
		t.Errorf("%s: exit %d, want %d; stderr:\n%s", what, r.code, exitError, r.stderr)
		return
	}
	if !errorShape.MatchString(r.stderr) {
		t.Errorf("%s: not one line \"mcplint: [FILE:LINE:COL: ]what is wrong; what to do\":\n%s", what, r.stderr)
	}
	if m := oneDash.FindString(r.stderr); m != "" {
		t.Errorf("%s: a flag with one dash (%q):\n%s", what, strings.TrimSpace(m), r.stderr)
	}
}

// walkCommands visits every command of the tree with its path of names.
func walkCommands(c *cli.Command, path []string, visit func(path []string, c *cli.Command)) {
	path = append(path[:len(path):len(path)], c.Name)
	visit(path, c)
	for _, sub := range c.Commands {
		walkCommands(sub, path, visit)
	}
}

// TestEveryFlagErrorHasOneShape gives every flag of every command a wrong
// value (a bool a word that is not one, another flag its value left out
// or a value it cannot take), and checks that each error is one line in
// the shape of every user error, exit status 2. The walk is built from the
// command tree, so a new flag is covered without a new case.
func TestEveryFlagErrorHasOneShape(t *testing.T) {
	t.Chdir(t.TempDir()) // what a command that takes a value runs on writes here
	e := &env{catalogue: catalogue()}
	flags := 0
	walkCommands(e.app(), nil, func(path []string, c *cli.Command) {
		for _, f := range c.Flags {
			names := f.Names()
			name := "--" + names[0]
			if names[0] == "help" {
				continue // --help=maybe is a bool too; covered below
			}
			flags++
			var tries [][]string
			if _, ok := f.(*cli.BoolFlag); ok {
				tries = append(tries, []string{name + "=maybe"})
			} else {
				tries = append(tries, []string{name}, []string{name + "=" + wrongValue(f)})
			}
			for i, try := range tries {
				args := append(append([]string(nil), path[1:]...), try...)
				// A manifest on standard input, for a command that reads one.
				r := mcplint(t, runOpts{stdin: `{"tools": []}`}, args...)
				what := fmt.Sprintf("mcplint %s", strings.Join(args, " "))
				if i == 1 && r.code != exitError {
					continue // a value a free-form flag takes
				}
				checkErrorShape(t, what, r)
				// An error about the flag or its value names the flag; a
				// value it takes may fail something else (the input).
				if (i == 0 || strings.Contains(r.stderr, wrongValue(f))) && !strings.Contains(r.stderr, name) {
					t.Errorf("%s: the error does not name %s:\n%s", what, name, r.stderr)
				}
			}
		}
	})
	if flags < 50 {
		t.Fatalf("only %d flags walked", flags)
	}
}

// wrongValue is a value f cannot take.
func wrongValue(f cli.Flag) string {
	switch f.(type) {
	case *cli.DurationFlag:
		return "5" // no unit
	case *cli.IntFlag, *cli.UintFlag, *cli.Int64Flag, *cli.FloatFlag:
		return "many"
	}
	return "/nonexistent/%bad%"
}
