package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mcplint/mcplint/atomicfile"
	"github.com/mcplint/mcplint/lint"
	"github.com/mcplint/mcplint/live"
	"github.com/mcplint/mcplint/report"
	"github.com/mcplint/mcplint/rules"
)

const checkDescription = `Connects to a running MCP server as a client, lists its tools (following
every page of tools/list) and lints what it actually publishes with the same
rules and output as ` + "`mcplint lint`" + `, plus the rules only a live server can
break: list-result-valid, list-order-stable and stdio-stdout-clean.

  mcplint check -- npx -y @modelcontextprotocol/server-memory
  mcplint check --url http://127.0.0.1:3001/mcp --header 'Authorization: Bearer $TOKEN'
  mcplint check --client-config .vscode/mcp.json
  mcplint check

A command after -- is started as a stdio server (in its own process group,
stopped with everything it started when the check ends). A --url is reached
over Streamable HTTP, falling back to the legacy HTTP+SSE transport when the
server only speaks that. --client-config checks every server of an MCP
client configuration file (Claude Desktop, Claude Code's .mcp.json,
Cursor's mcp.json, VS Code's mcp.json), several at a time; with no target
at all, check does the same with the "servers" of .mcplint.yaml.

Like lint, check follows .mcplint.yaml (or --config FILE): its select,
extend-select, protocol, severity, options, ignore and fail-on, with the
flags over them. The default rules are lint's (packs mcp and robust) and the
security pack. They are checked against the protocol version the server
negotiated, unless --protocol or the configuration's protocol says
otherwise.

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 on a
usage error, 3 when a server could not be checked (it could not be started,
exited, hung past --timeout, wrote no protocol, answered tools/list with an
error or with something that is not a tool list, or HTTP failed).`

// checkExtraPacks are packs check runs by default on top of lint's default
// selection, when the catalogue has them: a live server is exactly where a
// security review matters.
var checkExtraPacks = []string{rules.SecurityPack}

// checkConcurrency bounds how many servers of a --config are checked at once.
const checkConcurrency = 4

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
			&cli.StringFlag{Name: "client-config", Usage: "check every server of the MCP client configuration `FILE` (mcpServers or VS Code servers)"},
			&cli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Usage: "give each server at most `DURATION` for the whole conversation"},
			&cli.StringFlag{Name: "save", Usage: "write what the server listed to `FILE`, a manifest that lint and fix read"},
			reportFormatFlag("standard output"),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text format: print only the summary line of each server"},
		}, append(projectFlags(), e.selectionFlags()...)...),
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
	outs, color, set, err := e.reportSettings(cmd, e.stdoutTTY)
	if err != nil {
		return e.clientConfigHint(cmd, err)
	}
	cfg, min := set.lint, set.failOn
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
	selected, err := lint.New(e.catalogue, cfg)
	if err != nil {
		return &usageError{err: err}
	}
	fixedProtocol := cfg.Protocol != ""
	servers, several, err := e.checkTargets(cmd, set)
	if err != nil {
		return err
	}
	save := cmd.String("save")
	if save != "" && several {
		return usagef("--save writes one server's tool list; it cannot be used with several servers")
	}

	// Ctrl-C cancels the conversations, which stops the servers.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	timeout := cmd.Duration("timeout")
	results := make([]checked, len(servers))
	var (
		wg       sync.WaitGroup
		sem      = make(chan struct{}, checkConcurrency)
		progress = e.progress(len(servers))
	)
	for i, s := range servers {
		results[i].name = s.Name
		if s.Err != nil {
			results[i].err = s.Err
			progress()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			defer progress()
			name := s.Name
			if save != "" {
				name = save
			}
			sctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			l, err := live.List(sctx, s.Target, live.Options{Name: name})
			if err != nil {
				results[i].err = err
				return
			}
			if save == "" && !several && l.Server.Name != "" {
				// Findings name the server rather than its command line.
				l.Manifest.Path = l.Server.Name
			}
			c := cfg
			if !fixedProtocol && lint.ValidProtocol(l.Server.Protocol) {
				c.Protocol = l.Server.Protocol
			}
			linter, err := lint.New(e.catalogue, c)
			if err == nil {
				results[i].diags, err = live.Check(linter, l)
			}
			results[i].listing, results[i].err = l, err
		}()
	}
	wg.Wait()
	e.progressDone(len(servers))

	if save != "" && results[0].listing != nil {
		if err := atomicfile.Write(save, results[0].listing.Src); err != nil {
			return &inputErrors{errs: []error{fmt.Errorf("--save: %w", err)}}
		}
	}
	out := checkReport{
		outs: outs, color: color, quiet: cmd.Bool("quiet"), min: min,
		rc: reportContext{rules: selected.Rules, command: "check", configPath: set.configPath()},
	}
	if !several {
		return e.reportOne(results[0], out)
	}
	return e.reportMany(results, out)
}

