package proxy

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/live"
)

// eras are the protocol versions a test runs in: the last with sessions
// and the initialize handshake, and the first without (which the go-sdk
// serves over HTTP only without sessions: sdkHTTPServer's stateless).
var eras = []string{"2025-11-25", "2026-07-28"}

// exercise lists the tools through a client session and calls them, as
// every relay test does whatever the transports: a renamed tool is called
// under its new name, an argument coerced, a broken result converted.
func exercise(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, " "); got != "count files_read slow stats" {
		t.Errorf("tools %q", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "files_read", Arguments: map[string]any{"path": "a", "limit": "7"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != `{"limit":7,"path":"a"}` {
		t.Errorf("the server got %s", got)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "stats", Arguments: map[string]any{}})
	if err != nil || !res.IsError || res.StructuredContent != nil {
		t.Errorf("a broken result came as %+v, %v", res, err)
	}
	pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "greet"})
	if err != nil || len(pr.Messages) != 1 {
		t.Errorf("prompts/get: %+v, %v", pr, err)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://one"})
	if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != "one" {
		t.Errorf("resources/read: %+v, %v", rr, err)
	}
}

// countingHandler counts the requests of each method a handler serves.
type countingHandler struct {
	h       http.Handler
	mu      sync.Mutex
	methods map[string]int
	names   []string // Mcp-Name headers seen
}

func (c *countingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.methods[r.Method]++
	if n := r.Header.Get("Mcp-Name"); n != "" {
		c.names = append(c.names, n)
	}
	c.mu.Unlock()
	c.h.ServeHTTP(w, r)
}

func (c *countingHandler) count(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.methods[method]
}

func sdkHTTPServer(t *testing.T, stateless bool) (*httptest.Server, *countingHandler) {
	t.Helper()
	h := &countingHandler{methods: map[string]int{}, h: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, &mcp.StreamableHTTPOptions{Stateless: stateless})}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h
}

// TestHTTPUpstream: a client on stdio, the server over Streamable HTTP, in
// both eras: the listing repaired, calls mapped and coerced (Mcp-Name
// naming the server's tool), results checked, and the session deleted when
// the client goes.
func TestHTTPUpstream(t *testing.T) {
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			srv, h := sdkHTTPServer(t, era >= "2026-07-28")
			r := start(t, Options{Target: live.Target{URL: srv.URL}, For: "openai"})
			c := mcp.NewClient(&mcp.Implementation{Name: "proxy-test-client", Version: "1"}, nil)
			cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: r.outR, Writer: r.in}, &mcp.ClientSessionOptions{ProtocolVersion: era})
			if err != nil {
				t.Fatal(err)
			}
			if got := cs.InitializeResult().ProtocolVersion; got != era {
				t.Errorf("negotiated %s", got)
			}
			exercise(t, ctx, cs)
			cs.Close()
			if err := r.wait(); err != nil {
				t.Fatal(err)
			}
			h.mu.Lock()
			names := strings.Join(h.names, " ")
			h.mu.Unlock()
			if era >= "2026-07-28" && !strings.Contains(names, "files.read") {
				t.Errorf("Mcp-Name headers %q", names)
			}
			if era < "2026-07-28" && h.count(http.MethodDelete) != 1 {
				t.Errorf("%d DELETE requests, want 1", h.count(http.MethodDelete))
			}
		})
	}
}

// listen starts a proxy serving Streamable HTTP on a loopback port.
func listen(t *testing.T, o Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	o.Listener, o.Ready = ln, func(u string) { urls <- u }
	if o.Log == nil {
		o.Log = io.Discard
	}
	done := make(chan error, 1)
	go func() { done <- Run(ctx, o) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the proxy did not stop")
		}
	})
	select {
	case u := <-urls:
		return u
	case err := <-done:
		t.Fatal(err)
	}
	return ""
}

// TestHTTPFront: the client over Streamable HTTP, the server a command or
// a Streamable HTTP server, in both eras.
func TestHTTPFront(t *testing.T) {
	// The go-sdk serves 2026-07-28 over HTTP only without sessions.
	withSessions, _ := sdkHTTPServer(t, false)
	stateless, _ := sdkHTTPServer(t, true)
	for _, up := range []struct {
		name   string
		target func(era string) live.Target
	}{
		{"stdio", func(string) live.Target { return self("sdk") }},
		{"http", func(era string) live.Target {
			if era >= "2026-07-28" {
				return live.Target{URL: stateless.URL}
			}
			return live.Target{URL: withSessions.URL}
		}},
	} {
		for _, era := range eras {
			t.Run(up.name+" "+era, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				url := listen(t, Options{Target: up.target(era), For: "openai"})
				c := mcp.NewClient(&mcp.Implementation{Name: "proxy-test-client", Version: "1"}, nil)
				cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: era})
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				if got := cs.InitializeResult().ProtocolVersion; got != era {
					t.Errorf("negotiated %s", got)
				}
				exercise(t, ctx, cs)
			})
		}
	}
}

// TestHTTPFrontRefusesRebinding: a request whose Host or Origin is not
// local is refused, as the specification asks of a local server.
func TestHTTPFrontRefusesRebinding(t *testing.T) {
	url := listen(t, Options{Target: self("sdk")})
	for _, h := range []map[string]string{{"Host": "evil.example"}, {"Origin": "http://evil.example"}} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range h {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%v: status %d, want 403", h, resp.StatusCode)
		}
	}
}

// TestHTTPFrontSessionEnds: DELETE ends a session and its server; the
// session's id is unknown afterwards.
func TestHTTPFrontSessionEnds(t *testing.T) {
	url := listen(t, Options{Target: self("sdk")})
	post := func(body, session string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := post(initialize, "")
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d, session %q", resp.StatusCode, id)
	}
	req, _ := http.NewRequest(http.MethodDelete, url, nil)
	req.Header.Set("Mcp-Session-Id", id)
	dresp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	dresp.Body.Close()
	if dresp.StatusCode != http.StatusOK {
		t.Errorf("DELETE: %d", dresp.StatusCode)
	}
	if resp := post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, id); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a request on the ended session: %d, want 404", resp.StatusCode)
	}
}

// TestHTTPFrontRefusesIDInFlight: a request reusing the id of one in
// flight on the session is refused, rather than taking its answer.
func TestHTTPFrontRefusesIDInFlight(t *testing.T) {
	url := listen(t, Options{Target: self("sdk")})
	post := func(body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	first := make(chan string, 1)
	go func() {
		slow := post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{"ms":1500},` + meta + `}}`)
		b, _ := io.ReadAll(slow.Body)
		slow.Body.Close()
		first <- string(b)
	}()
	time.Sleep(300 * time.Millisecond) // the slow call is in flight
	again := post(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{` + meta + `}}`)
	body, _ := io.ReadAll(again.Body)
	again.Body.Close()
	if again.StatusCode != http.StatusConflict || !strings.Contains(string(body), `"id":7`) {
		t.Errorf("a second id 7: %d %s", again.StatusCode, body)
	}
	if b := <-first; !strings.Contains(b, "done 1500") {
		t.Errorf("the first id 7 got %s", b)
	}
}
