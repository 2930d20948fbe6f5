package coerce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfit/mcplint/internal/schematype"
)

// Problem is one argument given as a string its parameter refuses.
type Problem struct {
	// Argument names the parameter: "count", "options.limit", "ids[2]".
	Argument string
	// Value is the string the call gave.
	Value string
	// Integer is true when the parameter takes integers only.
	Integer bool
	// Pattern is the pattern of the parameter's string form.
	Pattern string
}

func (p Problem) String() string {
	kind := "a number"
	if p.Integer {
		kind = "an integer"
	}
	return fmt.Sprintf("argument %q must be %s or its decimal string (matching %s); got %s", p.Argument, kind, p.Pattern, strconv.Quote(p.Value))
}

// Error is returned by Arguments when a call gives strings its parameters
// refuse.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return "invalid arguments: " + strings.Join(parts, "; ")
}

// maxDepth bounds the nesting of arguments and of $ref chains followed, so a
// schema that refers to itself cannot loop.
const maxDepth = 64

// Arguments converts the decimal strings of args (the arguments object of a
// tools/call) into numbers wherever inputSchema declares a parameter's string
// form, and returns the result; it returns args itself when nothing changes.
// inputSchema is the tool's input schema in any form that marshals to JSON
// (json.RawMessage, a map, the SDK's *jsonschema.Schema). Strings such a
// parameter refuses make an *Error listing each; a schema or arguments that
// are not JSON are returned unchanged, for the server's own validation to
// judge.
func Arguments(inputSchema any, args json.RawMessage) (json.RawMessage, error) {
	out, _, err := convert(inputSchema, args)
	return out, err
}

// convert is Arguments, also saying whether anything changed.
func convert(inputSchema any, args json.RawMessage) (json.RawMessage, bool, error) {
	if len(bytes.TrimSpace(args)) == 0 || inputSchema == nil {
		return args, false, nil
	}
	root, err := decodeJSON(inputSchema)
	if err != nil {
		return args, false, nil
	}
	var v any
	if err := decodeNumbers(args, &v); err != nil {
		return args, false, nil
	}
	w := &walker{root: root}
	v = w.value(v, root, "", 0)
	if len(w.problems) > 0 {
		return args, false, &Error{Problems: w.problems}
	}
	if !w.changed {
		return args, false, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return args, false, nil
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), true, nil
}

