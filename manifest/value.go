package manifest

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Value decodes the tool. Objects decode to map[string]any, arrays to []any,
// numbers to json.Number (their spelling is kept), and the plugin-contract
// "schema" member is presented as "inputSchema". The result is not cached:
// callers hold it only while they work on the tool.
func (t *Tool) Value() (any, error) {
	if t.M.Format == YAML {
		return t.yamlValue()
	}
	dec := newDecoder(t.M.Src[t.start:t.end])
	v, err := decodeValue(dec, t.M.depthLimit())
	if err != nil {
		if err == errTooDeep {
			// The offending bracket is the next token after the offset.
			off := t.start + skipSpace(t.M.Src[t.start:t.end], int(dec.InputOffset()))
			return nil, t.M.limitError(off, LimitDepth, "nesting deeper than %d levels", t.M.depthLimit())
		}
		return nil, t.M.jsonError(t.start, err)
	}
	return t.present(v), nil
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

// decodeValue decodes the next value, nested at most levels deep. Scalars and member names are read as
// raw values, which alias the source, so the strings that schemas repeat
// (keywords, type names, small numbers) cost no allocation.
func decodeValue(dec *jsontext.Decoder, levels int) (any, error) {
	if levels < 0 {
		return nil, errTooDeep
	}
	switch dec.PeekKind() {
	case '{':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		obj := map[string]any{}
		for dec.PeekKind() != '}' {
			k, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			key := rawString(k) // the raw value is void after the next read
			v, err := decodeValue(dec, levels-1)
			if err != nil {
				return nil, err
			}
			obj[key] = v
		}
		_, err := dec.ReadToken()
		return obj, err
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		arr := []any{}
		for dec.PeekKind() != ']' {
			v, err := decodeValue(dec, levels-1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.ReadToken()
		return arr, err
	}
	raw, err := dec.ReadValue()
	if err != nil {
		return nil, err
	}
	switch raw.Kind() {
	case '"':
		return rawString(raw), nil
	case '0':
		if s, ok := common[string(raw)]; ok {
			return json.Number(s), nil
		}
		return json.Number(raw), nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	}
	return nil, nil
}

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
	for k := range keywordRank {
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
