package proxy

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// The proxy serves Streamable HTTP as a server does, whatever the server
// behind it speaks: it keeps sessions of its own (each with its own
// conversation with the server: a process of its own for a command), and
// a stream per request. Before protocol 2026-07-28 an initialize request
// starts a session, named by the Mcp-Session-Id the proxy gives; a GET
// opens the stream for what the server sends outside requests; a DELETE
// ends the session. From 2026-07-28 requests carry no session: they share
// one conversation with the server, and a request whose stream the client
// closes is cancelled.

// endpointPath is the MCP endpoint the proxy serves.
const endpointPath = "/mcp"

// maxSessions bounds the sessions held at once: past it the one used
// least recently is ended.
const maxSessions = 64

// streamBuffer is how many messages wait for a slow client on one stream
// before the server's messages are held up.
const streamBuffer = 256

// backlogSize bounds the messages kept for a session while no stream can
// take them (sent outside any request before the client opens a GET).
const backlogSize = 256

type httpFront struct {
	p        *Proxy
	ctx      context.Context
	loopback bool

	mu        sync.Mutex
	sessions  map[string]*frontSession
	stateless *frontSession
}

// frontSession is a session of the proxy's, and the downstream of its
// conversation with the server.
type frontSession struct {
	f   *httpFront
	id  string // "" for the sessionless conversation
	s   *session
	up  upstream
	gen context.CancelFunc

	mu       sync.Mutex
	streams  map[string]*stream // by the id of each request they answer
	order    []*stream          // request streams open, oldest first
	get      *stream
	backlog  [][]byte
	lastUse  time.Time
	closed   bool
	notified bool // the client was told the session is over
}

// stream is one response stream: a POST's, or the GET's.
type stream struct {
	ch     chan outMsg
	done   chan struct{} // closed when the client is gone or the stream ends
	once   sync.Once
	open   map[string]bool // requests not answered yet
	modern bool
	// listen: the stream of a subscriptions/listen request (2026-07-28),
	// which carries the change notifications the client asked for.
	listen bool
}

type outMsg struct {
	b      []byte
	status int
	final  string // the id the message answers, "" for none
}

func newStream(ids []string, modern bool) *stream {
	st := &stream{ch: make(chan outMsg, streamBuffer), done: make(chan struct{}), open: map[string]bool{}, modern: modern}
	for _, id := range ids {
		st.open[id] = true
	}
	return st
}

func (st *stream) end() { st.once.Do(func() { close(st.done) }) }

// push queues a message for the stream, waiting while the client reads
// slowly; false when the stream is gone.
func (st *stream) push(m outMsg) bool {
	select {
	case st.ch <- m:
		return true
	case <-st.done:
		return false
	}
}

func (p *Proxy) serveHTTP(ctx context.Context) error {
	ln := p.o.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", p.o.Listen); err != nil {
			return fmt.Errorf("listen on %s: %w", p.o.Listen, err)
		}
	}
	addr := ln.Addr().(*net.TCPAddr)
	f := &httpFront{p: p, ctx: ctx, loopback: addr.IP.IsLoopback(), sessions: map[string]*frontSession{}}
	mux := http.NewServeMux()
	mux.HandleFunc(endpointPath, f.serve)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	endpoint := "http://" + net.JoinHostPort(host, fmt.Sprint(addr.Port)) + endpointPath
	if p.o.Ready != nil {
		p.o.Ready(endpoint)
	}
	select {
	case <-ctx.Done():
	case err := <-errc:
		f.closeAll()
		return err
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	f.closeAll()
	_ = srv.Shutdown(shut)
	return nil
}

func (f *httpFront) closeAll() {
	f.mu.Lock()
	all := make([]*frontSession, 0, len(f.sessions)+1)
	for _, fs := range f.sessions {
		all = append(all, fs)
	}
	if f.stateless != nil {
		all = append(all, f.stateless)
	}
	f.sessions, f.stateless = map[string]*frontSession{}, nil
	f.mu.Unlock()
	for _, fs := range all {
		fs.close()
	}
}

// allowed applies the DNS rebinding protections the specification asks of
// a local server (Streamable HTTP, "Security Warning"): an Origin must be
// a loopback one, and on loopback the Host must name loopback too.
func (f *httpFront) allowed(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" && f.loopback {
		u, err := url.Parse(o)
		if err != nil || !loopbackHost(u.Hostname()) {
			return false
		}
	}
	if f.loopback {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		return loopbackHost(host)
	}
	return true
}

