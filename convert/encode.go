package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/guard"
	"github.com/mcpfit/mcplint/internal/par"
	"github.com/mcpfit/mcplint/schema"
)

// object is a JSON object whose members keep the order they are listed in,
// so that documents read name, description, then schema.
type object []member

type member struct {
	key   string
	value any
}

// add appends a member; omitting empty strings keeps optional members out.
func (o object) add(key string, v any) object {
	return append(o, member{key, v})
}

// encode writes v as indented JSON ending in a newline. Schemas (plain
// maps) list their keywords in the order people write them
// (schema.SortedKeys), so output is stable and reads naturally. The
// document passes guard.JSON: a converted tool list is printed, and read
// in terminals and CI logs, so what they would act on is spelled as JSON
// escapes of the same values.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encodeValue(&b, v, 0, false, nil); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return guard.JSON(b.Bytes()), nil
}

// encodeValue writes v at depth levels of indentation; names says v is a
// map of names to schemas (the value of "properties" and the like), order
// is the member order of the tool being written (see inOrder).
func encodeValue(b *bytes.Buffer, v any, depth int, names bool, order map[string]int) error {
	switch x := v.(type) {
	case inOrder:
		return encodeValue(b, x.v, depth, false, x.order)
	case object:
		if len(x) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteByte('{')
		for i, m := range x {
			if err := encodeMember(b, i, m.key, m.value, depth, names, order); err != nil {
				return err
			}
		}
		closeLine(b, depth, '}')
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return nil
		}
		keys := schema.SortedKeys(x)
		if names {
			keys = sortNames(x, order)
		}
		b.WriteByte('{')
		for i, k := range keys {
			if err := encodeMember(b, i, k, x[k], depth, names, order); err != nil {
				return err
			}
		}
		closeLine(b, depth, '}')
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return nil
		}
		if len(x) >= parallelItems {
			return encodeItems(b, x, depth, order)
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			newLine(b, depth+1)
			if err := encodeValue(b, e, depth+1, false, order); err != nil {
				return err
			}
		}
		closeLine(b, depth, ']')
	case []object:
		list := make([]any, len(x))
		for i, o := range x {
			list[i] = o
		}
		return encodeValue(b, list, depth, false, order)
	case string:
		writeString(b, x)
	case json.Number:
		// Numbers keep their spelling, which the loader checked; a caller
		// of the library may hand any text.
		if v := jsontext.Value(x); v.Kind() != '0' || !v.IsValid() {
			return fmt.Errorf("%q is not a JSON number", string(x))
		}
		b.WriteString(string(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case nil:
		b.WriteString("null")
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		out, err := json.Marshal(x)
		if err != nil {
			return err
		}
		b.Write(out)
	default:
		return fmt.Errorf("cannot write a %T as JSON", v)
	}
	return nil
}

// encodeMember writes the member i of an object at depth, after the "{"
// or the member before it.
func encodeMember(b *bytes.Buffer, i int, key string, v any, depth int, names bool, order map[string]int) error {
	if i > 0 {
		b.WriteByte(',')
	}
	newLine(b, depth+1)
	writeString(b, key)
	b.WriteString(": ")
	return encodeValue(b, v, depth+1, !names && nameMaps[key], order)
}

// indentation is the start of every line of the output, two spaces a
// level: a slice of it is written rather than a string built per value.
var indentation = "\n" + strings.Repeat(" ", 2*64)

// newLine ends a line and indents the next one to depth.
func newLine(b *bytes.Buffer, depth int) {
	n := 2 * depth
	if n < len(indentation) {
		b.WriteString(indentation[:1+n])
		return
	}
	b.WriteString(indentation)
	b.WriteString(strings.Repeat(" ", n-(len(indentation)-1)))
}

// closeLine ends a container with delim on a line of its own at depth.
func closeLine(b *bytes.Buffer, depth int, delim byte) {
	newLine(b, depth)
	b.WriteByte(delim)
}

// parallelItems is the length from which a list's items are written side
// by side (encodeItems): the list of a document's tools.
const parallelItems = 256

// encodeItems writes a long list as encodeValue does, its items encoded on
// every CPU (par.ForEach) into buffers of their own and joined in order:
// writing ten thousand tools' schemas took a fifth of a conversion, on one
// core. The items go a window at a time, so that the document is not held
// twice.
func encodeItems(b *bytes.Buffer, items []any, depth int, order map[string]int) error {
	window := min(len(items), parallelItems)
	bufs := make([]bytes.Buffer, window)
	errs := make([]error, window)
	b.WriteByte('[')
	for start := 0; start < len(items); start += window {
		part := items[start:min(start+window, len(items))]
		par.ForEach(len(part), func(i int) {
			bufs[i].Reset()
			errs[i] = encodeValue(&bufs[i], part[i], depth+1, false, order)
		})
		if err := par.FirstError(errs[:len(part)]); err != nil {
			return err
		}
		written := 0
		for i := range part {
			if start+i > 0 {
				b.WriteByte(',')
			}
			newLine(b, depth+1)
			b.Write(bufs[i].Bytes())
			written += bufs[i].Len()
		}
		if start == 0 && len(part) < len(items) {
			// Room for the rest, at the first window's size per item and
			// an eighth more: doubling a buffer of tens of megabytes to
			// fit zeroed and copied it again and again, on one core.
			rest := len(items) - len(part)
			b.Grow(written / len(part) * rest * 9 / 8)
		}
	}
	closeLine(b, depth, ']')
	return nil
}

// writeString quotes s as JSON without escaping <, > and &, which
// encoding/json does by default for HTML.
func writeString(b *bytes.Buffer, s string) {
	if plainASCII(s) {
		// Nearly every string: nothing to escape, and an encoder per
		// string was most of the time spent writing.
		b.WriteByte('"')
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}

// plainASCII reports whether s is printable ASCII without '"' or '\\',
// which encoding/json writes as it is.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
