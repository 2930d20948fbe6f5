package proxy

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/live"
)

// running is a proxy run in the test, its client side on pipes.
type running struct {
	t    *testing.T
	in   *io.PipeWriter // the proxy's stdin
	out  *bufio.Reader  // the proxy's stdout
	outR *io.PipeReader
	log  *testenv.Buffer
	done chan error

	once sync.Once
	err  error
}

// wait waits for Run to return, and returns its error.
func (r *running) wait() error {
	r.once.Do(func() {
		select {
		case r.err = <-r.done:
		case <-time.After(10 * time.Second):
			r.err = errors.New("the proxy did not stop")
		}
	})
	return r.err
}

// start runs a proxy with o, over pipes, until the test ends.
func start(t *testing.T, o Options) *running {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &running{t: t, in: inW, out: bufio.NewReader(outR), outR: outR, log: &testenv.Buffer{}, done: make(chan error, 1)}
	o.Stdin, o.Stdout = inR, outW
	if o.Log == nil {
		o.Log = r.log
	}
	if o.Stderr == nil {
		o.Stderr = r.log
	}
	go func() {
		err := Run(context.Background(), o)
		outW.Close()
		r.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		if err := r.wait(); err != nil && err.Error() == "the proxy did not stop" {
			t.Error(err)
		}
	})
	return r
}

func (r *running) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// recv reads the next message the proxy writes, failing after a while.
func (r *running) recv() string {
	r.t.Helper()
	type res struct {
		s   string
		err error
	}
	c := make(chan res, 1)
	go func() {
		s, err := r.out.ReadString('\n')
		c <- res{strings.TrimSuffix(s, "\n"), err}
	}()
	select {
	case x := <-c:
		if x.err != nil {
			r.t.Fatalf("reading the proxy's output: %v", x.err)
		}
		return x.s
	case <-time.After(20 * time.Second):
		r.t.Fatal("no message from the proxy")
	}
	return ""
}

// client connects a go-sdk client to the proxy.
func (r *running) client(ctx context.Context) *mcp.ClientSession {
	r.t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "proxy-test-client", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: r.outR, Writer: r.in}, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	return cs
}

const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestRelayKeepsBytes: what needs no change crosses the proxy as the bytes
// that came, both ways: ids of every form, key order, spacing, number
// spellings, unknown methods and members.
func TestRelayKeepsBytes(t *testing.T) {
	record := filepath.Join(t.TempDir(), "record")
	answer := `{"result" : {"z":1.50, "a":[true,null]} ,"id":ID,"jsonrpc":"2.0","later":{"x":"y"}}`
	r := start(t, Options{Target: self("raw", "MCPLINT_PROXY_TEST_RECORD="+record, "MCPLINT_PROXY_TEST_ANSWER="+answer)})
	sent := []string{
		`{"jsonrpc":"2.0","id":"x-1","method":"unknown/method","params":{"z":1,  "a":[1.0E+2]}}`,
		`{"method":"notifications/whatever","jsonrpc":"2.0","params":{}}`,
		`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`,
		`{ "jsonrpc" : "2.0" , "id" : -7 , "method" : "prompts/get" , "params" : { "name" : "x\u00e9" } }`,
		`{"jsonrpc":"2.0","id":9,"result":{"roots":[]}}`,
	}
	var want []string
	for _, s := range sent {
		r.send(s)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal([]byte(s), &m)
		if m.Method != "" && m.ID != nil {
			raw := s[strings.Index(s, `"id"`):]
			raw = strings.TrimSpace(raw[strings.Index(raw, ":")+1:])
			raw = raw[:strings.IndexAny(raw, ", ")]
			want = append(want, strings.ReplaceAll(answer, "ID", raw))
		}
	}
	for _, w := range want {
		if got := r.recv(); got != w {
			t.Errorf("the client got\n%s\nwant\n%s", got, w)
		}
	}
	r.in.Close()
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != strings.Join(sent, "\n")+"\n" {
		t.Errorf("the server got\n%s\nwant\n%s", got, strings.Join(sent, "\n"))
	}
}

