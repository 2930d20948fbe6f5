package manifest

import (
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"
)

// decoder decodes a JSON value the loader has validated, straight from its
// bytes: decoding a tool is the larger part of linting it, and a
// general-purpose tokenizer, which checks what the loader already checked
// and hands out one token at a time, took several times as long. It
// assumes valid JSON; a value nested deeper than max stops it with
// errTooDeep, off at that value.
type decoder struct {
	src []byte
	off int
	max int // the deepest nesting allowed
}

// decodeJSON decodes the validated JSON value spanning Src[start:end],
// nested at most as deep as the manifest's limit allows.
func (m *Manifest) decodeJSON(start, end int) (any, error) {
	d := decoder{src: m.Src[:end], off: start, max: m.depthLimit()}
	v, err := d.value(0)
	if err != nil {
		// The only error: the offending bracket is at the offset.
		return nil, m.limitError(d.off, LimitDepth, "nesting deeper than %d levels", d.max)
	}
	return v, nil
}

func (d *decoder) space() {
	for d.off < len(d.src) {
		switch d.src[d.off] {
		case ' ', '\t', '\n', '\r':
			d.off++
		default:
			return
		}
	}
}

// value decodes the value at d.off; see Tool.Value for what each JSON
// value becomes.
func (d *decoder) value(depth int) (any, error) {
	d.space()
	if depth > d.max {
		return nil, errTooDeep
	}
	switch d.src[d.off] {
	case '{':
		d.off++
		obj := map[string]any{}
		for {
			d.space()
			if d.src[d.off] == '}' {
				d.off++
				return obj, nil
			}
			if d.src[d.off] == ',' {
				d.off++
				d.space()
			}
			key := d.str()
			d.space()
			d.off++ // ':'
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			obj[key] = v
		}
	case '[':
		d.off++
		arr := []any{}
		for {
			d.space()
			if d.src[d.off] == ']' {
				d.off++
				return arr, nil
			}
			if d.src[d.off] == ',' {
				d.off++
			}
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
	case '"':
		return d.str(), nil
	case 't':
		d.off += 4
		return true, nil
	case 'f':
		d.off += 5
		return false, nil
	case 'n':
		d.off += 4
		return nil, nil
	}
	start := d.off
	for d.off < len(d.src) {
		switch c := d.src[d.off]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			d.off++
			continue
		}
		break
	}
	raw := d.src[start:d.off]
	if s, ok := common[string(raw)]; ok {
		return json.Number(s), nil
	}
	return json.Number(raw), nil
}

// str decodes the string at d.off, its opening quote.
func (d *decoder) str() string {
	start := d.off
	d.off++
	escaped := false
	for {
		switch d.src[d.off] {
		case '"':
			d.off++
			raw := d.src[start:d.off]
			if !escaped {
				body := raw[1 : len(raw)-1]
				if s, ok := common[string(body)]; ok {
					return s
				}
				return string(body)
			}
			b, err := jsontext.AppendUnquote(nil, raw)
			if err != nil {
				return string(raw[1 : len(raw)-1]) // the loader validated it
			}
			return string(b)
		case '\\':
			escaped = true
			d.off += 2
		default:
			d.off++
		}
	}
}
