package live

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
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
	limit  int64    // Limits.MessageSize
	origin *url.URL // the endpoint the user named: requests go nowhere else
	// answered: the endpoint has answered a whole conversation, so a 404
	// is the method's or the era's, not a wrong path.
	answered bool

	mu     sync.Mutex
	status int // first error status seen since the last success
	// sessionGone: that status is a 404 to a request that carried the
	// session's Mcp-Session-Id: the server ended the session.
	sessionGone bool
	method      string // its request's method
	reason      string // what its body says ("" when nothing), as it says it
	redirect    string // where a redirect pointed
	elsewhere   string // a request to another origin, refused
	err         error  // first transport error
	tooLarge    *Error // a body or event passed the message size limit
	// version is the protocol version the last initialize result
	// negotiated: see negotiated.
	version string
}

// negotiated takes the protocol version an initialize result gives, for
// the MCP-Protocol-Version header of every later request (MCP 2025-06-18,
// basic/transports, "Protocol Version Header": the client MUST send it;
// the TypeScript SDK's client sends it after initialize whatever the
// version). The SDK's Streamable HTTP client sets it from the session's
// state, which it learns through a method of the connection that the
// capturing wrapper cannot forward (it is unexported), so without this no
// request after initialize carries it, and a server that demands it
// answers 400 Bad Request.
func (r *recorder) negotiated(version string) {
	r.mu.Lock()
	r.version = version
	r.mu.Unlock()
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if r.origin != nil && !sameOrigin(r.origin, req.URL) {
		r.mu.Lock()
		if r.elsewhere == "" {
			r.elsewhere = redact.URL(req.URL.String())
		}
		r.mu.Unlock()
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, errOtherOrigin
	}
	req = req.Clone(req.Context())
	for k, vs := range r.header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	r.mu.Lock()
	if v := r.version; v != "" && req.Header.Get("Mcp-Protocol-Version") == "" {
		req.Header.Set("Mcp-Protocol-Version", v)
	}
	r.mu.Unlock()
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
	if err == nil && resp.StatusCode < 300 && req.Method == http.MethodPost && r.status >= 400 {
		// The endpoint answers: the error before was a method's or an
		// era's (server/discover refused by a server of the initialize
		// era), and the cause of a later failure is not that one.
		r.status, r.method, r.reason, r.sessionGone = 0, "", "", false
	}
	if err == nil && resp.StatusCode >= 300 && r.status == 0 {
		r.status, r.method = resp.StatusCode, req.Method
		r.sessionGone = resp.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != ""
		if resp.StatusCode >= 400 && resp.Body != nil {
			r.reason = bodyReason(resp)
		}
		if loc := resp.Header.Get("Location"); resp.StatusCode < 400 && loc != "" {
			if u, err := req.URL.Parse(loc); err == nil {
				r.redirect = redact.URL(u.String())
			}
		}
	}
	return resp, err
}

// gone reports whether the server answered a request of its session with
// 404: it ended the session.
func (r *recorder) gone() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sessionGone
}

