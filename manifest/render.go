package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// style is how a source spells what edits insert, learned from its bytes so
// inserted text reads as if the author had written it.
type style struct {
	pretty     bool   // values spread over lines
	unit       string // one level of indentation
	colonSpace bool   // `"k": v` rather than `"k":v`
	commaSpace bool   // `a, b` rather than `a,b` on one line
	newline    string // "\n", or "\r\n" in a source that ends its lines so
	// order holds the Order of the edit being written (behind a pointer,
	// so that styles still compare), and names says whether the value
	// being written is a map of names (see Edit.Order).
	order *editOrder
	names bool
}

type editOrder struct{ rank map[string]int }

// forEdit is st for writing e's value (see forValue).
func (st style) forEdit(e Edit) style { return st.forValue(e.Pointer, e.Order) }

// forValue is st for writing the value at ptr with the name order of an
// edit: a map of names when ptr ends at a keyword of schema.NameMaps.
func (st style) forValue(ptr string, order map[string]int) style {
	st.order, st.names = nil, false
	if order != nil {
		st.order = &editOrder{order}
		_, last := pointer.Parent(ptr)
		st.names = schema.NameMaps[last]
	}
	return st
}

// editsOrder is the first Order among edits that are written together.
func editsOrder(edits []Edit) map[string]int {
	for _, e := range edits {
		if e.Order != nil {
			return e.Order
		}
	}
	return nil
}

// keys orders the members of an object st writes.
func (st style) keys(x map[string]any) []string {
	if st.names && st.order != nil {
		return schema.SortedNames(x, st.order.rank)
	}
	return schema.SortedKeys(x)
}

// member is st for writing the value of member k of an object st writes:
// the value of a keyword of schema.NameMaps is a map of names, unless the
// object is one itself (a property may be called "properties").
func (st style) member(k string) style {
	st.names = st.order != nil && !st.names && schema.NameMaps[k]
	return st
}

func detectStyle(src []byte) style {
	st := style{unit: "  ", colonSpace: true, commaSpace: true, newline: "\n"}
	head := src
	if len(head) > 1<<16 {
		head = head[:1<<16]
	}
	st.pretty = spreadOverLines(head)
	if i := bytes.IndexByte(head, '\n'); i > 0 && head[i-1] == '\r' {
		st.newline = "\r\n"
	}
	// The indentation unit is the leading whitespace of the first indented line.
	for _, line := range bytes.Split(head, []byte("\n"))[1:] {
		ws := len(line) - len(bytes.TrimLeft(line, " \t"))
		if ws > 0 && ws < len(line) {
			st.unit = string(line[:ws])
			break
		}
	}
	withSpace := bytes.Count(head, []byte(`": `))
	without := bytes.Count(head, []byte(`":`)) - withSpace
	st.colonSpace = withSpace >= without
	if !st.pretty {
		// With no comma to learn from, follow the colons.
		st.commaSpace = bytes.Contains(head, []byte(`, `)) ||
			(!bytes.Contains(head, []byte(`,`)) && st.colonSpace)
	}
	return st
}

// spreadOverLines reports whether values are spread over lines: some line
// starts with indentation or with a member or a closing bracket. The lines of
// a newline-delimited stream each start a new document, so they do not count.
func spreadOverLines(src []byte) bool {
	for i := bytes.IndexByte(src, '\n'); i >= 0; {
		rest := src[i+1:]
		if len(rest) > 0 && rest[0] == '\r' {
			rest = rest[1:]
		}
		if len(rest) > 0 {
			switch rest[0] {
			case ' ', '\t', '"', '}', ']':
				return true
			}
		}
		j := bytes.IndexByte(rest, '\n')
		if j < 0 {
			return false
		}
		i = len(src) - len(rest) + j
	}
	return false
}

func quote(s string) string {
	b, err := jsontext.AppendQuote(nil, s)
	if err != nil {
		b, _ = json.Marshal(s)
	}
	return string(b)
}

func scalarText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return quote(x)
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%q", fmt.Sprint(v))
	}
	return string(b)
}

// renderJSON spells v as JSON text, on one line or spread over lines with
// indent as the indentation of the line it starts on.
func renderJSON(v any, indent string, multiline bool, st style) string {
	var b strings.Builder
	writeJSON(&b, v, indent, multiline, st)
	return b.String()
}

func writeJSON(b *strings.Builder, v any, indent string, multiline bool, st style) {
	colon, comma := ":", ","
	if st.colonSpace {
		colon = ": "
	}
	if st.commaSpace && !multiline {
		comma = ", "
	}
	inner := indent + st.unit
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range st.keys(x) {
			if i > 0 {
				b.WriteString(comma)
			}
			if multiline {
				b.WriteString(st.newline + inner)
			}
			b.WriteString(quote(k) + colon)
			writeJSON(b, x[k], inner, multiline, st.member(k))
		}
		if multiline {
			b.WriteString(st.newline + indent)
		}
		b.WriteByte('}')
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		// Arrays of scalars (required, enum, type) stay on one line, as
		// formatters such as Prettier leave short ones.
		ml := multiline && !allScalars(x)
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				if ml {
					b.WriteString(",")
				} else if st.commaSpace || multiline {
					b.WriteString(", ")
				} else {
					b.WriteString(",")
				}
			}
			if ml {
				b.WriteString(st.newline + inner)
			}
			writeJSON(b, e, inner, ml, st)
		}
		if ml {
			b.WriteString(st.newline + indent)
		}
		b.WriteByte(']')
	case []string:
		arr := make([]any, len(x))
		for i, s := range x {
			arr[i] = s
		}
		writeJSON(b, arr, indent, multiline, st)
	default:
		b.WriteString(scalarText(v))
	}
}

func allScalars(arr []any) bool {
	for _, e := range arr {
		switch e.(type) {
		case map[string]any, []any:
			return false
		}
	}
	return true
}
