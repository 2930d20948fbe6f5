package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/config"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pin"
	"github.com/mcpfit/mcplint/redact"
	"github.com/mcpfit/mcplint/report"
)

const checkDescription = `Connects to a running MCP server as a client, lists the tools, prompts,
resources and resource templates its capabilities declare (following every
page), keeps its handshake result (capabilities, instructions) and lints
what it actually publishes with the same rules, defaults and output as
` + "`mcplint lint`" + ` of the same list, plus the rules only a live server can break:
list-result-valid, list-order-stable and stdio-stdout-clean.

A server is checked as the clients of every protocol era see it: the era it
negotiates (server/discover for 2026-07-28, else initialize), and, when that
is 2026-07-28, the initialize era of the clients of 2025-11-25 and older
too. A finding that concerns one era only says so. --protocol VERSION
negotiates that version alone.

  mcplint check -- npx -y @modelcontextprotocol/server-memory
  mcplint check --url http://127.0.0.1:3001/mcp \
      --header 'Authorization: Bearer $TOKEN'
  mcplint check --client-config .vscode/mcp.json
  mcplint check --discover --dry-run
  mcplint check

A command after -- is started as a stdio server (in its own process group,
stopped with everything it started when the check ends). A --url is reached
over Streamable HTTP, falling back to the legacy HTTP+SSE transport when the
server only speaks that. --client-config checks every server of an MCP
client configuration file (Claude Desktop, Claude Code's .mcp.json,
Cursor's mcp.json, VS Code's mcp.json, Windsurf, Gemini CLI), several at a
time; with no target at all, check does the same with the "servers" of
.mcplint.yaml.

--discover finds the configurations of the MCP clients of this user and of
the project in the current directory: Claude Desktop, Claude Code (user,
local and project scopes), Codex (config.toml), Cursor, Gemini CLI, VS Code
(user and workspace), Windsurf, and every .mcp.json in the project. It lists
each server with the command it would start or the URL it would reach; the
servers are programs named in other people's files, so they are started
only with --yes (--dry-run lists and starts nothing). Each is reported as
"CLIENT (SCOPE): NAME".

Like lint, check follows .mcplint.yaml (or --config FILE): its select,
extend-select, protocol, severity, options, ignore and fail-on, with the
flags over them. The rules are lint's (by default %s;
--extend-select security adds the tool-poisoning checks), checked against
the versions of the era each listing was made in, unless --protocol or the
configuration's protocol fixes one. Findings name the server and the tool,
and advise on the server's code; infos are summed up by rule unless
--show-infos.

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 on a
usage error, 3 when a server could not be checked (it could not be started,
exited, hung past --timeout, wrote no protocol, echoed our requests, answered
the handshake with an error, answered tools/list with something that is not
a tool list, passed a limit such as --max-message-size, or HTTP failed). A
list the server declares and refuses is a finding (capabilities-match).

Header values, the URL's user information and query values, --env values and
values read from the environment are masked (***) in everything printed or
saved, even when the server repeats them.`

// errListed: --discover --dry-run listed the servers; nothing more to do.
var errListed = errors.New("listed")

func (e *env) checkCommand() *cli.Command {
	return &cli.Command{
		Name:         "check",
		Usage:        "lint what a running MCP server publishes (stdio command, URL, client configuration, or every installed client's)",
		ArgsUsage:    "[-- COMMAND [ARGS...]]",
		Description:  fmt.Sprintf(checkDescription, lint.DefaultDescription(e.catalogue)),
		OnUsageError: onUsageError,
		Flags: append(append(serverTargetFlags("check"), []cli.Flag{
			&cli.StringFlag{Name: "save", Usage: "write what the server listed (tools, handshake result, prompts, resources, templates) to `FILE`, a manifest that lint and fix read (secrets masked)"},
			&cli.BoolFlag{Name: "locked", Usage: "fail (exit 1) when a server publishes anything else than the lock file pins (see mcplint lock), and show what changed"},
			lockfileFlag(),
			maxLockSizeFlag(),
			reportFormatFlag("standard output"),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text format: print only the summary line of each server"},
			showInfosFlag(),
			&cli.BoolFlag{Name: "wrap", Usage: "with --discover --yes: after the report, print for each server a client refuses the entry of its configuration that runs it through mcplint proxy for that client"},
		}...), append(append(serverLimitFlags(), projectFlags()...), e.selectionFlags()...)...),
		Action: e.check,
	}
}

