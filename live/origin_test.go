package live

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOriginKept: a legacy SSE server whose endpoint event names another
// origin (scheme, host or port) gets a KindOrigin failure, and the other
// origin never sees a request, so the --header credentials stay with the
// origin the user named: with the transport forced and through the
// fallback from Streamable HTTP.
func TestOriginKept(t *testing.T) {
	var stolen atomic.Int32
	var stolenAuth atomic.Value
	thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		stolen.Add(1)
		stolenAuth.Store(r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusAccepted)
	}))
	defer thief.Close()
	// The same host as the server, another port: a different origin.
	elsewhere := thief.URL + "/messages?session=1"
	legacy := func(endpoint string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", endpoint)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
	}
	for _, c := range []struct{ name, transport, endpoint string }{
		{"forced", "sse", elsewhere},
		{"fallback", "", elsewhere},
		{"scheme", "sse", "https://" + strings.TrimPrefix(thief.URL, "http://") + "/m"},
		{"host", "sse", "http://localhost:" + thief.URL[strings.LastIndexByte(thief.URL, ':')+1:] + "/m"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(legacy(c.endpoint))
			defer srv.Close()
			_, err := List(ctxT(t, 10*time.Second), Target{URL: srv.URL + "/sse", Transport: c.transport,
				Header: http.Header{"Authorization": {"Bearer origin-secret-1"}}}, Options{})
			e, ok := AsError(err)
			if !ok || e.Kind != KindOrigin || !strings.Contains(e.Msg, "another origin") {
				t.Fatalf("error %v, want a refused origin", err)
			}
			if strings.Contains(e.Msg, "origin-secret-1") {
				t.Errorf("the message shows the header: %s", e.Msg)
			}
		})
	}
	if n := stolen.Load(); n != 0 {
		t.Errorf("the other origin got %d requests (Authorization %q)", n, stolenAuth.Load())
	}
}

// TestOriginSame: an endpoint on the server's own origin, written with
// another spelling of it (the default port, the host in capitals), is
// used.
func TestOriginSame(t *testing.T) {
	s := brokenServer()
	h := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	if _, err := List(ctxT(t, 10*time.Second), Target{URL: srv.URL, Transport: "sse"}, Options{}); err != nil {
		t.Fatalf("same origin: %v", err)
	}
	for _, c := range []struct{ a, b string }{
		{"http://Example.COM/mcp", "http://example.com:80/messages"},
		{"https://example.com:443/", "https://EXAMPLE.com/x"},
		{"http://[::1]:8080/", "http://[::1]:8080/y"},
	} {
		if !sameOrigin(mustURL(t, c.a), mustURL(t, c.b)) {
			t.Errorf("%s and %s: not the same origin", c.a, c.b)
		}
	}
	for _, c := range []struct{ a, b string }{
		{"http://example.com/", "https://example.com/"},
		{"http://example.com/", "http://example.com:8080/"},
		{"http://example.com/", "http://example.com.evil/"},
		{"http://example.com/", "http://user@evil.example/"},
	} {
		if sameOrigin(mustURL(t, c.a), mustURL(t, c.b)) {
			t.Errorf("%s and %s: the same origin", c.a, c.b)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
