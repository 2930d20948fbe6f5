package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// JSON is Bytes for a JSON document mcplint saves (a lock, or a listing:
// JSON Lines, a document a line), which must stay JSON once masked. Masking the text keeps it so unless a
// secret stands where a mask cannot: a secret of digits that is, or is
// part of, a number the document holds. Then each value is masked alone,
// a number holding a secret becomes the string Mask (its value is the
// secret, or would give it away), so does a string whose escapes happen to
// spell one, and the document is written again,
// compactly (a line a document), in its own order. What was no JSON to
// begin with is masked as text.
func (r *Redactor) JSON(b []byte) []byte {
	masked := r.Bytes(b)
	if bytes.Equal(masked, b) || validStream(masked) || !validStream(b) {
		return masked
	}
	out, err := r.jsonValues(b)
	if err != nil {
		// Unreachable for valid JSON; the text mask is then the safe side.
		return masked
	}
	return out
}

// jsonValues writes b again token by token, each string, key and number
// masked by itself.
func (r *Redactor) jsonValues(b []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	// A value whose spelling still shows a secret once masked (escapes
	// can spell one by accident: "\u0007" then "3190465") is written as
	// Mask whole.
	str := func(s string) {
		at := out.Len()
		_ = enc.Encode(r.String(s)) // a string always encodes
		out.Truncate(out.Len() - 1)
		// Only this value's bytes become a string: out.String() would
		// copy all written so far once a value, quadratic in the document.
		if spelled := string(out.Bytes()[at:]); r.String(spelled) != spelled {
			out.Truncate(at)
			_ = enc.Encode(Mask)
			out.Truncate(out.Len() - 1)
		}
	}
	// Per open container: whether it is an object, and how many tokens
	// (keys and values) it has had.
	type frame struct {
		object bool
		n      int
	}
	var open []frame
	for values := 0; ; {
		tok, err := dec.Token()
		if err == io.EOF {
			if bytes.HasSuffix(b, []byte("\n")) {
				out.WriteByte('\n')
			}
			return out.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteByte(byte(d))
			open = open[:len(open)-1]
			continue
		}
		if len(open) == 0 {
			if values > 0 {
				out.WriteByte('\n')
			}
			values++
		} else {
			f := &open[len(open)-1]
			switch {
			case f.object && f.n%2 == 1:
				out.WriteByte(':')
			case f.n > 0:
				out.WriteByte(',')
			}
			f.n++
		}
		switch v := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(v))
			open = append(open, frame{object: v == '{'})
		case string:
			str(v)
		case json.Number:
			if r.String(string(v)) != string(v) {
				str(Mask)
			} else {
				out.WriteString(string(v))
			}
		case bool:
			out.WriteString(strconv.FormatBool(v))
		case nil:
			out.WriteString("null")
		}
	}
}

// validStream reports whether b is one or more JSON values, with white
// space only between them.
func validStream(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	n := 0
	for ; ; n++ {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			return n > 0
		} else if err != nil {
			return false
		}
	}
}
