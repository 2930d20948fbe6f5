package proxy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParamHeaders: the x-mcp-header annotations of an input schema name
// the arguments a tools/call mirrors into Mcp-Param headers, read from one
// decoding of the arguments; values that are not a string, an integer or a
// boolean have no header.
func TestParamHeaders(t *testing.T) {
	input := []byte(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"count":{"type":"integer","x-mcp-header":"Count"},
		"dry":{"type":"boolean","x-mcp-header":"Dry"},
		"tags":{"type":"array","x-mcp-header":"Tags"},
		"opts":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
		"items":{"type":"array","items":{"x-mcp-header":"Ignored"}}}}`)
	headers := paramHeaders(input)
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":` +
		`{"region":"café","count":7,"dry":false,"tags":["a"],"opts":{"zone":"b"}}}}`)
	env, err := parse(msg)
	if err != nil {
		t.Fatal(err)
	}
	args := callArguments(msg, env)
	got := map[string]string{}
	for _, h := range headers {
		if v, ok := argumentAt(args, h.path); ok {
			got[h.name] = headerValue(v)
		}
	}
	want := map[string]string{"Region": "=?base64?Y2Fmw6k=?=", "Count": "7", "Dry": "false", "Zone": "b"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}

	// Without arguments, or with params that do not decode, no header.
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t","arguments":[1]}}`,
	} {
		env, err := parse([]byte(m))
		if err != nil {
			t.Fatal(err)
		}
		args := callArguments([]byte(m), env)
		for _, h := range headers {
			if v, ok := argumentAt(args, h.path); ok {
				t.Errorf("%s: header %s = %q, want none", m, h.name, v)
			}
		}
	}
}
