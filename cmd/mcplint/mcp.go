package main

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/mcpserver"
)

const mcpDescription = `Serves mcplint over MCP on standard input and output, for an agent (Claude
Code, Cursor, VS Code, …) to lint and fix the tool definitions of the server
it is writing. Tools: lint, fix (returns the fixed list and a diff; writes
nothing), convert and explain_rule; resources: every rule's documentation
and the consumer matrix. Files are read from the workspace (--workspace,
default the current folder) and never from outside it, symbolic links
included.

--allow-check adds the check tool, which starts the server command the
agent gives (or connects to its URL) and lints what it publishes. That runs
programs with your rights, like a shell, so it is off unless you ask.

  claude mcp add mcplint -- npx -y @mcpfit/mcplint mcp
  {"mcpServers": {"mcplint": {"command": "mcplint", "args": ["mcp"]}}}`

func (e *env) mcpCommand() *cli.Command {
	return &cli.Command{
		Name:         "mcp",
		Usage:        "serve mcplint's tools to an agent over MCP (stdio)",
		Description:  mcpDescription,
		OnUsageError: onUsageError,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "workspace", Value: ".", Usage: "the `FOLDER` whose files the tools may read"},
			&cli.BoolFlag{Name: "allow-check", Usage: "offer the check tool, which runs the server command the agent gives"},
			&cli.DurationFlag{Name: "timeout", Value: 30 * time.Second, Usage: "give each server the check tool checks at most `DURATION`: the conversation and the linting"},
		}, fileLimitFlags()...),
		Action: e.mcp,
	}
}

func (e *env) mcp(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Present() {
		return usagef("mcp takes no arguments, got %q; give the folder of the files with --workspace", cmd.Args().First())
	}
	if err := e.readFileLimits(cmd); err != nil {
		return err
	}
	s, err := mcpserver.New(mcpserver.Options{
		Catalogue: e.catalogue, Workspace: cmd.String("workspace"), AllowCheck: cmd.Bool("allow-check"),
		Version: version(), Limits: e.fileLimits, CheckTimeout: cmd.Duration("timeout"),
	})
	if err != nil {
		return usagef("--workspace: %v; give a folder that exists", err)
	}
	if cmd.Bool("allow-check") {
		e.superviseServers()
		defer live.KillOrphans()
	}
	ctx, stop := stoppable(ctx)
	defer stop()
	// The protocol's bytes, not a report: standard output as run got it is
	// the transport; every text in it was guarded by the server.
	out := e.rawStdout
	if out == nil {
		out = unguarded(e.stdout)
	}
	t := &mcp.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{out}}
	if err := s.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