func (r *recorder) reset() {
	r.mu.Lock()
	r.status, r.method, r.reason, r.redirect, r.elsewhere, r.err, r.tooLarge, r.version = 0, "", "", "", "", nil, nil, ""
	r.sessionGone = false
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
	origin, err := url.Parse(t.URL)
	if err != nil {
		return nil, failf(KindStart, err, "URL %q: %v", redact.URL(t.URL), rootCause(err))
	}
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
	rec := &recorder{base: base, header: t.Header, limit: opts.Limits.MessageSize, origin: origin}
	opts.negotiated = rec.negotiated
	maxEvent := sdkBound(opts.Limits.MessageSize)
	defer rec.base.(*http.Transport).CloseIdleConnections()
	kind := t.Transport
	if kind == "" {
		kind = "http"
	}
	if kind == "http" {
		st := &mcp.StreamableClientTransport{Endpoint: t.URL, HTTPClient: rec.client(), MaxRetries: -1, DisableStandaloneSSE: true, MaxEventSize: maxEvent}
		// The initialize era's failure is explained, then forgotten, so
		// that it is not taken for the cause of a later one.
		explainLegacy := func(ctx context.Context, err error) error {
			defer rec.reset()
			rec.answered = true // the first era was listed here
			return rec.explain(ctx, t.URL, err)
		}
		l, err := listEras(ctx, st, opts, "http", explainLegacy, nil)
		if err != nil && rec.gone() && ctx.Err() == nil {
			// MCP 2025-03-26 and later, basic/transports, "Session
			// Management": "When a client receives HTTP 404 in response to
			// a request containing an Mcp-Session-Id, it MUST start a new
			// session". Once: a server that ends every session is reported.
			rec.reset()
			l, err = listEras(ctx, st, opts, "http", explainLegacy, nil)
		}
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
			if e, ok := AsError(rec.explain(ctx, t.URL, err)); ok && (e.Limit != "" || e.Kind == KindOrigin) {
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
	status, method, reason, redirect, elsewhere, terr, tooLarge := r.status, r.method, r.reason, r.redirect, r.elsewhere, r.err, r.tooLarge
	r.mu.Unlock()
	if tooLarge != nil {
		return tooLarge
	}
	if elsewhere != "" {
		return failf(KindOrigin, err, "%s told mcplint to send its requests to %s, another origin (scheme, host or port); the --header credentials go only to the origin given with --url, so nothing was sent there", redact.URL(endpoint), elsewhere)
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
		said := ""
		if reason != "" {
			// Masked, then cut (shown.go): the body may repeat a secret.
			said = ": " + strconv.Quote(shownLine(ctx, reason))
		}
		hint := statusHint(status, len(r.header) > 0)
		if status == 404 && r.answered {
			hint = ""
		}
		if r.gone() {
			hint = "; it answers so to a request with its Mcp-Session-Id when it has ended the session, and it ended a new one too (a client starts one new session then: MCP basic/transports, \"Session Management\")"
		}
		return failf(KindHTTP, err, "%s answered %s with HTTP %d %s%s%s", where, method, status, http.StatusText(status), said, hint)
	case terr != nil:
		return transportError(where, terr)
	}
	return handshakeError(ctx, err)
}

// statusHint says what to look at for an error status; withHeaders says
// whether headers were sent (a credential to check, or none at all).
func statusHint(status int, withHeaders bool) string {
	switch {
	case (status == 401 || status == 403) && withHeaders:
		return "; check the credentials passed with --header"
	case status == 401:
		return "; the server wants credentials: pass them with --header (for example 'Authorization: Bearer $TOKEN')"
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

// reasonSize bounds what is read of an error response's body for its
// reason: the rest is left for the SDK.
const reasonSize = 4 << 10

// bodyReason reads the start of an error response's body and says what it
// gives as the reason: a JSON-RPC error's message, a JSON object's "error"
// or "message", or the text itself, as it is (explain masks and cuts it).
// The body is put back as it was for the SDK, which reads a JSON-RPC error
// from it.
func bodyReason(resp *http.Response) string {
	head := make([]byte, reasonSize)
	n, _ := io.ReadFull(resp.Body, head)
	head = head[:n]
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(head, &doc) == nil {
		var rpc struct {
			Message string `json:"message"`
		}
		var text string
		switch {
		case json.Unmarshal(doc.Error, &rpc) == nil && rpc.Message != "":
			return rpc.Message
		case json.Unmarshal(doc.Error, &text) == nil && text != "":
			return text
		case doc.Message != "":
			return doc.Message
		}
		return ""
	}
	if strings.HasPrefix(strings.ToLower(resp.Header.Get("Content-Type")), "text/html") {
		return "" // a page, not a reason
	}
	return strings.ToValidUTF8(string(head), "?")
}
