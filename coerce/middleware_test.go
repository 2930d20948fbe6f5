package coerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/coerce"
	"github.com/mcpfit/mcplint/internal/decimaltest"
)

type countInput struct {
	Count int `json:"count"`
}

// countSchema is a typed tool's input schema after integer-accepts-string's
// fix: count accepts 5 and "5".
var countSchema = json.RawMessage(`{"type": "object", "required": ["count"], "properties": {"count": {
	"description": "How many", "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": "^[1-9][0-9]*$"}]}}}`)

// server is a go-sdk server with a typed tool "repeat" (count int) and a
// raw one "echo" that returns its arguments as received. got records the
// counts the typed handler saw.
func server(t *testing.T, withMiddleware bool, opts *mcp.ServerOptions, protocol ...string) (*mcp.ClientSession, *[]int) {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "counter", Version: "1"}, opts)
	var got []int
	mcp.AddTool(s, &mcp.Tool{Name: "repeat", Description: "Repeat a word.", InputSchema: countSchema},
		func(_ context.Context, _ *mcp.CallToolRequest, in countInput) (*mcp.CallToolResult, any, error) {
			got = append(got, in.Count)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("a", in.Count)}}}, nil, nil
		})
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echo the arguments.", InputSchema: countSchema},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	for _, name := range []string{"a-first", "b-second", "c-third"} {
		mcp.AddTool(s, &mcp.Tool{Name: name, Description: "Filler."},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return nil, nil, nil
			})
	}
	if withMiddleware {
		s.AddReceivingMiddleware(coerce.Middleware())
	}
	var copts *mcp.ClientSessionOptions
	if len(protocol) > 0 {
		copts = &mcp.ClientSessionOptions{ProtocolVersion: protocol[0]}
	}
	return connect(t, s, copts), &got
}

// connect connects a client to s in memory, for the test's duration.
func connect(t *testing.T, s *mcp.Server, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) (text string, isError bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// TestWithoutMiddleware shows the problem: the schema accepts "5", the
// typed handler's int field does not.
func TestWithoutMiddleware(t *testing.T) {
	cs, got := server(t, false, nil)
	text, isError := call(t, cs, "repeat", map[string]any{"count": "5"})
	if !isError || len(*got) != 0 {
		t.Fatalf("without the middleware, \"5\" gave %q (error %v, handler saw %v); the SDK should refuse to unmarshal it", text, isError, *got)
	}
}

func TestMiddlewareTypedHandler(t *testing.T) {
	for _, protocol := range []string{"2025-03-26", "2025-11-25", "2026-07-28"} {
		t.Run(protocol, func(t *testing.T) { testTypedHandler(t, protocol) })
	}
}

func testTypedHandler(t *testing.T, protocol string) {
	cs, got := server(t, true, nil, protocol)
	if v := cs.InitializeResult().ProtocolVersion; v != protocol {
		t.Fatalf("negotiated %s, want %s", v, protocol)
	}
	if text, isError := call(t, cs, "repeat", map[string]any{"count": "5"}); isError || text != "aaaaa" {
		t.Errorf(`"5": %q (error %v), want "aaaaa"`, text, isError)
	}
	if text, isError := call(t, cs, "repeat", map[string]any{"count": 3}); isError || text != "aaa" {
		t.Errorf(`3: %q (error %v), want "aaa"`, text, isError)
	}
	if fmt.Sprint(*got) != "[5 3]" {
		t.Errorf("the handler saw %v, want [5 3]", *got)
	}
	text, isError := call(t, cs, "repeat", map[string]any{"count": "five"})
	if !isError {
		t.Fatalf(`"five" was accepted: %q`, text)
	}
	const want = `invalid arguments: argument "count" must be an integer or its decimal string (matching ^[1-9][0-9]*$); got "five"`
	if text != want {
		t.Errorf(`"five": %q, want %q`, text, want)
	}
	if len(*got) != 2 {
		t.Errorf("the handler ran for \"five\": saw %v", *got)
	}
}

func TestMiddlewareRawHandler(t *testing.T) {
	cs, _ := server(t, true, nil)
	text, isError := call(t, cs, "echo", map[string]any{"count": "12", "note": "7"})
	if isError || text != `{"count":12,"note":"7"}` {
		t.Errorf("echo: %q (error %v), want the count converted and the rest untouched", text, isError)
	}
}

// TestMiddlewarePages: the called tool is on the last page of a paginated
// tools/list.
func TestMiddlewarePages(t *testing.T) {
	cs, got := server(t, true, &mcp.ServerOptions{PageSize: 1})
	if text, isError := call(t, cs, "repeat", map[string]any{"count": "2"}); isError || text != "aa" {
		t.Errorf(`"2": %q (error %v), want "aa"`, text, isError)
	}
	if fmt.Sprint(*got) != "[2]" {
		t.Errorf("the handler saw %v", *got)
	}
}

func TestMiddlewareUnknownTool(t *testing.T) {
	cs, _ := server(t, true, nil)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{"count": "5"}})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Errorf("unknown tool: %v, want the SDK's own answer", err)
	}
}

// TestMiddlewareDecimals runs the table of decimal strings through the
// middleware of a server: the arguments a handler receives are converted
// exactly where Decimal converts, as they are by Arguments and the proxy.
func TestMiddlewareDecimals(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	for _, numeric := range []string{"integer", "number"} {
		schema := json.RawMessage(`{"type": "object", "properties": {"n": {"anyOf": [{"type": "` + numeric + `"}, {"type": "string", "pattern": "^.*$"}]}}}`)
		s.AddTool(&mcp.Tool{Name: numeric, InputSchema: schema},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
			})
	}
	s.AddReceivingMiddleware(coerce.Middleware())
	cs := connect(t, s, nil)
	for _, c := range decimaltest.Cases {
		tool := "number"
		if c.Integer {
			tool = "integer"
		}
		args, _ := json.Marshal(map[string]string{"n": c.In})
		want := string(args)
		if c.Want != "" {
			want = `{"n":` + c.Want + `}`
		}
		if text, isError := call(t, cs, tool, json.RawMessage(args)); isError || text != want {
			t.Errorf("%s %s: handler got %s (error %v), want %s (%s)", tool, args, text, isError, want, c.Why)
		}
	}
}
