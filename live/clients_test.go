package live

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpfit/mcplint/internal/testenv"
	"github.com/mcpfit/mcplint/lint"
)

// clientCase is a server that a real client meets, and what mcplint check
// must make of it.
type clientCase struct {
	name   string
	server func() *scripted
	// tools are the tools listed (of the initialize era, for a dual-era
	// server); errHas, when set, is part of the one error expected
	// instead.
	tools  []string
	errHas string
	// protocol is the version negotiated; legacy, when set, the version of
	// the initialize era listed besides.
	protocol, legacy string
	// asked are methods that must have been sent, never those that must
	// not.
	asked, never []string
	// rules are findings expected (rule IDs, sorted), when given.
	rules []string
	// replied is part of the client's answer to the server's request.
	replied string
	// tsDiffers says why the TypeScript SDK's client does otherwise, when
	// it does.
	tsDiffers string
}

// page is one tools/list page of the named tools, with its cursor ("" for
// the last).
func page(cursor string, names ...string) [2]string {
	var tools []string
	for _, n := range names {
		tools = append(tools, fmt.Sprintf(`{"name":%q,"description":"Does %s.","inputSchema":{"type":"object","properties":{}}}`, n, n))
	}
	next := ""
	if cursor != "" {
		next = fmt.Sprintf("%q", cursor)
	}
	return [2]string{"[" + strings.Join(tools, ",") + "]", next}
}

var onePage = map[string][2]string{"": page("", "a")}

var lists = []string{"prompts/list", "resources/list", "resources/templates/list"}

