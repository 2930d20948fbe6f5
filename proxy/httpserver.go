package proxy

import (
	"bytes"
	"context"
	"encoding/json"
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

func writeJSONError(w http.ResponseWriter, status int, id string, code int, msg string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "error": map[string]any{"code": code, "message": msg}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
