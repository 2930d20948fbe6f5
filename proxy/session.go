package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// upstream carries messages to the server. Messages from the server reach
// the session through fromServer.
type upstream interface {
	// send delivers one message (or batch) to the server; call is the
	// tool of a tools/call the proxy knows, for transports that mirror
	// arguments into headers.
	send(ctx context.Context, b []byte, env envelope, call *toolEntry) error
	// close ends the conversation with the server.
	close()
}

// downstream carries messages to the client.
type downstream interface {
	send(b []byte, r route) error
}

// route says where a message to the client belongs, for transports with a
// stream per request (Streamable HTTP).
type route struct {
	// related is the id (its JSON text) of the client request the message
	// answers or was sent for, "" when unknown.
	related string
	// final says the message is the response to related.
	final bool
	// status is the HTTP status the server answered the request with,
	// when it was not 2xx (0 otherwise, or over stdio).
	status int
}

// request is a client request in flight.
type request struct {
	method string
	// first says a tools/list starts a listing (it has no cursor).
	first bool
	tool  *toolEntry
}

// maxPending bounds the client requests in flight; past it a request is
// answered with an error at once.
const maxPending = 4096

// ownTimeout bounds a request the proxy makes itself (a listing to learn
// the tool a call names).
const ownTimeout = 30 * time.Second

// session is one client's conversation with the server through the proxy.
// Messages are relayed as they come, in both directions, and each is
// handled on its own: a slow one (a listing being repaired, a call waiting
// for the tool to be learnt) holds up no other.
type session struct {
	p    *Proxy
	up   upstream
	down downstream
	log  *changeLog

	mu       sync.Mutex
	pending  map[string]*request
	own      map[string]chan []byte
	ownSeq   uint64
	progress map[string]string // progress tokens to the id of their request
	protocol string
	client   string // the client adapted for (convert.Clients, "" mainstream)
	chosen   bool
	rep      *repairer
	gone     error

	tools    *toolTable
	lookupMu sync.Mutex
	// relate says the downstream routes by request (HTTP), so progress
	// notifications are tied to their requests.
	relate bool
	wg     sync.WaitGroup
	// held counts the calls held back until the tools are listed and not
	// yet sent: the client may close its input right after one.
	held sync.WaitGroup
}

func newSession(p *Proxy, down downstream, relate bool) *session {
	s := &session{p: p, down: down, log: p.log, relate: relate,
		pending: map[string]*request{}, own: map[string]chan []byte{}, progress: map[string]string{},
		tools: newToolTable()}
	if p.o.For != Auto {
		s.choose(p.o.For, "")
	}
	return s
}

// choose fixes the client the session adapts for. by is the clientInfo
// name it was chosen from ("" when --for named it).
func (s *session) choose(client, by string) {
	if s.chosen {
		return
	}
	s.chosen, s.client = true, client
	rep := &repairer{rules: s.p.rules, unsafe: s.p.o.UnsafeFixes, limits: s.p.manifestLimits(), list: s.p.limits(), log: s.log, http: s.p.o.Target.URL != ""}
	rep.adapter, _ = newAdapter(client)
	s.rep = rep
	if s.p.o.For == Auto {
		why := fmt.Sprintf("the client calls itself %q, which mcplint does not know", by)
		if by == "" {
			why = "the client did not say who it is before its first listing"
		} else if client != "" {
			why = fmt.Sprintf("the client calls itself %q", by)
		}
		s.log.report(Change{Kind: "client", Client: label(client), Message: fmt.Sprintf("adapting for %s: %s", describe(client), why)})
	}
}

func describe(client string) string {
	if client == "" {
		return "every mainstream client"
	}
	return client
}

// fromClient relays a message from the client.
func (s *session) fromClient(ctx context.Context, b []byte) error {
	if items, err := batch(b); err == nil && items != nil {
		return s.clientBatch(ctx, b, items)
	}
	env, err := parse(b)
	if err != nil || env.dup {
		return s.up.send(ctx, b, env, nil)
	}
	switch env.kind {
	case kindRequest:
		out, req, wait := s.clientRequest(b, env)
		if req == nil {
			return nil // answered by the proxy
		}
		if wait {
			// The call names a tool the proxy has not listed: learn it
			// first, without holding up the messages behind it.
			s.wg.Add(1)
			s.held.Add(1)
			go func() {
				defer s.wg.Done()
				defer s.held.Done()
				s.learnTools(ctx, b, env)
				out, tool := s.prepareCall(b, env)
				s.mu.Lock()
				req.tool = tool
				s.mu.Unlock()
				if err := s.forward(ctx, b, env, out, tool); err != nil {
					s.answerError(env.idKey(b), -32603, "mcplint proxy: "+err.Error())
				}
			}()
			return nil
		}
		return s.forward(ctx, b, env, out, req.tool)
	case kindNotification:
		if env.method == "notifications/cancelled" {
			s.cancelled(b, env)
		}
	}
	return s.up.send(ctx, b, env, nil)
}

// forward sends out, the message b made ready for the server, with its
// own envelope.
func (s *session) forward(ctx context.Context, b []byte, env envelope, out []byte, call *toolEntry) error {
	if len(out) != len(b) || len(out) > 0 && &out[0] != &b[0] {
		var err error
		if env, err = parse(out); err != nil {
			return err
		}
	}
	return s.up.send(ctx, out, env, call)
}

