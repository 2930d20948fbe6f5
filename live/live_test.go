package live

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/rules"
)

// wantBroken are the findings on brokenServer's tools, whatever the
// transport: the x-mcp-header one proves the tool the SDK's client would
// have dropped was linted.
var wantBroken = []string{
	"description-present count",
	"integer-accepts-string count",
	"tool-name-valid read file",
	"x-mcp-header-valid send",
}

func check(t *testing.T, l *Listing) []lint.Diagnostic {
	t.Helper()
	// No version fixed: each era is checked against its own versions.
	linter, err := lint.New(rules.All, lint.Config{})
	if err != nil {
		t.Fatal(err)
	}
	diags, err := Check(linter, l)
	if err != nil {
		t.Fatal(err)
	}
	return diags
}

func findings(diags []lint.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Rule+" "+d.Tool)
	}
	slices.Sort(out)
	return out
}

func assertBroken(t *testing.T, l *Listing, transport string) {
	t.Helper()
	if l.Server.Name != "broken-test-server" || l.Server.Version != "0.1.0" || l.Server.Transport != transport {
		t.Errorf("server = %+v", l.Server)
	}
	if l.Server.Protocol != "2026-07-28" {
		t.Errorf("protocol = %q, want 2026-07-28", l.Server.Protocol)
	}
	if got := strings.Join(l.Order, ","); got != "count,read file,send" {
		t.Errorf("tools = %s", got)
	}
	if got := findings(check(t, l)); !slices.Equal(got, wantBroken) {
		t.Errorf("findings:\n got %q\nwant %q", got, wantBroken)
	}
}

