package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// yamlWriter spells values that edits insert into a YAML source.
type yamlWriter struct {
	nl         string
	unit       int   // spaces per level of indentation
	indentless bool  // block sequences under a key at the key's column
	st         style // for the order of maps of names (style.keys)
}

// member is w for writing the value of member k of a mapping w writes.
func (w *yamlWriter) member(k string) *yamlWriter {
	c := *w
	c.st = w.st.member(k)
	return &c
}

func (y *yamlDoc) writer(st style) *yamlWriter {
	unit := 2
	if u := st.unit; len(u) > 0 && len(u) <= 8 && strings.Trim(u, " ") == "" {
		unit = len(u)
	}
	return &yamlWriter{nl: y.nl, unit: unit, indentless: y.indentless, st: st}
}

func spaces(n int) string { return strings.Repeat(" ", n) }

// normalizeValue turns what a rule may pass as a value into the decoded
// JSON types (map[string]any, []any, string, json.Number, bool, nil).
func normalizeValue(v any) any {
	switch x := v.(type) {
	case nil, bool, string, json.Number:
		return v
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalizeValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeValue(e)
		}
		return out
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return fmt.Sprint(v)
	}
	return out
}

// isBlock says whether v is written in block style: non-empty mappings, and
// sequences unless they are short ones of scalars.
func (w *yamlWriter) isBlock(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return len(x) > 0
	case []any:
		return len(x) > 0 && (!allScalars(x) || len(w.flow(x)) > 72)
	}
	return false
}

// flow spells v on one line in flow style.
func (w *yamlWriter) flow(v any) string {
	switch x := v.(type) {
	case map[string]any:
		parts := make([]string, 0, len(x))
		for _, k := range w.st.keys(x) {
			parts = append(parts, w.member(k).flowMember(k, x[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = w.flow(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return yamlString(x)
	}
	return scalarText(v)
}

// block spells v in block style, its first line going where the text is
// inserted, at column col, and the others indented to col.
func (w *yamlWriter) block(v any, col int) string {
	var b strings.Builder
	switch x := v.(type) {
	case map[string]any:
		for i, k := range w.st.keys(x) {
			if i > 0 {
				b.WriteString(w.nl + spaces(col))
			}
			b.WriteString(w.member(k).blockMember(k, x[k], col))
		}
	case []any:
		for i, e := range x {
			if i > 0 {
				b.WriteString(w.nl + spaces(col))
			}
			b.WriteString("- " + w.element(e, col+2))
		}
	default:
		b.WriteString(w.flow(v))
	}
	return b.String()
}

// maxImplicitKey is the longest key written before its colon: YAML takes
// such an implicit key only on one line and up to 1,024 characters (YAML
// 1.2.2, 7.4.2 "Flow Mappings": "the key is restricted to a single line
// ... and is limited to 1024 Unicode characters"); a longer one is an
// explicit key, "? key" (kept below the limit with room to spare).
const maxImplicitKey = 1000

func longKey(key string) bool { return utf8.RuneCountInString(key) > maxImplicitKey }

// blockMember spells a member of a block mapping whose key is at column
// col: "key: value", or "? key" and ": value" on the next line.
func (w *yamlWriter) blockMember(k string, v any, col int) string {
	key := yamlString(k)
	if longKey(key) {
		return "? " + key + w.nl + spaces(col) + ":" + w.memberValue(v, col)
	}
	return key + ":" + w.memberValue(v, col)
}

// flowMember spells a member of a flow mapping.
func (w *yamlWriter) flowMember(k string, v any) string {
	key := yamlString(k)
	if longKey(key) {
		key = "? " + key
	}
	return key + ": " + w.flow(v)
}

// memberValue spells what follows "key:" for a member whose key is at
// column keyCol.
func (w *yamlWriter) memberValue(v any, keyCol int) string {
	if !w.isBlock(v) {
		return " " + w.flow(v)
	}
	col := keyCol + w.unit
	if _, ok := v.([]any); ok && w.indentless {
		col = keyCol
	}
	return w.nl + spaces(col) + w.block(v, col)
}

// element spells what follows "- " at column col.
func (w *yamlWriter) element(v any, col int) string {
	if w.isBlock(v) {
		return w.block(v, col)
	}
	return w.flow(v)
}

// yaml11Words are plain scalars that YAML 1.1 parsers (PyYAML, older
// libraries) read as booleans.
var yaml11Words = map[string]bool{"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true}

// yamlString spells a string as a plain scalar when every parser reads that
// back as the same string, and double-quoted otherwise.
func yamlString(s string) string {
	if plainSafe(s) {
		return s
	}
	return yamlQuote(s)
}

func plainSafe(s string) bool {
	if s == "" || s != strings.TrimSpace(s) || s == "<<" || s == "=" {
		return false
	}
	if v, err := resolvePlain(s); err != nil || v != any(s) {
		return false
	}
	if yaml11Words[strings.ToLower(s)] {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	// Indicators, and what could read as a number, date or time somewhere.
	if strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`.+~", first) || unicode.IsDigit(first) {
		return false
	}
	if strings.Contains(s, " #") || strings.ContainsAny(s, ":,[]{}") {
		return false
	}
	for _, r := range s {
		if r != ' ' && !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// yamlQuote spells s as a double-quoted scalar, escaping what YAML does not
// allow printed (https://yaml.org/spec/1.2.2/#57-escaped-characters).
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r == utf8.RuneError || (r != ' ' && !unicode.IsPrint(r)) {
				if r > 0xFFFF {
					fmt.Fprintf(&b, `\U%08X`, r)
				} else {
					fmt.Fprintf(&b, `\u%04X`, r)
				}
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
