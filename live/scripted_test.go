package live

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpfit/mcplint/internal/testenv"
)

// scripted is a Streamable HTTP server written by hand, message by
// message, so that a test can give it the behaviours a real server has and
// the SDK's own server never shows: an era of its own, any capabilities,
// pages, SSE or JSON answers, sessions that expire, a required
// MCP-Protocol-Version header, requests and notifications of its own in the
// middle of a list. It records every method it is asked for.
type scripted struct {
	// version answers initialize; "" echoes the version asked for.
	// versionJSON, when set, is the raw protocolVersion member (a
	// malformed one).
	version     string
	versionJSON string
	// discover answers server/discover (2026-07-28) instead of refusing it.
	discover bool
	// capabilities is the raw capabilities member ("{}" when empty).
	capabilities string
	// promptPages are the prompts/list pages by cursor, as pages are;
	// none: one empty page.
	promptPages map[string][2]string
	// refuse answers the lists other than tools/list with an error,
	// whatever the capabilities say.
	refuse bool
	// pages are the tools/list pages by cursor ("" the first): the raw
	// tools array and the raw nextCursor member (empty for none).
	pages map[string][2]string
	// sse answers each request as an event stream rather than JSON.
	sse bool
	// cut ends the event stream of tools/list before its answer.
	cut bool
	// holdOpen keeps each event stream open after its answer, until the
	// client goes, as servers that stream notifications do.
	holdOpen bool
	// notifyJSON answers a notification with 200 and an empty JSON body
	// rather than 202 Accepted.
	notifyJSON bool
	// session, when set, starts the Mcp-Session-Id given at each
	// initialize (a number follows) and demanded afterwards; the first
	// expire sessions end after expireAfter requests: the server answers
	// 404 to the next, as one that forgot the session does.
	session             string
	expire, expireAfter int
	// needVersion answers 400 to a request after initialize that lacks
	// the MCP-Protocol-Version header (2025-06-18, basic/transports).
	needVersion bool
	// during are raw messages sent before the tools/list result, on its
	// event stream (sse must be set): notifications, or requests to the
	// client, whose answers are recorded in replies.
	during []string

	mu       sync.Mutex
	methods  []string
	replies  []string
	used     int
	sessions int
	headers  []string
}

func (s *scripted) record(m string) {
	s.mu.Lock()
	s.methods = append(s.methods, m)
	s.mu.Unlock()
}

