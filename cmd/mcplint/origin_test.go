package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestCheckKeepsCredentialsAtTheirOrigin: a legacy SSE server whose
// endpoint event names another origin makes check fail with status 3,
// and the other origin gets no request, so no --header value.
func TestCheckKeepsCredentialsAtTheirOrigin(t *testing.T) {
	var got atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Add(1)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer other.Close()
	legacy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s/messages\n\n", other.URL)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer legacy.Close()
	r := mcplint(t, runOpts{env: map[string]string{"TOKEN": "origin-token-77"}}, "check", "--timeout=10s",
		"--url", legacy.URL+"/sse", "--header", "Authorization: Bearer $TOKEN")
	r.want(t, 3)
	if !strings.Contains(r.stderr, "another origin") || strings.Contains(r.stdout+r.stderr, "origin-token-77") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if n := got.Load(); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}
