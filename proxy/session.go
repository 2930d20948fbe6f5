package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
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
	rep := &repairer{rules: s.p.rules, unsafe: s.p.o.UnsafeFixes, limits: s.p.manifestLimits(), list: s.p.limits(), log: s.log}
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
			go func() {
				defer s.wg.Done()
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

// clientRequest registers a request and prepares it for the server: it
// returns the message to send, the request (nil when the proxy answered it
// itself), and whether the request must wait for a listing.
func (s *session) clientRequest(b []byte, env envelope) ([]byte, *request, bool) {
	key := env.idKey(b)
	req := &request{method: env.method}
	var params []byte
	if env.params.ok() {
		params = b[env.params.start:env.params.end]
	}
	s.noteRequest(env.method, params)
	out, wait := b, false
	switch env.method {
	case "tools/list":
		req.first = !hasMember(params, "cursor")
	case "tools/call":
		out, req.tool = s.prepareCall(b, env)
		wait = req.tool == nil && !s.tools.hasListing()
	}
	s.mu.Lock()
	if len(s.pending) >= maxPending {
		s.mu.Unlock()
		s.answerError(key, -32000, fmt.Sprintf("mcplint proxy: more than %d requests in flight", maxPending))
		return nil, nil, false
	}
	if s.gone != nil {
		s.mu.Unlock()
		s.answerError(key, -32000, "mcplint proxy: "+s.gone.Error())
		return nil, nil, false
	}
	s.pending[key] = req
	if s.relate {
		if tok := progressToken(params); tok != "" && len(s.progress) < maxPending {
			s.progress[tok] = key
		}
	}
	s.mu.Unlock()
	return out, req, wait
}

// noteRequest learns what a request says of the conversation: the
// protocol version and the client's name, from initialize, or from the
// _meta every 2026-07-28 request carries.
func (s *session) noteRequest(method string, params []byte) {
	s.mu.Lock()
	need := !s.chosen || s.protocol == "" || method == "initialize"
	s.mu.Unlock()
	if !need || len(params) == 0 {
		return
	}
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
		ClientInfo      struct {
			Name string `json:"name"`
		} `json:"clientInfo"`
		Meta struct {
			Protocol   string `json:"io.modelcontextprotocol/protocolVersion"`
			ClientInfo struct {
				Name string `json:"name"`
			} `json:"io.modelcontextprotocol/clientInfo"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	name := p.ClientInfo.Name
	if method != "initialize" {
		name = p.Meta.ClientInfo.Name
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if method == "initialize" && p.ProtocolVersion != "" {
		s.protocol = p.ProtocolVersion
	} else if p.Meta.Protocol != "" {
		s.protocol = p.Meta.Protocol
	}
	if !s.chosen && name != "" {
		s.choose(ForClientInfo(name), name)
	}
}

// prepareCall maps a tools/call to the server's tool and coerces its
// arguments; the tool is nil when the proxy does not know it, and the call
// then goes as it came.
func (s *session) prepareCall(b []byte, env envelope) ([]byte, *toolEntry) {
	if !env.params.ok() {
		return b, nil
	}
	params := b[env.params.start:env.params.end]
	ms, err := members(params)
	if err != nil {
		return b, nil
	}
	nm, ok := find(ms, "name")
	if !ok {
		return b, nil
	}
	var name string
	if json.Unmarshal(params[nm.value.start:nm.value.end], &name) != nil {
		return b, nil
	}
	t, ok := s.tools.get(name)
	if !ok {
		return b, nil
	}
	out := params
	if t.exposed != t.name {
		q, _ := json.Marshal(t.name)
		out = splice(out, nm.value, q)
	}
	if am, ok := find(ms, "arguments"); ok {
		t.compile()
		args := params[am.value.start:am.value.end]
		if coerced, cs := coerceArgs(t.inputS, args); len(cs) > 0 {
			if o, err := setMember(out, "arguments", coerced); err == nil {
				out = o
				for _, c := range cs {
					s.log.report(Change{Tool: t.name, Kind: "coerce", Client: label(s.clientName()), Message: "an argument the input schema refuses as sent was converted: " + c.what + " (schema " + c.schemaAt + ")"})
				}
			}
		}
	}
	if len(out) == len(params) && bytes.Equal(out, params) {
		return b, t
	}
	return splice(b, env.params, out), t
}

func (s *session) clientName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// cancelled forgets a request the client gave up.
func (s *session) cancelled(b []byte, env envelope) {
	if !env.params.ok() {
		return
	}
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(b[env.params.start:env.params.end], &p) != nil || len(p.RequestID) == 0 {
		return
	}
	s.mu.Lock()
	delete(s.pending, string(bytes.TrimSpace(p.RequestID)))
	s.mu.Unlock()
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

// noteInitialized learns the negotiated protocol version.
func (s *session) noteInitialized(b []byte, env envelope) {
	if !env.result.ok() {
		return
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(b[env.result.start:env.result.end], &r) == nil && r.ProtocolVersion != "" {
		s.mu.Lock()
		s.protocol = r.ProtocolVersion
		s.mu.Unlock()
	}
}

// listed repairs a tools/list response and records its tools.
func (s *session) listed(b []byte, env envelope, req *request) []byte {
	if !env.result.ok() {
		return b
	}
	s.mu.Lock()
	if !s.chosen {
		s.choose("", "")
	}
	rep, protocol := s.rep, s.protocol
	s.mu.Unlock()
	result := b[env.result.start:env.result.end]
	out, entries := rep.repair(result, req.first, protocol)
	s.tools.add(entries, req.first)
	if bytes.Equal(out, result) {
		return b
	}
	return splice(b, env.result, out)
}

// called checks a tools/call response.
func (s *session) called(b []byte, env envelope, t *toolEntry) []byte {
	if !env.result.ok() {
		return b
	}
	client := s.clientName()
	o := s.checkResult(t, b[env.result.start:env.result.end], label(client), results(client))
	if !o.changed {
		return b
	}
	return splice(b, env.result, o.out)
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

// ownRequest sends a request of the proxy's own and waits for its
// response. Its id cannot be one of the client's: the proxy picks one no
// request in flight has.
func (s *session) ownRequest(ctx context.Context, method string, params any) ([]byte, error) {
	s.mu.Lock()
	if s.gone != nil {
		s.mu.Unlock()
		return nil, s.gone
	}
	var id string
	for {
		s.ownSeq++
		id = strconv.Quote("mcplint-proxy-" + strconv.FormatUint(s.ownSeq, 10))
		if _, taken := s.pending[id]; !taken {
			break
		}
	}
	ch := make(chan []byte, 1)
	s.own[id] = ch
	s.mu.Unlock()
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	env, _ := parse(msg)
	ctx, cancel := context.WithTimeout(ctx, ownTimeout)
	defer cancel()
	if err := s.up.send(ctx, msg, env, nil); err != nil {
		s.forgetOwn(id)
		return nil, err
	}
	select {
	case b, ok := <-ch:
		if !ok {
			return nil, errors.New("the server is gone")
		}
		return b, nil
	case <-ctx.Done():
		s.forgetOwn(id)
		return nil, ctx.Err()
	}
}

func (s *session) forgetOwn(id string) {
	s.mu.Lock()
	delete(s.own, id)
	s.mu.Unlock()
}

// learnTools lists the server's tools for the proxy itself, as the client
// would have, when a call names a tool before any listing: the names the
// client may use (from an earlier conversation) are then known. It copies
// the call's _meta, which a 2026-07-28 request needs. One listing at a
// time; a failure leaves the call to go as it came.
func (s *session) learnTools(ctx context.Context, b []byte, env envelope) {
	s.lookupMu.Lock()
	defer s.lookupMu.Unlock()
	if s.tools.hasListing() {
		return
	}
	var call struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if env.params.ok() {
		_ = json.Unmarshal(b[env.params.start:env.params.end], &call)
	}
	delete(call.Meta, "progressToken")
	cursor := ""
	seen := map[string]bool{}
	limits := s.p.limits()
	for page := 0; page < limits.Pages; page++ {
		params := map[string]any{}
		if len(call.Meta) > 0 {
			params["_meta"] = call.Meta
		}
		if cursor != "" {
			params["cursor"] = cursor
		}
		resp, err := s.ownRequest(ctx, "tools/list", params)
		if err != nil {
			return
		}
		renv, err := parse(resp)
		if err != nil || !renv.result.ok() {
			return
		}
		s.listed(resp, renv, &request{method: "tools/list", first: page == 0})
		var r struct {
			NextCursor string `json:"nextCursor"`
		}
		if json.Unmarshal(resp[renv.result.start:renv.result.end], &r) != nil || r.NextCursor == "" || seen[r.NextCursor] {
			return
		}
		seen[r.NextCursor] = true
		cursor = r.NextCursor
	}
}

// wait waits for the goroutines the session started (listings being
// repaired, calls waiting for tools).
func (s *session) wait() { s.wg.Wait() }

// hasMember reports whether the object b has member key.
func hasMember(b []byte, key string) bool {
	if len(b) == 0 {
		return false
	}
	ms, err := members(b)
	if err != nil {
		return false
	}
	_, ok := find(ms, key)
	return ok
}

// progressToken is the progress token of a request's params (under
// _meta) or of a progress notification's params, as its JSON text; "" for
// none.
func progressToken(params []byte) string {
	if len(params) == 0 || !bytes.Contains(params, []byte("progressToken")) {
		return ""
	}
	var p struct {
		Token json.RawMessage `json:"progressToken"`
		Meta  struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	if len(p.Token) > 0 {
		return string(p.Token)
	}
	return string(p.Meta.Token)
}
