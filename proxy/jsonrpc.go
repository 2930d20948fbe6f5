package proxy

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/mcpfit/mcplint/internal/jsonscan"
)

// Messages are read as far as routing needs and no further: the members of
// the JSON-RPC envelope are found by scanning, values skipped over, and
// only the members a rewrite needs are decoded. What is not rewritten is
// forwarded as the bytes that came, so ids, key order, number spellings and
// members of later protocol versions pass untouched.

// span is a value inside a message: [start, end) of its bytes.
type span struct{ start, end int }

func (s span) ok() bool { return s.end > s.start }

// member is one member of a JSON object.
type member struct {
	key string
	// keyStart is where the member begins (its key's opening quote);
	// value is its value.
	keyStart int
	value    span
}

var errNotJSON = errors.New("not a JSON value")

// skipValue returns the offset just past the JSON value starting at b[i]
// (after spaces). It checks the structure, not the spelling of numbers and
// literals, which a decoder checks when the value is decoded.
func skipValue(b []byte, i int) (int, error) {
	end := jsonscan.ValueEnd(b, jsonscan.SkipSpace(b, i))
	if end < 0 {
		return 0, errNotJSON
	}
	return end, nil
}

// members scans the members of the JSON object b. Keys are unescaped only
// when they hold an escape.
func members(b []byte) ([]member, error) {
	// An envelope has four or five members, a call's params two or three.
	out := make([]member, 0, 6)
	isObject, err := items(b, '{', '}', func(i int) (int, error) {
		if b[i] != '"' {
			return 0, errNotJSON
		}
		keyStart := i
		end, escaped := jsonscan.StringEnd(b, i)
		if end < 0 {
			return 0, errNotJSON
		}
		key := string(b[i+1 : end-1])
		if escaped {
			if err := json.Unmarshal(b[i:end], &key); err != nil {
				return 0, errNotJSON
			}
		}
		i = jsonscan.SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return 0, errNotJSON
		}
		vstart := jsonscan.SkipSpace(b, i+1)
		vend, err := skipValue(b, vstart)
		if err != nil {
			return 0, err
		}
		out = append(out, member{key: key, keyStart: keyStart, value: span{vstart, vend}})
		return vend, nil
	})
	if !isObject {
		return nil, errNotJSON
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// items scans the object or array that b holds (open and close are its
// brackets), calling item at the first byte of each member or element,
// which returns the end of it; the commas between them and what follows
// the closing bracket are checked here. found is false when b does not
// open with open.
func items(b []byte, open, close byte, item func(i int) (int, error)) (found bool, err error) {
	i := jsonscan.SkipSpace(b, 0)
	if i >= len(b) || b[i] != open {
		return false, nil
	}
	i = jsonscan.SkipSpace(b, i+1)
	if i < len(b) && b[i] == close {
		return true, trailing(b, i+1)
	}
	for {
		if i >= len(b) {
			return true, errNotJSON
		}
		end, err := item(i)
		if err != nil {
			return true, err
		}
		i = jsonscan.SkipSpace(b, end)
		if i >= len(b) {
			return true, errNotJSON
		}
		switch b[i] {
		case ',':
			i = jsonscan.SkipSpace(b, i+1)
		case close:
			return true, trailing(b, i+1)
		default:
			return true, errNotJSON
		}
	}
}

func trailing(b []byte, i int) error {
	if jsonscan.SkipSpace(b, i) != len(b) {
		return errNotJSON
	}
	return nil
}

// find returns the member named key, the first of several (as a decoder
// that keeps the last would not: a message with duplicate members is one
// no rewrite touches, see parse).
func find(ms []member, key string) (member, bool) {
	for _, m := range ms {
		if m.key == key {
			return m, true
		}
	}
	return member{}, false
}

// msgKind is what a JSON-RPC message is.
type msgKind uint8

const (
	kindOther        msgKind = iota // not a JSON-RPC message this proxy understands
	kindRequest                     // method and id
	kindNotification                // method, no id
	kindResponse                    // result or error, and id
)

// envelope is a message's JSON-RPC frame, located in its bytes.
type envelope struct {
	kind   msgKind
	id     span // the raw id (a string, a number, or null)
	method string
	params span
	result span
	err    span
	// dup is set when a member of the envelope appears twice: such a
	// message is forwarded as it is, never rewritten.
	dup bool
}

// idKey is the id of a message as a map key: its bytes as sent, so "1"
// and 1 stay two ids, as JSON-RPC has them.
func (e envelope) idKey(b []byte) string {
	if !e.id.ok() {
		return ""
	}
	return string(b[e.id.start:e.id.end])
}

// parse reads the envelope of one message (an object, not a batch).
func parse(b []byte) (envelope, error) {
	ms, err := members(b)
	if err != nil {
		return envelope{}, err
	}
	var e envelope
	seen := make(map[string]bool, len(ms))
	for _, m := range ms {
		switch m.key {
		case "id", "method", "params", "result", "error":
			if seen[m.key] {
				e.dup = true
			}
			seen[m.key] = true
		default:
			continue
		}
		switch m.key {
		case "id":
			if !e.id.ok() {
				e.id = m.value
			}
		case "method":
			if e.method == "" {
				if err := json.Unmarshal(b[m.value.start:m.value.end], &e.method); err != nil {
					return envelope{}, err
				}
			}
		case "params":
			e.params = m.value
		case "result":
			e.result = m.value
		case "error":
			e.err = m.value
		}
	}
	switch {
	case e.method != "" && e.id.ok():
		e.kind = kindRequest
	case e.method != "":
		e.kind = kindNotification
	case e.id.ok() && (e.result.ok() || e.err.ok()):
		e.kind = kindResponse
	}
	return e, nil
}

// batch splits a JSON array of messages into its elements, nil when b is
// not an array.
func batch(b []byte) ([]span, error) {
	var out []span
	if _, err := items(b, '[', ']', func(i int) (int, error) {
		end, err := skipValue(b, i)
		out = append(out, span{i, end})
		return end, err
	}); err != nil {
		return nil, err
	}
	return out, nil
}

// splice returns b with s replaced by v, in a new slice.
func splice(b []byte, s span, v []byte) []byte {
	out := make([]byte, 0, len(b)-(s.end-s.start)+len(v))
	out = append(out, b[:s.start]...)
	out = append(out, v...)
	return append(out, b[s.end:]...)
}

// setMember returns the object b with member key set to the JSON value v:
// replaced where it is, or added at the end.
func setMember(b []byte, key string, v []byte) ([]byte, error) {
	ms, err := members(b)
	if err != nil {
		return nil, err
	}
	if m, ok := find(ms, key); ok {
		return splice(b, m.value, v), nil
	}
	k, _ := json.Marshal(key)
	end := bytes.LastIndexByte(b, '}')
	add := make([]byte, 0, len(k)+len(v)+2)
	if len(ms) > 0 {
		add = append(add, ',')
	}
	add = append(append(append(add, k...), ':'), v...)
	return splice(b, span{end, end}, add), nil
}

// deleteMember returns the object b without member key (b itself when it
// has none).
func deleteMember(b []byte, key string) ([]byte, error) {
	ms, err := members(b)
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		if m.key != key {
			continue
		}
		switch {
		case len(ms) == 1:
			return splice(b, span{m.keyStart, m.value.end}, nil), nil
		case i < len(ms)-1:
			// Up to the next member's key: the comma goes with it.
			return splice(b, span{m.keyStart, ms[i+1].keyStart}, nil), nil
		default:
			// The last member: from the comma after the one before.
			prev := bytes.LastIndexByte(b[:m.keyStart], ',')
			return splice(b, span{prev, m.value.end}, nil), nil
		}
	}
	return b, nil
}

// oneLine returns a message as a stdio transport carries it: a message
// with line breaks between its tokens (a pretty-printed HTTP body) is
// compacted; one without is returned as it is.
func oneLine(b []byte) []byte {
	if bytes.IndexByte(b, '\n') < 0 && bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return b
	}
	return out.Bytes()
}