// serverTargetFlags are the flags that name the servers to reach, for
// check and lock (verb names what is done to them).
func serverTargetFlags(verb string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "url", Usage: verb + " the server at `URL` (Streamable HTTP, or legacy SSE)"},
		&cli.StringFlag{Name: "transport", Usage: "force the `TRANSPORT`: stdio, http (Streamable HTTP) or sse (legacy HTTP+SSE)"},
		headerFlag(""), envFlag(), cwdFlag(),
		&cli.StringFlag{Name: "client-config", Usage: verb + " every server of the MCP client configuration `FILE` (mcpServers or VS Code servers)"},
		&cli.BoolFlag{Name: "discover", Usage: "find the MCP client configurations of this user and project (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Gemini CLI, Codex, .mcp.json) and list their servers; starting them needs --yes"},
		&cli.BoolFlag{Name: "dry-run", Usage: "with --discover: list the servers and how each would be started or reached, and start nothing"},
		&cli.BoolFlag{Name: "yes", Usage: "with --discover: start the servers found and " + verb + " them"},
		&cli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Usage: "give each server at most `DURATION` for its whole " + verb + ": the conversation and the linting"},
	}
}

// headerFlag, envFlag and cwdFlag say how a server is reached, for every
// command that reaches one; to names the server a header is sent to, for a
// command that has two ("" when it has one).
func headerFlag(to string) cli.Flag {
	return &cli.StringSliceFlag{Name: "header", Usage: "send the HTTP header `'NAME: VALUE'`" + to + " (repeatable); $VAR in VALUE reads the environment; values are never printed"}
}

func envFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "env", Usage: "set `K=V` in the stdio server's environment (repeatable)"}
}

func cwdFlag() cli.Flag {
	return &cli.StringFlag{Name: "cwd", Usage: "start the stdio server in `DIR`"}
}

// checked is one server's outcome.
type checked struct {
	name    string
	listing *live.Listing
	diags   []lint.Diagnostic
	err     error
	// changes are the differences from the lock file (--locked); lock
	// names the file, "" without --locked.
	changes []pin.Change
	lock    string
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
	// One selection for a file and a server: lint's, the same list getting
	// the same findings however it was read. It is checked now, for a
	// usage error before any server is started.
	cfg, min := set.lint, set.failOn
	selected, err := lint.New(e.catalogue, cfg)
	if err != nil {
		return selectionError(err)
	}
	if cmd.Bool("wrap") {
		if err := wrapUsage(cmd, outs); err != nil {
			return err
		}
	}
	save := cmd.String("save")
	if err := generatedPath("--save", save); err != nil {
		return err
	}
	var locked *pin.File
	if cmd.Bool("locked") {
		if locked, err = readLock(cmd, cmd.String("lockfile")); err != nil {
			return err
		}
	}
	ctx, stop := stoppable(ctx)
	defer stop()
	// Each era's listing is linted against the versions of its era (the
	// engine reads them from its handshake result) unless --protocol
	// fixed one, which is then the only version negotiated.
	results, single, err := e.runServers(ctx, cmd, streamFormat(outs), save, cfg.Protocol, set.file, func(*live.Listing) (*lint.Linter, error) {
		return selected, nil
	})
	if err != nil || results == nil {
		return err
	}
	if save != "" && results[0].err == nil {
		for _, era := range results[0].listing.Eras() {
			// What the server sent, masked, and spelled inert for the
			// terminals and logs the file is read in (guard.JSON).
			if err := e.writeFile(ctx, era.Manifest.Path, guard.JSON(e.secrets.JSON(era.Src))); err != nil {
				return &inputErrors{errs: []error{fmt.Errorf("--save: %w", err)}}
			}
		}
	}
	if locked != nil {
		for i := range results {
			if err := results[i].compareLock(locked, cmd.String("lockfile"), single, e.secrets.JSON); err != nil {
				return err
			}
		}
	}
	out := checkReport{
		outs: outs, color: color, quiet: cmd.Bool("quiet"), min: min, showInfos: showInfos(cmd, min),
		rc: reportContext{rules: selected.Rules, command: "check", configPath: set.configPath()},
	}
	if single {
		return e.reportOne(results[0], out)
	}
	if cmd.Bool("discover") {
		out.totals = e.clientTotals(results, selected)
	}
	err = e.reportMany(results, out)
	if cmd.Bool("wrap") {
		e.writeWraps(e.stdout, results)
	}
	return err
}