// clientCases are the servers of every protocol era, capabilities,
// pagination, transport and interruption that a client meets. Each says
// what the specification or the TypeScript SDK's client does, and
// TestLikeTheTypeScriptClient holds mcplint to the SDK where it is
// installed.
var clientCases = []clientCase{
	// Each era: the version the server answers is the one used (MCP
	// basic/lifecycle, "Version Negotiation": the server answers the
	// version asked for or another it supports, and a client that speaks
	// it goes on).
	{name: "era 2024-11-05", server: func() *scripted {
		return &scripted{version: "2024-11-05", capabilities: `{"tools":{}}`, pages: onePage}
	},
		tools: []string{"a"}, protocol: "2024-11-05"},
	{name: "era 2025-03-26", server: func() *scripted {
		return &scripted{version: "2025-03-26", capabilities: `{"tools":{}}`, pages: onePage}
	},
		tools: []string{"a"}, protocol: "2025-03-26"},
	{name: "era 2025-06-18", server: func() *scripted {
		return &scripted{version: "2025-06-18", capabilities: `{"tools":{}}`, pages: onePage}
	},
		tools: []string{"a"}, protocol: "2025-06-18"},
	{name: "era 2025-11-25", server: func() *scripted { return &scripted{capabilities: `{"tools":{}}`, pages: onePage} },
		tools: []string{"a"}, protocol: "2025-11-25"},
	{name: "era 2026-07-28", server: func() *scripted { return &scripted{discover: true, capabilities: `{"tools":{}}`, pages: onePage} },
		tools: []string{"a"}, protocol: "2026-07-28", legacy: "2025-11-25", asked: []string{"server/discover", "initialize"}},
	// A version the server prefers to the one asked for: the TypeScript
	// SDK takes any it supports.
	{name: "version not asked for", server: func() *scripted {
		return &scripted{version: "2025-03-26", capabilities: `{"tools":{}}`, pages: onePage}
	},
		tools: []string{"a"}, protocol: "2025-03-26"},
	// One the client does not speak: the SDK throws "Server's protocol
	// version is not supported"; the specification says the client
	// SHOULD disconnect.
	{name: "future version", server: func() *scripted {
		return &scripted{version: "2099-01-01", capabilities: `{"tools":{}}`, pages: onePage}
	},
		errHas: `the server answered initialize with protocol version "2099-01-01", which is none of those this client speaks`, never: []string{"tools/list"}},
	{name: "malformed version", server: func() *scripted { return &scripted{version: "latest", capabilities: `{"tools":{}}`, pages: onePage} },
		errHas: `protocol version "latest"`, never: []string{"tools/list"}},
	{name: "version not a string", server: func() *scripted {
		return &scripted{versionJSON: "20250618", capabilities: `{"tools":{}}`, pages: onePage}
	},
		errHas: "the server's handshake result is invalid: protocolVersion is a number where the MCP schema has a string", never: []string{"tools/list"}},

	// Capabilities: a client asks only for the lists the server declares
	// (basic/lifecycle, "Operation"; the SDK's client since
	// typescript-sdk#1386).
	{name: "tools only", server: func() *scripted { return &scripted{capabilities: `{"tools":{}}`, pages: onePage} },
		tools: []string{"a"}, asked: []string{"tools/list"}, never: lists},
	{name: "listChanged true", server: func() *scripted { return &scripted{capabilities: `{"tools":{"listChanged":true}}`, pages: onePage} },
		tools: []string{"a"}, never: lists},
	{name: "listChanged false", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{"listChanged":false},"prompts":{"listChanged":false}}`, pages: onePage}
	},
		tools: []string{"a"}, asked: []string{"prompts/list"}, never: lists[1:]},
	// A declared list refused: the SDK's client throws; mcplint reports
	// it in the server's words.
	{name: "declared list refused", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{},"resources":{}}`, pages: onePage, refuse: true}
	}, tools: []string{"a"}, asked: lists[1:], rules: []string{"capabilities-match", "capabilities-match"}},
	// The SDK's zod schema takes a boolean only: it refuses the result.
	{name: "listChanged not a boolean", server: func() *scripted { return &scripted{capabilities: `{"tools":{"listChanged":"yes"}}`, pages: onePage} },
		errHas: "the server's handshake result is invalid: capabilities.tools.listChanged is a string", never: []string{"tools/list"}},
	// An empty object declares the capability; null does not, and the
	// SDK's schema refuses it: a finding, not a request.
	{name: "null capability", server: func() *scripted { return &scripted{capabilities: `{"tools":{},"prompts":null}`, pages: onePage} },
		tools: []string{"a"}, never: lists, rules: []string{"surface-result-valid"}},
	{name: "declares nothing", server: func() *scripted { return &scripted{capabilities: `{}`, pages: onePage} },
		never: append([]string{"tools/list"}, lists...)},
	{name: "unknown capabilities", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{},"x-acme":{"fast":true},"experimental":{"a":{}},"logging":{},"completions":{}}`, pages: onePage}
	}, tools: []string{"a"}, never: lists},

	// Pagination: nextCursor to the last page; a cursor that comes back
	// is a loop, reported once; an empty page with a cursor goes on.
	{name: "many pages", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: map[string][2]string{"": page("c1", "a", "b"), "c1": page("c2", "c"), "c2": page("c3", "d"), "c3": page("", "e")}}
	}, tools: []string{"a", "b", "c", "d", "e"}},
	{name: "cursor repeats", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: map[string][2]string{"": page("c1", "a"), "c1": page("c1", "b")}}
	}, errHas: `tools/list returned the cursor "c1" a second time (page 2): the server's pagination loops`},
	// Every list pages so, prompts as tools.
	{name: "prompts cursor repeats", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{},"prompts":{}}`, pages: onePage,
			promptPages: map[string][2]string{"": {`[{"name":"p"}]`, `"x"`}, "x": {`[{"name":"q"}]`, `"x"`}}}
	}, errHas: `prompts/list returned the cursor "x" a second time (page 2): the server's pagination loops`},
	{name: "empty page with a cursor", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: map[string][2]string{"": page("c1"), "c1": page("", "a")}}
	}, tools: []string{"a"}},

	// Streamable HTTP.
	{name: "answers as SSE", server: func() *scripted { return &scripted{capabilities: `{"tools":{}}`, pages: onePage, sse: true} },
		tools: []string{"a"}},
	// An event stream the server keeps open after the answer: the answer
	// is what the client waits for, not the stream's end.
	{name: "SSE kept open", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: onePage, sse: true, holdOpen: true}
	},
		tools: []string{"a"}},
	// One that ends before the answer: a failure of the conversation,
	// said once, not a hang (the client does not resume: no event id).
	{name: "SSE cut before the answer", server: func() *scripted { return &scripted{capabilities: `{"tools":{}}`, pages: onePage, sse: true, cut: true} },
		errHas: "tools/list: the server ended the event stream of its answer without the response"},
	// basic/transports: a notification is answered 202 Accepted; some
	// servers answer 200 with no body, which the SDK's client takes.
	{name: "notification answered 200", server: func() *scripted { return &scripted{capabilities: `{"tools":{}}`, pages: onePage, notifyJSON: true} },
		tools: []string{"a"}},
	{name: "session id", server: func() *scripted { return &scripted{capabilities: `{"tools":{}}`, pages: onePage, session: "s"} },
		tools: []string{"a"}},
	// basic/transports, "Session Management": on a 404 to a request with
	// the session's id, the client MUST start a new session.
	{name: "session expires once", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: onePage, session: "s", expire: 1, expireAfter: 1}
	}, tools: []string{"a"}, asked: []string{"initialize", "initialize"},
		tsDiffers: "the SDK's StreamableHTTPClientTransport throws on the 404 instead of starting the new session the specification demands"},
	{name: "session expires always", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: onePage, session: "s", expire: 9, expireAfter: 1}
	}, errHas: `answered POST with HTTP 404 Not Found: "Session not found"; it answers so to a request with its Mcp-Session-Id when it has ended the session`},
	// basic/transports, "Protocol Version Header" (2025-06-18): the client
	// MUST send MCP-Protocol-Version on every request after initialize.
	{name: "requires MCP-Protocol-Version", server: func() *scripted {
		return &scripted{version: "2025-06-18", capabilities: `{"tools":{}}`, pages: onePage, needVersion: true}
	}, tools: []string{"a"}, protocol: "2025-06-18"},

	// Both eras of a server that requires the header: the modern one
	// names its version in every request, the initialize one after the
	// handshake.
	{name: "requires MCP-Protocol-Version, both eras", server: func() *scripted {
		return &scripted{discover: true, capabilities: `{"tools":{}}`, pages: onePage, needVersion: true}
	}, tools: []string{"a"}, protocol: "2026-07-28", legacy: "2025-11-25"},

	// What a server sends in the middle of a list, on the request's
	// stream, waiting for the answer before it answers the list: requests
	// to the client are answered (ping with a result, what the client did
	// not declare with an error), notifications are taken in, and the
	// list goes on.
	{name: "ping mid-list", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: onePage, sse: true, during: []string{`{"jsonrpc":"2.0","id":"s1","method":"ping"}`}}
	},
		tools: []string{"a"}, replied: `"id":"s1","result":{}`},
	{name: "roots/list mid-list", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: onePage, sse: true, during: []string{`{"jsonrpc":"2.0","id":"s1","method":"roots/list"}`}}
	}, tools: []string{"a"}, replied: `"id":"s1"`},
	{name: "sampling mid-list", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: onePage, sse: true,
			during: []string{`{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"hi"}}],"maxTokens":5}}`}}
	}, tools: []string{"a"}, replied: `"id":"s1","error":`},
	{name: "elicitation mid-list", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{}}`, pages: onePage, sse: true,
			during: []string{`{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"message":"Your name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}}}`}}
	}, tools: []string{"a"}, replied: `"id":"s1","error":`},
	{name: "notifications mid-list", server: func() *scripted {
		return &scripted{capabilities: `{"tools":{"listChanged":true},"logging":{}}`, pages: onePage, sse: true, during: []string{
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"total":2}}`,
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"listing"}}`,
			`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		}}
	}, tools: []string{"a"}},
}

// TestClientCases holds mcplint check to what each case must give: the
// tools, the protocol, the methods asked and not asked, or one clear error,
// in a bounded time.
func TestClientCases(t *testing.T) {
	for _, c := range clientCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := c.server()
			srv := httptest.NewServer(s)
			defer srv.Close()
			l, err := List(ctxT(t, 10*time.Second), Target{URL: srv.URL, Transport: "http"}, Options{})
			asked := s.asked()
			for _, m := range c.never {
				if slices.Contains(asked, m) {
					t.Errorf("asked for %s (asked %q)", m, asked)
				}
			}
			for _, m := range c.asked {
				if !slices.Contains(asked, m) {
					t.Errorf("did not ask for %s (asked %q)", m, asked)
				}
			}
			if c.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errHas) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line containing %q", err, c.errHas)
				}
				if strings.Contains(err.Error(), "endpoint path") {
					t.Errorf("a wrong path is suspected: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			era := l
			if c.legacy != "" {
				if l.Legacy == nil || l.Legacy.Server.Protocol != c.legacy {
					t.Fatalf("no initialize era %s (%q)", c.legacy, l.LegacyRefused)
				}
				era = l.Legacy
			}
			if got := toolNamesOf(era); !slices.Equal(got, c.tools) {
				t.Errorf("tools %q, want %q", got, c.tools)
			}
			if c.protocol != "" && l.Server.Protocol != c.protocol {
				t.Errorf("protocol %s, want %s", l.Server.Protocol, c.protocol)
			}
			if c.rules != nil {
				var got []string
				for _, d := range check(t, l) {
					got = append(got, d.Rule)
				}
				if !slices.Equal(got, c.rules) {
					t.Errorf("findings %q, want %q", got, c.rules)
				}
			}
			if c.replied != "" {
				// The answer may reach the server after the list's end.
				deadline := time.Now().Add(2 * time.Second)
				for !s.replied(c.replied) && time.Now().Before(deadline) {
					time.Sleep(10 * time.Millisecond)
				}
				if !s.replied(c.replied) {
					t.Errorf("the server's request was not answered with %s (answers %q)", c.replied, s.replies)
				}
			}
			if s.needVersion {
				for _, h := range s.headers {
					if h != c.protocol && h != c.legacy {
						t.Errorf("MCP-Protocol-Version %q after initialize, want %s", h, c.protocol)
					}
				}
			}
		})
	}
}

// tsListing is what the TypeScript SDK's client made of a server
// (testdata/oracles/http-list.mjs).
type tsListing struct {
	OK       bool     `json:"ok"`
	Protocol string   `json:"protocol"`
	Tools    []string `json:"tools"`
	Error    string   `json:"error"`
}

// TestLikeTheTypeScriptClient runs the official TypeScript SDK's client
// against each case's server (one node process for all of them) and holds
// mcplint to its verdict: where the SDK lists the server, mcplint lists the
// same tools of the same (initialize) era, without an error finding on the
// handshake or a declared list; where the SDK gives up, mcplint fails too,
// or reports what the SDK refused as an error.
func TestLikeTheTypeScriptClient(t *testing.T) {
	dir := testenv.Oracles(t)
	var cases []clientCase
	var urls []string
	for _, c := range clientCases {
		if c.tsDiffers != "" {
			continue
		}
		srv := httptest.NewServer(c.server())
		defer srv.Close()
		cases = append(cases, c)
		urls = append(urls, srv.URL)
	}
	out, err := exec.Command("node", append([]string{filepath.Join(dir, "http-list.mjs")}, urls...)...).Output()
	if err != nil {
		t.Fatalf("http-list.mjs: %v", err)
	}
	var answers []tsListing
	if err := json.Unmarshal(out, &answers); err != nil || len(answers) != len(cases) {
		t.Fatalf("http-list.mjs: %d answers for %d servers (%v): %s", len(answers), len(cases), err, out)
	}
	for i, c := range cases {
		ts := answers[i]
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ours := httptest.NewServer(c.server())
			defer ours.Close()
			l, err := List(ctxT(t, 10*time.Second), Target{URL: ours.URL, Transport: "http"}, Options{})
			refused := err != nil
			if err == nil {
				era := l
				if l.Legacy != nil {
					era = l.Legacy
				}
				for _, d := range check(t, era) {
					if (d.Rule == "surface-result-valid" || d.Rule == "capabilities-match") && d.Severity == lint.Error {
						refused = true
					}
				}
				if ts.OK && !slices.Equal(toolNamesOf(era), ts.Tools) {
					t.Errorf("tools %q, the TypeScript SDK %q", toolNamesOf(era), ts.Tools)
				}
			}
			if refused == ts.OK {
				t.Errorf("mcplint: error %v (refused %v); the TypeScript SDK: ok %v %q", err, refused, ts.OK, ts.Error)
			}
		})
	}
}

// TestStdioChatty: a stdio server that logs on stdout (a JSON log line and
// a text one) and sends requests and notifications of its own before its
// answer is listed all the same, as the TypeScript SDK's client does (its
// ReadBuffer skips a line that is not a JSON-RPC message, with an error to
// onerror), and its stdout is a finding, not a failure.
func TestStdioChatty(t *testing.T) {
	l, err := List(ctxT(t, 20*time.Second), self("chatty"), Options{SkipSecondListing: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNamesOf(l); !slices.Equal(got, []string{"echo"}) {
		t.Errorf("tools %q", got)
	}
	if l.StdoutLines != 2 {
		t.Errorf("%d lines of noise (%q), want 2", l.StdoutLines, l.Stdout)
	}
	if got := findings(check(t, l)); !slices.Equal(got, []string{"stdio-stdout-clean "}) {
		t.Errorf("findings %q", got)
	}
}
