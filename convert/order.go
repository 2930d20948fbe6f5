package convert

import (
	"bytes"
	"maps"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcplint/mcplint/manifest"
	"github.com/mcplint/mcplint/pointer"
	"github.com/mcplint/mcplint/schema"
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
		// Read in place (a bytes.Buffer is not copied), without the checks
		// the loader made on these bytes.
		b := mt.M.Src[start:end:end]
		dec := jsontext.NewDecoder(bytes.NewBuffer(b), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
		for {
			tok, err := dec.ReadToken()
			if err != nil {
				break
			}
			if tok.Kind() != '"' {
				continue
			}
			if kind, n := dec.StackIndex(dec.StackDepth()); kind == '{' && n%2 == 1 {
				name := tok.String()
				if _, seen := order[name]; !seen {
					order[name] = start + int(dec.InputOffset())
				}
			}
		}
		return order
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
