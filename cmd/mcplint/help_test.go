package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/rules"
)

// helpOf runs `mcplint PATH... --help` with the real catalogue, the help
// wrapped at width (0: not a terminal).
func helpOf(t *testing.T, width int, path []string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errOut,
		getenv: func(string) string { return "" }, catalogue: rules.All, helpWidth: width,
	}
	if code := e.run(context.Background(), append(append([]string{"mcplint"}, path...), "--help")); code != 0 || errOut.Len() > 0 {
		t.Fatalf("mcplint %s --help: exit %d\n%s", strings.Join(path, " "), code, errOut.String())
	}
	return out.String()
}

// helpPaths lists the command paths of every command, the root's first.
func helpPaths() [][]string {
	// The completion command is added when the command line is run.
	paths := [][]string{{"completion"}}
	walkCommands((&env{catalogue: rules.All}).app(), nil, func(path []string, c *cli.Command) {
		if c.Name != "help" {
			paths = append(paths, path[1:])
		}
	})
	return paths
}

// TestHelpGolden holds the help of every command at 80 columns, the width
// of help that is not on a terminal, to testdata/help/*.golden (-update
// rewrites them; review each line).
func TestHelpGolden(t *testing.T) {
	paths := helpPaths()
	if len(paths) < 10 {
		t.Fatalf("only %d commands", len(paths))
	}
	for _, path := range paths {
		name := strings.Join(append([]string{"mcplint"}, path...), "-")
		t.Run(name, func(t *testing.T) {
			got := helpOf(t, 0, path)
			for i, line := range strings.Split(got, "\n") {
				if n := utf8.RuneCountInString(line); n > defaultHelpWidth {
					t.Errorf("line %d is %d columns: %q", i+1, n, line)
				}
			}
			testenv.Golden(t, filepath.Join("testdata", "help", name+".golden"), got, *update)
		})
	}
}

// TestHelpFitsTheTerminal checks that help is wrapped to the terminal's
// width: no line is wider than it, unless it is one word too long to
// break (a flag's name, a URL).
func TestHelpFitsTheTerminal(t *testing.T) {
	for _, width := range []int{60, 100, 132} {
		for _, path := range helpPaths() {
			for _, line := range strings.Split(helpOf(t, width, path), "\n") {
				if utf8.RuneCountInString(line) > width && len(strings.Fields(line)) > 1 {
					t.Errorf("mcplint %s --help at %d columns: %q", strings.Join(path, " "), width, line)
				}
			}
		}
	}
	if wide, narrow := helpOf(t, 132, []string{"fix"}), helpOf(t, 0, []string{"fix"}); strings.Count(wide, "\n") >= strings.Count(narrow, "\n") {
		t.Error("help at 132 columns is no shorter than at 80: the terminal's width is not used")
	}
}
