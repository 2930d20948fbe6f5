package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/mcpfit/mcplint/convert"
	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/live"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/redact"
	"github.com/mcpfit/mcplint/rules"
)

// Options configure a proxy.
type Options struct {
	// Target is the server: a command (stdio) or a Streamable HTTP URL.
	Target live.Target
	// For is the client to adapt tools for: one of convert.Clients, Auto
	// (picked from the client's clientInfo), or "" for every mainstream
	// client.
	For string
	// UnsafeFixes applies the unsafe fixes of the client's rules as well.
	UnsafeFixes bool
	// Log receives what the proxy changed, once per tool and kind of
	// change: text lines, or JSON lines with LogJSON. nil: nothing.
	Log     io.Writer
	LogJSON bool
	// Stderr receives the proxy's own messages and the server's stderr
	// (stdio), redacted and kept to printable characters. nil: discarded.
	Stderr io.Writer
	// Limits bound what the server may make the proxy hold, as for check:
	// a message is never buffered past MessageSize; a listing past
	// ListSize, Tools or Pages is passed on unrepaired. Zero fields take
	// live.DefaultLimits'.
	Limits live.Limits
	// Rules is the catalogue whose fixes apply (default rules.All).
	Rules []*lint.Rule
	// Stdin and Stdout are the client, when the proxy speaks stdio.
	Stdin  io.Reader
	Stdout io.Writer
	// Listen, when set, is the address to serve Streamable HTTP on,
	// instead of stdio; Listener, when set, is used instead.
	Listen   string
	Listener net.Listener
	// Ready, when set, is called with the MCP endpoint's URL once the
	// proxy listens.
	Ready func(url string)
}

// Proxy relays one server to its clients.
type Proxy struct {
	o       Options
	log     *changeLog
	rules   []*lint.Rule
	secrets *redact.Redactor
	stderr  io.Writer
}

// ErrServer wraps the failure of a server that ended the relay: it exited,
// passed a limit, or could not be reached.
var ErrServer = errors.New("the MCP server failed")

// New checks the options and returns the proxy.
func New(o Options) (*Proxy, error) {
	if err := CheckFor(o.For); err != nil {
		return nil, err
	}
	if err := o.Target.Validate(); err != nil {
		return nil, err
	}
	if o.Target.Transport == "sse" {
		return nil, errors.New("the legacy HTTP+SSE transport is not supported: give a Streamable HTTP URL or a command")
	}
	if o.Rules == nil {
		o.Rules = rules.All
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	secrets := o.Target.Secrets()
	p := &Proxy{o: o, rules: o.Rules, secrets: secrets}
	p.stderr = &guardWriter{w: o.Stderr, secrets: secrets}
	p.log = newChangeLog(o.Log, o.LogJSON, secrets)
	return p, nil
}

// Run relays until the client goes (its stdin ends; for Streamable HTTP,
// ctx ends) or the server does. A server that ends the relay is an error
// wrapping ErrServer; the requests in flight were answered with a
// JSON-RPC error first.
func Run(ctx context.Context, o Options) error {
	p, err := New(o)
	if err != nil {
		return err
	}
	if o.Listen != "" || o.Listener != nil {
		return p.serveHTTP(ctx)
	}
	return p.runStdio(ctx)
}

func (p *Proxy) limits() live.Limits {
	l := p.o.Limits
	d := live.DefaultLimits
	if l.MessageSize <= 0 {
		l.MessageSize = d.MessageSize
	}
	if l.ListSize <= 0 {
		l.ListSize = d.ListSize
	}
	if l.Tools <= 0 {
		l.Tools = d.Tools
	}
	if l.Pages <= 0 {
		l.Pages = d.Pages
	}
	return l
}

// manifestLimits bound the loading of one listing page, which the message
// size already bounds.
func (p *Proxy) manifestLimits() manifest.Limits {
	return manifest.Limits{Size: p.limits().MessageSize + 1}
}

// dial starts or reaches the server for a session.
func (p *Proxy) dial(ctx context.Context, s *session) (upstream, <-chan error, error) {
	if len(p.o.Target.Command) > 0 {
		return p.startStdio(s)
	}
	return p.dialHTTP(ctx, s)
}

func newAdapter(client string) (*convert.Adapter, error) { return convert.NewAdapter(client) }

// serverFailure wraps a server's failure for Run's caller, redacted.
func (p *Proxy) serverFailure(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := live.AsError(err); ok {
		msg := p.secrets.String(e.Msg)
		if len(e.Stderr) > 0 {
			lines := make([]string, len(e.Stderr))
			for i, l := range e.Stderr {
				lines[i] = guard.Text(p.secrets.String(l))
			}
			msg += "\n  last lines of its stderr:\n    " + strings.Join(lines, "\n    ")
		}
		return fmt.Errorf("%w: %s", ErrServer, msg)
	}
	return fmt.Errorf("%w: %s", ErrServer, p.secrets.String(err.Error()))
}
