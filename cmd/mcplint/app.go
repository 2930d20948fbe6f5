package main

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/report"
)

const rootDescription = `mcplint checks the tool definitions an MCP server publishes (its tools/list
result) against the MCP specification and against what real clients accept,
and repairs what it safely can.

A manifest is a tools/list result, a JSON-RPC response carrying one,
newline-delimited pages of those, an array of tools, a single tool, a
plugin contract {"name", "description", "schema"}, or the function tools of
OpenAI (Chat Completions or Responses), Anthropic or Gemini, in JSON or YAML.

Exit status: 0 when no finding reaches --fail-on, 1 when one does, 2 on a
usage error or when a file cannot be read or parsed or passes a limit
(--max-file-size and the other --max flags), 3 when a live server (check)
cannot be listed or passes a limit.`

// app builds the command tree. It is built anew for each run: urfave/cli
// keeps parsed values in the flags.
func (e *env) app() *cli.Command {
	root := &cli.Command{
		Name:                  "mcplint",
		Usage:                 "lint and fix the tool definitions of MCP servers",
		Version:               version(),
		Description:           rootDescription,
		Reader:                e.stdin,
		Writer:                e.stdout,
		ErrWriter:             e.stderr,
		EnableShellCompletion: true,
		Metadata:              map[string]any{helpWidth: e.helpWidth},
		// urfave/cli hides the completion command; mcplint lists it, with
		// its own scripts (completion_scripts.go).
		ConfigureShellCompletionCommand: configureCompletion,
		// Errors are printed once, by run; never os.Exit from inside.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		OnUsageError:   onUsageError,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Present() {
				return unknownName("command", cmd.Args().First(), subcommandNames(cmd), "mcplint")
			}
			return cli.ShowRootCommandHelp(cmd)
		},
		Commands: []*cli.Command{e.lintCommand(), e.fixCommand(), e.rulesCommand(), e.breakingCommand(), e.checkCommand(), e.lockCommand(), e.initCommand(), e.schemaCommand(), e.convertCommand(), e.proxyCommand(), e.mcpCommand()},
	}
	e.completion(root)
	return root
}

// selectionFlags are the flags that choose and tune rules, shared by lint
// and fix.
func (e *env) selectionFlags() []cli.Flag {
	packs := strings.Join(lint.Packs(e.catalogue), ", ")
	return []cli.Flag{
		&cli.StringSliceFlag{
			Name:  "select",
			Usage: "run these `RULES` (rule IDs or pack names, comma-separated; repeatable) instead of the default selection (" + lint.DefaultDescription(e.catalogue) + "); \"all\" is every rule; packs: " + packs,
		},
		&cli.StringSliceFlag{Name: "extend-select", Usage: "run these `RULES` (IDs or packs) as well"},
		&cli.StringSliceFlag{Name: "ignore", Usage: "do not run these `RULES` (IDs or packs)"},
		&cli.StringFlag{
			Name:  "protocol",
			Usage: "check against this MCP protocol `VERSION` only (" + strings.Join(lint.Protocols, ", ") + "); default: every version in use, since a server answers clients of all of them",
		},
		&cli.GenericFlag{
			Name:  "option",
			Value: &optionList{},
			Usage: "set the rule option `RULE.NAME=VALUE` (VALUE is read as JSON when it parses, as a string otherwise); repeatable",
		},
		&cli.BoolFlag{
			Name:  "strict",
			Usage: "check for OpenAI strict mode (Structured Outputs) too: shorthand for --extend-select " + strictPack,
		},
		&cli.IntFlag{
			Name:  "max-findings",
			Value: defaultMaxFindings,
			Usage: "stop a run with more than `N` findings in one manifest when they are held in memory for the report (any report but one text or JSON report on standard output, which is written as it goes; fix; check); a finding over 2.5 KB (a long message or pointer) counts as one per 2.5 KB",
		},
		&cli.StringFlag{
			Name:  "server-name",
			Usage: "the `NAME` clients know the server by, for the rules that check the names they build from it (" + strings.Join(serverNameRules, ", ") + ")",
		},
		&cli.StringFlag{
			Name:  "fail-on",
			Value: "error",
			Usage: "exit with status 1 when a finding is at least this `SEVERITY`: error, warning, info or never",
		},
		&cli.StringFlag{
			Name:  "color",
			Value: "auto",
			Usage: "`WHEN` to colour the text output: auto (on a terminal; NO_COLOR=1 turns it off, FORCE_COLOR=1 on anywhere, FORCE_COLOR=0 off), always or never",
		},
	}
}

// strictPack is the pack of OpenAI's strict-mode rules, and
// serverNameRules the rules that read the server name; the flags that are
// shorthands for them name them in their help.
const strictPack = "openai-strict"

var serverNameRules = []string{"claude-prefixed-name-length", "cursor-name-length"}

// optionList collects --option values. It is not a string slice flag
// because a VALUE may be a JSON list, commas included.
type optionList struct{ specs []string }

func (o *optionList) Set(s string) error { o.specs = append(o.specs, s); return nil }
func (o *optionList) String() string     { return strings.Join(o.specs, " ") }
func (o *optionList) Get() any           { return o.specs }

