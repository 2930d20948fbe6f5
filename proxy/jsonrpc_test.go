package proxy

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseEnvelope(t *testing.T) {
	for _, c := range []struct {
		msg    string
		kind   msgKind
		id     string
		method string
		dup    bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, kindRequest, `1`, "tools/list", false},
		{` { "method" : "x/y" , "jsonrpc":"2.0", "id" : "a\"b" } `, kindRequest, `"a\"b"`, "x/y", false},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, kindNotification, ``, "notifications/initialized", false},
		{`{"result":{"a":[1,{"b":"}"}]},"jsonrpc":"2.0","id":1.50}`, kindResponse, `1.50`, "", false},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, kindResponse, `null`, "", false},
		{`{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`, kindResponse, `1`, "", true},
		{`{"\u006dethod":"ping","id":7}`, kindRequest, `7`, "ping", false},
		{`{"jsonrpc":"2.0"}`, kindOther, ``, "", false},
	} {
		b := []byte(c.msg)
		env, err := parse(b)
		if err != nil {
			t.Errorf("%s: %v", c.msg, err)
			continue
		}
		if env.kind != c.kind || env.idKey(b) != c.id || env.method != c.method || env.dup != c.dup {
			t.Errorf("%s: kind %d id %q method %q dup %v", c.msg, env.kind, env.idKey(b), env.method, env.dup)
		}
	}
	// However deep a message, its envelope is read: one that was not
	// could not be routed, and the answer to the proxy's own listing went
	// to the client while the call waiting on it waited.
	deep := []byte(`{"jsonrpc":"2.0","id":"mcplint-proxy-1","result":{"tools":[{"default":` +
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}]}}`)
	if env, err := parse(deep); err != nil || env.kind != kindResponse || env.idKey(deep) != `"mcplint-proxy-1"` {
		t.Errorf("deep response: %v, kind %d", err, env.kind)
	}
	for _, bad := range []string{``, `[`, `{"a":}`, `{"a":1,}`, `{"a" 1}`, `{"a":"x}`, `{"a":1} x`, `{"a":[1,2}`, `nul`} {
		if _, err := parse([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestMembersAgreeWithDecoder: for every object encoding/json reads, the
// scanner finds the same members with the same values.
func TestMembersAgreeWithDecoder(t *testing.T) {
	for _, src := range []string{
		`{}`,
		`{"a":1,"b":"two","c":[1,2,{"d":"]"}],"e":{"f":null},"g":true,"h":-1.5e3}`,
		"{\n  \"x\" : \"\\\\\" ,\t\"y\":\"\\\"\" }",
		`{"a":{"b":{"c":{"d":[[[[]]]]}}}}`,
	} {
		checkMembers(t, []byte(src))
	}
}

func checkMembers(t *testing.T, b []byte) {
	t.Helper()
	var want map[string]json.RawMessage
	// encoding/json replaces invalid UTF-8 in keys, the scanner keeps the
	// bytes: names the proxy looks for are ASCII.
	if err := json.Unmarshal(b, &want); err != nil || !utf8.Valid(b) {
		return
	}
	ms, err := members(b)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	got := map[string]json.RawMessage{}
	for _, m := range ms {
		got[m.key] = b[m.value.start:m.value.end]
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d members, want %d", b, len(got), len(want))
	}
	for k, v := range want {
		var a, w any
		if err := json.Unmarshal(got[k], &a); err != nil {
			t.Fatalf("%s: member %q: %v", b, k, err)
		}
		_ = json.Unmarshal(v, &w)
		if !reflect.DeepEqual(a, w) {
			t.Errorf("%s: member %q = %s, want %s", b, k, got[k], v)
		}
	}
}

func FuzzMembers(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":[{"c":"]}"}]}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"x","method":"m","params":{"n":"5"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkMembers(t, b)
		// Whatever the input, the scanner ends.
		_, _ = parse(b)
		_, _ = batch(b)
	})
}

func TestSetAndDeleteMember(t *testing.T) {
	for _, c := range []struct{ in, key, val, want string }{
		{`{"a":1,"b":2}`, "a", `"x"`, `{"a":"x","b":2}`},
		{`{"a":1}`, "c", `[3]`, `{"a":1,"c":[3]}`},
		{`{}`, "c", `true`, `{"c":true}`},
		{` { "a" : 1 } `, "b", `2`, ` { "a" : 1 ,"b":2} `},
	} {
		got, err := setMember([]byte(c.in), c.key, []byte(c.val))
		if err != nil || string(got) != c.want {
			t.Errorf("setMember(%s, %s) = %s, %v; want %s", c.in, c.key, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, key, want string }{
		{`{"a":1,"b":2,"c":3}`, "b", `{"a":1,"c":3}`},
		{`{"a":1,"b":2}`, "a", `{"b":2}`},
		{`{"a":1,"b":2}`, "b", `{"a":1}`},
		{`{"a":1}`, "a", `{}`},
		{`{"a":1}`, "z", `{"a":1}`},
		{`{"a":",","b":2}`, "b", `{"a":","}`},
	} {
		got, err := deleteMember([]byte(c.in), c.key)
		if err != nil || string(got) != c.want {
			t.Errorf("deleteMember(%s, %s) = %s, %v; want %s", c.in, c.key, got, err, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("deleteMember(%s, %s) is not JSON: %s", c.in, c.key, got)
		}
	}
}

func TestOneLine(t *testing.T) {
	in := "{\n  \"a\": \"x\\ny\",\n  \"b\": 1\n}"
	if got := string(oneLine([]byte(in))); got != `{"a":"x\ny","b":1}` {
		t.Errorf("oneLine = %s", got)
	}
	plain := []byte(`{"a": 1}`)
	if got := oneLine(plain); &got[0] != &plain[0] {
		t.Error("a message on one line was copied")
	}
}