// streamFormat is the format written to standard output, which --discover
// lists its servers in: json when asked, text otherwise.
func streamFormat(outs []reportOutput) string {
	if slices.Contains(outs, reportOutput{format: "json"}) {
		return "json"
	}
	return "text"
}

// runServers reaches the servers the command line names (a command, a
// URL, --client-config or --discover), or with none of them the servers
// of the project configuration file, and lists and lints each, with the
// linter linterFor returns for its listing. single reports whether one
// server was named (not several from a configuration or --discover);
// results is nil, with a nil error, when --discover only listed. ctx's
// cancellation (Ctrl-C) stops the servers.
// protocol, when not "", is the only version negotiated; else each server
// is listed in every era it offers (live.Listing.Eras).
func (e *env) runServers(ctx context.Context, cmd *cli.Command, fmtName, save, protocol string, file *config.File, linterFor func(*live.Listing) (*lint.Linter, error)) (results []checked, single bool, err error) {
	limits, err := serverLimits(cmd)
	if err != nil {
		return nil, false, err
	}
	discover := cmd.Bool("discover")
	if !discover && (cmd.Bool("dry-run") || cmd.Bool("yes")) {
		return nil, false, usagef("--dry-run and --yes go with --discover; add --discover, or drop them")
	}
	var servers []live.ConfiguredServer
	several := discover
	if discover {
		servers, err = e.discover(cmd, fmtName)
		if errors.Is(err, errListed) {
			return nil, false, nil
		}
	} else {
		servers, several, err = e.checkTargets(cmd, file)
	}
	if err != nil {
		return nil, false, err
	}
	if save != "" && several {
		return nil, false, usagef("--save writes one server's listing, and several are checked (--client-config, --discover or the servers of %s); check one server, or drop --save", config.Names[0])
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
	e.superviseServers()
	defer live.KillOrphans()

	single = !several
	all := live.CheckAll(ctx, servers, live.CheckOptions{
		Options: live.Options{Limits: limits, Protocol: protocol},
		Timeout: cmd.Duration("timeout"),
		Linter: func(s live.ConfiguredServer, l *live.Listing) (*lint.Linter, error) {
			switch {
			case l.Modern != nil && save != "":
				// The initialize era is saved beside the listing.
				l.Manifest.Path = eraPath(save, l.Server.Protocol)
			case l.Modern != nil:
				l.Manifest.Path = l.Modern.Manifest.Path + " (" + l.Server.Protocol + ")"
			case save == "" && single && l.Server.Name != "":
				// Findings name the server rather than its command line.
				l.Manifest.Path = l.Server.Name
			}
			return linterFor(l)
		},
		Done: e.progress(len(servers)),
	})
	e.progressDone(len(servers))
	results = make([]checked, len(all))
	for i, r := range all {
		results[i] = checked{name: names[i], listing: r.Listing, diags: r.Diagnostics, err: r.Err}
	}
	return results, single, nil
}

// superviseServers makes this process, on Linux, the subreaper of what
// the servers start, for live.KillOrphans to stop when the check ends.
func (e *env) superviseServers() {
	// Without it, processes a server leaves behind go to init, out of
	// reach; the check itself still works.
	_ = live.AdoptOrphans()
}

// checkTargets reads the command line into the servers to check; with no
// target named, they are the servers of the project configuration file.
// several says they come from a configuration, to be reported server by
// server.
func (e *env) checkTargets(cmd *cli.Command, file *config.File) (servers []live.ConfiguredServer, several bool, err error) {
	args := cmd.Args().Slice()
	switch {
	case cmd.String("client-config") != "":
		path := cmd.String("client-config")
		if len(args) > 0 || cmd.String("url") != "" {
			return nil, false, usagef("--client-config checks the servers of a file, not a command or --url too; give one of them")
		}
		servers, err = live.ReadClientConfig(path, e.lookupEnv)
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("--client-config: %w", err)
		}
		if err != nil {
			return nil, false, &inputErrors{errs: []error{err}}
		}
		if len(servers) == 0 {
			return nil, false, &inputErrors{errs: []error{fmt.Errorf("%s: no server to check", path)}}
		}
	case len(args) == 0 && cmd.String("url") == "":
		if file == nil || len(file.Servers) == 0 {
			// The configuration is mentioned only when it was looked for.
			switch {
			case cmd.Bool("no-config"):
				return nil, false, usagef("nothing to check; give a command after --, --url URL, --client-config FILE or --discover")
			case file != nil:
				return nil, false, usagef("nothing to check, and %s has no servers; give a command after --, --url URL, --client-config FILE or --discover, or list servers under servers: in it", file.Path)
			}
			return nil, false, usagef("nothing to check, and no %s was found; give a command after --, --url URL, --client-config FILE or --discover, or list servers in a %s", config.Names[0], config.Names[0])
		}
		servers = live.ProjectServers(file.Servers, file.Dir, e.lookupEnv)
		// They are commands from a file: say which, before any runs.
		fmt.Fprintf(e.stderr, "mcplint: running the servers of %s\n", guard.Text(file.Path))
	default:
		servers, err = e.commandLineTarget(cmd)
		return servers, false, err
	}
	for _, s := range servers {
		e.addSecrets(s.Target)
	}
	return servers, true, nil
}

