package proxy

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
)

// What the Streamable HTTP transport mirrors of a request into its
// headers.

// requestMeta is what a request's params say that Streamable HTTP mirrors
// into headers.
type requestMeta struct {
	protocol string // _meta's io.modelcontextprotocol/protocolVersion
	name     string // params.name (tools/call, prompts/get) or params.uri (resources/read)
}

func metaOf(b []byte, env envelope) requestMeta {
	var m requestMeta
	if !env.params.ok() {
		return m
	}
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
		Meta struct {
			Protocol string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	if json.Unmarshal(b[env.params.start:env.params.end], &p) != nil {
		return m
	}
	m.protocol = p.Meta.Protocol
	switch env.method {
	case "tools/call", "prompts/get":
		m.name = p.Name
	case "resources/read":
		m.name = p.URI
	}
	return m
}

// callArguments decodes the arguments of a tools/call once for every
// header mirrored from them; nil when there are none.
func callArguments(b []byte, env envelope) any {
	var p struct {
		Arguments map[string]any `json:"arguments"`
	}
	dec := json.NewDecoder(bytes.NewReader(b[env.params.start:env.params.end]))
	dec.UseNumber()
	if dec.Decode(&p) != nil || p.Arguments == nil {
		return nil
	}
	return p.Arguments
}

// argumentAt reads the argument at a property path of args (from
// callArguments), as the text Streamable HTTP puts in an Mcp-Param header:
// a string as it is, an integer in decimal, a boolean as true or false;
// other values and nulls have no header.
func argumentAt(args any, path []string) (string, bool) {
	v := args
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		v = m[k]
	}
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// headerValue writes a value as a header may carry it: as it is when it is
// plain visible ASCII, otherwise (or when it looks like the encoding's own
// sentinel) base64 between =?base64? and ?= (2026-07-28, Streamable HTTP,
// "Value Encoding"). Only bytes 0x20 to 0x7E are ever written as they are,
// so no value can end the field or start another. The empty string is
// encoded too: an empty field reads as a missing one to most servers (the
// go-sdk's among them, which then refuses the call as a header mismatch),
// and "=?base64??=" decodes to "".
func headerValue(v string) string {
	plain := v != "" && v == strings.TrimSpace(v) && !(strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?="))
	for i := 0; plain && i < len(v); i++ {
		if c := v[i]; c < 0x20 || c > 0x7e {
			plain = false
		}
	}
	if plain {
		return v
	}
	return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?="
}
