package main

import (
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"
)

// Help is wrapped to the width of the terminal it is printed on, and to 80
// columns anywhere else (a pipe, a file, a CI log), as gh and go help are.
// urfave/cli's help templates call a "wrap" template function that a
// HelpPrinterCustom caller may replace (or set the width of, with
// "wrapAt"); mcplint gives its own, which keeps the indentation of an
// indented line (an example command) on the lines it wraps onto, where
// the library's starts them at the margin. The flags are laid out in a
// column the wrapped usage keeps to: the library's flag template wraps
// name and usage as one string and then aligns them with a tab, which
// pushes lines past the width.

// helpWidth is the key of the root command's Metadata holding the width
// help is wrapped at.
const helpWidth = "mcplint.helpWidth"

// defaultHelpWidth is the width of help that is not on a terminal.
const defaultHelpWidth = 80

func init() {
	cli.HelpPrinter = printHelp
	cli.UsageCommandHelp = "show the commands, or the help of one"
	flags := "{{$c := flagColumn .VisibleFlags}}{{range .VisibleFlags}}\n   {{flagName . $c}}{{wrap (flagUsage .) (add $c 3)}}{{end}}"
	for _, t := range []*string{&cli.RootCommandHelpTemplate, &cli.CommandHelpTemplate, &cli.SubcommandHelpTemplate} {
		*t = strings.ReplaceAll(*t, `{{template "visibleFlagTemplate" .}}`, flags)
		// The library's usage line is not wrapped.
		*t = strings.ReplaceAll(*t, `{{template "usageTemplate" .}}`, `{{wrap (usageLine .) 3}}`)
	}
}

// terminalWidth is the width of w when it is a terminal, else 0.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

func printHelp(w io.Writer, templ string, data any) {
	width := defaultHelpWidth
	if c, ok := data.(*cli.Command); ok {
		if n, ok := c.Root().Metadata[helpWidth].(int); ok && n > 0 {
			width = n
		}
	}
	cli.HelpPrinterCustom(w, templ, data, map[string]any{
		"wrap":       func(s string, offset int) string { return wrap(s, offset, width) },
		"flagColumn": flagColumn,
		"flagName":   flagName,
		"flagUsage":  flagUsage,
		"add":        func(a, b int) int { return a + b },
		"usageLine":  usageLine,
	})
}

// maxFlagColumn bounds the column of flag names; a longer name stands on
// its own line, its usage below it.
const maxFlagColumn = 28

// flagParts splits a flag's help line ("--name VALUE\tusage (default: x)").
func flagParts(f cli.Flag) (name, usage string) {
	name, usage, _ = strings.Cut(f.String(), "\t")
	return name, usage
}

// flagColumn is the width of the names' column: the longest name that fits
// maxFlagColumn, and two spaces.
func flagColumn(flags []cli.Flag) int {
	c := 0
	for _, f := range flags {
		if n, _ := flagParts(f); len(n) <= maxFlagColumn {
			c = max(c, len(n))
		}
	}
	return c + 2
}

// flagName is the flag's names, padded to the column, or on a line of
// their own when they are wider.
func flagName(f cli.Flag, column int) string {
	n, _ := flagParts(f)
	if len(n)+2 > column {
		return n + "\n" + strings.Repeat(" ", column+3)
	}
	return n + strings.Repeat(" ", column-len(n))
}

func flagUsage(f cli.Flag) string {
	_, u := flagParts(f)
	return u
}

// usageLine is the usage line of a command's help, as the library's
// usage template writes it, for wrapping.
func usageLine(c *cli.Command) string {
	if c.UsageText != "" {
		return c.UsageText
	}
	s := c.FullName()
	if len(c.VisibleFlags()) > 0 {
		s += " [options]"
	}
	if len(c.VisibleCommands()) > 0 {
		s += " [command [command options]]"
	}
	if c.ArgsUsage != "" {
		s += " " + c.ArgsUsage
	}
	return s
}

// wrap breaks each line of s between words so that, written offset
// columns from the margin, it ends by column width; the lines after the
// first are indented by offset, and a wrapped line's continuations keep its
// own indentation. A word longer than the room is left whole.
func wrap(s string, offset, width int) string {
	pad := strings.Repeat(" ", offset)
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteString("\n")
			if line != "" {
				b.WriteString(pad)
			}
		}
		if offset+utf8.RuneCountInString(line) <= width {
			b.WriteString(line) // as written, inner spacing kept
			continue
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
		room := width - offset - len(indent)
		b.WriteString(indent)
		n := 0 // the length of the current line, past its indentation
		for _, word := range strings.Fields(line) {
			switch {
			case n == 0:
			case n+1+utf8.RuneCountInString(word) > room:
				b.WriteString("\n" + pad + indent)
				n = 0
			default:
				b.WriteString(" ")
				n++
			}
			b.WriteString(word)
			n += utf8.RuneCountInString(word)
		}
	}
	return b.String()
}
