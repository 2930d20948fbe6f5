//go:build unix

package live

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The timeout of the deadline tests, and how long a run may take past it:
// the grace, and margin enough for a loaded machine. Each of the waits
// that the grace now cuts took five seconds (the SDK's DELETE at the end
// of a session, the clean-up of a server's process), so a run that
// waited for one ends after timeout + 5 s, past the bound.
const (
	stallTimeout = time.Second
	stallBound   = stallTimeout + Grace + 2500*time.Millisecond
)

func timedList(t *testing.T, target Target) (time.Duration, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), stallTimeout)
	defer cancel()
	start := time.Now()
	_, err := List(ctx, target, Options{SkipSecondListing: true})
	return time.Since(start), err
}

// TestDeadlineStdio: a stdio server that stalls at any point of the
// conversation, deaf to SIGTERM and to the end of its input, holds the
// check no longer than the timeout and its grace.
func TestDeadlineStdio(t *testing.T) {
	for _, mode := range []string{"stall-answer", "stall-line", "silent"} {
		t.Run(mode, func(t *testing.T) {
			took, err := timedList(t, self(mode))
			if e, ok := AsError(err); !ok || e.Kind != KindTimeout || e.Limit != LimitTimeout {
				t.Errorf("error %v, want a timeout", err)
			}
			if took > stallBound {
				t.Errorf("the listing took %v, past the timeout (%v) and its grace (%v)", took, stallTimeout, Grace)
			}
		})
	}
	// One that answers everything and then ignores the end of its input is
	// killed in a fraction of the grace.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := List(ctx, self("stall-close"), Options{SkipSecondListing: true}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("stopping a server that ignores the end of its input took %v", took)
	}
}

// TestDeadlineHTTP: a Streamable HTTP server that stalls in the headers
// or the body of an answer, never answers, or stalls the DELETE that ends
// the session, holds the check no longer than the timeout and its grace.
func TestDeadlineHTTP(t *testing.T) {
	for _, mode := range []string{"headers", "body", "never", "delete", "everything"} {
		t.Run(mode, func(t *testing.T) {
			url := stallingServer(t, mode)
			took, err := timedList(t, Target{URL: url, Transport: "http"})
			e, ok := AsError(err)
			if !ok || e.Kind != KindTimeout || e.Limit != LimitTimeout {
				t.Errorf("error %v, want a timeout", err)
			}
			if mode == "delete" && ok && !strings.Contains(e.Msg, "ending its session did not finish before the timeout") {
				t.Errorf("a stalled DELETE: %q", e.Msg)
			}
			if took > stallBound {
				t.Errorf("the listing took %v, past the timeout (%v) and its grace (%v)", took, stallTimeout, Grace)
			}
		})
	}
}

// stallingServer is a Streamable HTTP endpoint written over TCP by hand,
// to stall where net/http never would: in the middle of a response's
// headers. It answers the handshake, then per mode:
//   - headers: tools/list gets half its headers;
//   - body: tools/list gets its headers and half its body;
//   - never: tools/list gets nothing;
//   - delete: the listing is answered, the closing DELETE stalls (the
//     answers come slowly enough that the listing ends near the deadline);
//   - everything: from tools/list on, every request stalls in its
//     headers, the cancellation notice and the DELETE included.
func stallingServer(t *testing.T, mode string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() {
		close(done)
		ln.Close()
	})
	var stalled atomic.Bool
	stall := func(c net.Conn, text string) {
		io.WriteString(c, text)
		<-done
	}
	serve := func(c net.Conn) {
		defer c.Close()
		r := bufio.NewReader(c)
		for {
			req, err := http.ReadRequest(r)
			if err != nil {
				return
			}
			body, _ := io.ReadAll(req.Body)
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal(body, &msg)
			if mode == "everything" && (stalled.Load() || msg.Method == "tools/list") {
				stalled.Store(true)
				stall(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
				return
			}
			switch {
			case req.Method == http.MethodDelete && mode == "delete":
				stall(c, "")
				return
			case req.Method != http.MethodPost:
				io.WriteString(c, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
				continue
			case msg.ID == nil:
				io.WriteString(c, "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
				continue
			}
			result := `{}`
			switch msg.Method {
			case "initialize":
				result = `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"stall","version":"1"}}`
			case "tools/list":
				switch mode {
				case "headers":
					stall(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
					return
				case "body":
					stall(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":")
					return
				case "never":
					stall(c, "")
					return
				}
				result = `{"tools":[{"name":"t","description":"Does t.","inputSchema":{"type":"object"}}]}`
			}
			if mode == "delete" {
				// The listing's requests share the time until the
				// deadline, so that the DELETE comes near it.
				time.Sleep(stallTimeout / 8)
			}
			out := `{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":` + result + `}`
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s1\r\nContent-Length: %d\r\n\r\n%s", len(out), out)
		}
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return "http://" + ln.Addr().String() + "/mcp"
}
