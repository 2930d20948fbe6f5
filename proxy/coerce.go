package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/mcpfit/mcplint/coerce"
	"github.com/mcpfit/mcplint/internal/jsonscan"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// Arguments are coerced as seed 001's server half coerces them, but
// against any schema: where the tool's own input schema refuses a value as
// sent because of its type, and a form of the value the schema wants is
// unambiguous (a decimal string where a number is wanted, "true" or
// "false" where a boolean is, a JSON text where an object or array is, a
// null where the property may be left out), the value is converted; and
// only when the converted arguments then pass the whole schema are they
// sent. Anything else reaches the server as the client sent it, for the
// server to judge.

// coercion is one argument converted.
type coercion struct {
	// at is the argument's place in the arguments (RFC 6901); schemaAt the
	// keyword of the input schema that refused it, which is what the log
	// shows (never the value, nor map keys the caller chose).
	at, schemaAt string
	// value is the converted value's JSON, nil when the argument is left
	// out.
	value []byte
	what  string
}

// maxCoerceRounds bounds the rounds of conversion: a JSON text converted
// into an object may hold strings to convert in turn.
const maxCoerceRounds = 4

// coerceArgs returns args as the tool's schema s takes them, and what was
// converted; it returns args itself, and no coercion, when the schema
// accepts them as sent or when no conversion makes them pass.
func coerceArgs(s *jsonschema.Schema, args []byte) ([]byte, []coercion) {
	if s == nil || len(bytes.TrimSpace(args)) == 0 {
		return args, nil
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return args, nil
	}
	err = schema.Validate(s, v)
	if err == nil {
		return args, nil
	}
	var all []coercion
	for range maxCoerceRounds {
		var ve *jsonschema.ValidationError
		if !errors.As(err, &ve) {
			return args, nil
		}
		round := conversions(v, ve)
		if len(round) == 0 {
			return args, nil
		}
		for _, c := range round {
			var ok bool
			if v, ok = apply(v, c); !ok {
				return args, nil
			}
		}
		all = append(all, round...)
		if err = schema.Validate(s, v); err == nil {
			out, err := rewrite(args, all)
			if err != nil {
				return args, nil
			}
			return out, all
		}
	}
	return args, nil
}

// conversions finds, among the errors of one validation, the values
// refused for their type that have an unambiguous form of a type wanted
// at their place.
func conversions(v any, ve *jsonschema.ValidationError) []coercion {
	type place struct {
		loc      []string
		got      string
		want     []string
		schemaAt string
	}
	var places []*place
	byLoc := map[string]*place{}
	var walk func(e *jsonschema.ValidationError, depth int)
	walk = func(e *jsonschema.ValidationError, depth int) {
		if depth > 64 {
			return
		}
		if t, ok := e.ErrorKind.(*kind.Type); ok {
			key := strings.Join(e.InstanceLocation, "\x00")
			p := byLoc[key]
			if p == nil {
				p = &place{loc: e.InstanceLocation, got: t.Got, schemaAt: keywordAt(e)}
				byLoc[key] = p
				places = append(places, p)
			}
			p.want = append(p.want, t.Want...)
		}
		for _, c := range e.Causes {
			walk(c, depth+1)
		}
	}
	walk(ve, 0)
	var out []coercion
	for _, p := range places {
		at := pointer.Join(p.loc)
		cur, ok := valueAt(v, p.loc)
		if !ok {
			continue
		}
		wants := func(t string) bool { return slices.Contains(p.want, t) }
		c := coercion{at: at, schemaAt: p.schemaAt}
		switch x := cur.(type) {
		case string:
			s := strings.TrimSpace(x)
			if n, ok := decimal(x, wants); ok {
				c.value, c.what = []byte(n.String()), "a decimal string sent as "+n.kind
				break
			}
			switch {
			case wants("boolean") && (x == "true" || x == "false"):
				c.value, c.what = []byte(x), "\"true\" or \"false\" sent as a boolean"
			case (wants("object") && strings.HasPrefix(s, "{")) || (wants("array") && strings.HasPrefix(s, "[")):
				var parsed any
				if json.Unmarshal([]byte(s), &parsed) != nil {
					continue
				}
				var compact bytes.Buffer
				if json.Compact(&compact, []byte(s)) != nil {
					continue
				}
				c.value, c.what = compact.Bytes(), "a JSON text sent as the "+jsonType(parsed)+" it spells"
			default:
				continue
			}
		case nil:
			if len(p.loc) == 0 || wants("null") {
				continue
			}
			parent, ok := valueAt(v, p.loc[:len(p.loc)-1])
			if _, isObject := parent.(map[string]any); !ok || !isObject {
				continue
			}
			c.what = "a null left out, as an optional argument it stands for"
		default:
			continue
		}
		out = append(out, c)
	}
	return out
}

