package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/proxy"
)

const proxyDescription = `Runs between an MCP client and a server the user does not own, and repairs
at runtime what the client would refuse. It speaks MCP on its own standard
input and output, so it takes the server's place in any client's
configuration:

  mcplint proxy -- npx -y @modelcontextprotocol/server-everything
  mcplint proxy --for gemini -- uvx some-server
  mcplint proxy --url https://example.com/mcp --header 'X-Api-Key: $KEY'
  mcplint proxy --listen 127.0.0.1:8931 -- node server.js

Every tools/list result (and the one after notifications/tools/list_changed)
gets the safe fixes of mcplint's rules (--unsafe-fixes: the unsafe ones
too), then the form the client takes: --for CLIENT adapts tools for one
client (openai, openai-strict, gemini, claude, cursor or vscode; auto picks
one from the clientInfo the client sends, and says which), with the
transforms of mcplint convert; without --for, for every mainstream client in
its default mode. A tool name the client refuses is renamed, with a name
that stays the same and never collides; calls to it reach the server under
its own name. Arguments are converted where the server's own input schema
refuses them as sent and accepts them converted ("5" for 5, "true" for true,
a JSON text for an object or array, a null for an optional argument left
out), and only then. A result whose structuredContent breaks the tool's
outputSchema is logged, and turned into a tool error carrying it as text
when the client fails whole calls on it (the TypeScript and Python SDKs'
clients do). Everything else (every protocol version's handshake, prompts,
resources, sampling, elicitation, roots, progress, cancellation, logging,
ping, unknown methods) passes both ways with its id and bytes unchanged, and
requests in flight are never held up behind each other.

What was changed is said once per tool and kind of change: on standard
error, or as JSON lines in --log FILE. Argument values and secrets never
appear.

The client closing standard input ends the server and every process it
started. A server that exits fails the requests in flight with a JSON-RPC
error and the proxy with exit status 3. The limits of check apply: no
message is read past --max-message-size, and a listing past the list limits
is passed on unrepaired.

--listen serves Streamable HTTP at http://ADDR/mcp instead of stdio: on the
loopback interface when ADDR is a port (":8931" or "8931"), elsewhere only
when ADDR names another address.`

func (e *env) proxyCommand() *cli.Command {
	return &cli.Command{
		Name:         "proxy",
		Usage:        "run between an MCP client and a server, repairing at runtime what the client refuses",
		ArgsUsage:    "[-- COMMAND [ARGS...]]",
		Description:  proxyDescription,
		OnUsageError: onUsageError,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "for", Usage: "adapt tools for `CLIENT`: " + strings.Join(convert.Clients, ", ") + ", or auto (from the client's clientInfo); default: every mainstream client"},
			&cli.BoolFlag{Name: "unsafe-fixes", Usage: "apply unsafe fixes too (calls are still converted back to what the server takes)"},
			&cli.StringFlag{Name: "log", Usage: "write what was changed to `FILE` as JSON lines (appended) instead of standard error"},
			&cli.StringFlag{Name: "listen", Usage: "serve Streamable HTTP on `ADDR` (a port listens on loopback only) instead of stdio"},
			&cli.StringFlag{Name: "url", Usage: "relay the Streamable HTTP server at `URL` instead of starting a command"},
			headerFlag(" to the server"), envFlag(), cwdFlag(),
		}, proxyLimitFlags()...),
		Action: e.proxy,
	}
}

func (e *env) proxy(ctx context.Context, cmd *cli.Command) error {
	limits, err := serverLimits(cmd)
	if err != nil {
		return err
	}
	forClient := cmd.String("for")
	if err := proxy.CheckFor(forClient); err != nil {
		return &usageError{err: fmt.Errorf("--for: %w", err)}
	}
	servers, err := e.commandLineTarget(cmd)
	if err != nil {
		return err
	}
	o := proxy.Options{
		Target: servers[0].Target, For: forClient, UnsafeFixes: cmd.Bool("unsafe-fixes"),
		Log: e.stderr, Stderr: e.stderr, Limits: limits,
		Rules: e.catalogue, Stdin: e.stdin, Stdout: e.rawStdout,
	}
	if path := cmd.String("log"); path != "" {
		// A generated file like a report: not appended to through a link
		// that a cloned repository commits and that leads out of it
		// (proxy.log -> ~/.bashrc, where a logged name holding "$(…)"
		// would run).
		if err := generatedPath("--log", path); err != nil {
			return err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return &inputErrors{errs: []error{fmt.Errorf("--log: %w", err)}}
		}
		defer f.Close()
		o.Log, o.LogJSON = f, true
	}
	if addr := cmd.String("listen"); addr != "" {
		if o.Listen, err = listenAddr(addr); err != nil {
			return usagef("--listen: %v", err)
		}
		o.Ready = func(url string) {
			fmt.Fprintf(e.stderr, "mcplint proxy: serving Streamable HTTP at %s\n", url)
		}
	}
	ctx, stop := stoppable(ctx)
	defer stop()
	e.superviseServers()
	defer live.KillOrphans()
	err = proxy.Run(ctx, o)
	switch {
	case err == nil, errors.Is(err, context.Canceled):
		return nil
	case errors.Is(err, proxy.ErrServer):
		return &serverFailures{msgs: []string{err.Error()}}
	}
	return err
}

// proxyLimitFlags are check's limits (serverLimitFlags) as the proxy
// applies them: a message past its size fails the server, a listing past
// the list limits is passed on unrepaired.
func proxyLimitFlags() []cli.Flag {
	return limitFlagsSaying(limitUsage{
		messageSize: "read no message (a line, an HTTP body or event) larger than `SIZE`: one of the client's is refused, one of the server's fails it",
		listSize:    "pass on unrepaired a tool list whose pages together are larger than `SIZE`",
		tools:       "pass on unrepaired a tools/list page of more than `N` tools",
		pages:       "pass on unrepaired the pages of a tool list past the `N`th",
	})
}

// listenAddr reads --listen: a port alone ("8931" or ":8931") listens on
// loopback, so that the proxy is reachable from elsewhere only when the
// user names another address.
func listenAddr(v string) (string, error) {
	if !strings.Contains(v, ":") {
		v = ":" + v
	}
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		return "", err
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}
