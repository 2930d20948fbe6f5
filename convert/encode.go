package convert

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mcplint/mcplint/internal/par"
	"github.com/mcplint/mcplint/schema"
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
// (schema.SortedKeys), so output is stable and reads naturally.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encodeValue(&b, v, "", false, nil); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// encodeValue writes v; names says v is a map of names to schemas (the
// value of "properties" and the like), order is the member order of the
// tool being written (see inOrder).
func encodeValue(b *bytes.Buffer, v any, indent string, names bool, order map[string]int) error {
	inner := indent + "  "
	switch x := v.(type) {
	case inOrder:
		return encodeValue(b, x.v, indent, false, x.order)
	case object:
		if len(x) == 0 {
			b.WriteString("{}")
			return nil
		}
		b.WriteString("{\n")
		for i, m := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			writeString(b, m.key)
			b.WriteString(": ")
			if err := encodeValue(b, m.value, inner, !names && nameMaps[m.key], order); err != nil {
				return err
			}
		}
		b.WriteString("\n" + indent + "}")
	case map[string]any:
		keys := schema.SortedKeys(x)
		if names {
			keys = sortNames(x, order)
		}
		o := make(object, 0, len(x))
		for _, k := range keys {
			o = o.add(k, x[k])
		}
		return encodeValue(b, o, indent, names, order)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return nil
		}
		if len(x) >= parallelItems {
			return encodeItems(b, x, indent, order)
		}
		b.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			if err := encodeValue(b, e, inner, false, order); err != nil {
				return err
			}
		}
		b.WriteString("\n" + indent + "]")
	case []object:
		list := make([]any, len(x))
		for i, o := range x {
			list[i] = o
		}
		return encodeValue(b, list, indent, false, order)
	case string:
		writeString(b, x)
	case json.Number:
		// Numbers keep their spelling; the loader checked it is JSON.
		b.WriteString(string(x))
	case bool, nil, int, float64:
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

// parallelItems is the length from which a list's items are written side
// by side (encodeItems): the list of a document's tools.
const parallelItems = 256

// encodeItems writes a long list as encodeValue does, its items encoded on
// every CPU (par.ForEach) into buffers of their own and joined in order:
// writing ten thousand tools' schemas took a fifth of a conversion, on one
// core. The items go a window at a time, so that the document is not held
// twice.
func encodeItems(b *bytes.Buffer, items []any, indent string, order map[string]int) error {
	inner := indent + "  "
	window := min(len(items), parallelItems)
	bufs := make([]bytes.Buffer, window)
	errs := make([]error, window)
	b.WriteString("[\n")
	for start := 0; start < len(items); start += window {
		part := items[start:min(start+window, len(items))]
		par.ForEach(len(part), func(i int) {
			bufs[i].Reset()
			errs[i] = encodeValue(&bufs[i], part[i], inner, false, order)
		})
		if err := par.FirstError(errs[:len(part)]); err != nil {
			return err
		}
		written := 0
		for i := range part {
			if start+i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
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
	b.WriteString("\n" + indent + "]")
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