// commandLineTarget reads the server the command line names: a command
// after --, or --url.
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
			return nil, usagef("--env %q: not NAME=VALUE; write the variable's name, = and its value", kv)
		}
	}
	for _, h := range cmd.StringSlice("header") {
		name, value, ok := strings.Cut(h, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			// The value may be a secret: name only the header.
			return nil, usagef("--header %q: not 'NAME: VALUE'; write the header's name, a colon and its value", name)
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
		// Said of the flags that named the server.
		switch {
		case t.Transport != "" && !slices.Contains(live.Transports, t.Transport):
			return nil, badChoice("--transport", "transport", t.Transport, live.Transports)
		case t.URL != "" && strings.Contains(err.Error(), "is not an http"):
			return nil, usagef("--url: %v", err)
		}
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
	// The counter's carriage returns and erase sequence are mcplint's own:
	// written past the guard, and holding nothing from the input.
	w := unguarded(e.stderr)
	fmt.Fprintf(w, "\rchecking %d servers: 0 done", total)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		fmt.Fprintf(w, "\rchecking %d servers: %d done", total, done)
	}
}

func (e *env) progressDone(total int) {
	if e.stderrTTY && total >= 2 {
		fmt.Fprint(unguarded(e.stderr), "\r\033[K")
	}
}

// failureLines is how a failed server is shown: the one-line error (with
// the flag that raises a limit it passed), then the server's last stderr
// lines, indented, each through guard.Text: the lines are mcplint's, what
// the server said never starts one.
func failureLines(err error) string {
	if le, ok := live.AsError(err); ok {
		le2 := *le
		le2.Msg = guard.Text(le.Msg)
		if flag := limitFlag(err); flag != "" {
			le2.Msg = fmt.Sprintf("%s (raise the limit with %s)", le2.Msg, flag)
		}
		le2.Stderr = make([]string, len(le.Stderr))
		for i, l := range le.Stderr {
			le2.Stderr[i] = guard.Text(l)
		}
		return le2.Detail()
	}
	return guard.Text(withLimitHint(err).Error())
}

// eraPath is where --save writes the listing of a server's initialize
// era, beside the listing of the era it negotiated: tools.json gives
// tools.2025-11-25.json.
func eraPath(save, protocol string) string {
	ext := filepath.Ext(save)
	return strings.TrimSuffix(save, ext) + "." + protocol + ext
}

// serverText is what the text format says of a listed server.
func serverText(l *live.Listing) *report.Server {
	s := &report.Server{Name: l.Server.Name, Version: l.Server.Version, Transport: l.Server.Transport, InitializeRefused: l.LegacyRefused,
		LiveOnly: []string{live.RuleListResultValid, live.RuleListOrderStable, live.RuleStdioStdoutClean}}
	for _, era := range l.Eras() {
		s.Eras = append(s.Eras, report.ServerEra{Protocol: era.Server.Protocol, Handshake: era.Server.Handshake, Manifest: era.Manifest})
	}
	s.Same = l.Legacy != nil && live.SameSurface(l, l.Legacy)
	return s
}

// serverFile is a server's findings as the report formats take them:
// those of its other era point into that era's listing, which the text
// format finds in serverText's eras.
func serverFile(r checked) report.File {
	return report.File{Manifest: r.listing.Manifest, Diagnostics: r.diags}
}

// checkReport is how the outcome of check is reported.
type checkReport struct {
	outs      []reportOutput
	color     bool
	quiet     bool
	showInfos bool
	min       lint.Severity
	rc        reportContext
	// totals add up the servers of each client (--discover).
	totals []clientTotal
}

