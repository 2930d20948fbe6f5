package live

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/manifest"
)

// erasServer is a Streamable HTTP server of the 2026-07-28 era that, when
// legacy is set, also answers initialize, with another tool list: what
// clients of 2025-11-25 and older see differs from what modern ones see.
// Without legacy it refuses initialize, naming the versions it speaks.
func erasServer(legacy bool) http.Handler {
	tool := func(name string) map[string]any {
		return map[string]any{"name": name, "description": "Does " + name + ".", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}}
	}
	// search takes an integer (integer-accepts-string, in both eras).
	search := map[string]any{"name": "search", "description": "Searches.", "inputSchema": map[string]any{"type": "object",
		"properties": map[string]any{"limit": map[string]any{"type": "integer"}}}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta map[string]any `json:"_meta"`
			} `json:"params"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		modern := req.Params.Meta["io.modelcontextprotocol/protocolVersion"] != nil
		cache := func(m map[string]any) map[string]any {
			m["resultType"], m["ttlMs"], m["cacheScope"] = "complete", 0, "public"
			return m
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		status := http.StatusOK
		switch {
		case req.Method == "server/discover":
			reply["result"] = cache(map[string]any{"supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{"tools": map[string]any{}},
				"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "eras", "version": "1.0.0"}}})
		case req.Method == "initialize" && legacy:
			reply["result"] = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "eras", "version": "1.0.0"}}
		case req.Method == "initialize":
			// As the conformance suite's modern servers answer it: not
			// found, which is no wrong path.
			status = http.StatusNotFound
			reply["error"] = map[string]any{"code": -32601, "message": "initialize is not supported: this server speaks 2026-07-28 only"}
		case req.Method == "tools/list" && modern:
			reply["result"] = cache(map[string]any{"tools": []any{search, tool("fetch"), tool("summarize")}})
		case req.Method == "tools/list":
			// A name with a space (tool-name-valid), for these clients only.
			reply["result"] = map[string]any{"tools": []any{search, tool("old search")}}
		default:
			status = http.StatusNotFound
			reply["error"] = map[string]any{"code": -32601, "message": "Method not found"}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(reply)
	})
}

func toolNamesOf(l *Listing) []string {
	var out []string
	for _, t := range l.Manifest.Tools {
		out = append(out, t.Name)
	}
	return out
}

// TestErasHTTP: a dual-era server is listed in both eras, each with what
// its clients see; a modern-only one in its era, the refusal said.
func TestErasHTTP(t *testing.T) {
	srv := httptest.NewServer(erasServer(true))
	defer srv.Close()
	l, err := List(ctxT(t, 20*time.Second), Target{URL: srv.URL}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Server.Protocol != "2026-07-28" || l.Server.Handshake != manifest.MethodDiscover || l.Server.Name != "eras" {
		t.Errorf("server %+v", l.Server)
	}
	if l.Legacy == nil {
		t.Fatalf("no initialize era (%q)", l.LegacyRefused)
	}
	if s := l.Legacy.Server; s.Protocol != "2025-11-25" || s.Handshake != manifest.MethodInitialize || s.Transport != "http" {
		t.Errorf("initialize era %+v", s)
	}
	if got := toolNamesOf(l); !slices.Equal(got, []string{"search", "fetch", "summarize"}) {
		t.Errorf("2026-07-28 tools %q", got)
	}
	if got := toolNamesOf(l.Legacy); !slices.Equal(got, []string{"search", "old search"}) {
		t.Errorf("2025-11-25 tools %q", got)
	}
	if len(l.Eras()) != 2 {
		t.Errorf("%d eras", len(l.Eras()))
	}
	// A finding of both eras is one, naming both; one era's names it.
	var got []string
	for _, d := range check(t, l) {
		got = append(got, d.Rule+" "+d.Tool+" "+strings.Join(d.Eras, ","))
	}
	want := []string{"integer-accepts-string search 2026-07-28,2025-11-25", "tool-name-valid old search 2025-11-25"}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n got %q\nwant %q", got, want)
	}

	// --protocol: one era, the one asked for.
	one, err := List(ctxT(t, 20*time.Second), Target{URL: srv.URL}, Options{Protocol: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	if one.Legacy != nil || one.Server.Protocol != "2025-11-25" || !slices.Equal(toolNamesOf(one), []string{"search", "old search"}) {
		t.Errorf("--protocol 2025-11-25: %+v, %q", one.Server, toolNamesOf(one))
	}

	modern := httptest.NewServer(erasServer(false))
	defer modern.Close()
	m, err := List(ctxT(t, 20*time.Second), Target{URL: modern.URL}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Legacy != nil || !strings.Contains(m.LegacyRefused, "HTTP 404") || !strings.Contains(m.LegacyRefused, "speaks 2026-07-28 only") || strings.Contains(m.LegacyRefused, "endpoint path") {
		t.Errorf("modern-only: legacy %v, refused %q", m.Legacy, m.LegacyRefused)
	}
}

// TestErasStdio: both eras of a stdio server are listed, on one process
// when it serves both there, on a second one, as a client of the
// initialize era would start, when it refuses initialize after
// server/discover (the go-sdk server does).
func TestErasStdio(t *testing.T) {
	for _, c := range []struct {
		mode           string
		starts         int
		modern, legacy []string
	}{
		{"dualera", 1, []string{"modern"}, []string{"legacy"}},
		{"broken", 2, []string{"count", "read file", "send"}, []string{"count", "read file", "send"}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			starts := t.TempDir() + "/starts"
			l, err := List(ctxT(t, 20*time.Second), self(c.mode, "MCPLINT_LIVE_TEST_STARTS="+starts), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if l.Legacy == nil {
				t.Fatalf("no initialize era (%q)", l.LegacyRefused)
			}
			if l.Server.Handshake != manifest.MethodDiscover || l.Legacy.Server.Handshake != manifest.MethodInitialize || l.Legacy.Server.Protocol >= "2026-07-28" {
				t.Errorf("eras %+v, %+v", l.Server, l.Legacy.Server)
			}
			if !slices.Equal(toolNamesOf(l), c.modern) || !slices.Equal(toolNamesOf(l.Legacy), c.legacy) {
				t.Errorf("tools %q, then %q", toolNamesOf(l), toolNamesOf(l.Legacy))
			}
			if n := len(strings.Fields(readFile(t, starts))); n != c.starts {
				t.Errorf("started %d processes, want %d", n, c.starts)
			}
		})
	}
}

// TestStatusHint: the credentials hint names --header only when headers
// were sent; without, a 401 says the server wants some.
func TestStatusHint(t *testing.T) {
	for _, c := range []struct {
		status  int
		headers bool
		want    string
	}{
		{403, true, "check the credentials passed with --header"},
		{403, false, ""},
		{401, false, "the server wants credentials"},
		{404, false, "check the endpoint path"},
	} {
		got := statusHint(c.status, c.headers)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("statusHint(%d, %v) = %q, want %q", c.status, c.headers, got, c.want)
		}
	}
	// A 403 with a reason in its body: the reason, and no hint about a
	// header nobody passed.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, "Access is only allowed at localhost:39402\n")
	}))
	defer srv.Close()
	_, err := List(ctxT(t, 10*time.Second), Target{URL: srv.URL, Transport: "http"}, Options{})
	if err == nil || !strings.Contains(err.Error(), `HTTP 403 Forbidden: "Access is only allowed at localhost:39402"`) || strings.Contains(err.Error(), "--header") {
		t.Errorf("error %v", err)
	}
}

// TestServerInfoOfDiscover: a server/discover result that names the
// server in a "serverInfo" of its own, not in "_meta", is named all the
// same.
func TestServerInfoOfDiscover(t *testing.T) {
	name, version := serverInfoOf([]byte(`{"supportedVersions":["2026-07-28"],"capabilities":{},"serverInfo":{"name":"sep-2164-empty-contents","version":"1.0.0"}}`))
	if name != "sep-2164-empty-contents" || version != "1.0.0" {
		t.Errorf("serverInfoOf = %q, %q", name, version)
	}
	if name, _ := serverInfoOf([]byte(`{"serverInfo":{"name":7}}`)); name != "" {
		t.Errorf("a name that is no string: %q", name)
	}
}

// readFile is the contents of path, empty when it does not exist.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}
