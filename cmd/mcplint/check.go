package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/live"
	"github.com/mcplint/mcplint/redact"
	"github.com/mcplint/mcplint/report"
	"github.com/mcplint/mcplint/rules"
)

const checkDescription = `Connects to a running MCP server as a client, lists its tools (following
every page of tools/list) and lints what it actually publishes with the same
rules and output as ` + "`mcplint lint`" + `, plus the rules only a live server can
break: list-result-valid, list-order-stable and stdio-stdout-clean.

  mcplint check -- npx -y @modelcontextprotocol/server-memory
  mcplint check --url http://127.0.0.1:3001/mcp --header 'Authorization: Bearer $TOKEN'
  mcplint check --config .vscode/mcp.json

A command after -- is started as a stdio server (in its own process group,
stopped with everything it started when the check ends). A --url is reached
over Streamable HTTP, falling back to the legacy HTTP+SSE transport when the
server only speaks that. --config checks every server of an MCP client
configuration file (Claude Desktop, Claude Code's .mcp.json, Cursor's
mcp.json, VS Code's mcp.json), several at a time.

The default rules are lint's (packs mcp and robust) and the security pack.
They are checked against the protocol version the server negotiated, unless
--protocol says otherwise.

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 on a
usage error, 3 when a server could not be checked (it could not be started,
exited, hung past --timeout, wrote no protocol, echoed our requests, answered
tools/list with an error or with something that is not a tool list, passed a
limit such as --max-message-size, or HTTP failed).

Header values, the URL's user information and query values, --env values and
values read from the environment are masked (***) in everything printed or
saved, even when the server repeats them.`

// checkExtraPacks are packs check runs by default on top of lint's default
// selection, when the catalogue has them: a live server is exactly where a
// security review matters.
var checkExtraPacks = []string{rules.SecurityPack}

func (e *env) checkCommand() *cli.Command {
	return &cli.Command{
		Name:         "check",
		Usage:        "lint the tools of a running MCP server (stdio command, URL or client configuration)",
		ArgsUsage:    "[-- COMMAND [ARGS...]]",
		Description:  checkDescription,
		OnUsageError: onUsageError,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "url", Usage: "check the server at `URL` (Streamable HTTP, or legacy SSE)"},
			&cli.StringFlag{Name: "transport", Usage: "force the `TRANSPORT`: stdio, http (Streamable HTTP) or sse (legacy HTTP+SSE)"},
			&cli.StringSliceFlag{Name: "header", Usage: "send the HTTP header `'NAME: VALUE'` (repeatable); $VAR in VALUE reads the environment; values are never printed"},
			&cli.StringSliceFlag{Name: "env", Usage: "set `K=V` in the stdio server's environment (repeatable)"},
			&cli.StringFlag{Name: "cwd", Usage: "start the stdio server in `DIR`"},
			&cli.StringFlag{Name: "config", Usage: "check every server of the MCP client configuration `FILE` (mcpServers or VS Code servers)"},
			&cli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Usage: "give each server at most `DURATION` for its whole check: the conversation and the linting"},
			&cli.StringFlag{Name: "save", Usage: "write what the server listed to `FILE`, a manifest that lint and fix read (secrets masked)"},
			formatFlag(),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text format: print only the summary lines"},
		}, append(serverLimitFlags(), e.selectionFlags()...)...),
		Action: e.check,
	}
}

// checked is one server's outcome.
type checked struct {
	name    string
	listing *live.Listing
	diags   []lint.Diagnostic
	err     error
}

// serverFailures: servers that could not be checked (exit status 3). Msgs
// are printed on standard error by run; empty when the report said it all.
type serverFailures struct{ msgs []string }

func (f *serverFailures) Error() string { return strings.Join(f.msgs, "; ") }