// keywordAt is the place in the input schema of the keyword an error
// reports, as a JSON Pointer into the schema.
func keywordAt(e *jsonschema.ValidationError) string {
	frag := ""
	if i := strings.IndexByte(e.SchemaURL, '#'); i >= 0 {
		frag = e.SchemaURL[i+1:]
	}
	for _, k := range e.ErrorKind.KeywordPath() {
		frag += "/" + pointer.Escape(k)
	}
	return frag
}

func jsonType(v any) string {
	if _, ok := v.([]any); ok {
		return "array"
	}
	return "object"
}

// decimalNumber is a decimal string converted, and what it was sent as.
type decimalNumber struct {
	json.Number
	kind string
}

// decimal converts a string sent where the schema wants an integer or a
// number, as package coerce defines a decimal string (coerce.Decimal).
func decimal(s string, wants func(string) bool) (decimalNumber, bool) {
	if wants("integer") {
		if n, ok := coerce.Decimal(s, true); ok {
			return decimalNumber{n, "an integer"}, true
		}
	}
	if wants("number") {
		if n, ok := coerce.Decimal(s, false); ok {
			return decimalNumber{n, "a number"}, true
		}
	}
	return decimalNumber{}, false
}

// valueAt finds the value at an instance location.
func valueAt(v any, loc []string) (any, bool) {
	for _, t := range loc {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[t]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// apply makes a coercion in the decoded arguments.
func apply(v any, c coercion) (any, bool) {
	loc := pointer.Split(c.at)
	var nv any
	if c.value != nil {
		var err error
		if nv, err = jsonschema.UnmarshalJSON(bytes.NewReader(c.value)); err != nil {
			return v, false
		}
	}
	if len(loc) == 0 {
		return nv, c.value != nil
	}
	parent, ok := valueAt(v, loc[:len(loc)-1])
	if !ok {
		return v, false
	}
	last := loc[len(loc)-1]
	switch p := parent.(type) {
	case map[string]any:
		if c.value == nil {
			delete(p, last)
		} else {
			p[last] = nv
		}
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(p) || c.value == nil {
			return v, false
		}
		p[i] = nv
	default:
		return v, false
	}
	return v, true
}

// rewrite makes the coercions in the arguments' bytes, in the order they
// were found (a JSON text turned into an object before the strings in it),
// leaving every other byte as the client sent it.
func rewrite(args []byte, cs []coercion) ([]byte, error) {
	out := args
	for _, c := range cs {
		loc := pointer.Split(c.at)
		if c.value == nil {
			parent, err := locate(out, loc[:len(loc)-1])
			if err != nil {
				return nil, err
			}
			obj, err := deleteMember(out[parent.start:parent.end], loc[len(loc)-1])
			if err != nil {
				return nil, err
			}
			out = splice(out, parent, obj)
			continue
		}
		at, err := locate(out, loc)
		if err != nil {
			return nil, err
		}
		out = splice(out, at, c.value)
	}
	return out, nil
}

var errNotFound = errors.New("no such argument")

// locate finds the bytes of the value at an instance location.
func locate(b []byte, loc []string) (span, error) {
	at := span{jsonscan.SkipSpace(b, 0), len(b)}
	end, err := skipValue(b, at.start)
	if err != nil {
		return span{}, err
	}
	at.end = end
	for _, t := range loc {
		inner := b[at.start:at.end]
		switch {
		case len(inner) > 0 && inner[0] == '{':
			ms, err := members(inner)
			if err != nil {
				return span{}, err
			}
			// The last of duplicate names is the one decoders keep.
			base, found := at.start, false
			for _, m := range ms {
				if m.key == t {
					at = span{base + m.value.start, base + m.value.end}
					found = true
				}
			}
			if !found {
				return span{}, errNotFound
			}
		case len(inner) > 0 && inner[0] == '[':
			items, err := batch(inner)
			if err != nil {
				return span{}, err
			}
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(items) {
				return span{}, errNotFound
			}
			base := at.start
			at = span{base + items[i].start, base + items[i].end}
		default:
			return span{}, errNotFound
		}
	}
	return at, nil
}
