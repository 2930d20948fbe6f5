//go:build unix

package live

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/rules"
)

// TestStdioHostile: servers that misbehave on purpose fail with the cause
// and, for a limit, its name.
func TestStdioHostile(t *testing.T) {
	small := Limits{MessageSize: 1 << 20}
	cases := []struct {
		mode    string
		env     []string
		limits  Limits
		timeout time.Duration
		kind    Kind
		limit   Limit
		msg     string
	}{
		{"longline", []string{"MCPLINT_LIVE_TEST_SIZE=3145728"}, small, 0, KindLimit, LimitMessageSize,
			"the server sent a line on stdout larger than the limit of 1 MiB for one message; it was not read further"},
		{"bigpage", []string{"MCPLINT_LIVE_TEST_SIZE=2097152"}, small, 0, KindLimit, LimitMessageSize, "a line on stdout larger than the limit of 1 MiB"},
		{"manytools", []string{"MCPLINT_LIVE_TEST_SIZE=101"}, Limits{Tools: 100}, 0, KindLimit, LimitTools,
			"tools/list returned more than 100 tools, the limit (101 on 1 page)"},
		{"paged", nil, Limits{ListSize: 220}, 0, KindLimit, LimitListSize, "the tools/list results are larger than the limit of 220 bytes (2 pages so far)"},
		{"endless", nil, Limits{Pages: 50}, 0, KindPagination, LimitPages, "tools/list did not end after 50 pages, the limit"},
		// Not a log line: the SDK's refusal, not a wait for the timeout.
		{"deep", nil, Limits{}, 0, KindProtocol, "", "depth"},
		{"silent", nil, Limits{}, time.Second, KindTimeout, LimitTimeout, "the server did not answer before the timeout"},
		{"echo", nil, Limits{}, 0, KindEcho, "", "request back instead of answering it: it does not speak MCP"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			d := c.timeout
			if d == 0 {
				d = 20 * time.Second
			}
			_, err := List(ctxT(t, d), self(c.mode, c.env...), Options{Limits: c.limits})
			e, ok := AsError(err)
			if !ok {
				t.Fatalf("error %v (%T), want *Error", err, err)
			}
			if e.Kind != c.kind || e.Limit != c.limit || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("got %s (limit %q) %q, want %s (limit %q) containing %q", e.Kind, e.Limit, e.Msg, c.kind, c.limit, c.msg)
			}
		})
	}
}

// TestSecretsRedacted: what the server echoes of its environment or of
// the request reaches no error message, nor the stderr lines shown.
func TestSecretsRedacted(t *testing.T) {
	const secret = "sk-live-0123456789"
	// A refused list is the server's answer, kept as it was sent: the
	// report that prints it masks the secret (cmd/mcplint's tests).
	target := self("leak", "MCPLINT_LIVE_TEST_SECRET="+secret)
	l, err := List(ctxT(t, 20*time.Second), target, Options{})
	if err != nil || len(l.Manifest.Refusals) != 1 {
		t.Fatalf("listing %v, error %v; want the refusal of tools/list", l, err)
	}
	if got := target.Secrets().String(l.Manifest.Refusals[0].Message); got != "invalid key ***" {
		t.Errorf("the refusal, redacted with the target's secrets: %q", got)
	}
	// The server's stderr, shown below the message, is redacted as well
	// (whether its line was read before the failure is up to scheduling).
	r := redactError(Target{Env: []string{"KEY=" + secret}}.Secrets(), &Error{Msg: "m", Stderr: []string{"key " + secret}})
	if e, _ := AsError(r); e == nil || e.Stderr[0] != "key ***" {
		t.Errorf("stderr lines not redacted: %v", r)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Everything it received, in its answer.
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "bad request %s %s", r.URL.RawQuery, r.Header.Get("Authorization"))
	}))
	defer srv.Close()
	_, err = List(ctxT(t, 10*time.Second), Target{URL: srv.URL + "/mcp?api_key=q-secret-42&v=1", Transport: "http",
		Header: http.Header{"Authorization": {"Bearer h-secret-42"}}}, Options{})
	if err == nil || strings.Contains(err.Error(), "secret-42") || !strings.Contains(err.Error(), "api_key=***") {
		t.Errorf("HTTP error shows a secret, or no masked URL: %v", err)
	}
	// The body's reason is quoted, masked like the rest.
	if err == nil || !strings.Contains(err.Error(), `HTTP 400 Bad Request: "bad request api_key=***&v=1 ***"`) {
		t.Errorf("HTTP error without the body's reason: %v", err)
	}
}

// TestHTTPMessageLimit: a body, or an event, over the limit is cut there.
func TestHTTPMessageLimit(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(map[bool]string{false: "json", true: "event"}[sse], func(t *testing.T) {
			srv := httptest.NewServer(hugeAnswer(sse, 3<<20))
			defer srv.Close()
			_, err := List(ctxT(t, 20*time.Second), Target{URL: srv.URL}, Options{Limits: Limits{MessageSize: 1 << 20}})
			e, ok := AsError(err)
			how := map[bool]string{false: "an HTTP response", true: "a server-sent event"}[sse]
			if !ok || e.Kind != KindLimit || e.Limit != LimitMessageSize || !strings.Contains(e.Msg, "the server sent "+how+" larger than the limit of 1 MiB") {
				t.Errorf("error %v, want %s over the limit", err, how)
			}
		})
	}
}

