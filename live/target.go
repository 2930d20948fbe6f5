package live

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
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
}

// Transports are the values Target.Transport takes.
var Transports = []string{"stdio", "http", "sse"}

// Validate checks that the target names one way to reach a server.
func (t Target) Validate() error {
	switch t.Transport {
	case "", "stdio", "http", "sse":
	default:
		return fmt.Errorf("unknown transport %q (want %s)", t.Transport, strings.Join(Transports, ", "))
	}
	switch {
	case len(t.Command) > 0 && t.URL != "":
		return errors.New("give either a command or a URL, not both")
	case len(t.Command) == 0 && t.URL == "":
		return errors.New("give a command to start (after --) or a URL")
	case len(t.Command) > 0 && t.Transport != "" && t.Transport != "stdio":
		return fmt.Errorf("a command is reached over stdio, not %s", t.Transport)
	case t.URL != "" && t.Transport == "stdio":
		return errors.New("a URL is reached over http or sse, not stdio")
	case t.URL != "" && !strings.HasPrefix(t.URL, "http://") && !strings.HasPrefix(t.URL, "https://"):
		return fmt.Errorf("URL %q: want an http:// or https:// URL", t.URL)
	}
	return nil
}

// List reaches the server t describes and lists its tools. A failed
// conversation is an *Error. Every process started is stopped before List
// returns, whatever happens (ctx's cancellation included).
func List(ctx context.Context, t Target, opts Options) (*Listing, error) {
	if err := t.Validate(); err != nil {
		return nil, failf(KindStart, err, "%v", err)
	}
	if len(t.Command) > 0 {
		return listStdio(ctx, t, opts)
	}
	return listHTTP(ctx, t, opts)
}

func listStdio(ctx context.Context, t Target, opts Options) (*Listing, error) {
	c, err := startChild(t)
	if err != nil {
		return nil, err
	}
	defer c.stop()
	l, err := listOver(ctx, c.transport(), opts, "stdio")
	if err != nil {
		return nil, c.explain(ctx, err)
	}
	l.Stdout, l.StdoutLines, _ = c.noiseLinesSnapshot()
	return l, nil
}