func ctxT(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestInMemory(t *testing.T) {
	ctx := ctxT(t, 10*time.Second)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := brokenServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	l, err := ListTransport(ctx, ct, Options{Name: "mem"})
	if err != nil {
		t.Fatal(err)
	}
	assertBroken(t, l, "*mcp.InMemoryTransport")
}

// self runs this test binary as the server mode.
func self(mode string, extraEnv ...string) Target {
	return Target{Command: []string{os.Args[0]}, Env: append([]string{serverEnv + "=" + mode}, extraEnv...)}
}

func TestStdio(t *testing.T) {
	l, err := List(ctxT(t, 20*time.Second), self("broken"), Options{Name: "stdio"})
	if err != nil {
		t.Fatal(err)
	}
	assertBroken(t, l, "stdio")
}

func TestStreamableHTTP(t *testing.T) {
	s := brokenServer()
	var auth []string
	// A stateless handler serves the 2026-07-28 era (server/discover).
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	l, err := List(ctxT(t, 20*time.Second), Target{URL: srv.URL, Header: http.Header{"Authorization": {"Bearer s3cret"}}}, Options{Name: "http"})
	if err != nil {
		t.Fatal(err)
	}
	assertBroken(t, l, "http")
	if len(auth) == 0 || auth[0] != "Bearer s3cret" {
		t.Errorf("Authorization header sent: %q", auth)
	}
}

func TestSSEFallback(t *testing.T) {
	s := brokenServer()
	srv := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	l, err := List(ctxT(t, 20*time.Second), Target{URL: srv.URL}, Options{Name: "sse"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Server.Transport != "sse" || len(l.Order) != 3 {
		t.Errorf("server %+v, tools %q", l.Server, l.Order)
	}
}

// TestLiveRules covers the rules only a live server can break.
func TestLiveRules(t *testing.T) {
	l, err := List(ctxT(t, 20*time.Second), self("paged"), Options{Name: "paged"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(l.Order, ","); got != "alpha,beta,gamma" {
		t.Fatalf("tools over two pages = %s", got)
	}
	got := findings(check(t, l))
	want := []string{"list-order-stable alpha"}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}

	l, err = List(ctxT(t, 20*time.Second), self("noisy"), Options{Name: "noisy"})
	if err != nil {
		t.Fatal(err)
	}
	diags := check(t, l)
	if got := findings(diags); !slices.Equal(got, []string{"stdio-stdout-clean "}) {
		t.Errorf("findings %q", got)
	}
	if !strings.Contains(diags[0].Message, `"noisy server 1.0 starting"`) {
		t.Errorf("message %q", diags[0].Message)
	}

	// The same bytes read as protocol 2026-07-28 lack the cacheable
	// result's members.
	linter, _ := lint.New(rules.All, lint.Config{Protocol: "2026-07-28"})
	diags, err = Check(linter, l)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, d := range diags {
		if d.Rule == RuleListResultValid {
			msgs = append(msgs, d.Pointer+" "+d.Message[:strings.Index(d.Message, ";")])
		}
	}
	wantMsgs := []string{
		`/result the result has no "cacheScope"`,
		`/result the result has no "resultType"`,
		`/result the result has no "ttlMs"`,
	}
	if !slices.Equal(msgs, wantMsgs) {
		t.Errorf("list-result-valid:\n got %q\nwant %q", msgs, wantMsgs)
	}
}

func TestResultProblems(t *testing.T) {
	src := []byte(`{"tools":[1],"nextCursor":5,"resultType":"partial","ttlMs":-1,"cacheScope":"everyone"}`)
	var got []string
	for _, p := range resultProblems(src, 0, "2026-07-28") {
		got = append(got, p.ptr)
	}
	want := []string{"/nextCursor", "/tools/0", "/resultType", "/ttlMs", "/cacheScope"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if off, ok := memberSpan(src, "/ttlMs"); !ok || !strings.HasPrefix(string(src[off:]), "-1,") {
		t.Errorf("memberSpan(/ttlMs) = %d %v", off, ok)
	}
	if p := resultProblems([]byte(`{"tools":[]}`), 0, "2025-11-25"); len(p) != 0 {
		t.Errorf("2025-11-25: %v", p)
	}
}

// faultCase runs a stdio fault server and checks the failure: its kind, its
// message, and that no process it started is left.
func TestStdioFaults(t *testing.T) {
	cases := []struct {
		mode    string
		kind    Kind
		msg     string
		stderr  string
		timeout time.Duration
	}{
		{"crash", KindExit, "the server exited during the conversation (exit status 1)", "fatal: missing API_KEY", 0},
		{"hang", KindTimeout, "the server did not answer before the timeout", "", time.Second},
		{"grandchild", KindTimeout, "timeout", "", time.Second},
		{"garbage", KindStdout, `wrote text that is not JSON-RPC on stdout (2 lines, first: "Starting server on stdio...")`, "", time.Second},
		{"endless", KindPagination, "tools/list did not end after 1000 pages", "", 0},
		{"repeat", KindPagination, `tools/list returned the cursor "same" a second time (page 2)`, "", 0},
		{"notlist", KindResult, "the tools/list result is not a tool list (rule list-result-valid)", "", 0},
		{"future", KindProtocol, `the server answered initialize with protocol version "2099-01-01", which is none of those this client speaks`, "", 0},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t.Parallel()
			pidfile := filepath.Join(t.TempDir(), "pids")
			d := c.timeout
			if d == 0 {
				d = 20 * time.Second
			}
			_, err := List(ctxT(t, d), self(c.mode, "MCPLINT_LIVE_TEST_PIDFILE="+pidfile), Options{})
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if e.Kind != c.kind || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("got %s %q, want %s containing %q", e.Kind, e.Msg, c.kind, c.msg)
			}
			if c.stderr != "" && !slices.Contains(e.Stderr, c.stderr) {
				t.Errorf("stderr tail %q lacks %q", e.Stderr, c.stderr)
			}
			if strings.Contains(e.Msg, "\n") {
				t.Errorf("message is not one line: %q", e.Msg)
			}
			assertNoProcess(t, pidfile)
		})
	}
}

func assertNoProcess(t *testing.T, pidfile string) {
	t.Helper()
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("the server did not write its pid: %v", err)
	}
	for _, f := range strings.Fields(string(b)) {
		pid, _ := strconv.Atoi(f)
		// A killed child may take a moment to be reaped by its parent
		// (init for a grandchild).
		deadline := time.Now().Add(3 * time.Second)
		for alive(pid) && !zombie(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) && !zombie(pid) {
			t.Errorf("process %d is still running", pid)
		}
	}
}

// zombie reports whether pid has exited but not been reaped yet.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func TestStartFailures(t *testing.T) {
	_, err := List(context.Background(), Target{Command: []string{"mcplint-no-such-command"}}, Options{})
	if e, ok := AsError(err); !ok || e.Kind != KindStart || e.Msg != `cannot start "mcplint-no-such-command": command not found` {
		t.Errorf("missing command: %v", err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "server.sh")
	if err := os.WriteFile(file, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = List(context.Background(), Target{Command: []string{file}}, Options{})
	if e, ok := AsError(err); !ok || e.Kind != KindStart || !strings.Contains(e.Msg, "not executable") {
		t.Errorf("not executable: %v", err)
	}
}

func TestHTTPFaults(t *testing.T) {
	status := func(code int) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(code) })
	}
	redirect := http.RedirectHandler("/elsewhere", http.StatusFound)
	// A port just closed may be taken again by a server of another test
	// before it is dialled: the refused case takes a fresh one each try.
	closedURL := func() string {
		closed := httptest.NewServer(status(200))
		defer closed.Close()
		return closed.URL
	}
	tlsSrv := httptest.NewUnstartedServer(status(200))
	// The refused handshake is the point; keep it out of the test log.
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	cases := []struct {
		name    string
		handler http.Handler
		url     string
		kind    Kind
		msg     string
	}{
		{"401", status(401), "", KindHTTP, "answered POST with HTTP 401 Unauthorized; check the credentials passed with --header"},
		{"403", status(403), "", KindHTTP, "answered POST with HTTP 403 Forbidden"},
		{"404", status(404), "", KindHTTP, "answered POST with HTTP 404 Not Found"},
		{"500", status(500), "", KindHTTP, "answered POST with HTTP 500 Internal Server Error"},
		{"502", status(502), "", KindHTTP, "answered POST with HTTP 502 Bad Gateway"},
		{"redirect", redirect, "", KindRedirect, "redirected (HTTP 302) to http://127.0.0.1"},
		{"refused", nil, "closed", KindConnect, "connection refused by "},
		{"tls", nil, tlsSrv.URL, KindTLS, "TLS failure talking to " + tlsSrv.URL},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, msg := c.url, c.msg
			if c.handler != nil {
				srv := httptest.NewServer(c.handler)
				defer srv.Close()
				u = srv.URL + "/mcp"
			}
			var e *Error
			for try := 0; ; try++ {
				if c.url == "closed" {
					u = closedURL()
					msg = c.msg + u
				}
				_, err := List(ctxT(t, 10*time.Second), Target{URL: u, Header: http.Header{"Authorization": {"Bearer s3cret"}}}, Options{})
				var ok bool
				if e, ok = AsError(err); !ok {
					t.Fatalf("error %v (%T), want *Error", err, err)
				}
				if c.url != "closed" || e.Kind == KindConnect || try == 4 {
					break
				}
			}
			if e.Kind != c.kind || !strings.Contains(e.Msg, msg) {
				t.Errorf("got %s %q, want %s containing %q", e.Kind, e.Msg, c.kind, msg)
			}
			if strings.Contains(e.Msg, "s3cret") {
				t.Errorf("the message shows a header value: %q", e.Msg)
			}
		})
	}
}

// TestCancel: cancelling the context (what Ctrl-C does in the CLI) stops
// the server and what it started.
func TestCancel(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			if b, _ := os.ReadFile(pidfile); len(strings.Fields(string(b))) == 2 {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := List(ctx, self("grandchild", "MCPLINT_LIVE_TEST_PIDFILE="+pidfile), Options{})
	if e, ok := AsError(err); !ok || e.Kind != KindCanceled || e.Msg != "interrupted" {
		t.Errorf("error %v, want interrupted", err)
	}
	assertNoProcess(t, pidfile)
}

func TestForcedTransports(t *testing.T) {
	s := brokenServer()
	sse := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer sse.Close()
	l, err := List(ctxT(t, 10*time.Second), Target{URL: sse.URL, Transport: "sse"}, Options{})
	if err != nil || l.Server.Transport != "sse" {
		t.Errorf("--transport sse: %v", err)
	}
	// Forced to Streamable HTTP, an SSE-only server is not tried over SSE.
	_, err = List(ctxT(t, 10*time.Second), Target{URL: sse.URL, Transport: "http"}, Options{})
	if e, ok := AsError(err); !ok || e.Kind != KindHTTP {
		t.Errorf("--transport http on an SSE server: %v", err)
	}
}
