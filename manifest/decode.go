package manifest

import (
	"bytes"
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/internal/english"
	"github.com/mcpfit/mcplint/internal/jsonscan"
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
		return nil, m.limitError(d.off, LimitDepth, "nesting deeper than %s", english.Count(d.max, "level"))
	}
	return v, nil
}

// checkToolDepths refuses, as the source is read, a tool nested deeper
// than the limit, which decoding it (Tool.Value) would refuse later: a run
// that reports on tools as it goes (lint.Linter.LintEach) would otherwise
// meet an input error after reporting on the tools before it, and bad
// input is to get its one error and nothing else. A tool of no more
// brackets than the limit cannot be that deep, and counting them costs
// little beside reading the file; the few others are scanned, and the
// failing one decoded for the error the decoder words.
func (m *Manifest) checkToolDepths() error {
	limit := m.depthLimit()
	for _, t := range m.Tools {
		src := m.Src[t.start:t.end]
		if len(src) <= 2*limit || bytes.Count(src, []byte{'{'})+bytes.Count(src, []byte{'['}) <= limit {
			continue
		}
		if nestedDeeper(src, limit) {
			if _, err := m.decodeJSON(t.start, t.end); err != nil {
				return err
			}
		}
	}
	return nil
}

// nestedDeeper reports whether the validated JSON value src holds a value
// nested more than limit levels deep (the value itself is at level 0), as
// the decoder counts: that is a container at level limit, or deeper, that
// is not empty.
func nestedDeeper(src []byte, limit int) bool {
	open := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '"':
			end, _ := jsonscan.StringEnd(src, i)
			if end < 0 {
				return false
			}
			i = end - 1
		case '{', '[':
			open++
			if open > limit {
				j := i + 1
				for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
					j++
				}
				if j < len(src) && src[j] != '}' && src[j] != ']' {
					return true
				}
			}
		case '}', ']':
			open--
		}
	}
	return false
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
		if v, ok := d.commonString(); ok {
			return v, nil
		}
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
	if v, ok := commonNumbers[string(raw)]; ok {
		return v, nil
	}
	return json.Number(raw), nil
}

// commonString decodes the string at d.off when it is one of common, as an
// interface value boxed once for all: a string made an interface value is
// an allocation of its own, and most short strings of a schema ("object",
// "string") are common.
func (d *decoder) commonString() (any, bool) {
	body := d.src[d.off+1 : min(d.off+2+commonMax, len(d.src))]
	q := bytes.IndexByte(body, '"')
	if q < 0 || bytes.IndexByte(body[:q], '\\') >= 0 {
		return nil, false
	}
	v, ok := commonValues[string(body[:q])] // converted for the lookup alone
	if ok {
		d.off += q + 2
	}
	return v, ok
}

// str decodes the string at d.off, its opening quote.
func (d *decoder) str() string {
	start := d.off
	// A loop over the bytes of every description was a good part of
	// decoding; the loader validated the string, so it ends.
	end, escaped := jsonscan.StringEnd(d.src, start)
	d.off = end
	raw := d.src[start:end]
	if !escaped {
		body := raw[1 : len(raw)-1]
		if len(body) <= commonMax {
			if s, ok := common[string(body)]; ok {
				return s
			}
		}
		return string(body)
	}
	b, err := jsontext.AppendUnquote(nil, raw)
	if err != nil {
		return string(raw[1 : len(raw)-1]) // the loader validated it
	}
	return string(b)
}