// onStream says whether format is written to standard output.
func (o checkReport) onStream(format string) bool {
	return slices.Contains(o.outs, reportOutput{format: format})
}

func (e *env) reportOne(r checked, o checkReport) error {
	if r.err != nil {
		o.rc.failures = []report.Failure{{Path: r.name, Message: oneLineError(r.err)}}
		if err := e.writeFailedOutputs(o.outs, e.stdout, o.rc); err != nil {
			return err
		}
		return &serverFailures{msgs: []string{failureLines(r.err)}}
	}
	files := []report.File{serverFile(r)}
	err := e.writeOutputs(o.outs, e.stdout, o.color, func(w io.Writer, format string, color bool) error {
		switch format {
		case "json":
			return writeIndentedJSON(w, checkJSON{JSONReport: report.NewJSONReport(files), Server: r.listing.Server, surfaceJSON: surfaceOf(r.listing), Eras: erasOf(r.listing), InitializeRefused: r.listing.LegacyRefused, Locked: lockOf(r)})
		case "text":
			srv := serverText(r.listing)
			if !o.quiet {
				fmt.Fprintf(w, "%s\n", srv.Header())
			}
			if err := report.WriteText(w, files, report.TextOptions{Color: color, Quiet: o.quiet, ShowInfos: o.showInfos, Server: srv}); err != nil {
				return err
			}
			writeChanges(w, r)
			return nil
		}
		return e.writeReport(w, format, files, o.rc)
	})
	if err != nil {
		return err
	}
	if !o.onStream("text") && !o.onStream("json") {
		writeChanges(e.stderr, r) // what changed since the lock, which no other format says
	}
	return lockOutcome([]checked{r}, outcome(files, nil, o.min))
}

// checkJSON is the JSON report of one server: the lint report plus what
// the server is and what it listed.
type checkJSON struct {
	report.JSONReport
	Server live.Server `json:"server"`
	surfaceJSON
	// Eras is what each era listed: the negotiated one first, then, for a
	// server of 2026-07-28 that answers initialize too, that era.
	Eras []eraJSON `json:"eras"`
	// InitializeRefused says how a server of 2026-07-28 answered
	// initialize when it did not list anything there.
	InitializeRefused string `json:"initializeRefused,omitempty"`
	// Locked is what changed since the lock file (--locked).
	Locked *lockJSON `json:"locked,omitempty"`
}

// eraJSON is one era of a server: the version and handshake, what it
// listed, and where --save wrote it ("" without --save).
type eraJSON struct {
	Protocol  string `json:"protocol"`
	Handshake string `json:"handshake"`
	surfaceJSON
}

func erasOf(l *live.Listing) []eraJSON {
	var out []eraJSON
	for _, era := range l.Eras() {
		out = append(out, eraJSON{Protocol: era.Server.Protocol, Handshake: era.Server.Handshake, surfaceJSON: surfaceOf(era)})
	}
	return out
}

// surfaceJSON names what a server listed: its tools and prompts by name,
// its resources by URI and its resource templates by URI template, in the
// order listed.
type surfaceJSON struct {
	Tools             []string `json:"tools"`
	Prompts           []string `json:"prompts"`
	Resources         []string `json:"resources"`
	ResourceTemplates []string `json:"resourceTemplates"`
}

func surfaceOf(l *live.Listing) surfaceJSON {
	keys := func(es []*manifest.Entry) []string {
		out := []string{}
		for _, e := range es {
			out = append(out, e.Key)
		}
		return out
	}
	m := l.Manifest
	return surfaceJSON{Tools: toolNames(l), Prompts: keys(m.Prompts), Resources: keys(m.Resources), ResourceTemplates: keys(m.Templates)}
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
	// Clients add up the servers of each client (--discover only).
	Clients []clientTotalJSON `json:"clients,omitempty"`
}

