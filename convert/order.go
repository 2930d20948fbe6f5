package convert

import (
	"bytes"
	"maps"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcpfit/mcplint/internal/jsonscan"
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/pointer"
	"github.com/mcpfit/mcplint/schema"
)

// Decoded objects forget the order of their members, but the order of a
// schema's properties is the order a model reads them in, and authors
// choose it (the required ones first, the most important first). So
// FromManifest records where each member name first appears in the source,
// and the writers list the members of name maps ("properties", "$defs", …)
// in that order; keywords follow the order people write them
// (schema.SortedKeys).

// nameMaps are the keywords whose values are maps from names the author
// chose to schemas.
var nameMaps = map[string]bool{
	"properties": true, "patternProperties": true, "$defs": true,
	"definitions": true, "dependentSchemas": true, "dependentRequired": true,
}

// memberOrder maps each member name of the tool to the offset where it
// first appears in the source.
func memberOrder(mt *manifest.Tool, v map[string]any) map[string]int {
	order := map[string]int{}
	start, end, ok := mt.Span("")
	if !ok {
		return order
	}
	if mt.M.Format == manifest.JSON {
		return jsonNameOffsets(mt.M.Src[start:end], start, order)
	}
	// YAML keeps an index of its nodes, so locating each name is cheap.
	for _, member := range []string{"inputSchema", "outputSchema"} {
		schema.Walk(v[member], "/"+member, func(n *schema.Node) bool {
			s, ptr := n.Value, n.Pointer()
			for k, m := range s {
				names, ok := m.(map[string]any)
				if !ok || !nameMaps[k] {
					continue
				}
				for name := range names {
					pos := mt.Locate(ptr + "/" + pointer.Escape(k) + "/" + pointer.Escape(name))
					if old, seen := order[name]; !seen || pos.Offset < old {
						order[name] = pos.Offset
					}
				}
			}
			return true
		})
	}
	return order
}

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

// inOrder is a schema to write with its tool's member order.
type inOrder struct {
	v     any
	order map[string]int
}

// withOrder wraps a tool's schema for encode.
func (t Tool) withOrder(v any) inOrder { return inOrder{v, t.Order} }

// sortNames orders the names of a name map: by where the source first
// spells them, then the others sorted.
func sortNames(m map[string]any, order map[string]int) []string {
	keys := slices.Sorted(maps.Keys(m))
	slices.SortStableFunc(keys, func(a, b string) int {
		oa, okA := order[a]
		ob, okB := order[b]
		switch {
		case okA && okB:
			return oa - ob
		case okA:
			return -1
		case okB:
			return 1
		}
		return 0
	})
	return keys
}