// TestListingAndCalls: through --for openai, a name OpenAI refuses is
// renamed, a call to the new name reaches the server under its own, and a
// decimal string the schema refuses reaches it as a number; the log says
// each once, without argument values.
func TestListingAndCalls(t *testing.T) {
	ctx := context.Background()
	r := start(t, Options{Target: self("sdk"), For: "openai"})
	cs := r.client(ctx)
	defer cs.Close()
	if got := toolNames(t, ctx, cs); got != "count files_read slow stats" {
		t.Errorf("tools %q", got)
	}
	for i := range 2 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "files_read", Arguments: map[string]any{"path": "/etc/motd-secret-value", "limit": "20"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != `{"limit":20,"path":"/etc/motd-secret-value"}` {
			t.Errorf("call %d: the server got %s", i, got)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "count", Arguments: map[string]any{"n": "zero"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != `{"n":"zero"}` {
		t.Errorf("a string that is no number reached the server as %s", got)
	}
	log := r.log.String()
	for _, want := range []string{`tool "files.read": renamed to "files_read"`, `tool "files.read": an argument the input schema refuses as sent was converted: a decimal string sent as an integer (schema /properties/limit/type) (for openai)`} {
		if strings.Count(log, want) != 1 {
			t.Errorf("the log says %d times %q:\n%s", strings.Count(log, want), want, log)
		}
	}
	if strings.Contains(log, "motd-secret-value") || strings.Contains(log, "zero") {
		t.Errorf("the log shows argument values:\n%s", log)
	}
}

// TestLearnsToolsBeforeCall: a call to a renamed tool made before any
// listing (a client that remembers the names) still reaches the tool.
func TestLearnsToolsBeforeCall(t *testing.T) {
	r := start(t, Options{Target: self("sdk"), For: "openai"})
	r.send(initialize)
	r.recv()
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.send(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"files_read","arguments":{"path":"p"}}}`)
	got := r.recv()
	if !strings.Contains(got, `"id":"c"`) || !strings.Contains(got, `{\"path\":\"p\"}`) {
		t.Errorf("the call got %s", got)
	}
}

// TestStructuredContent: a result breaking the outputSchema is logged; for
// a client that fails the whole call on it (the default: most clients are
// built on the TypeScript SDK) it becomes a tool error carrying it as text;
// for VS Code, which does not check, it passes as it came.
func TestStructuredContent(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		for_    string
		changed bool
	}{{"", true}, {"vscode", false}} {
		t.Run("for "+label(c.for_), func(t *testing.T) {
			r := start(t, Options{Target: self("sdk"), For: c.for_})
			cs := r.client(ctx)
			defer cs.Close()
			if _, err := cs.ListTools(ctx, nil); err != nil {
				t.Fatal(err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "stats", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[len(res.Content)-1].(*mcp.TextContent).Text
			if c.changed {
				if !res.IsError || res.StructuredContent != nil || !strings.Contains(text, `does not match this tool's outputSchema (at /properties/count/type), so it is given here as text: {"count":"many"}`) {
					t.Errorf("result %+v, last text %q", res, text)
				}
			} else if res.IsError || res.StructuredContent == nil {
				t.Errorf("result changed: %+v", res)
			}
			good, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "stats", Arguments: map[string]any{"good": true}})
			if err != nil || good.IsError || good.StructuredContent == nil {
				t.Errorf("a good result changed: %+v, %v", good, err)
			}
			if log := r.log.String(); !strings.Contains(log, `tool "stats": a result's structuredContent breaks the tool's outputSchema (at /properties/count/type)`) {
				t.Errorf("log:\n%s", log)
			}
		})
	}
}

// TestRequestsNotSerialised: a slow call holds up no other.
func TestRequestsNotSerialised(t *testing.T) {
	r := start(t, Options{Target: self("sdk")})
	r.send(initialize)
	r.recv()
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.send(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"slow","arguments":{"ms":1500}}}`)
	r.send(`{"jsonrpc":"2.0","id":"fast","method":"tools/call","params":{"name":"slow","arguments":{"ms":0}}}`)
	if first := r.recv(); !strings.Contains(first, `"id":"fast"`) {
		t.Errorf("first answer %s", first)
	}
	if second := r.recv(); !strings.Contains(second, `"id":"slow"`) {
		t.Errorf("second answer %s", second)
	}
}

// TestServerDies: a server that exits fails the request in flight with a
// JSON-RPC error, and the proxy with ErrServer naming its exit and last
// stderr lines.
func TestServerDies(t *testing.T) {
	r := start(t, Options{Target: self("die")})
	r.send(initialize)
	got := r.recv()
	var resp struct {
		ID    int `json:"id"`
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(got), &resp); err != nil || resp.Error.Code != -32000 || !strings.Contains(resp.Error.Message, "exit status 7") {
		t.Errorf("the client got %s", got)
	}
	if err := r.wait(); !errors.Is(err, ErrServer) || !strings.Contains(err.Error(), "fatal: the database is gone") {
		t.Errorf("Run: %v", err)
	}
}

// TestLineLimit: a client message over the limit is refused with an
// error, without being read whole, and the relay goes on.
func TestLineLimit(t *testing.T) {
	r := start(t, Options{Target: self("sdk"), Limits: limitsOf(1024)})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 4096) + `"}}`)
	if got := r.recv(); !strings.Contains(got, `"id":null`) || !strings.Contains(got, "larger than the limit of 1 KiB") {
		t.Errorf("got %s", got)
	}
	r.send(initialize)
	if got := r.recv(); !strings.Contains(got, `"protocolVersion"`) {
		t.Errorf("got %s", got)
	}
}

func limitsOf(messageSize int64) live.Limits {
	return live.Limits{MessageSize: messageSize}
}

