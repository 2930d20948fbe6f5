package live

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/redact"
)

// recorder sends the configured headers and remembers what went wrong at
// the HTTP level: the SDK reports it in words, the cause is clearer from
// here.
type recorder struct {
	base   http.RoundTripper
	header http.Header
	limit  int64 // Limits.MessageSize

	mu       sync.Mutex
	status   int    // first error status seen
	method   string // its request's method
	redirect string // where a redirect pointed
	err      error  // first transport error
	tooLarge *Error // a body or event passed the message size limit
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, vs := range r.header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := r.base.RoundTrip(req)
	if err == nil && resp.Body != nil {
		resp.Body = &boundedBody{rc: resp.Body, r: r,
			events: strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/event-stream")}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil && r.err == nil && req.Context().Err() == nil {
		r.err = err
	}
	if err == nil && resp.StatusCode >= 300 && r.status == 0 {
		r.status, r.method = resp.StatusCode, req.Method
		if loc := resp.Header.Get("Location"); resp.StatusCode < 400 && loc != "" {
			if u, err := req.URL.Parse(loc); err == nil {
				r.redirect = redact.URL(u.String())
			}
		}
	}
	return resp, err
}

func (r *recorder) reset() {
	r.mu.Lock()
	r.status, r.method, r.redirect, r.err, r.tooLarge = 0, "", "", nil, nil
	r.mu.Unlock()
}

// boundedBody reads a response body no further than the message size
// limit: the whole body, or for an event stream each event (the bytes
// between two blank lines). The SDK reads a JSON body whole into memory.
type boundedBody struct {
	rc     io.ReadCloser
	r      *recorder
	events bool
	n      int64 // bytes of the current message
	line   int64 // bytes of the current line (event streams)
	failed bool
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.failed {
		return 0, errMessageTooLarge
	}
	n, err := b.rc.Read(p)
	for _, c := range p[:n] {
		b.n++
		if b.events {
			switch c {
			case '\n':
				if b.line == 0 { // a blank line ends the event
					b.n = 0
				}
				b.line = 0
				continue
			case '\r':
				continue
			}
			b.line++
		}
		if b.n > b.r.limit {
			b.failed = true
			how := "an HTTP response"
			if b.events {
				how = "a server-sent event"
			}
			b.r.mu.Lock()
			if b.r.tooLarge == nil {
				b.r.tooLarge = messageTooLarge(how, b.r.limit)
			}
			b.r.mu.Unlock()
			return 0, errMessageTooLarge
		}
	}
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }

func (r *recorder) client() *http.Client {
	return &http.Client{
		Transport: r,
		// A redirect is a failure: an MCP endpoint is given as it is, and
		// following one would send the headers (a token) elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

func listHTTP(ctx context.Context, t Target, opts Options) (*Listing, error) {
	opts.Limits = opts.Limits.withDefaults()
	base := http.DefaultTransport.(*http.Transport).Clone()
	// Every connection is closed when the grace after the deadline is
	// over: the SDK's requests that do not end with the context (the
	// session's closing DELETE) end then too.
	var open conns
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	base.DialContext = open.dial(dialer.DialContext)
	defer afterGrace(ctx, open.closeAll)()
	// And when the listing returns: a request left going in the background
	// (see closeSession) is over.
	defer open.closeAll()
	rec := &recorder{base: base, header: t.Header, limit: opts.Limits.MessageSize}
	maxEvent := sdkBound(opts.Limits.MessageSize)
	defer rec.base.(*http.Transport).CloseIdleConnections()
	kind := t.Transport
	if kind == "" {
		kind = "http"
	}
	if kind == "http" {
		st := &mcp.StreamableClientTransport{Endpoint: t.URL, HTTPClient: rec.client(), MaxRetries: -1, DisableStandaloneSSE: true, MaxEventSize: maxEvent}
		l, err := listOver(ctx, st, opts, "http")
		if err == nil {
			return l, nil
		}
		herr := rec.explain(ctx, t.URL, err)
		// The backwards-compatibility procedure of the 2025-03-26
		// specification (Transports, "Backwards Compatibility"): a 4xx
		// answer to the POST means an old server; try its SSE stream.
		status, method := rec.status, rec.method
		if t.Transport != "" || method != http.MethodPost || (status != 400 && status != 404 && status != 405) {
			return nil, herr
		}
		rec.reset()
		l, err = listOver(ctx, &mcp.SSEClientTransport{Endpoint: t.URL, HTTPClient: rec.client(), MaxEventSize: maxEvent}, opts, "sse")
		if err != nil {
			if e, ok := AsError(rec.explain(ctx, t.URL, err)); ok && e.Limit != "" {
				return nil, e
			}
			return nil, herr
		}
		return l, nil
	}
	l, err := listOver(ctx, &mcp.SSEClientTransport{Endpoint: t.URL, HTTPClient: rec.client(), MaxEventSize: maxEvent}, opts, "sse")
	if err != nil {
		return nil, rec.explain(ctx, t.URL, err)
	}
	return l, nil
}

// explain names the HTTP-level cause of a failed conversation.
func (r *recorder) explain(ctx context.Context, endpoint string, err error) error {
	r.mu.Lock()
	status, method, redirect, terr, tooLarge := r.status, r.method, r.redirect, r.err, r.tooLarge
	r.mu.Unlock()
	if tooLarge != nil {
		return tooLarge
	}
	if e, ok := AsError(err); ok && (e.answered || e.Limit != "" || e.Kind == KindPagination || e.Kind == KindResult || e.Kind == KindCanceled || e.Kind == KindEcho) {
		return err
	}
	where := redact.URL(endpoint)
	switch {
	case ctx.Err() != nil:
		return handshakeError(ctx, err)
	case status >= 300 && status < 400:
		to := redirect
		if to == "" {
			to = "another location"
		}
		return failf(KindRedirect, err, "%s redirected (HTTP %d) to %s; give the final URL with --url", where, status, to)
	case status > 0:
		return failf(KindHTTP, err, "%s answered %s with HTTP %d %s%s", where, method, status, http.StatusText(status), statusHint(status))
	case terr != nil:
		return transportError(where, terr)
	}
	return handshakeError(ctx, err)
}

func statusHint(status int) string {
	switch {
	case status == 401 || status == 403:
		return "; check the credentials passed with --header"
	case status == 404:
		return "; check the endpoint path (often /mcp, or /sse for the legacy transport)"
	case status >= 500:
		return "; the server failed"
	}
	return ""
}

func transportError(where string, err error) error {
	var (
		cert    *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		rec     tls.RecordHeaderError
		dns     *net.DNSError
	)
	switch {
	case errors.As(err, &cert), errors.As(err, &unknown), errors.As(err, &host), errors.As(err, &rec):
		return failf(KindTLS, err, "TLS failure talking to %s: %v", where, rootCause(err))
	case errors.Is(err, syscall.ECONNREFUSED):
		return failf(KindConnect, err, "connection refused by %s: is the server running?", where)
	case errors.As(err, &dns):
		return failf(KindConnect, err, "cannot resolve the host of %s: %v", where, dns.Err)
	}
	return failf(KindConnect, err, "cannot reach %s: %v", where, rootCause(err))
}

// rootCause strips url.Error's repetition of the method and URL.
func rootCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
