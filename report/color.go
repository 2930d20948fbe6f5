package report

import (
	"fmt"
	"io"
	"os"

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

// Enabled decides whether output is coloured. "auto" colours any output
// when FORCE_COLOR is set to a non-empty value (https://force-color.org; it
// wins over NO_COLOR, as in Node.js, since CI logs that render colour are
// not terminals), and otherwise a terminal unless NO_COLOR is set to a
// non-empty value (https://no-color.org) or TERM is "dumb". An explicit
// "always" or "never" wins over both variables, as those conventions ask.
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
	if getenv("FORCE_COLOR") != "" {
		return true
	}
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}
