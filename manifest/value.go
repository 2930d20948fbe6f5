package manifest

import (
	"bytes"
	"encoding/json"

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
	dec := jsontext.NewDecoder(bytes.NewReader(t.M.Src[t.start:t.end]))
	v, err := decodeValue(dec, 0)
	if err != nil {
		if err == errTooDeep {
			return nil, t.M.errorAt(t.start+int(dec.InputOffset()), "nesting deeper than %d levels", MaxDepth)
		}
		return nil, t.M.jsonError(t.start, err)
	}
	return t.present(v), nil
}

// present renames the plugin contract's schema member.
func (t *Tool) present(v any) any {
	if t.SchemaKey != "inputSchema" {
		if obj, ok := v.(map[string]any); ok {
			obj["inputSchema"] = obj[t.SchemaKey]
			delete(obj, t.SchemaKey)
		}
	}
	return v
}

type depthError struct{}

func (depthError) Error() string { return "too deep" }

var errTooDeep error = depthError{}

func decodeValue(dec *jsontext.Decoder, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, errTooDeep
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case '{':
		obj := map[string]any{}
		for dec.PeekKind() != '}' {
			k, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			key := k.String() // the token is void after the next read
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			obj[key] = v
		}
		_, err := dec.ReadToken()
		return obj, err
	case '[':
		arr := []any{}
		for dec.PeekKind() != ']' {
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.ReadToken()
		return arr, err
	case '"':
		return tok.String(), nil
	case '0':
		return json.Number(tok.String()), nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case 'n':
		return nil, nil
	}
	return nil, dec.SkipValue()
}