type configServerJSON struct {
	Name   string       `json:"name"`
	Server *live.Server `json:"server"`
	surfaceJSON
	Eras              []eraJSON               `json:"eras"`
	InitializeRefused string                  `json:"initializeRefused,omitempty"`
	Locked            *lockJSON               `json:"locked,omitempty"`
	Diagnostics       []report.JSONDiagnostic `json:"diagnostics"`
	Summary           report.JSONSummary      `json:"summary"`
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
			failed = append(failed, guard.Text(r.name)+": "+oneLineError(r.err))
			o.rc.failures = append(o.rc.failures, report.Failure{Path: r.name, Message: r.name + ": " + oneLineError(r.err)})
			continue
		}
		all = append(all, serverFile(r))
	}
	all = append(all, totalFiles(o.totals)...)
	err := e.writeOutputs(o.outs, e.stdout, o.color, func(w io.Writer, format string, color bool) error {
		switch format {
		case "json":
			doc := manyJSON(results)
			doc.Clients = o.totalsJSON()
			return writeIndentedJSON(w, doc)
		case "text":
			if err := writeManyText(w, results, color, o.quiet, o.showInfos); err != nil {
				return err
			}
			if line := report.Summarize(all).ContextLine(); line != "" && !o.quiet {
				fmt.Fprintln(w, line)
			}
			writeTotals(w, o.totals, e.home())
			return nil
		}
		return e.writeReport(w, format, all, o.rc)
	})
	if err != nil {
		return err
	}
	if !o.onStream("text") && !o.onStream("json") {
		for _, r := range results {
			writeChanges(e.stderr, r)
		}
	}
	if len(failed) > 0 {
		if o.onStream("text") || o.onStream("json") {
			failed = nil // the report said it
		}
		return &serverFailures{msgs: failed}
	}
	return lockOutcome(results, outcome(all, nil, o.min))
}

func manyJSON(results []checked) configJSON {
	doc := configJSON{Version: report.JSONVersion, Servers: []configServerJSON{}}
	for _, r := range results {
		s := configServerJSON{Name: r.name, surfaceJSON: surfaceJSON{Tools: []string{}, Prompts: []string{}, Resources: []string{}, ResourceTemplates: []string{}}, Eras: []eraJSON{}, Diagnostics: []report.JSONDiagnostic{}}
		if r.err != nil {
			s.Error = failureLines(r.err)
		} else {
			rep := report.NewJSONReport([]report.File{serverFile(r)})
			srv := r.listing.Server
			s.Server, s.surfaceJSON, s.Diagnostics, s.Summary = &srv, surfaceOf(r.listing), rep.Diagnostics, rep.Summary
			s.Eras, s.InitializeRefused = erasOf(r.listing), r.listing.LegacyRefused
			s.Locked = lockOf(r)
		}
		doc.Servers = append(doc.Servers, s)
	}
	return doc
}

// writeManyText writes each server's findings under "== NAME", then one
// summary line a server; quiet writes only the summary lines.
func writeManyText(w io.Writer, results []checked, color, quiet, showInfos bool) error {
	var summary strings.Builder
	for _, r := range results {
		name := guard.Text(r.name)
		if r.err != nil {
			fmt.Fprintf(&summary, "%s: failed: %s\n", name, oneLineError(r.err))
		} else {
			s := report.Summarize([]report.File{{Manifest: r.listing.Manifest, Diagnostics: r.diags}})
			fmt.Fprintf(&summary, "%s: %s; %s, %s\n", name, report.Counts(r.listing.Manifest), english.Count(s.Errors, "error"), english.Count(s.Warnings, "warning"))
		}
		if quiet {
			continue
		}
		fmt.Fprintf(w, "== %s\n", name)
		if r.err != nil {
			fmt.Fprintf(w, "failed: %s\n\n", failureLines(r.err))
			continue
		}
		srv := serverText(r.listing)
		srv.Label = r.name
		fmt.Fprintf(w, "%s\n", srv.Header())
		files := []report.File{serverFile(r)}
		if err := report.WriteText(w, files, report.TextOptions{Color: color, ShowInfos: showInfos, Server: srv}); err != nil {
			return err
		}
		writeChanges(w, r)
		fmt.Fprintln(w)
	}
	_, err := io.WriteString(w, summary.String())
	return err
}

func oneLineError(err error) string {
	if le, ok := live.AsError(err); ok {
		if flag := limitFlag(err); flag != "" {
			return fmt.Sprintf("%s (raise the limit with %s)", guard.Text(le.Msg), flag)
		}
		return guard.Text(le.Msg)
	}
	return guard.Text(err.Error())
}

// writeIndentedJSON writes as report.WriteJSON does, through
// guard.NewJSONWriter.
func writeIndentedJSON(w io.Writer, v any) error {
	g := guard.NewJSONWriter(w)
	enc := json.NewEncoder(g)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return g.Flush()
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
	// Said instead of the settings the file lacks, which are beside the
	// point.
	return usagef("--config %s: an MCP client configuration, not mcplint's; check its servers with --client-config %s (--config names mcplint's own configuration, as for lint)", path, path)
}