// asked returns the methods asked for so far.
func (s *scripted) asked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.methods)
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusOK)
		return
	}
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var msg struct {
		testenv.RPCRequest
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(body, &msg)
	s.mu.Lock()
	if msg.Method == "" && msg.ID != nil {
		s.replies = append(s.replies, string(body))
	}
	if msg.Method != "initialize" && msg.Method != "server/discover" && msg.Method != "" {
		s.headers = append(s.headers, r.Header.Get("Mcp-Protocol-Version"))
	}
	s.mu.Unlock()
	if s.session != "" && msg.Method != "initialize" && msg.Method != "server/discover" {
		s.mu.Lock()
		current := s.session + strconv.Itoa(s.sessions)
		s.used++
		expired := s.sessions <= s.expire && s.used > s.expireAfter
		s.mu.Unlock()
		if r.Header.Get("Mcp-Session-Id") != current {
			http.Error(w, "Bad Request: missing or unknown session", http.StatusBadRequest)
			return
		}
		if expired {
			http.Error(w, "Session not found", http.StatusNotFound)
			return
		}
	}
	if s.needVersion && msg.Method != "initialize" && msg.Method != "server/discover" && r.Header.Get("Mcp-Protocol-Version") == "" {
		http.Error(w, "Bad Request: missing MCP-Protocol-Version header", http.StatusBadRequest)
		return
	}
	if msg.ID == nil || msg.Method == "" {
		s.record(msg.Method)
		if s.notifyJSON {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	s.record(msg.Method)
	var result string
	var during []string
	switch msg.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		v := strconv.Quote(s.version)
		switch {
		case s.versionJSON != "":
			v = s.versionJSON
		case s.version == "":
			v = strconv.Quote(p.ProtocolVersion)
		}
		caps := s.capabilities
		if caps == "" {
			caps = "{}"
		}
		result = fmt.Sprintf(`{"protocolVersion":%s,"capabilities":%s,"serverInfo":{"name":"scripted","version":"1.0.0"}}`, v, caps)
		if s.session != "" {
			s.mu.Lock()
			s.sessions++
			s.used = 0
			w.Header().Set("Mcp-Session-Id", s.session+strconv.Itoa(s.sessions))
			s.mu.Unlock()
		}
	case "server/discover":
		if !s.discover {
			writeRPC(w, http.StatusNotFound, msg.ID, "", `{"code":-32601,"message":"Method not found"}`, false, nil, nil)
			return
		}
		result = fmt.Sprintf(`{"supportedVersions":["2026-07-28"],"capabilities":%s,"resultType":"complete","ttlMs":0,"cacheScope":"public","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"scripted","version":"1.0.0"}}}`, s.capabilities)
	case "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		page, ok := s.pages[p.Cursor]
		if !ok {
			writeRPC(w, http.StatusOK, msg.ID, "", `{"code":-32602,"message":"Invalid cursor"}`, s.sse, nil, nil)
			return
		}
		result = `{"tools":` + page[0]
		if page[1] != "" {
			result += `,"nextCursor":` + page[1]
		}
		result += "}"
		during = s.during
		if s.cut {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, ": the answer never comes\n\n")
			return
		}
	case "prompts/list", "resources/list", "resources/templates/list":
		if s.refuse {
			writeRPC(w, http.StatusOK, msg.ID, "", `{"code":-32601,"message":"Method not found"}`, s.sse, nil, nil)
			return
		}
		member := map[string]string{"prompts/list": "prompts", "resources/list": "resources", "resources/templates/list": "resourceTemplates"}[msg.Method]
		result = `{"` + member + `":[]}`
		if msg.Method == "prompts/list" && s.promptPages != nil {
			var p struct {
				Cursor string `json:"cursor"`
			}
			_ = json.Unmarshal(msg.Params, &p)
			page := s.promptPages[p.Cursor]
			result = `{"prompts":` + page[0]
			if page[1] != "" {
				result += `,"nextCursor":` + page[1]
			}
			result += "}"
		}
	case "ping":
		result = "{}"
	default:
		writeRPC(w, http.StatusOK, msg.ID, "", `{"code":-32601,"message":"Method not found"}`, s.sse, nil, nil)
		return
	}
	writeRPC(w, http.StatusOK, msg.ID, result, "", s.sse, during, s.awaitReply)
	if s.sse && s.holdOpen {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}
}

// awaitReply waits, a few seconds at most, for the client's answer to the
// request of ours with the given id, as a server that needs it before it
// can answer (sampling for a list it builds with the model) does.
func (s *scripted) awaitReply(id string) {
	deadline := time.Now().Add(3 * time.Second)
	for !s.replied(`"id":`+id) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// writeRPC answers a request with a result or an error, as JSON or as an
// event stream that first carries the messages of during, waiting with
// await for the answer to each that is a request.
func writeRPC(w http.ResponseWriter, status int, id json.RawMessage, result, rpcErr string, sse bool, during []string, await func(id string)) {
	reply := `{"jsonrpc":"2.0","id":` + string(id)
	if rpcErr != "" {
		reply += `,"error":` + rpcErr + "}"
	} else {
		reply += `,"result":` + result + "}"
	}
	if !sse {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, reply)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(status)
	f, _ := w.(http.Flusher)
	for i, m := range during {
		fmt.Fprintf(w, "id: d%d\ndata: %s\n\n", i, strings.ReplaceAll(m, "\n", ""))
		if f != nil {
			f.Flush()
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal([]byte(m), &req) == nil && req.ID != nil && await != nil {
			await(string(req.ID))
		}
	}
	fmt.Fprintf(w, "id: r\ndata: %s\n\n", reply)
}

// replied reports whether an answer of the client to a request of the
// server contains want.
func (s *scripted) replied(want string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.ContainsFunc(s.replies, func(r string) bool { return strings.Contains(r, want) })
}
