package manifest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// surfaceStream is what `mcplint check --save` writes: the tools pages,
// the handshake result, then the other lists, one response per line; a
// list the server refused is kept as its error.
const surfaceStream = `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}
{"jsonrpc":"2.0","id":"initialize","result":{"protocolVersion":"2025-06-18","capabilities":{"prompts":{},"resources":{}},"serverInfo":{"name":"s","version":"1"},"instructions":"Use echo."}}
{"jsonrpc":"2.0","id":"prompts/list","result":{"prompts":[{"name":"greet","description":"Say hello","arguments":[{"name":"who","required":true}]},"not an object",{"name":"review"}],"nextCursor":"2"}}
{"jsonrpc":"2.0","id":"prompts/list","result":{"prompts":[{"name":"sum"}]}}
{"jsonrpc":"2.0","id":"resources/list","result":{"resources":[{"uri":"file:///a.txt","name":"a"},{"uri":7,"name":"bad"}]}}
{"jsonrpc":"2.0","id":"resources/templates/list","error":{"code":-32601,"message":"Method not found"}}
`

func TestLoadSurface(t *testing.T) {
	m, err := Load("s.ndjson", []byte(surfaceStream))
	if err != nil {
		t.Fatal(err)
	}
	if m.Shape != ShapeStream || len(m.Tools) != 1 || m.Tools[0].Name != "echo" {
		t.Fatalf("shape %q, tools %d", m.Shape, len(m.Tools))
	}
	var got []string
	for _, list := range [][]*Entry{m.Results, m.Prompts, m.Resources, m.Templates} {
		for _, e := range list {
			pos := e.Locate("")
			got = append(got, fmt.Sprintf("%s %d %q key=%q doc=%d %s %d:%d", e.Kind, e.Index, e.Name, e.Key, e.Doc, e.Pointer, pos.Line, pos.Column))
		}
	}
	want := []string{
		`result 0 "tools/list" key="" doc=0 /result 1:34`,
		`result 1 "initialize" key="" doc=1 /result 2:45`,
		`result 2 "prompts/list" key="" doc=2 /result 3:47`,
		`result 3 "prompts/list" key="" doc=3 /result 4:47`,
		`result 4 "resources/list" key="" doc=4 /result 5:49`,
		`prompt 0 "greet" key="greet" doc=2 /result/prompts/0 3:59`,
		`prompt 1 "review" key="review" doc=2 /result/prompts/2 3:163`,
		`prompt 2 "sum" key="sum" doc=3 /result/prompts/0 4:59`,
		`resource 0 "a" key="file:///a.txt" doc=4 /result/resources/0 5:63`,
		`resource 1 "bad" key="" doc=4 /result/resources/1 5:98`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if m.Server != m.Results[1] {
		t.Errorf("Server is %v", m.Server)
	}
	if diff := cmp.Diff([]Refusal{{Method: MethodTemplates, Code: -32601, Message: "Method not found", Doc: 5}}, m.Refusals); diff != "" {
		t.Errorf("refusals (-want +got):\n%s", diff)
	}
	// Positions inside an entry, and its value.
	p := m.Prompts[0]
	if pos := p.Locate("/arguments/0/name"); m.Line(pos.Line)[pos.Column-1:][:6] != `"name"` {
		t.Errorf("/arguments/0/name at %d:%d", pos.Line, pos.Column)
	}
	v, err := p.Value()
	if err != nil {
		t.Fatal(err)
	}
	if v.(map[string]any)["description"] != "Say hello" || p.DocPointer("/description") != "/result/prompts/0/description" {
		t.Errorf("value %v", v)
	}
	for e, want := range map[*Entry]string{
		m.Prompts[0]: `prompt "greet"`, m.Resources[1]: "resource 1", m.Server: "the initialize result", m.Results[3]: "the prompts/list result (page 2)",
	} {
		if got := e.Describe(); got != want {
			t.Errorf("Describe = %q, want %q", got, want)
		}
	}
}

func TestLoadSurfaceShapes(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		prompts   int
		refusals  int
		server    string
		err       string
	}{
		{name: "bare prompts result", src: `{"prompts": [{"name": "a"}]}`, prompts: 1},
		{name: "discover result", src: `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}}`, server: MethodDiscover},
		{name: "a saved refusal of tools/list", src: `{"jsonrpc":"2.0","id":"tools/list","error":{"code":-1,"message":"x"}}`, refusals: 1},
		{name: "an error for another method is no surface", src: `{"jsonrpc":"2.0","id":"tools/call","error":{"code":-1,"message":"x"}}`, err: "JSON-RPC error response"},
		{name: "an error with a numeric id", src: `{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"x"}}`, err: "JSON-RPC error response"},
		{name: "a saved result names its method in its id", src: `{"jsonrpc":"2.0","id":"prompts/list","result":{"items":[]}}`, prompts: 0},
		{name: "YAML carries tools only", src: "prompts:\n  - name: a\n", err: "no known shape"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Load("x", []byte(tt.src))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Prompts) != tt.prompts || len(m.Refusals) != tt.refusals {
				t.Errorf("%d prompts, %d refusals", len(m.Prompts), len(m.Refusals))
			}
			if tt.server != "" && (m.Server == nil || m.Server.Name != tt.server) {
				t.Errorf("server %v", m.Server)
			}
		})
	}
}