// TestStrictNullsDropped: OpenAI's strict mode makes every property
// required, so the model sends null for an argument it leaves out; the
// server, whose own schema takes no null there, gets the argument left out.
func TestStrictNullsDropped(t *testing.T) {
	ctx := context.Background()
	r := start(t, Options{Target: self("sdk"), For: "openai-strict"})
	cs := r.client(ctx)
	defer cs.Close()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range lt.Tools {
		if tool.Name == "files_read" {
			b, _ := json.Marshal(tool.InputSchema)
			if !strings.Contains(string(b), `"required":["path","limit"]`) && !strings.Contains(string(b), `"required":["limit","path"]`) {
				t.Errorf("strict schema %s", b)
			}
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "files_read", Arguments: map[string]any{"path": "a", "limit": nil}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != `{"path":"a"}` {
		t.Errorf("the server got %s", got)
	}
}

// TestListChangedKeepsNames: after notifications/tools/list_changed the
// client lists again, and every tool keeps the name it was given; a new
// tool whose own valid name a rename already took gets another, and each
// name still reaches its own tool.
func TestListChangedKeepsNames(t *testing.T) {
	ctx := context.Background()
	r := start(t, Options{Target: self("growing"), For: "openai"})
	changed := make(chan struct{}, 1)
	c := mcp.NewClient(&mcp.Implementation{Name: "proxy-test-client", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: r.outR, Writer: r.in}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := toolNames(t, ctx, cs); got != "count files_read grow slow stats" {
		t.Fatalf("tools %q", got)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grow", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed came through")
	}
	if got := toolNames(t, ctx, cs); got != "count files_read files_read_2 grow new_tool slow stats" {
		t.Errorf("tools after the change %q", got)
	}
	for name, want := range map[string]string{"files_read_2": "I am files_read", "new_tool": "I am new.tool", "files_read": `{"path":"x"}`} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"path": "x"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != want {
			t.Errorf("%s reached %q, want %q", name, got, want)
		}
	}
}

// TestServerLineLimit: a server line over the message size limit is not
// read further; the request in flight fails, and so does the proxy,
// naming the limit.
func TestServerLineLimit(t *testing.T) {
	record := filepath.Join(t.TempDir(), "record")
	answer := `{"jsonrpc":"2.0","id":ID,"result":{"pad":"` + strings.Repeat("x", 8192) + `"}}`
	r := start(t, Options{Target: self("raw", "MCPLINT_PROXY_TEST_RECORD="+record, "MCPLINT_PROXY_TEST_ANSWER="+answer), Limits: limitsOf(4096)})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if got := r.recv(); !strings.Contains(got, `"id":1`) || !strings.Contains(got, "larger than the limit of 4 KiB") {
		t.Errorf("the client got %s", got)
	}
	if err := r.wait(); !errors.Is(err, ErrServer) || !strings.Contains(err.Error(), "larger than the limit") {
		t.Errorf("Run: %v", err)
	}
}

// TestListLimits: a listing with more tools than the limit is passed on
// as the server sent it, and the log says why.
func TestListLimits(t *testing.T) {
	ctx := context.Background()
	r := start(t, Options{Target: self("sdk"), For: "openai", Limits: live.Limits{Tools: 2}})
	cs := r.client(ctx)
	defer cs.Close()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if lt.Tools[1].Name != "files.read" {
		t.Errorf("tools %v", lt.Tools)
	}
	if log := r.log.String(); !strings.Contains(log, "more than 2 tools, the limit: it was passed on unrepaired") {
		t.Errorf("log:\n%s", log)
	}
}

// TestStdoutNoise: a server that logs on stdout works through the proxy,
// which drops the lines a client would choke on and says so once.
func TestStdoutNoise(t *testing.T) {
	ctx := context.Background()
	r := start(t, Options{Target: self("noisy")})
	cs := r.client(ctx)
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	r.in.Close()
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}
	if log := r.log.String(); strings.Count(log, "not JSON-RPC on stdout (1 so far)") != 1 || strings.Contains(log, "Server starting") {
		t.Errorf("log:\n%s", log)
	}
}

// TestCallBeforeEOF: a client that writes a call and closes its input at
// once (a script piping requests in) gets the answer, as it would from
// the server directly, even when the call names a renamed tool the proxy
// must first learn by listing the tools.
func TestCallBeforeEOF(t *testing.T) {
	record := filepath.Join(t.TempDir(), "record")
	answer := `{"jsonrpc":"2.0","id":ID,"result":{"tools":[{"name":"files.read","inputSchema":{"type":"object"}}]}}`
	r := start(t, Options{Target: self("raw", "MCPLINT_PROXY_TEST_RECORD="+record, "MCPLINT_PROXY_TEST_ANSWER="+answer), For: "openai"})
	r.send(initialize)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	r.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"files_read","arguments":{}}}`)
	r.in.Close()
	var got []string
	for {
		line, err := r.out.ReadString('\n')
		if line != "" {
			got = append(got, line)
		}
		if err != nil {
			break
		}
	}
	if err := r.wait(); err != nil {
		t.Fatal(err)
	}
	answered := false
	for _, line := range got {
		if strings.Contains(line, `"id":5`) {
			answered = strings.Contains(line, `"result"`) && !strings.Contains(line, `"error"`)
		}
	}
	if !answered {
		t.Errorf("the call was not answered with a result; the client got:\n%s", strings.Join(got, ""))
	}
	sent, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sent), `"name":"files.read"`) {
		t.Errorf("the server never got the call under its own name:\n%s", sent)
	}
}
