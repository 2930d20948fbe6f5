package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// The client's requests as the proxy prepares them for the server, the
// responses it rewrites, and the requests it makes itself.

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
