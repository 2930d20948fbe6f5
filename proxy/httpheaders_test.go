package proxy

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/live"
)

// TestParamHeaders: the x-mcp-header annotations of an input schema name
// the arguments a tools/call mirrors into Mcp-Param headers, read from one
// decoding of the arguments; values that are not a string, an integer or a
// boolean have no header (an annotation on such a property makes the
// tool invalid: TestParamHeadersInvalid).
func TestParamHeaders(t *testing.T) {
	input := []byte(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"count":{"type":"integer","x-mcp-header":"Count"},
		"dry":{"type":"boolean","x-mcp-header":"Dry"},
		"opts":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
		"tags":{"type":"array"}}}`)
	headers, invalid := paramHeaders(input)
	if invalid != "" {
		t.Fatalf("valid annotations judged invalid: %s", invalid)
	}
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":` +
		`{"region":"café","count":7,"dry":false,"tags":["a"],"opts":{"zone":"b"}}}}`)
	env, err := parse(msg)
	if err != nil {
		t.Fatal(err)
	}
	args := callArguments(msg, env)
	got := map[string]string{}
	for _, h := range headers {
		if v, ok := argumentAt(args, h.path); ok {
			got[h.name] = headerValue(v)
		}
	}
	want := map[string]string{"Region": "=?base64?Y2Fmw6k=?=", "Count": "7", "Dry": "false", "Zone": "b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}

	// Without arguments, or with params that do not decode, no header.
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":[1]}}`,
	} {
		env, err := parse([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		args := callArguments([]byte(m), env)
		for _, h := range headers {
			if v, ok := argumentAt(args, h.path); ok {
				t.Errorf("%s: header %s = %q, want none", m, h.name, v)
			}
		}
	}
}

// TestParamHeadersInvalid: annotations the specification forbids mirror no
// header at all, and say why, as rule x-mcp-header-valid does.
func TestParamHeadersInvalid(t *testing.T) {
	for _, c := range []struct{ name, props, want string }{
		{"space", `"a":{"type":"string","x-mcp-header":"Cloud Region"}`, "a space"},
		{"colon", `"a":{"type":"string","x-mcp-header":"A:B"}`, "':'"},
		{"non-ASCII", `"a":{"type":"string","x-mcp-header":"Régión"}`, "'é' (U+00E9)"},
		{"CR LF", `"a":{"type":"string","x-mcp-header":"A\r\nX-Injected"}`, "CR (U+000D), LF (U+000A)"},
		{"NUL", `"a":{"type":"string","x-mcp-header":"A\u0000"}`, "U+0000"},
		{"empty", `"a":{"type":"string","x-mcp-header":""}`, "empty"},
		{"duplicate, ignoring case", `"a":{"type":"string","x-mcp-header":"Zone"},"b":{"type":"string","x-mcp-header":"zone"}`, `repeats "Zone"`},
		{"number", `"a":{"type":"number","x-mcp-header":"N"}`, `"number"`},
		{"array", `"a":{"type":"array","x-mcp-header":"Tags"}`, `"array"`},
		{"under items", `"a":{"type":"array","items":{"type":"string","x-mcp-header":"Item"}}`, "not statically reachable"},
		{"not a string", `"a":{"type":"string","x-mcp-header":7}`, "not a string"},
	} {
		t.Run(c.name, func(t *testing.T) {
			input := `{"type":"object","properties":{"ok":{"type":"string","x-mcp-header":"Ok"},` + c.props + `}}`
			headers, invalid := paramHeaders([]byte(input))
			if headers != nil || !strings.Contains(invalid, c.want) {
				t.Errorf("headers %v, invalid %q; want none, and %s named", headers, invalid, c.want)
			}
		})
	}
}

// badHeaderTools are tools a 2026-07-28 client must drop (the go-sdk
// refuses to serve them, so the test adds them to the server's listing).
const badHeaderTools = `[
	{"name":"spaced","inputSchema":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"Cloud Region"}}}},
	{"name":"colon","inputSchema":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"A:B"}}}},
	{"name":"accented","inputSchema":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"Régión"}}}},
	{"name":"crlf","inputSchema":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"A\r\nX-Injected"}}}},
	{"name":"twice","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Zone"},"b":{"type":"string","x-mcp-header":"zone"}}}}
]`

// headerRecorder serves a go-sdk server over stateless Streamable HTTP,
// adds badHeaderTools to its listing, and records the Mcp-Param and
// X-Injected headers of every tools/call.
type headerRecorder struct {
	h     http.Handler
	mu    sync.Mutex
	calls []http.Header
}

func (rec *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Header.Get("Mcp-Method") {
	case "tools/call":
		got := http.Header{}
		for k, v := range r.Header {
			if strings.HasPrefix(k, "Mcp-Param-") || k == "X-Injected" {
				got[k] = v
			}
		}
		rec.mu.Lock()
		rec.calls = append(rec.calls, got)
		rec.mu.Unlock()
	case "tools/list":
		out := httptest.NewRecorder()
		rec.h.ServeHTTP(out, r)
		var msg map[string]any
		if err := json.Unmarshal(out.Body.Bytes(), &msg); err == nil {
			if res, ok := msg["result"].(map[string]any); ok {
				var bad []any
				_ = json.Unmarshal([]byte(badHeaderTools), &bad)
				res["tools"] = append(res["tools"].([]any), bad...)
			}
		}
		b, _ := json.Marshal(msg)
		for k, v := range out.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(out.Code)
		_, _ = w.Write(b)
		return
	}
	rec.h.ServeHTTP(w, r)
}

// TestParamHeadersOverHTTP: over Streamable HTTP at 2026-07-28 the proxy
// drops the tools whose x-mcp-header annotations are invalid, saying why;
// a call to one (a client that remembers it) still reaches the server,
// never refused by net/http; and argument values of every kind (CR, LF,
// NUL, non-ASCII, padding, the sentinel) are mirrored as the go-sdk server
// checks them, with no header smuggled in.
func TestParamHeadersOverHTTP(t *testing.T) {
	const era = "2026-07-28"
	s := mcp.NewServer(&mcp.Implementation{Name: "headers", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "route", Description: "Route a query.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	rec := &headerRecorder{h: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := start(t, Options{Target: live.Target{URL: srv.URL}})
	c := mcp.NewClient(&mcp.Implementation{Name: "proxy-test-client", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: r.outR, Writer: r.in}, &mcp.ClientSessionOptions{ProtocolVersion: era})
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, ctx, cs); got != "route" {
		t.Errorf("tools %q, want route only", got)
	}
	// The client drops invalid tools itself; the proxy's log says it did.
	for _, name := range []string{"spaced", "colon", "accented", "crlf", "twice"} {
		if !strings.Contains(r.log.String(), `tool "`+name+`": left out of the listing`) {
			t.Errorf("the log does not say %s was dropped:\n%s", name, r.log.String())
		}
	}

	for _, v := range []string{"us-west1", "café", "a\r\nX-Injected: 1", "nul\x00byte", " padded ", "=?base64?literal?=", "tab\there", ""} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "route", Arguments: map[string]any{"region": v, "n": 7}})
		if err != nil || res.IsError {
			t.Errorf("region %q: %v %+v", v, err, res)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "spaced", Arguments: map[string]any{"r": "x"}})
	if err == nil && !res.IsError || err != nil && strings.Contains(err.Error(), "header") {
		t.Errorf("a call to a dropped tool: %v %+v, want the server's own answer", err, res)
	}
	cs.Close()
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}

	rec.mu.Lock()
	defer rec.mu.Unlock()
	want := []string{"us-west1", "=?base64?Y2Fmw6k=?=", "=?base64?YQ0KWC1JbmplY3RlZDogMQ==?=", "=?base64?bnVsAGJ5dGU=?=",
		"=?base64?IHBhZGRlZCA=?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=", "=?base64?dGFiCWhlcmU=?=", "=?base64??="}
	if len(rec.calls) != len(want)+1 {
		t.Fatalf("%d calls reached the server, want %d", len(rec.calls), len(want)+1)
	}
	for i, w := range want {
		h := rec.calls[i]
		if h.Get("Mcp-Param-Region") != w || h.Get("Mcp-Param-N") != "7" || len(h) != 2 || h.Get("X-Injected") != "" {
			t.Errorf("call %d: headers %q, want Mcp-Param-Region %q and Mcp-Param-N 7 only", i, h, w)
		}
	}
	if h := rec.calls[len(want)]; len(h) != 0 {
		t.Errorf("the call to a dropped tool carried %q", h)
	}
}

// TestParamHeadersEscapedKey: a key spelled with JSON escapes is the same
// key to every decoder (the client's, rule x-mcp-header-valid's), so an
// annotation written "x-mcp-\u0068eader" is mirrored, or makes the tool
// invalid, as the plain spelling does.
func TestParamHeadersEscapedKey(t *testing.T) {
	valid := []byte(`{"type":"object","properties":{"r":{"type":"string","x-mcp-\u0068eader":"Region"}}}`)
	headers, invalid := paramHeaders(valid)
	if invalid != "" || len(headers) != 1 || headers[0].name != "Region" {
		t.Errorf("escaped valid annotation: headers %v, invalid %q; want Region mirrored", headers, invalid)
	}
	bad := []byte(`{"type":"object","properties":{"r":{"type":"string","\u0078-mcp-header":"Cloud Region"}}}`)
	if headers, invalid := paramHeaders(bad); headers != nil || !strings.Contains(invalid, "a space") {
		t.Errorf("escaped invalid annotation: headers %v, invalid %q; want none, and the space named", headers, invalid)
	}
}