func loopbackHost(h string) bool {
	h = strings.Trim(h, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func (f *httpFront) serve(w http.ResponseWriter, r *http.Request) {
	if !f.allowed(r) {
		http.Error(w, "Forbidden: the Origin or Host is not local", http.StatusForbidden)
		return
	}
	switch r.Method {
	case http.MethodPost:
		f.post(w, r)
	case http.MethodGet:
		f.getStream(w, r)
	case http.MethodDelete:
		f.delete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

func (f *httpFront) post(w http.ResponseWriter, r *http.Request) {
	limit := f.p.limits().MessageSize
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		http.Error(w, "Bad Request: cannot read the body", http.StatusBadRequest)
		return
	}
	if int64(len(body)) > limit {
		http.Error(w, "Request Entity Too Large", http.StatusRequestEntityTooLarge)
		return
	}
	body = bytes.TrimSpace(body)
	ids, methods, err := requestIDs(body)
	initialize := slices.Contains(methods, "initialize")
	if err != nil {
		writeJSONError(w, http.StatusBadRequest, "null", -32700, "Parse error: the body is not a JSON-RPC message")
		return
	}
	fs, created, status := f.sessionFor(r, initialize)
	if fs == nil {
		http.Error(w, http.StatusText(status), status)
		return
	}
	modernReq := modern(r.Header.Get("MCP-Protocol-Version"))
	if len(ids) == 0 {
		if err := fs.s.fromClient(r.Context(), body); err != nil {
			http.Error(w, "Bad Gateway: "+err.Error(), http.StatusBadGateway)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st := newStream(ids, modernReq)
	st.listen = slices.Contains(methods, "subscriptions/listen")
	if !fs.register(st, ids) {
		// A second request with the id of one in flight would take its
		// answer: JSON-RPC ids are unique among a client's requests.
		writeJSONError(w, http.StatusConflict, ids[0], -32600, "Invalid Request: a request with this id is in flight")
		return
	}
	defer fs.unregister(st)
	if err := fs.s.fromClient(context.WithoutCancel(r.Context()), body); err != nil {
		http.Error(w, "Bad Gateway: "+err.Error(), http.StatusBadGateway)
		return
	}
	f.respond(w, r, fs, st, created, body)
}

// respond writes a request's stream: one JSON response when the first
// message answers a lone request, an event stream otherwise.
func (f *httpFront) respond(w http.ResponseWriter, r *http.Request, fs *frontSession, st *stream, created bool, body []byte) {
	if created && fs.id != "" {
		w.Header().Set("Mcp-Session-Id", fs.id)
	}
	flusher, _ := w.(http.Flusher)
	started := false
	for {
		var m outMsg
		select {
		case m = <-st.ch:
		case <-r.Context().Done():
			fs.clientLeft(st)
			return
		case <-st.done:
			// The session ended: answer what is left.
			for {
				select {
				case m := <-st.ch:
					if started {
						_ = writeEvent(w, "", m.b)
					}
				default:
					if !started {
						http.Error(w, "Not Found: the session ended", http.StatusNotFound)
					}
					return
				}
			}
		}
		if m.final != "" {
			delete(st.open, m.final)
		}
		status := m.status
		if status == 0 && !started && m.final != "" && len(st.open) == 0 {
			status = modernStatus(st.modern, body, m.b)
		}
		if !started && m.final != "" && len(st.open) == 0 && status >= 300 {
			// A lone error that an HTTP status tells: plain JSON, with
			// the status the server gave it (or the one a 2026-07-28
			// server would). Other answers go on an event stream, as
			// the servers this one stands for send them.
			if created {
				f.forget(fs) // a session whose initialize failed is none
				w.Header().Del("Mcp-Session-Id")
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write(m.b)
			return
		}
		if !started {
			started = true
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			w.Header().Set("X-Accel-Buffering", "no")
			w.WriteHeader(http.StatusOK)
		}
		if err := writeEvent(w, "", m.b); err != nil {
			fs.clientLeft(st)
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		if len(st.open) == 0 {
			if created && isError(m.b) {
				f.forget(fs)
			}
			return
		}
	}
}

func isError(b []byte) bool {
	env, err := parse(b)
	return err == nil && env.err.ok()
}

// forget ends a session that never began.
func (f *httpFront) forget(fs *frontSession) {
	f.mu.Lock()
	if f.sessions[fs.id] == fs {
		delete(f.sessions, fs.id)
	}
	f.mu.Unlock()
	go fs.close()
}

// modernStatus is the status a 2026-07-28 server gives a lone error
// response (Streamable HTTP, "Protocol Version Header"): 404 for an
// unknown method, 400 for the protocol's own errors; 200 otherwise, and
// before 2026-07-28. An error answer to server/discover is a 400 whatever
// its code, so that a client probing a server of an earlier version falls
// back to initialize as the specification's backward compatibility asks.
func modernStatus(isModern bool, req, resp []byte) int {
	env, err := parse(resp)
	if err != nil || !env.err.ok() {
		return http.StatusOK
	}
	var e struct {
		Code int `json:"code"`
	}
	_ = json.Unmarshal(resp[env.err.start:env.err.end], &e)
	renv, _ := parse(req)
	if renv.method == "server/discover" {
		return http.StatusBadRequest
	}
	if !isModern {
		return http.StatusOK
	}
	switch e.Code {
	case -32601:
		return http.StatusNotFound
	case -32020, -32021, -32022, -32600, -32602, -32700:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// requestIDs lists the ids of the requests in a body (one message or a
// batch), and their methods.
func requestIDs(body []byte) ([]string, []string, error) {
	msgs := [][]byte{body}
	if items, err := batch(body); err != nil {
		return nil, nil, err
	} else if items != nil {
		msgs = msgs[:0]
		for _, it := range items {
			msgs = append(msgs, body[it.start:it.end])
		}
	}
	var ids, methods []string
	for _, m := range msgs {
		env, err := parse(m)
		if err != nil {
			return nil, nil, err
		}
		if env.kind == kindRequest {
			ids = append(ids, env.idKey(m))
			methods = append(methods, env.method)
		}
	}
	return ids, methods, nil
}

// sessionFor finds the session a request belongs to, or starts it: a
// session of its own for initialize, the sessionless one otherwise. On
// failure it returns the status to answer with.
func (f *httpFront) sessionFor(r *http.Request, initialize bool) (*frontSession, bool, int) {
	id := r.Header.Get("Mcp-Session-Id")
	f.mu.Lock()
	defer f.mu.Unlock()
	if id != "" && !initialize {
		fs := f.sessions[id]
		if fs == nil {
			return nil, false, http.StatusNotFound
		}
		fs.touch()
		return fs, false, 0
	}
	if !initialize {
		if f.stateless == nil {
			fs, err := f.start("")
			if err != nil {
				return nil, false, http.StatusBadGateway
			}
			f.stateless = fs
		}
		f.stateless.touch()
		return f.stateless, false, 0
	}
	if len(f.sessions) >= maxSessions {
		f.evictLocked()
	}
	fs, err := f.start(newSessionID())
	if err != nil {
		return nil, false, http.StatusBadGateway
	}
	f.sessions[fs.id] = fs
	return fs, true, 0
}

func (f *httpFront) evictLocked() {
	var oldest *frontSession
	for _, fs := range f.sessions {
		if oldest == nil || fs.lastUsed().Before(oldest.lastUsed()) {
			oldest = fs
		}
	}
	if oldest != nil {
		delete(f.sessions, oldest.id)
		go oldest.close()
	}
}

// start begins a session and its conversation with the server.
func (f *httpFront) start(id string) (*frontSession, error) {
	fs := &frontSession{f: f, id: id, streams: map[string]*stream{}, lastUse: time.Now()}
	fs.s = newSession(f.p, fs, true)
	up, done, err := f.p.dial(f.ctx, fs.s)
	if err != nil {
		fmt.Fprintf(f.p.stderr, "mcplint proxy: %v\n", f.p.serverFailure(err))
		return nil, err
	}
	fs.s.up, fs.up = up, up
	go func() {
		err, ok := <-done
		if !ok || err == nil {
			return
		}
		fs.s.serverGone(err)
		fmt.Fprintf(f.p.stderr, "mcplint proxy: %v\n", f.p.serverFailure(err))
		f.drop(fs)
	}()
	return fs, nil
}

// drop forgets a session whose server is gone; its streams end.
func (f *httpFront) drop(fs *frontSession) {
	f.mu.Lock()
	if f.sessions[fs.id] == fs {
		delete(f.sessions, fs.id)
	}
	if f.stateless == fs {
		f.stateless = nil
	}
	f.mu.Unlock()
	go fs.close()
}

func newSessionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (fs *frontSession) touch() {
	fs.mu.Lock()
	fs.lastUse = time.Now()
	fs.mu.Unlock()
}

func (fs *frontSession) lastUsed() time.Time {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.lastUse
}

// register makes st the stream of the requests ids, unless one of them is
// in flight already.
func (fs *frontSession) register(st *stream, ids []string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, id := range ids {
		if fs.streams[id] != nil {
			return false
		}
	}
	for _, id := range ids {
		fs.streams[id] = st
	}
	fs.order = append(fs.order, st)
	return true
}

func (fs *frontSession) unregister(st *stream) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for id, s := range fs.streams {
		if s == st {
			delete(fs.streams, id)
		}
	}
	for i, s := range fs.order {
		if s == st {
			fs.order = append(fs.order[:i], fs.order[i+1:]...)
			break
		}
	}
	st.end()
}

// clientLeft handles a client that closed a request's stream: from
// 2026-07-28 that cancels the requests it had not been answered.
func (fs *frontSession) clientLeft(st *stream) {
	if !st.modern {
		return
	}
	for id := range st.open {
		note := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`)
		_ = fs.s.fromClient(context.Background(), note)
	}
}

// send routes a message from the server: to the stream of the request it
// answers or was sent for; otherwise to the GET stream (before
// 2026-07-28), or a subscriptions/listen stream (from 2026-07-28), or the
// stream of the request most recently made (a server over stdio does not
// say which request a message belongs to), or it is kept until a GET
// stream opens.
func (fs *frontSession) send(b []byte, r route) error {
	m := outMsg{b: b, status: r.status}
	if r.final {
		m.final = r.related
	}
	fs.mu.Lock()
	st := fs.streams[r.related]
	if st == nil && r.final {
		fs.mu.Unlock()
		return nil // its client is gone
	}
	if st == nil {
		listen := slices.IndexFunc(fs.order, func(s *stream) bool { return s.listen })
		switch {
		case fs.get != nil:
			st = fs.get
		case listen >= 0:
			st = fs.order[listen]
		case len(fs.order) > 0:
			st = fs.order[len(fs.order)-1]
		default:
			if len(fs.backlog) == backlogSize {
				fs.backlog = fs.backlog[1:]
			}
			fs.backlog = append(fs.backlog, b)
			fs.mu.Unlock()
			return nil
		}
	}
	fs.mu.Unlock()
	if !st.push(m) {
		return errors.New("the client's stream is gone")
	}
	return nil
}

func (f *httpFront) getStream(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed: GET needs a session", http.StatusMethodNotAllowed)
		return
	}
	if !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		http.Error(w, "Not Acceptable: GET takes text/event-stream", http.StatusNotAcceptable)
		return
	}
	f.mu.Lock()
	fs := f.sessions[id]
	f.mu.Unlock()
	if fs == nil {
		http.Error(w, "Not Found: no such session", http.StatusNotFound)
		return
	}
	st := newStream(nil, false)
	fs.mu.Lock()
	if fs.get != nil {
		fs.mu.Unlock()
		http.Error(w, "Conflict: a GET stream is already open", http.StatusConflict)
		return
	}
	fs.get = st
	backlog := fs.backlog
	fs.backlog = nil
	fs.mu.Unlock()
	defer func() {
		fs.mu.Lock()
		if fs.get == st {
			fs.get = nil
		}
		fs.mu.Unlock()
		st.end()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for _, b := range backlog {
		_ = writeEvent(w, "", b)
	}
	if flusher != nil {
		flusher.Flush()
	}
	for {
		select {
		case m := <-st.ch:
			if writeEvent(w, "", m.b) != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		case <-r.Context().Done():
			return
		case <-st.done:
			return
		}
	}
}

func (f *httpFront) delete(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get("Mcp-Session-Id")
	if id == "" {
		w.Header().Set("Allow", "POST")
		http.Error(w, "Method Not Allowed: DELETE needs a session", http.StatusMethodNotAllowed)
		return
	}
	f.mu.Lock()
	fs := f.sessions[id]
	delete(f.sessions, id)
	f.mu.Unlock()
	if fs == nil {
		http.Error(w, "Not Found: no such session", http.StatusNotFound)
		return
	}
	fs.close()
	w.WriteHeader(http.StatusOK)
}

// close ends the session: its conversation with the server (and the
// server's process), and its streams.
func (fs *frontSession) close() {
	fs.mu.Lock()
	if fs.closed {
		fs.mu.Unlock()
		return
	}
	fs.closed = true
	streams := append([]*stream(nil), fs.order...)
	if fs.get != nil {
		streams = append(streams, fs.get)
	}
	fs.mu.Unlock()
	if fs.up != nil {
		fs.up.close()
	}
	fs.s.wait()
	for _, st := range streams {
		st.end()
	}
}

func writeJSONError(w http.ResponseWriter, status int, id string, code int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "error": map[string]any{"code": code, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