// config reads the selection flags into a lint configuration.
func (e *env) config(cmd *cli.Command) (lint.Config, error) {
	cfg := lint.Config{
		Select:       names(cmd.StringSlice("select")),
		ExtendSelect: names(cmd.StringSlice("extend-select")),
		Ignore:       names(cmd.StringSlice("ignore")),
		Protocol:     cmd.String("protocol"),
		MaxFindings:  int(cmd.Int("max-findings")),
	}
	if cmd.IsSet("max-findings") && cfg.MaxFindings < 1 {
		return cfg, usagef("--max-findings: %d is not a positive number; give 1 or more", cfg.MaxFindings)
	}
	if cfg.Protocol != "" && !lint.ValidProtocol(cfg.Protocol) {
		return cfg, badChoice("--protocol", "MCP protocol version", cfg.Protocol, lint.Protocols)
	}
	if cmd.Bool("strict") {
		cfg.ExtendSelect = append(cfg.ExtendSelect, strictPack)
	}
	if name := cmd.String("server-name"); name != "" {
		// An explicit --option for a rule, read below, wins.
		cfg.Options = map[string]map[string]any{}
		for _, id := range serverNameRules {
			cfg.Options[id] = map[string]any{"server-name": name}
		}
	}
	if specs, ok := cmd.Value("option").([]string); ok {
		for _, spec := range specs {
			id, name, value, err := e.parseOption(spec)
			if err != nil {
				return cfg, err
			}
			if cfg.Options == nil {
				cfg.Options = map[string]map[string]any{}
			}
			if cfg.Options[id] == nil {
				cfg.Options[id] = map[string]any{}
			}
			cfg.Options[id][name] = value
		}
	}
	return cfg, nil
}

// defaultMaxFindings bounds the findings a run holds for one manifest:
// about 2.5 KB each in the reports that hold them, a quarter of a gigabyte
// in all, and a larger one counts as one per 2.5 KB (lint.FindingBytes),
// so that the quarter gigabyte holds whatever the strings. No real tool list comes near: ten thousand tools with ten
// findings each are as many.
const defaultMaxFindings = 100000

// names drops the empty entries that "a,,b" or a trailing comma leave.
func names(list []string) []string {
	var out []string
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// parseOption reads RULE.NAME=VALUE.
func (e *env) parseOption(spec string) (id, name string, value any, err error) {
	key, raw, ok := strings.Cut(spec, "=")
	if ok {
		id, name, ok = strings.Cut(key, ".")
	}
	if !ok || id == "" || name == "" {
		return "", "", nil, usagef("--option %q: not RULE.NAME=VALUE; write the rule's ID, a dot, the option's name, = and its value", spec)
	}
	var rule *lint.Rule
	for _, r := range e.catalogue {
		if r.ID == id {
			rule = r
		}
	}
	if rule == nil {
		return "", "", nil, usagef("--option %q: unknown rule %q%s", spec, id, cmp.Or(e.suggestRule(id), "; `mcplint rules` lists the rules"))
	}
	var parsed any
	if json.Unmarshal([]byte(raw), &parsed) != nil {
		parsed = raw
	}
	value, err = lint.OptionValue(rule, name, parsed)
	if err != nil {
		// "--option r.prefix=123" means the string when the option is one.
		if v, err2 := lint.OptionValue(rule, name, raw); err2 == nil {
			return id, name, v, nil
		}
		return "", "", nil, usagef("--option %q: %v", spec, err)
	}
	return id, name, value, nil
}

// failOn reads --fail-on; zero means never.
func failOn(cmd *cli.Command) (lint.Severity, error) {
	s := cmd.String("fail-on")
	if s == "never" {
		return 0, nil
	}
	sev, err := lint.ParseSeverity(s)
	if err != nil {
		return 0, badChoice("--fail-on", "severity", s, []string{"error", "warning", "info", "never"})
	}
	return sev, nil
}

// colorOn decides --color for an output that is a terminal or not.
func (e *env) colorOn(cmd *cli.Command, terminal bool) (bool, error) {
	mode, err := report.ParseColorMode(cmd.String("color"))
	if err != nil {
		return false, badChoice("--color", "colour mode", cmd.String("color"), []string{"auto", "always", "never"})
	}
	return mode.Enabled(terminal, e.getenv), nil
}

// format reads --format.
func format(cmd *cli.Command) (string, error) {
	f := cmd.String("format")
	if f != "text" && f != "json" {
		return "", badChoice("--format", "format", f, []string{"text", "json"})
	}
	return f, nil
}

func formatFlag() cli.Flag {
	return &cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"}
}

// reportOptions reads the flags of breaking, which reads no configuration
// file: the report formats, --fail-on, --color and the rule selection.
func (e *env) reportOptions(cmd *cli.Command) (outs []reportOutput, min lint.Severity, color bool, cfg lint.Config, err error) {
	if outs, err = reportOutputs(cmd); err != nil {
		return
	}
	if min, err = failOn(cmd); err != nil {
		return
	}
	if color, err = e.colorOn(cmd, e.stdoutTTY); err != nil {
		return
	}
	cfg, err = e.config(cmd)
	return
}

// subcommandNames lists the commands under cmd that are not hidden.
func subcommandNames(cmd *cli.Command) []string {
	var names []string
	for _, c := range cmd.Commands {
		if !c.Hidden && c.Name != "help" {
			names = append(names, c.Name)
		}
	}
	return names
}
