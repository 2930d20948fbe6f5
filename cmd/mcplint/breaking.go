package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/breaking"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/report"
)

const breakingDescription = `Compares the tool list NEW ("-" or none: standard input) with the older
list OLD given by --against, and reports every change that can break a
client or an agent already using the server: a tool removed or renamed, a
property removed or made required, a type, enum, const or bound that
accepts less, an output schema that promises less, annotations that let a
tool do more than its users approved. Changes that break nothing (a tool or
an optional property added, a bound relaxed, a description edited) are
listed as info (pack non-breaking; --ignore non-breaking hides them).

OLD and NEW are manifest files, "-", or git:REF:PATH, the file PATH as
committed in revision REF (read with git show REF:PATH, PATH from the top of
the repository), so a CI job can compare with the main branch:

    mcplint breaking --against git:origin/main:tools.json tools.json

NEW can also be a running server, reached as ` + "`mcplint check`" + ` reaches it: with
--url, or with --live and a command after --:

    mcplint breaking --against tools.json --live -- npx -y my-mcp-server
    mcplint breaking --against tools.json --url http://127.0.0.1:3001/mcp

Schemas are compared by meaning: key order, $ref versus inlined
definitions, and numeric parameters rewritten to also accept their decimal
strings are not changes. Findings about what exists in NEW point into NEW;
findings about what is gone point into OLD. Rules and packs (breaking,
non-breaking) are selected like lint's: ` + "`mcplint rules`" + ` lists them.`

func (e *env) breakingCommand() *cli.Command {
	flags := e.selectionFlags()
	for _, f := range flags {
		if s, ok := f.(*cli.StringSliceFlag); ok && s.Name == "select" {
			s.Usage = "compare only these `RULES` (rule IDs or the packs breaking and non-breaking; default: breaking, which holds every rule)"
		}
	}
	return &cli.Command{
		Name:         "breaking",
		Usage:        "report the changes between two tool lists that break clients",
		ArgsUsage:    "--against OLD [NEW | --url URL | --live -- COMMAND [ARGS...]]",
		Description:  breakingDescription,
		OnUsageError: onUsageError,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "against", Required: true, Usage: "the old tool list: a `FILE`, - (standard input) or git:REF:PATH"},
			&cli.BoolFlag{Name: "live", Usage: "NEW is the stdio server the command after -- starts"},
			&cli.StringFlag{Name: "url", Usage: "NEW is the server at `URL` (Streamable HTTP, or legacy SSE)"},
			&cli.StringFlag{Name: "transport", Usage: "force the `TRANSPORT` of NEW: stdio, http (Streamable HTTP) or sse (legacy HTTP+SSE)"},
			headerFlag(" to NEW"), envFlag(), cwdFlag(),
			&cli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Usage: "give the server at most `DURATION` for the whole conversation"},
			reportFormatFlag("standard output"),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "text format: print only the summary line, and nothing when nothing is found"},
		}, append(append(fileLimitFlags(), serverLimitFlags()...), flags...)...),
		Action: e.breaking,
	}
}

func (e *env) breaking(ctx context.Context, cmd *cli.Command) error {
	outs, min, color, cfg, err := e.reportOptions(cmd)
	if err != nil {
		return err
	}
	selected, err := breaking.Select(cfg)
	if err != nil {
		return selectionError(err)
	}
	if err := e.readFileLimits(cmd); err != nil {
		return err
	}
	if _, err := serverLimits(cmd); err != nil {
		return err
	}
	oldSrc := cmd.String("against")
	if _, _, _, err := breaking.ParseGitSource(oldSrc); err != nil {
		return usagef("%v", err)
	}
	var newSrc string
	var server *live.ConfiguredServer
	if cmd.Bool("live") || cmd.String("url") != "" {
		targets, err := e.commandLineTarget(cmd)
		if err != nil {
			return err
		}
		server = &targets[0]
	} else {
		args := cmd.Args().Slice()
		if len(args) > 1 {
			return usagef("breaking compares one NEW tool list with --against OLD, not %d; name one file (a server's command goes after --live --)", len(args))
		}
		paths, err := e.paths(args)
		if err != nil {
			return err
		}
		newSrc = paths[0]
		if oldSrc == "-" && newSrc == "-" {
			return usagef("standard input (-) can be read only once; name NEW or --against as a file")
		}
		if _, _, _, err := breaking.ParseGitSource(newSrc); err != nil {
			return usagef("%v", err)
		}
	}
	old, errOld := e.loadSource(ctx, oldSrc)
	var pe *fs.PathError
	if errors.As(errOld, &pe) {
		errOld = fmt.Errorf("--against: %w", errOld)
	}
	var new *manifest.Manifest
	var errNew error
	if server != nil {
		new, errNew = e.listServer(ctx, cmd, server)
	} else {
		new, errNew = e.loadSource(ctx, newSrc)
	}
	var errs []error
	for _, err := range []error{errOld, errNew} {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		rc := reportContext{rules: selected, command: "breaking", failures: failuresOf(errs)}
		if err := e.writeFailedOutputs(outs, e.stdout, rc); err != nil {
			return err
		}
		return &inputErrors{errs: errs}
	}
	rep, err := breaking.Compare(old, new, cfg)
	if err != nil {
		return &inputErrors{errs: []error{err}}
	}
	files := []report.File{{Manifest: new, Diagnostics: rep.New}, {Manifest: old, Diagnostics: rep.Old}}
	rc := reportContext{rules: selected, command: "breaking"}
	err = e.writeOutputs(outs, e.stdout, color, func(w io.Writer, format string, color bool) error {
		if format == "text" {
			// A change's infos are the change log: each is shown.
			return report.WriteText(w, files, report.TextOptions{Color: color, Quiet: cmd.Bool("quiet"), ShowInfos: true, NoContext: true})
		}
		return e.writeReport(w, format, files, rc)
	})
	if err != nil {
		return err
	}
	return outcome(files, nil, min)
}

// loadSource reads a manifest from a file, standard input or a git
// revision.
func (e *env) loadSource(ctx context.Context, src string) (*manifest.Manifest, error) {
	if _, _, isGit, _ := breaking.ParseGitSource(src); isGit {
		return breaking.ReadGit(ctx, "", src, e.fileLimits)
	}
	return e.load(src)
}

// listServer lists the tools of the running server NEW names. A server
// that cannot be listed is an input error (exit status 2): there is nothing
// to compare.
func (e *env) listServer(ctx context.Context, cmd *cli.Command, s *live.ConfiguredServer) (*manifest.Manifest, error) {
	limits, err := serverLimits(cmd)
	if err != nil {
		return nil, err
	}
	ctx, stop := stoppable(ctx)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, cmd.Duration("timeout"))
	defer cancel()
	e.superviseServers()
	defer live.KillOrphans()
	l, err := live.List(ctx, s.Target, live.Options{Name: s.Name, SkipSecondListing: true, Limits: limits})
	if err != nil {
		return nil, err
	}
	return l.Manifest, nil
}
