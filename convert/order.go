package convert

import (
	"github.com/mcpfit/mcplint/manifest"
	"github.com/mcpfit/mcplint/schema"
)

// Decoded objects forget the order of their members, but the order of a
// schema's properties is the order a model reads them in, and authors
// choose it. So FromManifest records where each member name first appears
// in the source (manifest's Tool.NameOrder), and the writers list the
// members of name maps ("properties", "$defs", …) in that order
// (schema.SortedNames); keywords follow the order people write them
// (schema.SortedKeys).

// nameMaps are the keywords whose values are maps from names the author
// chose to schemas.
var nameMaps = schema.NameMaps

// memberOrder maps each member name of the tool to the offset where it
// first appears in the source.
func memberOrder(mt *manifest.Tool, v map[string]any) map[string]int {
	return mt.NameOrder(v)
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
	return schema.SortedNames(m, order)
}
