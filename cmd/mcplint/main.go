// Command mcplint lints and repairs the tool definitions (tools/list results)
// of MCP servers. It is a thin layer over the library: flags are read here,
// the work is done by packages manifest, lint, rules, report, live and
// atomicfile; everything printed or saved goes through package redact, and
// everything printed through package guard: both streams are guard.Writers,
// and only data (fix's corrected source and diff, convert's output, a
// schema, the github format's workflow commands) is written past them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-colorable"

	"github.com/mcpfit/mcplint/clients"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/redact"
	"github.com/mcpfit/mcplint/report"
	"github.com/mcpfit/mcplint/rules"
	"github.com/mcpfit/mcplint/schema"
)

func main() {
	os.Exit(process(os.Args))
}

// process is the run of the mcplint process, with its standard streams.
func process(args []string) int {
	quietStart()
	if checksSchemas(args[1:]) {
		go schema.Warm(schema.Draft2020)
	}
	return run(context.Background(), args, os.Stdin, os.Stdout, os.Stderr)
}

// checksSchemas reports whether the command of a command line lints
// schemas (the first argument that is not a flag names it).
func checksSchemas(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a == "lint" || a == "fix" || a == "check"
		}
	}
	return false
}

// env is what a run reads and writes; tests build their own.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// stdoutTTY and stderrTTY say whether the outputs are terminals, for
	// --color=auto; stdinTTY whether the input is one, in which case it is
	// read only when named ("-").
	stdinTTY, stdoutTTY, stderrTTY bool
	// helpWidth is the width help is wrapped at: the terminal's, or 0
	// for 80 columns.
	helpWidth int
	getenv    func(string) string
	catalogue []*lint.Rule
	// fileLimits bound what reading a manifest may cost (--max-file-size
	// and the other file limit flags).
	fileLimits manifest.Limits
	// secrets are masked in everything the run prints or saves: the
	// outputs are written through it, and commands add what they learn
	// is secret (header values, expanded variables) before they print.
	secrets *redact.Redactor
	// rawStdout is standard output as run got it: mcplint proxy relays
	// messages there byte for byte, each as soon as it is written.
	rawStdout io.Writer
	// discovered maps the servers check --discover found (by the name they
	// are reported under) to the client configuration that lists them.
	discovered map[string]clients.Config
}

// run runs the command line args (args[0] is the program) and returns the
// exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{
		stdin: stdin, stdout: stdout, stderr: stderr,
		stdoutTTY: report.IsTerminal(stdout), stderrTTY: report.IsTerminal(stderr),
		getenv: os.Getenv, catalogue: rules.All,
		helpWidth: terminalWidth(stdout),
	}
	if f, ok := stdin.(*os.File); ok {
		e.stdinTTY = report.IsTerminal(f)
	}
	// On Windows consoles that do not understand ANSI sequences,
	// go-colorable translates them; elsewhere it returns the file as is.
	if f, ok := stdout.(*os.File); ok && e.stdoutTTY {
		e.stdout = colorable.NewColorable(f)
	}
	if f, ok := stderr.(*os.File); ok && e.stderrTTY {
		e.stderr = colorable.NewColorable(f)
	}
	return e.run(ctx, args)
}

// Exit statuses.
const (
	exitOK       = 0
	exitFindings = 1
	exitError    = 2
	// exitFailure: a server could not be checked (mcplint check).
	exitFailure = 3
)

func (e *env) run(ctx context.Context, args []string) int {
	e.secrets = redact.New()
	e.rawStdout = e.stdout
	stdout, stderr := redact.NewWriter(e.secrets, e.stdout), redact.NewWriter(e.secrets, e.stderr)
	gout, gerr := guard.NewWriter(stdout, false), guard.NewWriter(stderr, false)
	e.stdout, e.stderr = gout, gerr
	defer stderr.Flush()
	defer stdout.Flush()
	defer gerr.Flush()
	defer gout.Flush()
	return e.runCommand(ctx, args)
}

// unguarded returns the writer under a guarded stream, for data that must
// reach it byte for byte (see the package doc).
func unguarded(w io.Writer) io.Writer {
	if g, ok := w.(*guard.Writer); ok {
		u, _ := g.Unguarded()
		return u
	}
	return w
}

func (e *env) runCommand(ctx context.Context, args []string) int {
	err := e.app().Run(ctx, args)
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errFindings) {
		return exitFindings
	}
	var sf *serverFailures
	if errors.As(err, &sf) {
		for _, msg := range sf.msgs {
			// Built by failureLines, whose lines are mcplint's.
			fmt.Fprintf(e.stderr, "mcplint: %s\n", guard.Lines(msg))
		}
		return exitFailure
	}
	var ie *inputErrors
	if errors.As(err, &ie) {
		for _, err := range ie.errs {
			fmt.Fprintf(e.stderr, "mcplint: %s\n", guard.Text(withHint(err).Error()))
		}
		return exitError
	}
	// Errors joined (every problem of a configuration file) are one line
	// each, each in the shape of a user error; what a line quotes of the
	// input cannot begin another.
	for _, line := range strings.Split(withHint(err).Error(), "\n") {
		fmt.Fprintf(e.stderr, "mcplint: %s\n", guard.Text(line))
	}
	return exitError
}

// errFindings: a finding reached --fail-on. The report said it all; nothing
// more is printed.
var errFindings = errors.New("findings reached --fail-on")

// inputErrors are the sources that could not be read, loaded or written;
// the others were processed.
type inputErrors struct{ errs []error }

func (e *inputErrors) Error() string { return errors.Join(e.errs...).Error() }
