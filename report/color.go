package report

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
)

// ColorMode is the --color setting.
type ColorMode int

const (
	ColorAuto ColorMode = iota
	ColorAlways
	ColorNever
)

// ParseColorMode reads "auto", "always" or "never".
func ParseColorMode(s string) (ColorMode, error) {
	switch s {
	case "auto", "":
		return ColorAuto, nil
	case "always":
		return ColorAlways, nil
	case "never":
		return ColorNever, nil
	}
	return 0, fmt.Errorf("unknown colour mode %q (want auto, always or never)", s)
}

// Enabled decides whether output is coloured. An explicit "always" or
// "never" (--color) wins over every variable, as https://no-color.org and
// https://force-color.org both ask of command-line arguments. Under "auto":
//
//   - NO_COLOR set to a non-empty value turns colour off
//     (https://no-color.org), and wins over FORCE_COLOR, as in CPython
//     (Lib/_colorize.py, can_colorize: NO_COLOR is read before FORCE_COLOR;
//     https://docs.python.org/3/using/cmdline.html#using-on-controlling-color).
//     Node.js lets FORCE_COLOR win instead; a user who exported NO_COLOR
//     asked for no colour, and a CI template's FORCE_COLOR should not undo it.
//   - FORCE_COLOR "0" or "false" turns colour off, and any other non-empty
//     value on, even when the output is not a terminal (a CI log that
//     renders colour): the values Node.js reads
//     (https://nodejs.org/api/cli.html#force_color1-2-3, where "0" and
//     "false" give tty.getColorDepth 1, no colour), and the presence that
//     https://force-color.org asks for otherwise.
//   - Otherwise a terminal is coloured unless TERM is "dumb".
//
// An empty variable counts as unset, as both conventions say.
//
// fatih/color makes the same decision once, at start-up, for os.Stdout only;
// the report may go to standard error or to any writer, so the decision is
// taken here, per writer, and forced on each color.Color.
func (m ColorMode) Enabled(terminal bool, getenv func(string) string) bool {
	switch m {
	case ColorAlways:
		return true
	case ColorNever:
		return false
	}
	if getenv("NO_COLOR") != "" {
		return false
	}
	switch f := getenv("FORCE_COLOR"); {
	case f == "0" || strings.EqualFold(f, "false"):
		return false
	case f != "":
		return true
	}
	return terminal && getenv("TERM") != "dumb"
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}