// hugeAnswer is a Streamable HTTP server that answers the handshake and
// then sends a tools/list result of n bytes, as JSON or as an event.
func hugeAnswer(sse bool, n int) http.Handler {
	return testenv.RPCOverHTTP(func(w http.ResponseWriter, req testenv.RPCRequest) {
		var result string
		switch req.Method {
		case "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"huge","version":"1"}}`
		case "tools/list":
			result = `{"tools":[{"name":"t","inputSchema":{"type":"object"},"description":"` + strings.Repeat("x", n) + `"}]}`
		default:
			result = `{}`
		}
		msg := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, msg)
	})
}

// TestSetsidGrandchild: a grandchild that left the process group with its
// own session is stopped with the server.
func TestSetsidGrandchild(t *testing.T) {
	pidfile := listUntil(t, "setsid", 2)
	assertNoProcess(t, pidfile)
}

// listUntil lists the server mode until it has written n pids (itself and
// what it started), then gives up on it as Ctrl-C would.
func listUntil(t *testing.T, mode string, n int) string {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pids")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if len(strings.Fields(readFile(t, pidfile))) >= n {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := List(ctx, self(mode, "MCPLINT_LIVE_TEST_PIDFILE="+pidfile), Options{})
	if e, ok := AsError(err); !ok || e.Kind != KindCanceled {
		t.Fatalf("error %v, want the listing interrupted once %d pids were written", err, n)
	}
	return pidfile
}

// TestOrphanAdopted: a grandchild whose parent exited at once (a daemon)
// is adopted by this process and killed by KillOrphans (Linux).
func TestOrphanAdopted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux has child subreapers")
	}
	if err := AdoptOrphans(); err != nil {
		t.Fatal(err)
	}
	pidfile := listUntil(t, "orphan", 2)
	KillOrphans()
	assertNoProcess(t, pidfile)
}

// TestServerDiesWithItsParent: when the process running the check is
// killed (SIGKILL: no cleanup runs), the kernel kills the server (Linux).
func TestServerDiesWithItsParent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux has a parent-death signal")
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	lister := exec.Command(os.Args[0])
	lister.Env = append(os.Environ(), serverEnv+"=lister", "MCPLINT_LIVE_TEST_INNER_PIDFILE="+pidfile)
	if err := lister.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for readFile(t, pidfile) == "" && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := lister.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = lister.Wait()
	t.Cleanup(func() { // a failed run leaves nothing behind either
		for _, f := range strings.Fields(readFile(t, pidfile)) {
			var pid int
			fmt.Sscan(f, &pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	assertNoProcess(t, pidfile)
}

// TestCheckAllTimeoutBoundsLinting: the timeout bounds the whole check;
// a listing slow to lint fails like a server slow to answer.
func TestCheckAllTimeoutBoundsLinting(t *testing.T) {
	slow := &lint.Rule{ID: "slow", Packs: []string{"mcp"}, Check: func(*lint.Pass) { time.Sleep(300 * time.Millisecond) }}
	servers := []ConfiguredServer{
		{Name: "a", Target: self("manytools", "MCPLINT_LIVE_TEST_SIZE=40")},
		{Name: "b", Target: self("broken")},
		{Name: "c", Err: fmt.Errorf("server %q: environment variable X is not set", "c")},
	}
	var done atomic.Int64
	results := CheckAll(context.Background(), servers, CheckOptions{
		Timeout: 3 * time.Second,
		Linter: func(s ConfiguredServer, l *Listing) (*lint.Linter, error) {
			if s.Name == "a" {
				return lint.New([]*lint.Rule{slow}, lint.Config{Select: []string{"all"}})
			}
			return lint.New(rules.All, lint.Config{Protocol: l.Server.Protocol})
		},
		Done: func() { done.Add(1) },
	})
	if done.Load() != 3 || len(results) != 3 {
		t.Fatalf("%d done, %d results", done.Load(), len(results))
	}
	e, ok := AsError(results[0].Err)
	if !ok || e.Kind != KindTimeout || e.Limit != LimitTimeout || !strings.Contains(e.Msg, "linting its 40 tools did not end before the timeout") {
		t.Errorf("slow linting: %v", results[0].Err)
	}
	if results[1].Err != nil || results[1].Listing == nil || len(results[1].Diagnostics) == 0 || results[1].Listing.Manifest.Path != "b" {
		t.Errorf("the other server: %v", results[1].Err)
	}
	if results[2].Err == nil || results[2].Listing != nil {
		t.Errorf("a server that cannot be reached as written: %+v", results[2])
	}

	// One tool whose rules outlast the timeout: the check ends on time.
	stuck := &lint.Rule{ID: "stuck", Packs: []string{"mcp"}, Check: func(*lint.Pass) { time.Sleep(20 * time.Second) }}
	start := time.Now()
	results = CheckAll(context.Background(), servers[1:2], CheckOptions{
		Timeout: 2 * time.Second,
		Linter: func(ConfiguredServer, *Listing) (*lint.Linter, error) {
			return lint.New([]*lint.Rule{stuck}, lint.Config{Select: []string{"all"}})
		},
	})
	if e, ok := AsError(results[0].Err); !ok || e.Kind != KindTimeout || time.Since(start) > 10*time.Second {
		t.Errorf("a tool linted past the timeout: %v after %v", results[0].Err, time.Since(start))
	}
}