func (e *env) check(ctx context.Context, cmd *cli.Command) error {
	fmtName, min, color, cfg, err := e.reportOptions(cmd, format)
	if err != nil {
		return err
	}
	limits, err := serverLimits(cmd)
	if err != nil {
		return err
	}
	if len(cfg.Select) == 0 {
		packs := lint.Packs(e.catalogue)
		for _, p := range checkExtraPacks {
			if slices.Contains(packs, p) {
				cfg.ExtendSelect = append(cfg.ExtendSelect, p)
			}
		}
	}
	// The selection is checked now, for a usage error before any server
	// is started.
	if _, err := lint.New(e.catalogue, cfg); err != nil {
		return &usageError{err: err}
	}
	fixedProtocol := cmd.IsSet("protocol")
	servers, err := e.checkTargets(cmd)
	if err != nil {
		return err
	}
	save := cmd.String("save")
	if save != "" && len(servers) != 1 {
		return usagef("--save writes one server's tool list; it cannot be used with --config")
	}
	// The manifest of a saved listing is named after the file, so that
	// findings point into it; the report names servers as configured.
	names := make([]string, len(servers))
	for i := range servers {
		names[i] = servers[i].Name
		if save != "" {
			servers[i].Name = save
		}
	}

	// Ctrl-C cancels the conversations, which stops the servers.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	e.superviseServers()
	defer live.KillOrphans()

	single := cmd.String("config") == ""
	results := live.CheckAll(ctx, servers, live.CheckOptions{
		Options: live.Options{Limits: limits},
		Timeout: cmd.Duration("timeout"),
		Linter: func(s live.ConfiguredServer, l *live.Listing) (*lint.Linter, error) {
			if save == "" && single && l.Server.Name != "" {
				// Findings name the server rather than its command line.
				l.Manifest.Path = l.Server.Name
			}
			c := cfg
			if !fixedProtocol && lint.ValidProtocol(l.Server.Protocol) {
				c.Protocol = l.Server.Protocol
			}
			return lint.New(e.catalogue, c)
		},
		Done: e.progress(len(servers)),
	})
	e.progressDone(len(servers))
	checkedResults := make([]checked, len(results))
	for i, r := range results {
		checkedResults[i] = checked{name: names[i], listing: r.Listing, diags: r.Diagnostics, err: r.Err}
	}

	if save != "" && checkedResults[0].err == nil {
		if err := e.writeFile(ctx, save, e.secrets.Bytes(checkedResults[0].listing.Src)); err != nil {
			return &inputErrors{errs: []error{fmt.Errorf("--save: %w", err)}}
		}
	}
	quiet := cmd.Bool("quiet")
	if single {
		return e.reportOne(checkedResults[0], fmtName, color, quiet, min)
	}
	return e.reportMany(checkedResults, fmtName, color, quiet, min)
}

// superviseServers makes this process, on Linux, the subreaper of what
// the servers start, for live.KillOrphans to stop when the check ends.
func (e *env) superviseServers() {
	// Without it, processes a server leaves behind go to init, out of
	// reach; the check itself still works.
	_ = live.AdoptOrphans()
}

// checkTargets reads the command line into the servers to check.
func (e *env) checkTargets(cmd *cli.Command) ([]live.ConfiguredServer, error) {
	args := cmd.Args().Slice()
	if path := cmd.String("config"); path != "" {
		if len(args) > 0 || cmd.String("url") != "" {
			return nil, usagef("--config checks the servers of a file; give no command or --url with it")
		}
		servers, err := live.ReadClientConfig(path, e.lookupEnv)
		if err != nil {
			return nil, &inputErrors{errs: []error{err}}
		}
		if len(servers) == 0 {
			return nil, &inputErrors{errs: []error{fmt.Errorf("%s: no server to check", path)}}
		}
		for _, s := range servers {
			e.addSecrets(s.Target)
		}
		return servers, nil
	}
	t := live.Target{
		Transport: cmd.String("transport"),
		Command:   args,
		URL:       cmd.String("url"),
		Env:       cmd.StringSlice("env"),
		Dir:       cmd.String("cwd"),
	}
	for _, kv := range t.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return nil, usagef("--env %q: want K=V", kv)
		}
	}
	for _, h := range cmd.StringSlice("header") {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			// The value may be a secret: name only the header.
			return nil, usagef("--header %q: want 'NAME: VALUE'", name)
		}
		v, err := live.Expand(strings.TrimSpace(value), e.lookupEnv)
		if err != nil {
			return nil, usagef("--header %s: %v", name, err)
		}
		e.secrets.Add(v)
		if t.Header == nil {
			t.Header = http.Header{}
		}
		t.Header.Add(name, v)
	}
	e.addSecrets(t)
	if err := t.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	name := redact.URL(t.URL)
	if len(args) > 0 {
		name = args[0]
	}
	return []live.ConfiguredServer{{Name: name, Target: t}}, nil
}

// addSecrets masks a target's secrets in every output of the run.
func (e *env) addSecrets(t live.Target) {
	e.secrets.Add(t.Expanded...)
	e.secrets.AddHeader(t.Header)
	if t.URL != "" {
		e.secrets.AddURL(t.URL)
	}
	for _, kv := range t.Env {
		if _, v, ok := strings.Cut(kv, "="); ok {
			e.secrets.Add(v)
		}
	}
}

func (e *env) lookupEnv(k string) (string, bool) {
	v := e.getenv(k)
	return v, v != ""
}

// progress returns the function each finished server calls: on a terminal
// and with several servers, a counter on standard error.
func (e *env) progress(total int) func() {
	if !e.stderrTTY || total < 2 {
		return nil
	}
	var (
		mu   sync.Mutex
		done int
	)
	fmt.Fprintf(e.stderr, "\rchecking %d servers: 0 done", total)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		fmt.Fprintf(e.stderr, "\rchecking %d servers: %d done", total, done)
	}
}

func (e *env) progressDone(total int) {
	if e.stderrTTY && total >= 2 {
		fmt.Fprint(e.stderr, "\r\033[K")
	}
}

