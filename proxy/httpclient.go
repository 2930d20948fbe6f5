package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/redact"
)

// httpUp is a Streamable HTTP server, reached as an MCP client reaches it:
// each message is its own POST, answered with JSON or an event stream;
// before protocol 2026-07-28 the session id the server gives is sent back
// on every request, the negotiated version in MCP-Protocol-Version, and a
// GET stream carries what the server sends outside requests; from
// 2026-07-28 each request carries its version, Mcp-Method and Mcp-Name,
// and Mcp-Param-* for arguments the tool's schema marks x-mcp-header.
type httpUp struct {
	p      *Proxy
	s      *session
	url    string
	client *http.Client
	// exchanges bounds the HTTP exchanges under way.
	exchanges chan struct{}
	ctx       context.Context
	cancel    context.CancelFunc
	done      chan error
	doneOnce  sync.Once

	mu        sync.Mutex
	sessionID string
	protocol  string            // negotiated by initialize
	initID    string            // the id of initialize in flight
	calls     map[string]func() // cancel of 2026-07-28 requests in flight
	getOn     bool              // a GET stream is open or being opened
	wg        sync.WaitGroup
}

// maxExchanges bounds the HTTP requests to the server under way at once;
// past it the client's messages wait.
const maxExchanges = 256

func (p *Proxy) dialHTTP(ctx context.Context, s *session) (upstream, <-chan error, error) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	u := &httpUp{p: p, s: s, url: p.o.Target.URL, exchanges: make(chan struct{}, maxExchanges),
		ctx: ctx, cancel: cancel, done: make(chan error, 1), calls: map[string]func(){}}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	u.client = &http.Client{
		Transport: transport,
		// A redirect would carry the headers (a token) elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return u, u.done, nil
}

// modern reports whether a protocol version has no sessions
// (2026-07-28 and later).
func modern(v string) bool { return v != "" && lint.AtLeast(v, "2026-07-28") }

func (u *httpUp) send(ctx context.Context, b []byte, env envelope, call *toolEntry) error {
	if env.kind == kindNotification && env.method == "notifications/cancelled" {
		// From 2026-07-28, closing the request's stream is the
		// cancellation; before, the notification is posted.
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(b[env.params.start:env.params.end], &p)
		u.mu.Lock()
		cancel := u.calls[string(bytes.TrimSpace(p.RequestID))]
		u.mu.Unlock()
		if cancel != nil {
			cancel()
			return nil
		}
	}
	select {
	case u.exchanges <- struct{}{}:
	case <-u.ctx.Done():
		return errors.New("the connection to the server is closed")
	}
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		defer func() { <-u.exchanges }()
		u.exchange(b, env, call)
	}()
	return nil
}

// exchange posts one message and relays what comes back.
func (u *httpUp) exchange(b []byte, env envelope, call *toolEntry) {
	key := env.idKey(b)
	isRequest := env.kind == kindRequest
	meta := metaOf(b, env)
	ctx, cancel := context.WithCancel(u.ctx)
	defer cancel()
	if isRequest && modern(meta.protocol) {
		u.mu.Lock()
		u.calls[key] = cancel
		u.mu.Unlock()
		defer func() {
			u.mu.Lock()
			delete(u.calls, key)
			u.mu.Unlock()
		}()
	}
	if isRequest && env.method == "initialize" {
		u.mu.Lock()
		u.initID = key
		u.mu.Unlock()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.url, bytes.NewReader(b))
	if err != nil {
		u.fail(key, isRequest, 0, err)
		return
	}
	u.headers(req, meta)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if env.method != "" {
		req.Header.Set("Mcp-Method", env.method)
	}
	if meta.name != "" {
		req.Header.Set("Mcp-Name", headerValue(meta.name))
	}
	if call != nil {
		call.compile()
		var args any
		if len(call.headers) > 0 {
			args = callArguments(b, env)
		}
		for _, h := range call.headers {
			if v, ok := argumentAt(args, h.path); ok {
				req.Header.Set("Mcp-Param-"+h.name, headerValue(v))
			}
		}
	}
	resp, err := u.client.Do(req)
	if err != nil {
		if ctx.Err() != nil && u.ctx.Err() == nil {
			return // cancelled by the client
		}
		u.fail(key, isRequest, 0, err)
		if errors.Is(err, syscall.ECONNREFUSED) {
			u.gone(fmt.Errorf("connection refused by %s", redact.URL(u.url)))
		}
		return
	}
	defer resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" && isRequest && env.method == "initialize" {
		u.mu.Lock()
		u.sessionID = id
		u.mu.Unlock()
	}
	u.read(resp, key, isRequest)
	if env.kind == kindNotification && env.method == "notifications/initialized" && resp.StatusCode < 300 {
		u.openGET()
	}
}

// read relays a response's messages.
func (u *httpUp) read(resp *http.Response, key string, isRequest bool) {
	limit := u.p.limits().MessageSize
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	status := 0
	if resp.StatusCode >= 300 {
		status = resp.StatusCode
	}
	switch {
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent:
		if isRequest {
			u.fail(key, true, 0, errors.New("the server accepted the request without answering it"))
		}
	case ct == "text/event-stream" && resp.StatusCode < 300:
		answered := u.readEvents(resp.Body, key, limit)
		if isRequest && !answered {
			u.fail(key, true, 0, errors.New("the server's event stream ended before the response"))
		}
	default:
		body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
		if err == nil && int64(len(body)) > limit {
			err = fmt.Errorf("the server sent a response larger than the limit of %s", manifest.SizeText(limit))
		}
		if err != nil {
			u.fail(key, isRequest, status, err)
			return
		}
		body = bytes.TrimSpace(body)
		if len(body) > 0 && (ct == "application/json" || ct == "") {
			if env, perr := parse(body); perr == nil && env.kind == kindResponse || isArray(body) {
				u.deliver(body, key, status)
				return
			}
		}
		if resp.StatusCode >= 300 && isRequest {
			u.fail(key, true, resp.StatusCode, fmt.Errorf("HTTP %d %s", resp.StatusCode, http.StatusText(resp.StatusCode)))
		}
	}
}

