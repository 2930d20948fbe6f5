package live

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/redact"
)

// Target describes how to reach a server.
type Target struct {
	// Transport is "stdio", "http" (Streamable HTTP), "sse" (the legacy
	// HTTP+SSE transport), or "" to choose: stdio with a command, and with a
	// URL Streamable HTTP falling back to SSE when the server only speaks
	// that.
	Transport string
	// Command is the program and its arguments (stdio).
	Command []string
	// Env holds K=V entries added to this process's environment (stdio).
	Env []string
	// Dir is the server's working directory (stdio; "" for this one's).
	Dir string
	// URL is the endpoint (http, sse).
	URL string
	// Header is sent with every HTTP request. Its values are never part of
	// an error message.
	Header http.Header
	// Expanded holds the values read from the environment to build the
	// target (ReadClientConfig's ${VAR}, a caller's $VAR): secrets as much
	// as header values, whatever field they went into.
	Expanded []string
}

// Secrets returns a redactor of everything about t that must not be shown:
// header values, the user information and query values of the URL, the
// values of Env, and the Expanded values. List redacts its errors with it,
// the server's own words (a JSON-RPC error message, its stderr) included,
// since a server may echo what it was sent.
func (t Target) Secrets() *redact.Redactor {
	r := redact.New(t.Expanded...)
	r.AddHeader(t.Header)
	if t.URL != "" {
		r.AddURL(t.URL)
	}
	for _, kv := range t.Env {
		if _, v, ok := strings.Cut(kv, "="); ok {
			r.Add(v)
		}
	}
	return r
}

// Transports are the values Target.Transport takes.
var Transports = []string{"stdio", "http", "sse"}

// Validate checks that the target names one way to reach a server.
func (t Target) Validate() error {
	switch t.Transport {
	case "", "stdio", "http", "sse":
	default:
		return fmt.Errorf("unknown transport %q; want %s", t.Transport, strings.Join(Transports, ", "))
	}
	switch {
	case len(t.Command) > 0 && t.URL != "":
		return errors.New("both a command and a URL were given; give one of them")
	case len(t.Command) == 0 && t.URL == "":
		return errors.New("no server was named; give a command to start (after --) or a URL")
	case len(t.Command) > 0 && t.Transport != "" && t.Transport != "stdio":
		return fmt.Errorf("a command is reached over stdio, not %s; drop the transport", t.Transport)
	case t.URL != "" && t.Transport == "stdio":
		return errors.New("a URL is reached over http or sse, not stdio; give http or sse")
	case t.URL != "" && !strings.HasPrefix(t.URL, "http://") && !strings.HasPrefix(t.URL, "https://"):
		return fmt.Errorf("URL %q is not an http:// or https:// URL; give the server's whole URL", redact.URL(t.URL))
	}
	return nil
}

// List reaches the server t describes and lists its tools. A failed
// conversation is an *Error, redacted with t.Secrets. Every process started
// is stopped before List returns, whatever happens (ctx's cancellation
// included).
func List(ctx context.Context, t Target, opts Options) (*Listing, error) {
	if err := t.Validate(); err != nil {
		return nil, redactError(t.Secrets(), failf(KindStart, err, "%v", err))
	}
	var (
		l   *Listing
		err error
	)
	ctx = withSecrets(ctx, t.Secrets())
	if len(t.Command) > 0 {
		l, err = listStdio(ctx, t, opts)
	} else {
		l, err = listHTTP(ctx, t, opts)
	}
	if err != nil {
		return nil, redactError(t.Secrets(), err)
	}
	return l, nil
}

// redactError masks secrets in a failure's message and stderr lines.
func redactError(r *redact.Redactor, err error) error {
	e, ok := AsError(err)
	if !ok {
		return r.Error(err)
	}
	out := *e
	out.Msg = r.String(e.Msg)
	out.Stderr = make([]string, len(e.Stderr))
	for i, line := range e.Stderr {
		out.Stderr[i] = r.String(line)
	}
	return &out
}

func listStdio(ctx context.Context, t Target, opts Options) (*Listing, error) {
	opts.Limits = opts.Limits.withDefaults()
	over, release := graceOver(ctx)
	defer release()
	c, err := startChild(t, opts.Limits)
	if err != nil {
		return nil, err
	}
	defer c.stop(over)
	var again *child
	fresh := func() (mcp.Transport, func(), error) {
		var err error
		if again, err = startChild(t, opts.Limits); err != nil {
			return nil, nil, err
		}
		return again.transport(), func() { again.stop(over) }, nil
	}
	l, err := listEras(ctx, c.transport(), opts, "stdio", func(ctx context.Context, err error) error {
		if again != nil {
			return again.explain(ctx, err, over)
		}
		return c.explain(ctx, err, over)
	}, fresh)
	if err != nil {
		return nil, c.explain(ctx, err, over)
	}
	l.Stdout, l.StdoutLines, _ = c.noiseLinesSnapshot()
	return l, nil
}