// checkTargets reads the command line into the servers to check; several
// says they come from a configuration file, to be reported server by
// server.
func (e *env) checkTargets(cmd *cli.Command, set *settings) (servers []live.ConfiguredServer, several bool, err error) {
	args := cmd.Args().Slice()
	if path := cmd.String("client-config"); path != "" {
		if len(args) > 0 || cmd.String("url") != "" {
			return nil, false, usagef("--client-config checks the servers of a file; give no command or --url with it")
		}
		servers, err := live.ReadClientConfig(path, e.lookupEnv)
		if err != nil {
			return nil, false, &inputErrors{errs: []error{err}}
		}
		if len(servers) == 0 {
			return nil, false, &inputErrors{errs: []error{fmt.Errorf("%s: no server to check", path)}}
		}
		return servers, true, nil
	}
	if len(args) == 0 && cmd.String("url") == "" {
		if set.file == nil || len(set.file.Servers) == 0 {
			where := "no configuration file was found"
			if set.file != nil {
				where = set.file.Path + " has no servers"
			}
			return nil, false, usagef("nothing to check: give a command after --, --url URL or --client-config FILE, or list servers in .mcplint.yaml (%s)", where)
		}
		return live.ProjectServers(set.file.Servers, set.file.Dir, e.lookupEnv), true, nil
	}
	servers, err = e.commandLineTarget(cmd)
	return servers, false, err
}

// commandLineTarget reads the server that the command line names: a
// command after --, or --url.
func (e *env) commandLineTarget(cmd *cli.Command) ([]live.ConfiguredServer, error) {
	args := cmd.Args().Slice()
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
		if t.Header == nil {
			t.Header = http.Header{}
		}
		t.Header.Add(name, v)
	}
	if err := t.Validate(); err != nil {
		return nil, usagef("%v", err)
	}
	name := t.URL
	if u, err := url.Parse(t.URL); err == nil {
		name = u.Redacted()
	}
	if len(args) > 0 {
		name = args[0]
	}
	return []live.ConfiguredServer{{Name: name, Target: t}}, nil
}

func (e *env) lookupEnv(k string) (string, bool) {
	v := e.getenv(k)
	return v, v != ""
}

