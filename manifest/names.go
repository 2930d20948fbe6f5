package manifest

import (
	"bytes"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/internal/jsonscan"
	"github.com/mcpfit/mcplint/pointer"
)

// Decoded objects forget the order of their members, but the order of a
// schema's properties is the order a model reads them in, and authors
// choose it (the required ones first, the most important first). NameOrder
// recovers it from the source, for writers that build new maps of names
// (convert's documents, a fix that rebuilds a schema) to list them as the
// author did (schema.SortedNames).

// NameOrder maps each member name of the tool's decoded value v to the
// offset where the source first spells it.
func (t *Tool) NameOrder(v any) map[string]int {
	order := map[string]int{}
	start, end, ok := t.Span("")
	if !ok {
		return order
	}
	if t.M.Format == JSON {
		return jsonNameOffsets(t.M.Src[start:end], start, order)
	}
	// YAML keeps an index of its nodes, so locating each name is cheap.
	var walk func(v any, ptr string, depth int)
	walk = func(v any, ptr string, depth int) {
		if depth > maxNameDepth {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for name, c := range x {
				cp := ptr + "/" + pointer.Escape(name)
				if pos := t.Locate(cp); pos.Line > 0 {
					if old, seen := order[name]; !seen || pos.Offset < old {
						order[name] = pos.Offset
					}
				}
				walk(c, cp, depth+1)
			}
		case []any:
			for i, c := range x {
				walk(c, ptr+"/"+strconv.Itoa(i), depth+1)
			}
		}
	}
	walk(v, "", 0)
	return order
}

// maxNameDepth bounds the walk of NameOrder: the loader's own depth limit
// is lower, so it never cuts a value that loaded.
const maxNameDepth = 10000

// jsonNameOffsets adds to order each object member name of the JSON value
// src (validated by the loader, at offset base in its source) with the
// offset just past its first occurrence. In valid JSON a name is the one
// string followed by ':', and nothing outside strings holds a quote, so
// finding the quotes finds the names: a tokenizer took several times as
// long, a sixth of converting.
func jsonNameOffsets(src []byte, base int, order map[string]int) map[string]int {
	for off := 0; ; {
		q := bytes.IndexByte(src[off:], '"')
		if q < 0 {
			return order
		}
		start := off + q
		end, escaped := jsonscan.StringEnd(src, start)
		if end < 0 {
			return order // not reached in valid JSON
		}
		off = end
		for off < len(src) && (src[off] == ' ' || src[off] == '\t' || src[off] == '\n' || src[off] == '\r') {
			off++
		}
		if off >= len(src) || src[off] != ':' {
			continue
		}
		raw := src[start:end]
		if !escaped {
			if _, seen := order[string(raw[1:len(raw)-1])]; !seen {
				order[string(raw[1:len(raw)-1])] = base + end
			}
			continue
		}
		name, err := jsontext.AppendUnquote(nil, raw)
		if err != nil {
			continue
		}
		if _, seen := order[string(name)]; !seen {
			order[string(name)] = base + end
		}
	}
}
