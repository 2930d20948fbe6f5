package live

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/manifest"
)

// capturingTransport wraps the SDK transport so that the tools/list
// responses are kept as the server sent them.
type capturingTransport struct {
	inner mcp.Transport
	conn  *capture
	// negotiated hears the protocol version of an initialize result.
	negotiated func(string)
}

func (t *capturingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = &capture{Connection: c, negotiated: t.negotiated, pending: map[jsonrpc.ID]bool{}, sent: map[jsonrpc.ID]string{}, other: map[jsonrpc.ID]string{}}
	return t.conn, nil
}

// rawPage is one tools/list response as received (or one response of
// another method of the surface: see surface.go).
type rawPage struct {
	id     jsonrpc.ID
	method string
	result json.RawMessage
	err    *jsonrpc.Error
	// local: err was made on this side, not sent by the server (the
	// Streamable HTTP client ends a request whose stream broke with an
	// error of its own): a failure of the conversation, not a refusal.
	local bool
}

// capture records the responses to tools/list requests. The SDK gets an
// empty list instead of the real result: the real one is decoded from the
// captured bytes, and the SDK must neither refuse a malformed result (which
// is a finding, not a reason to stop) nor cache it (a second listing must
// reach the server).
type capture struct {
	mcp.Connection
	mu      sync.Mutex
	pending map[jsonrpc.ID]bool
	pages   []rawPage
	// sent maps the ID of each request sent to its method, and echoed is
	// the method of the first one that came back as a request: the command
	// at the other end copies its input (cat does), it is no server.
	sent   map[jsonrpc.ID]string
	echoed string
	// other maps the requests of the rest of the surface (surfaceMethods)
	// to their method; their responses go to surface.
	other   map[jsonrpc.ID]string
	surface []rawPage
	// negotiated hears the protocol version of an initialize result.
	negotiated func(string)
}

const toolsList = "tools/list"

// sdkPlaceholder is what the SDK sees of a tools/list result.
var sdkPlaceholder = json.RawMessage(`{"tools":[],"resultType":"complete"}`)

func (c *capture) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.ID.IsValid() {
		c.mu.Lock()
		c.sent[r.ID] = r.Method
		if r.Method == toolsList {
			c.pending[r.ID] = true
		} else if surfaceMethods[r.Method] {
			c.other[r.ID] = r.Method
		}
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *capture) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil && req.ID.IsValid() {
		c.mu.Lock()
		if m, sent := c.sent[req.ID]; sent && m == req.Method && c.echoed == "" {
			c.echoed = m
		}
		c.mu.Unlock()
	}
	resp, ok := msg.(*jsonrpc.Response)
	if err != nil || !ok {
		return msg, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if method, ok := c.other[resp.ID]; ok {
		delete(c.other, resp.ID)
		if method == manifest.MethodInitialize && resp.Error == nil && c.negotiated != nil {
			var r struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(resp.Result, &r) == nil {
				c.negotiated(r.ProtocolVersion)
			}
		}
		return c.recordSurface(resp, method), nil
	}
	if !c.pending[resp.ID] {
		return msg, nil
	}
	delete(c.pending, resp.ID)
	p := rawPage{id: resp.ID}
	if resp.Error != nil {
		p.err, p.local = wireError(resp.Error)
		c.pages = append(c.pages, p)
		return msg, nil
	}
	p.result = append(json.RawMessage(nil), resp.Result...)
	c.pages = append(c.pages, p)
	return &jsonrpc.Response{ID: resp.ID, Result: sdkPlaceholder}, nil
}

// echo is the method of the first request of ours that came back as a
// request, "" when none did.
func (c *capture) echo() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.echoed
}

// take returns and forgets the pages received so far.
func (c *capture) take() []rawPage {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pages
	c.pages = nil
	return p
}

type jsonrpcError = jsonrpc.Error

// wireError is a response's error as the server sent it, or, when the
// error was made on this side, as a JSON-RPC internal error with local set.
func wireError(err error) (we *jsonrpc.Error, local bool) {
	if e, ok := err.(*jsonrpc.Error); ok {
		return e, false
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}, true
}