// progress returns the function each finished server calls: on a terminal
// and with several servers, a counter on standard error.
func (e *env) progress(total int) func() {
	if !e.stderrTTY || total < 2 {
		return func() {}
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

// failureLines is how a failed server is shown: the one-line error, then
// the server's last stderr lines, indented.
func failureLines(err error) string {
	if le, ok := live.AsError(err); ok {
		return le.Detail()
	}
	return err.Error()
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

// checkReport is how the outcome of check is reported.
type checkReport struct {
	outs  []reportOutput
	color bool
	quiet bool
	min   lint.Severity
	rc    reportContext
}

// onStream says whether format is written to standard output.
func (o checkReport) onStream(format string) bool {
	return slices.Contains(o.outs, reportOutput{format: format})
}

func (e *env) reportOne(r checked, o checkReport) error {
	if r.err != nil {
		return &serverFailures{msgs: []string{failureLines(r.err)}}
	}
	files := []report.File{{Manifest: r.listing.Manifest, Diagnostics: r.diags}}
	err := writeOutputs(o.outs, e.stdout, o.color, func(w io.Writer, format string, color bool) error {
		switch format {
		case "json":
			return writeIndentedJSON(w, checkJSON{JSONReport: report.NewJSONReport(files), Server: r.listing.Server, Tools: toolNames(r.listing)})
		case "text":
			if !o.quiet {
				fmt.Fprintf(w, "server %s\n\n", serverLine(r.listing))
			}
			return report.WriteText(w, files, report.TextOptions{Color: color, Quiet: o.quiet})
		}
		return e.writeReport(w, format, files, o.rc)
	})
	if err != nil {
		return err
	}
	return outcome(files, nil, o.min)
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

// configJSON is the JSON report of several servers.
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

// reportMany reports several servers: text and JSON server by server, the
// other formats as one report whose files are the servers. The servers
// that failed are listed on standard error unless a text or JSON report
// on standard output says it.
func (e *env) reportMany(results []checked, o checkReport) error {
	var (
		all    []report.File
		failed []string
	)
	for _, r := range results {
		if r.err != nil {
			failed = append(failed, r.name+": "+oneLineError(r.err))
			continue
		}
		all = append(all, report.File{Manifest: r.listing.Manifest, Diagnostics: r.diags})
	}
	err := writeOutputs(o.outs, e.stdout, o.color, func(w io.Writer, format string, color bool) error {
		switch format {
		case "json":
			return writeIndentedJSON(w, manyJSON(results))
		case "text":
			return writeManyText(w, results, color, o.quiet)
		}
		return e.writeReport(w, format, all, o.rc)
	})
	if err != nil {
		return err
	}
	if len(failed) > 0 {
		if o.onStream("text") || o.onStream("json") {
			failed = nil // the report said it
		}
		return &serverFailures{msgs: failed}
	}
	return outcome(all, nil, o.min)
}

func manyJSON(results []checked) configJSON {
	doc := configJSON{Version: report.JSONVersion, Servers: []configServerJSON{}}
	for _, r := range results {
		s := configServerJSON{Name: r.name, Tools: []string{}, Diagnostics: []report.JSONDiagnostic{}}
		if r.err != nil {
			s.Error = failureLines(r.err)
		} else {
			rep := report.NewJSONReport([]report.File{{Manifest: r.listing.Manifest, Diagnostics: r.diags}})
			srv := r.listing.Server
			s.Server, s.Tools, s.Diagnostics, s.Summary = &srv, toolNames(r.listing), rep.Diagnostics, rep.Summary
		}
		doc.Servers = append(doc.Servers, s)
	}
	return doc
}

// writeManyText writes each server's findings under "== NAME", then one
// summary line a server; quiet writes only the summary lines.
func writeManyText(w io.Writer, results []checked, color, quiet bool) error {
	var summary strings.Builder
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintf(&summary, "%s: failed: %s\n", r.name, oneLineError(r.err))
		} else {
			s := report.Summarize([]report.File{{Manifest: r.listing.Manifest, Diagnostics: r.diags}})
			fmt.Fprintf(&summary, "%s: %d tools, %d errors, %d warnings\n", r.name, len(r.listing.Manifest.Tools), s.Errors, s.Warnings)
		}
		if quiet {
			continue
		}
		fmt.Fprintf(w, "== %s\n", r.name)
		if r.err != nil {
			fmt.Fprintf(w, "failed: %s\n\n", failureLines(r.err))
			continue
		}
		fmt.Fprintf(w, "server %s\n\n", serverLine(r.listing))
		files := []report.File{{Manifest: r.listing.Manifest, Diagnostics: r.diags}}
		if err := report.WriteText(w, files, report.TextOptions{Color: color}); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	_, err := io.WriteString(w, summary.String())
	return err
}

func oneLineError(err error) string {
	if le, ok := live.AsError(err); ok {
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

// clientConfigHint adds a hint to a configuration error when --config
// names an MCP client configuration, which check reads with
// --client-config.
func (e *env) clientConfigHint(cmd *cli.Command, err error) error {
	path := cmd.String("config")
	if path == "" {
		return err
	}
	if _, cerr := live.ReadClientConfig(path, func(string) (string, bool) { return "", true }); cerr != nil {
		return err
	}
	return usagef("%v\n%s is an MCP client configuration: check its servers with --client-config %s (--config names mcplint's own configuration, as for lint)", err, path, path)
}