// clientBatch relays a batch (protocol 2025-03-26): each request is
// registered and prepared, and the batch is rebuilt only if one changed.
func (s *session) clientBatch(ctx context.Context, b []byte, items []span) error {
	parts := make([][]byte, 0, len(items))
	changed := false
	for _, it := range items {
		m := b[it.start:it.end]
		env, err := parse(m)
		if err == nil && !env.dup && env.kind == kindRequest {
			out, req, _ := s.clientRequest(m, env)
			if req == nil {
				changed = true
				continue
			}
			if !bytes.Equal(out, m) {
				changed = true
			}
			m = out
		}
		parts = append(parts, m)
	}
	if !changed {
		return s.up.send(ctx, b, envelope{}, nil)
	}
	if len(parts) == 0 {
		return nil
	}
	return s.up.send(ctx, joinArray(parts), envelope{}, nil)
}

func joinArray(parts [][]byte) []byte {
	out := append([]byte{'['}, bytes.Join(parts, []byte{','})...)
	return append(out, ']')
}

// fromServer relays a message from the server; r.related is set when the
// transport knows which request it came for.
func (s *session) fromServer(b []byte, r route) {
	if items, err := batch(b); err == nil && items != nil {
		s.serverBatch(b, items, r)
		return
	}
	env, err := parse(b)
	if err != nil || env.dup {
		s.deliver(b, r)
		return
	}
	switch env.kind {
	case kindResponse:
		key := env.idKey(b)
		s.mu.Lock()
		if ch, ok := s.own[key]; ok {
			delete(s.own, key)
			s.mu.Unlock()
			ch <- b
			return
		}
		req := s.pending[key]
		delete(s.pending, key)
		var tool *toolEntry
		if req != nil {
			tool = req.tool
		}
		if len(s.progress) > 0 {
			for tok, id := range s.progress {
				if id == key {
					delete(s.progress, tok)
				}
			}
		}
		s.mu.Unlock()
		r.related, r.final = key, true
		if req == nil {
			s.deliver(b, r)
			return
		}
		switch req.method {
		case "initialize":
			s.noteInitialized(b, env)
		case "tools/list":
			// Repairing a listing takes a while: the messages behind it
			// go on meanwhile.
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.deliver(s.listed(b, env, req), r)
			}()
			return
		case "tools/call":
			if tool != nil {
				b = s.called(b, env, tool)
			}
		}
	case kindNotification:
		if r.related == "" && s.relate && env.method == "notifications/progress" {
			if tok := progressToken(b[env.params.start:env.params.end]); tok != "" {
				s.mu.Lock()
				r.related = s.progress[tok]
				s.mu.Unlock()
			}
		}
	}
	s.deliver(b, r)
}

func (s *session) serverBatch(b []byte, items []span, r route) {
	parts := make([][]byte, 0, len(items))
	changed := false
	for _, it := range items {
		m := b[it.start:it.end]
		env, err := parse(m)
		if err == nil && !env.dup && env.kind == kindResponse {
			key := env.idKey(m)
			s.mu.Lock()
			req := s.pending[key]
			delete(s.pending, key)
			s.mu.Unlock()
			if req != nil {
				out := m
				switch req.method {
				case "tools/list":
					out = s.listed(m, env, req)
				case "tools/call":
					if req.tool != nil {
						out = s.called(m, env, req.tool)
					}
				}
				changed = changed || !bytes.Equal(out, m)
				m = out
			}
		}
		parts = append(parts, m)
	}
	if changed {
		b = joinArray(parts)
	}
	s.deliver(b, r)
}

func (s *session) deliver(b []byte, r route) {
	_ = s.down.send(b, r)
}

// answerError answers a client request with a JSON-RPC error.
func (s *session) answerError(id string, code int, msg string) {
	if id == "" {
		return
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "error": map[string]any{"code": code, "message": s.log.secrets.String(msg)}})
	s.deliver(b, route{related: id, final: true})
}

// serverGone fails every request in flight: the server is gone (err says
// how), and no answer will come.
func (s *session) serverGone(err error) {
	s.mu.Lock()
	if s.gone == nil {
		s.gone = err
	}
	pending := s.pending
	s.pending = map[string]*request{}
	own := s.own
	s.own = map[string]chan []byte{}
	s.mu.Unlock()
	for id := range pending {
		s.answerError(id, -32000, "mcplint proxy: the MCP server is gone before answering: "+err.Error())
	}
	for _, ch := range own {
		close(ch)
	}
}

// wait waits for the goroutines the session started (listings being
// repaired, calls waiting for tools).
func (s *session) wait() { s.wg.Wait() }

// sendHeld waits, at most limit, until the calls held back for a listing
// have been sent: what a client wrote before it closed its input reaches
// the server before the server's input closes, as it would without the
// proxy (a server reads its input to the end).
func (s *session) sendHeld(limit time.Duration) {
	sent := make(chan struct{})
	go func() {
		s.held.Wait()
		close(sent)
	}()
	select {
	case <-sent:
	case <-time.After(limit):
	}
}
