package manifest

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/mcpfit/mcplint/schema"
)

// Value decodes the tool. Objects decode to map[string]any, arrays to []any,
// numbers to json.Number (their spelling is kept), and the plugin-contract
// "schema" member is presented as "inputSchema". The result is not cached:
// callers hold it only while they work on the tool.
func (t *Tool) Value() (any, error) {
	if t.M.Format == YAML {
		return t.yamlValue()
	}
	v, err := t.M.decodeJSON(t.start, t.end)
	if err != nil {
		return nil, err
	}
	return t.present(v), nil
}

// Raw returns the tool's JSON text as the source has it, when Value is
// that text decoded: a JSON tool whose schema is under "inputSchema". It
// reports false otherwise (YAML, or another consumer's tool, whose schema
// member Value renames), and the caller decodes.
func (t *Tool) Raw() ([]byte, bool) {
	if t.M.Format != JSON || t.SchemaKey != "inputSchema" {
		return nil, false
	}
	return t.M.Src[t.start:t.end:t.end], true
}

// present renames the schema member of a plugin contract or another
// consumer's tool. A tool without one shows no inputSchema, so that rules see
// it missing, as they would in an MCP tool.
func (t *Tool) present(v any) any {
	if t.SchemaKey != "inputSchema" {
		if obj, ok := v.(map[string]any); ok {
			if s, ok := obj[t.SchemaKey]; ok {
				obj["inputSchema"] = s
				delete(obj, t.SchemaKey)
			}
		}
	}
	return v
}

type depthError struct{}

func (depthError) Error() string { return "too deep" }

var errTooDeep error = depthError{}

// rawString unquotes a raw JSON string.
func rawString(raw []byte) string {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		if s, ok := common[string(body)]; ok {
			return s
		}
		return string(body)
	}
	b, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return string(body) // the loader validated the source
	}
	return string(b)
}

// common holds strings that tool definitions repeat, so that decoding them
// shares one copy: the keywords edits know, type and format names, and small
// numbers.
var common = func() map[string]string {
	m := map[string]string{}
	for _, k := range schema.KeywordOrder {
		m[k] = k
	}
	for _, s := range strings.Fields(`object string integer number boolean array null
		date-time date time email uri uuid hostname ipv4 ipv6 regex uri-reference
		readOnlyHint destructiveHint idempotentHint openWorldHint jsonrpc result tools nextCursor
		2.0 0 1 2 3 4 5 10 100 1000 -1 true false`) {
		m[s] = s
	}
	return m
}()

// commonValues and commonNumbers are the strings of common as decoded
// values, strings and numbers, boxed once.
var commonValues, commonNumbers = func() (map[string]any, map[string]any) {
	vs, ns := map[string]any{}, map[string]any{}
	for s := range common {
		vs[s], ns[s] = s, json.Number(s)
	}
	return vs, ns
}()

// commonMax is the length of the longest string of common: a longer one
// (a description) need not be looked up.
var commonMax = func() int {
	n := 0
	for s := range common {
		n = max(n, len(s))
	}
	return n
}()