// failureLines is how a failed server is shown: the one-line error (with
// the flag that raises a limit it passed), then the server's last stderr
// lines, indented.
func failureLines(err error) string {
	if le, ok := live.AsError(err); ok {
		if flag := limitFlag(err); flag != "" {
			le2 := *le
			le2.Msg = fmt.Sprintf("%s (raise the limit with %s)", le.Msg, flag)
			return le2.Detail()
		}
		return le.Detail()
	}
	return withLimitHint(err).Error()
}

// serverLine describes a listed server in one line.
func serverLine(l *live.Listing) string {
	s := l.Server
	name := s.Name
	if name == "" {
		name = "(unnamed server)"
	}
	if s.Version != "" {
		name += " " + s.Version
	}
	n := len(l.Manifest.Tools)
	return fmt.Sprintf("%s, protocol %s over %s: %d tool%s", name, s.Protocol, s.Transport, n, map[bool]string{true: "", false: "s"}[n == 1])
}

func (e *env) reportOne(r checked, fmtName string, color, quiet bool, min lint.Severity) error {
	if r.err != nil {
		return &serverFailures{msgs: []string{failureLines(r.err)}}
	}
	files := []report.File{{Manifest: r.listing.Manifest, Diagnostics: r.diags}}
	if fmtName == "json" {
		doc := checkJSON{JSONReport: report.NewJSONReport(files), Server: r.listing.Server, Tools: toolNames(r.listing)}
		if err := writeIndentedJSON(e.stdout, doc); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "server %s\n\n", serverLine(r.listing))
		if err := report.WriteText(e.stdout, files, report.TextOptions{Color: color, Quiet: quiet}); err != nil {
			return err
		}
	}
	return outcome(files, nil, min)
}

// checkJSON is the JSON report of one server: the lint report plus what
// the server is and the tools it listed.
type checkJSON struct {
	report.JSONReport
	Server live.Server `json:"server"`
	Tools  []string    `json:"tools"`
}

func toolNames(l *live.Listing) []string {
	out := []string{}
	for _, t := range l.Manifest.Tools {
		out = append(out, t.Name)
	}
	return out
}

// configJSON is the JSON report of --config.
type configJSON struct {
	Version int                `json:"version"`
	Servers []configServerJSON `json:"servers"`
}

type configServerJSON struct {
	Name        string                  `json:"name"`
	Server      *live.Server            `json:"server"`
	Tools       []string                `json:"tools"`
	Diagnostics []report.JSONDiagnostic `json:"diagnostics"`
	Summary     report.JSONSummary      `json:"summary"`
	// Error is the failure, "" when the server was checked.
	Error string `json:"error"`
}

func (e *env) reportMany(results []checked, fmtName string, color, quiet bool, min lint.Severity) error {
	var (
		all    []report.File
		failed int
	)
	if fmtName == "json" {
		doc := configJSON{Version: report.JSONVersion, Servers: []configServerJSON{}}
		for _, r := range results {
			s := configServerJSON{Name: r.name, Tools: []string{}, Diagnostics: []report.JSONDiagnostic{}}
			if r.err != nil {
				failed++
				s.Error = failureLines(r.err)
			} else {
				files := []report.File{{Manifest: r.listing.Manifest, Diagnostics: r.diags}}
				all = append(all, files...)
				rep := report.NewJSONReport(files)
				srv := r.listing.Server
				s.Server, s.Tools, s.Diagnostics, s.Summary = &srv, toolNames(r.listing), rep.Diagnostics, rep.Summary
			}
			doc.Servers = append(doc.Servers, s)
		}
		if err := writeIndentedJSON(e.stdout, doc); err != nil {
			return err
		}
	} else {
		var summary strings.Builder
		for _, r := range results {
			fmt.Fprintf(e.stdout, "== %s\n", r.name)
			if r.err != nil {
				failed++
				fmt.Fprintf(e.stdout, "failed: %s\n\n", failureLines(r.err))
				fmt.Fprintf(&summary, "%s: failed: %s\n", r.name, oneLineError(r.err))
				continue
			}
			fmt.Fprintf(e.stdout, "server %s\n\n", serverLine(r.listing))
			files := []report.File{{Manifest: r.listing.Manifest, Diagnostics: r.diags}}
			all = append(all, files...)
			if err := report.WriteText(e.stdout, files, report.TextOptions{Color: color, Quiet: quiet}); err != nil {
				return err
			}
			fmt.Fprintln(e.stdout)
			s := report.Summarize(files)
			fmt.Fprintf(&summary, "%s: %d tools, %d errors, %d warnings\n", r.name, len(r.listing.Manifest.Tools), s.Errors, s.Warnings)
		}
		fmt.Fprint(e.stdout, summary.String())
	}
	if failed > 0 {
		return &serverFailures{}
	}
	return outcome(all, nil, min)
}

func oneLineError(err error) string {
	if le, ok := live.AsError(err); ok {
		if flag := limitFlag(err); flag != "" {
			return fmt.Sprintf("%s (raise the limit with %s)", le.Msg, flag)
		}
		return le.Msg
	}
	return err.Error()
}

// writeIndentedJSON writes as report.WriteJSON does.
func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
