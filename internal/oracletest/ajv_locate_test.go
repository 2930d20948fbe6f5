package oracletest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpfit/mcplint/lint"
	"github.com/mcpfit/mcplint/pointer"
)

// reportedAt says whether a finding of the tool concerns one of the places
// (pointers relative to member) Ajv's error points at: at it, above it or
// below it.
func reportedAt(diags []lint.Diagnostic, tool int, member string, places []string) bool {
	for _, d := range diags {
		if d.ToolIndex != tool {
			continue
		}
		for _, p := range places {
			if related(d.RelPointer, member+p) {
				return true
			}
		}
	}
	return false
}

// related says whether one pointer is the other or lies within it.
func related(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+"/") || strings.HasPrefix(b, a+"/")
}

var (
	ajvKeyword    = regexp.MustCompile(`unknown keyword: "([^"]*)"`)
	ajvFormat     = regexp.MustCompile(`unknown format "([^"]*)"`)
	ajvRef        = regexp.MustCompile(`can't resolve reference (\S+) from id`)
	ajvInvalidAt  = regexp.MustCompile(`data((?:/[^ ,]*)?) must`)
	ajvNullable   = `"nullable" cannot be used without "type"`
	ajvUnknownRef = "no schema with key or ref"
)

// locateAjvError finds where in schema an Ajv error is: Ajv's compile errors
// name a keyword, a format, a reference or a meta-schema path, not always a
// place. Without a clue the whole schema is the place.
func locateAjvError(schema any, msg string) []string {
	var match func(m map[string]any) bool
	switch {
	case ajvKeyword.MatchString(msg):
		k := ajvKeyword.FindStringSubmatch(msg)[1]
		match = func(m map[string]any) bool { _, ok := m[k]; return ok }
	case ajvFormat.MatchString(msg):
		f := ajvFormat.FindStringSubmatch(msg)[1]
		match = func(m map[string]any) bool { return m["format"] == f }
	case ajvRef.MatchString(msg):
		r := ajvRef.FindStringSubmatch(msg)[1]
		match = func(m map[string]any) bool { return m["$ref"] == r }
	case strings.Contains(msg, ajvNullable):
		match = func(m map[string]any) bool { _, n := m["nullable"]; _, t := m["type"]; return n && !t }
	case strings.Contains(msg, "schema is invalid") && ajvInvalidAt.MatchString(msg):
		var out []string
		for _, sub := range ajvInvalidAt.FindAllStringSubmatch(msg, -1) {
			out = append(out, sub[1])
		}
		return out
	case strings.Contains(msg, ajvUnknownRef):
		return []string{"/$schema", "/$ref"}
	default:
		return []string{""}
	}
	var out []string
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch x := v.(type) {
		case map[string]any:
			if match(x) {
				out = append(out, ptr)
			}
			for k, e := range x {
				walk(e, ptr+"/"+pointer.Escape(k))
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s/%d", ptr, i))
			}
		}
	}
	walk(decodeSchema(schema), "")
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

// decodeSchema turns a request's schema (a decoded value or raw JSON) into
// a decoded value.
func decodeSchema(v any) any {
	raw, ok := v.(json.RawMessage)
	if !ok {
		return v
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil
	}
	return out
}

// TestLocateAjvError pins how Ajv's errors are placed, which decides what
// mcplint finding answers them.
func TestLocateAjvError(t *testing.T) {
	schema := json.RawMessage(`{"type": "object", "properties": {
		"a": {"type": "string", "foo": 1},
		"b": {"nullable": true},
		"c": {"type": "string", "format": "uuid4"},
		"d": {"$ref": "#/$defs/missing"}}}`)
	for _, c := range []struct{ msg, want string }{
		{`strict mode: unknown keyword: "foo"`, "/properties/a"},
		{`"nullable" cannot be used without "type"`, "/properties/b"},
		{`unknown format "uuid4" ignored in schema at path "#/properties/c"`, "/properties/c"},
		{`can't resolve reference #/$defs/missing from id #`, "/properties/d"},
		{`schema is invalid: data/properties/a/type must be equal to one of the allowed values, data/properties/a/type must be array`, "/properties/a/type /properties/a/type"},
		{`no schema with key or ref "https://example.com/dialect"`, "/$schema /$ref"},
		{`Maximum call stack size exceeded`, ""},
	} {
		if got := strings.Join(locateAjvError(schema, c.msg), " "); got != c.want {
			t.Errorf("%s: placed at %q, want %q", c.msg, got, c.want)
		}
	}
}