func isArray(b []byte) bool { return len(b) > 0 && b[0] == '[' }

// readEvents relays the messages of an event stream and reports whether
// the response to key came.
func (u *httpUp) readEvents(body io.Reader, key string, limit int64) bool {
	sr := newSSEReader(body, limit)
	answered := false
	for {
		ev, err := sr.next()
		if err != nil {
			if errors.Is(err, errEventTooLarge) && key != "" && !answered {
				u.fail(key, true, 0, fmt.Errorf("the server sent an event larger than the limit of %s", manifest.SizeText(limit)))
				return true
			}
			return answered
		}
		if ev.name != "" && ev.name != "message" {
			continue
		}
		data := bytes.TrimSpace(ev.data)
		if len(data) == 0 {
			continue
		}
		if env, err := parse(data); err == nil && env.kind == kindResponse && env.idKey(data) == key {
			answered = true
		}
		u.deliver(data, key, 0)
	}
}

// deliver passes a message from the server to the session, learning the
// negotiated version from initialize's response on the way.
func (u *httpUp) deliver(b []byte, related string, status int) {
	if env, err := parse(b); err == nil && env.kind == kindResponse && env.result.ok() {
		u.mu.Lock()
		isInit := u.initID != "" && env.idKey(b) == u.initID
		u.mu.Unlock()
		if isInit {
			var r struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(b[env.result.start:env.result.end], &r) == nil {
				u.mu.Lock()
				u.protocol, u.initID = r.ProtocolVersion, ""
				u.mu.Unlock()
			}
		}
	}
	u.s.fromServer(b, route{related: related, status: status})
}

// fail answers a request that got no response with a JSON-RPC error
// saying why; status is the HTTP status, when there was one.
func (u *httpUp) fail(key string, isRequest bool, status int, err error) {
	if !isRequest || key == "" {
		return
	}
	msg := "mcplint proxy: the MCP server did not answer: " + u.p.secrets.String(err.Error())
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(key), "error": map[string]any{"code": -32000, "message": msg}})
	u.s.fromServer(b, route{related: key, status: status})
}

// gone ends the relay: the server cannot be reached.
func (u *httpUp) gone(err error) {
	u.doneOnce.Do(func() { u.done <- err })
}

// headers sets the configured headers and the conversation's.
func (u *httpUp) headers(req *http.Request, meta requestMeta) {
	for k, vs := range u.p.o.Target.Header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	u.mu.Lock()
	id, protocol := u.sessionID, u.protocol
	u.mu.Unlock()
	if id != "" {
		req.Header.Set("Mcp-Session-Id", id)
	}
	if meta.protocol != "" {
		protocol = meta.protocol
	}
	if protocol != "" {
		req.Header.Set("MCP-Protocol-Version", protocol)
	}
}

// openGET opens the stream that carries, before 2026-07-28, what the
// server sends outside any request, and keeps it open: it is opened again
// (from the last event) when it ends, a few times at most in a row
// without an event.
func (u *httpUp) openGET() {
	u.mu.Lock()
	if u.getOn || modern(u.protocol) {
		u.mu.Unlock()
		return
	}
	u.getOn = true
	u.mu.Unlock()
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		last, failures := "", 0
		for failures < 3 && u.ctx.Err() == nil {
			got, id, ok := u.get(last)
			if !ok {
				return // the server has no such stream
			}
			if id != "" {
				last = id
			}
			if got {
				failures = 0
			} else {
				failures++
			}
			select {
			case <-u.ctx.Done():
			case <-time.After(time.Duration(failures) * 500 * time.Millisecond):
			}
		}
	}()
}

// get holds one GET stream; it reports whether an event came, the last
// event id, and whether the server offers the stream at all.
func (u *httpUp) get(lastID string) (bool, string, bool) {
	req, err := http.NewRequestWithContext(u.ctx, http.MethodGet, u.url, nil)
	if err != nil {
		return false, "", false
	}
	u.headers(req, requestMeta{})
	req.Header.Set("Accept", "text/event-stream")
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := u.client.Do(req)
	if err != nil {
		return false, "", u.ctx.Err() == nil
	}
	defer resp.Body.Close()
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		return false, "", false
	}
	sr := newSSEReader(resp.Body, u.p.limits().MessageSize)
	got, id := false, ""
	for {
		ev, err := sr.next()
		if err != nil {
			return got, id, true
		}
		if ev.id != "" {
			id = ev.id
		}
		if ev.name != "" && ev.name != "message" {
			continue
		}
		if data := bytes.TrimSpace(ev.data); len(data) > 0 {
			got = true
			u.deliver(data, "", 0)
		}
	}
}

// close ends the session with the server (DELETE, before 2026-07-28) and
// every exchange under way.
func (u *httpUp) close() {
	u.mu.Lock()
	id := u.sessionID
	u.mu.Unlock()
	if id != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if req, err := http.NewRequestWithContext(ctx, http.MethodDelete, u.url, nil); err == nil {
			u.headers(req, requestMeta{})
			if resp, err := u.client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		cancel()
	}
	u.cancel()
	u.wg.Wait()
	u.client.CloseIdleConnections()
}
