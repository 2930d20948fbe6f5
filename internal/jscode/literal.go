package jscode

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// stringSafe holds the ASCII characters String writes as themselves: none
// of them ends, escapes or interpolates a double-quoted literal, or starts
// markup ("</script", "<!--") when the module is inlined in HTML.
var stringSafe = func() (set [128]bool) {
	for c := 0x20; c < 0x7f; c++ {
		set[c] = !strings.ContainsRune("\"\\<>&`", rune(c))
	}
	return set
}()

// String writes s as a double-quoted JavaScript string literal of
// printable ASCII. Invalid UTF-8 is written as U+FFFD, as a decoder reads
// it.
func String(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	writeStringBody(&b, s)
	b.WriteByte('"')
	return b.String()
}

func writeStringBody(b *strings.Builder, s string) {
	for _, r := range s {
		switch {
		case r == '#' && afterHash(b):
			writeUnit(b, r)
		case r < utf8.RuneSelf && stringSafe[r]:
			b.WriteRune(r)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r <= 0xffff:
			writeUnit(b, r)
		default:
			// A character outside the Basic Multilingual Plane is two
			// UTF-16 code units, each escaped.
			r -= 0x10000
			writeUnit(b, 0xd800+(r>>10))
			writeUnit(b, 0xdc00+(r&0x3ff))
		}
	}
}

// afterHash reports whether what b holds ends in "#": the "#" to write
// next is escaped, so that no "##" reaches the source, and with it no CI
// runner's command marker ("##[" of GitHub Actions and Azure Pipelines,
// "##vso["), which the runners read anywhere in a line of a log the module
// is printed in (see package guard).
func afterHash(b *strings.Builder) bool {
	return b.Len() > 0 && b.String()[b.Len()-1] == '#'
}

// writeUnit writes a UTF-16 code unit as \uXXXX.
func writeUnit(b *strings.Builder, u rune) {
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	b.WriteByte(hex[u>>12&0xf])
	b.WriteByte(hex[u>>8&0xf])
	b.WriteByte(hex[u>>4&0xf])
	b.WriteByte(hex[u&0xf])
}

// Comment is s as the text of a line comment: String's escapes without
// the quotes, so no line terminator ends the comment early and no
// invisible character hides in it.
func Comment(s string) string {
	var b strings.Builder
	writeStringBody(&b, s)
	return b.String()
}

// Number writes a number given in JSON syntax (a json.Number's text) as a
// JavaScript numeric literal, or reports false when n is not a JSON number:
// such text is never written. JSON's number grammar,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, spells JavaScript
// numeric literals (the minus sign being a unary operator there).
func Number(n string) (string, bool) {
	i := 0
	digits := func() int {
		start := i
		for i < len(n) && n[i] >= '0' && n[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(n) && n[i] == '-' {
		i++
	}
	switch {
	case i < len(n) && n[i] == '0':
		i++
	case digits() == 0:
		return "", false
	}
	if i < len(n) && n[i] == '.' {
		i++
		if digits() == 0 {
			return "", false
		}
	}
	if i < len(n) && (n[i] == 'e' || n[i] == 'E') {
		i++
		if i < len(n) && (n[i] == '+' || n[i] == '-') {
			i++
		}
		if digits() == 0 {
			return "", false
		}
	}
	if i != len(n) {
		return "", false
	}
	return n, true
}

// Key writes a property name of an object literal: bare when it is an
// ASCII identifier, a string literal otherwise. "__proto__" is a computed
// key, because as a plain key (quoted or not) it sets the object's
// prototype instead of defining a property.
func Key(k string) string {
	switch {
	case k == "__proto__":
		return `["__proto__"]`
	case IsIdentifier(k):
		return k
	}
	return String(k)
}

// IsIdentifier reports whether k is an ASCII JavaScript identifier name
// (reserved words included, which are valid property names).
func IsIdentifier(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		letter := c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && !(i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Value writes a decoded JSON value (nil, bool, string, json.Number,
// float64, []any, map[string]any) as a JavaScript expression that
// evaluates to it: literals, array literals, and object literals whose
// members are written in sorted order and whose keys are all strings
// (Key's computed form for "__proto__"). Values of other Go types are
// taken through their JSON encoding; one that has none, or a number JSON
// cannot hold, is written as null.
func Value(v any) string {
	var b strings.Builder
	writeValue(&b, v, 0)
	return b.String()
}

// maxValueDepth bounds the nesting Value follows; deeper values (which a
// manifest's own depth limit never lets through) are written as null.
const maxValueDepth = 10000

func writeValue(b *strings.Builder, v any, depth int) {
	if depth > maxValueDepth {
		b.WriteString("null")
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		b.WriteString(String(x))
	case json.Number:
		if n, ok := Number(string(x)); ok {
			b.WriteString(n)
		} else {
			b.WriteString("null")
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			b.WriteString("null")
			return
		}
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, e, depth+1)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b.WriteByte(',')
			}
			if k == "__proto__" {
				b.WriteString(Key(k))
			} else {
				b.WriteString(String(k))
			}
			b.WriteByte(':')
			writeValue(b, x[k], depth+1)
		}
		b.WriteByte('}')
	default:
		writeValue(b, decodeJSON(v), depth+1)
	}
}

// decodeJSON turns a Go value into its decoded JSON form, nil when it has
// none.
func decodeJSON(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return nil
	}
	switch out.(type) {
	case nil, bool, string, json.Number, []any, map[string]any:
		return out
	}
	return nil
}
