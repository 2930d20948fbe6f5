package convert

import (
	"bytes"
	"encoding/json"
	"fmt"

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

// writeString quotes s as JSON without escaping <, > and &, which
// encoding/json does by default for HTML.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}