func decodeJSON(v any) (any, error) {
	var raw []byte
	switch s := v.(type) {
	case json.RawMessage:
		raw = s
	case []byte:
		raw = s
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	var out any
	return out, decodeNumbers(raw, &out)
}

// decodeNumbers decodes keeping numbers as written, so that arguments the
// walk does not touch keep their precision. Anything after the value makes
// the input not JSON: `{"n": "0"}0` must reach the server's validation as
// sent, not be rewritten into the valid `{"n": 0}`.
func decodeNumbers(raw []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return nil
}

type walker struct {
	root     any
	changed  bool
	problems []Problem
}

// value walks v along schema s, returning v with its string forms
// converted. It follows the keywords whose subschema describes a part of
// the value (properties, patternProperties, additionalProperties, items,
// prefixItems, additionalItems): the places integer-accepts-string rewrites.
func (w *walker) value(v any, s any, label string, depth int) any {
	if depth > maxDepth {
		return v
	}
	m, ok := w.resolve(s)
	if !ok {
		return v
	}
	if f, ok := stringForm(m); ok {
		str, isString := v.(string)
		if !isString || f.pattern == nil {
			return v
		}
		if !f.pattern.MatchString(str) {
			w.problems = append(w.problems, Problem{Argument: label, Value: str, Integer: f.integer, Pattern: f.pattern.String()})
			return v
		}
		if n, ok := Decimal(str, f.integer); ok {
			w.changed = true
			return n
		}
		return v
	}
	switch val := v.(type) {
	case map[string]any:
		props, _ := m["properties"].(map[string]any)
		patterns, _ := m["patternProperties"].(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(val)) {
			sub := join(label, k)
			matched := false
			if ps, ok := props[k]; ok {
				val[k] = w.value(val[k], ps, sub, depth+1)
				matched = true
			}
			for _, re := range slices.Sorted(maps.Keys(patterns)) {
				if rx, err := regexp.Compile(re); err == nil && rx.MatchString(k) {
					val[k] = w.value(val[k], patterns[re], sub, depth+1)
					matched = true
				}
			}
			if ap, ok := m["additionalProperties"].(map[string]any); ok && !matched {
				val[k] = w.value(val[k], ap, sub, depth+1)
			}
		}
	case []any:
		prefix, _ := m["prefixItems"].([]any)
		tuple, _ := m["items"].([]any) // draft 4 to 2019-09 spelling of prefixItems
		rest := m["items"]
		if tuple != nil {
			prefix, rest = tuple, m["additionalItems"]
		}
		for i := range val {
			sub := label + "[" + strconv.Itoa(i) + "]"
			switch {
			case i < len(prefix):
				val[i] = w.value(val[i], prefix[i], sub, depth+1)
			case rest != nil:
				val[i] = w.value(val[i], rest, sub, depth+1)
			}
		}
	}
	return v
}

// resolve returns s as an object schema, following local $refs ("#/$defs/n").
func (w *walker) resolve(s any) (map[string]any, bool) {
	for range maxDepth {
		m, ok := s.(map[string]any)
		if !ok {
			return nil, false
		}
		ref, ok := m["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			return m, true
		}
		// A $ref with siblings describes more than its target: only a
		// bare reference is followed.
		if len(m) > 1 {
			return m, true
		}
		s, ok = pointer(w.root, strings.TrimPrefix(ref, "#"))
		if !ok {
			return nil, false
		}
	}
	return nil, false
}

// pointer reads the JSON Pointer ptr (RFC 6901) in doc.
func pointer(doc any, ptr string) (any, bool) {
	if ptr == "" {
		return doc, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// StringForm reports whether param, the schema of one parameter as decoded
// JSON, declares the string form of a number as integer-accepts-string
// writes it: a oneOf or anyOf of exactly two branches, one whose type names
// integer or number but not string, the other {"type": "string",
// "pattern": …}. It returns whether the number is an integer and the
// pattern. A $ref is not followed.
func StringForm(param any) (integer bool, pattern string, ok bool) {
	m, isObject := param.(map[string]any)
	if !isObject {
		return false, "", false
	}
	f, ok := stringForm(m)
	return f.integer, f.source, ok
}

// form is a parameter's declaration of its string form.
type form struct {
	integer bool
	source  string
	// pattern is nil when the schema's pattern is not one Go's regexp
	// reads; such a parameter is left to the server's validation.
	pattern *regexp.Regexp
}

// stringForm is StringForm on an object schema.
func stringForm(s map[string]any) (form, bool) {
	for _, k := range []string{"oneOf", "anyOf"} {
		branches, ok := s[k].([]any)
		if !ok || len(branches) != 2 {
			continue
		}
		for i := range 2 {
			num, _ := branches[i].(map[string]any)
			str, _ := branches[1-i].(map[string]any)
			if num == nil || str == nil || str["type"] != "string" {
				continue
			}
			pattern, ok := str["pattern"].(string)
			if !ok {
				continue
			}
			types := schematype.Names(num)
			integer := slices.Contains(types, "integer") && !slices.Contains(types, "number")
			if slices.Contains(types, "string") || !integer && !slices.Contains(types, "number") {
				continue
			}
			rx, err := regexp.Compile(pattern)
			if err != nil {
				rx = nil
			}
			return form{integer: integer, source: pattern, pattern: rx}, true
		}
	}
	return form{}, false
}

func join(label, name string) string {
	if label == "" {
		return name
	}
	return label + "." + name
}
